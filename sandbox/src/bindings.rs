//! Host bindings of `wit/chain.wit`: one `bindgen!` per step world, sharing the `types` and
//! `host-log` interfaces so a record is one Rust type whichever step it crosses.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "policy-step",
    imports: { default: trappable },
});

pixgate_policy_logic::bridge_types!(pixgate::chain::types);
pixgate_policy_logic::bridge_policy!(exports::pixgate::chain::policy);

pub mod provider {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "provider-step",
        imports: { default: trappable },
        with: {
            "pixgate:chain/types": super::pixgate::chain::types,
            "pixgate:chain/host-log": super::pixgate::chain::host_log,
        },
    });

    pixgate_policy_logic::bridge_provider!(exports::pixgate::chain::provider_selection);
}

pub mod economics {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "economics-step",
        imports: { default: trappable },
        with: {
            "pixgate:chain/types": super::pixgate::chain::types,
            "pixgate:chain/host-log": super::pixgate::chain::host_log,
        },
    });

    pixgate_policy_logic::bridge_economics!(exports::pixgate::chain::economics);
}
