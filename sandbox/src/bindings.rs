//! Host bindings of `wit/chain.wit` (chain 1.1.0): one `bindgen!` per step world, sharing the
//! `types` and `host-log` interfaces so a record is one Rust type whichever step it crosses.
//! [`v1_0`] binds the same worlds of `wit/1.0.0/chain.wit`, for components built before 1.1.0.

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

/// `pixgate:chain@1.0.0`, frozen: its charge has no kind and its provider input no pinned
/// gateway. The conversions drop both on the way in; the worlds in `lib.rs` put them back.
pub mod v1_0 {
    wasmtime::component::bindgen!({
        path: "../wit/1.0.0",
        world: "policy-step",
        imports: { default: trappable },
    });

    pixgate_policy_logic::bridge_types_1_0!(pixgate::chain::types);
    pixgate_policy_logic::bridge_policy!(exports::pixgate::chain::policy);

    pub mod provider {
        wasmtime::component::bindgen!({
            path: "../wit/1.0.0",
            world: "provider-step",
            imports: { default: trappable },
            with: {
                "pixgate:chain/types": super::pixgate::chain::types,
                "pixgate:chain/host-log": super::pixgate::chain::host_log,
            },
        });

        pixgate_policy_logic::bridge_provider_1_0!(exports::pixgate::chain::provider_selection);
    }

    pub mod economics {
        wasmtime::component::bindgen!({
            path: "../wit/1.0.0",
            world: "economics-step",
            imports: { default: trappable },
            with: {
                "pixgate:chain/types": super::pixgate::chain::types,
                "pixgate:chain/host-log": super::pixgate::chain::host_log,
            },
        });

        pixgate_policy_logic::bridge_economics!(exports::pixgate::chain::economics);
    }
}
