//! The routing logic of pixgate's bundled policy components, as plain Rust.
//!
//! The three guest crates under `policies/guests/` wrap [`policy::decide`],
//! [`provider::rank`] and [`economics::evaluate`] in WebAssembly components; the host's
//! benchmark calls the same functions natively to measure what the sandbox costs. The
//! records in [`model`] mirror `wit/chain.wit`; the `bridge_*` macros convert them to and
//! from the generated bindings on either side.
#![forbid(unsafe_code)]
// Plain `core` + `alloc`: the logic needs nothing of std, which keeps it usable by a guest
// built without std.
#![cfg_attr(not(test), no_std)]

extern crate alloc;

mod bridge;
pub mod calendar;
mod config;
pub mod economics;
mod model;
pub mod policy;
pub mod provider;

pub use config::release_days;
pub use model::*;

#[cfg(test)]
mod testing {
    use crate::*;

    pub fn charge(amount: u64) -> Charge {
        Charge {
            amount_centavos: amount,
            currency: "BRL".into(),
            reference: "order-1".into(),
            payer_kind: PayerKind::Cpf,
            metadata_json: "{}".into(),
            created_at_ms: 1_795_000_000_000,
            kind: ChargeKind::Immediate,
        }
    }

    pub fn store(config: &[(&str, &str)]) -> StoreContext {
        StoreContext {
            code: "store-1".into(),
            merchant: "merchant-1".into(),
            mode: StoreMode::Shadow,
            config: config
                .iter()
                .map(|(k, v)| ConfigEntry {
                    key: k.to_string(),
                    value: v.to_string(),
                })
                .collect(),
        }
    }

    pub fn gateway(alias: &str, class: &str, mdr_bps: u32, latency: u32) -> Gateway {
        Gateway {
            provider_code: format!("{alias}-psp"),
            gateway_alias: alias.into(),
            release_class: class.into(),
            fee_terms: FeeTerms {
                mdr_bps,
                fixed_centavos: 0,
                min_fee_centavos: 0,
                max_fee_centavos: None,
            },
            health: GatewayHealth {
                available: true,
                success_rate_bps: 10_000,
                latency_p50_ms: latency,
                samples: 0,
            },
        }
    }
}
