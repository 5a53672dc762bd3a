//! The bundled provider-selection step: health, then cost (see `pixgate_policy_logic::provider`).
//!
//! `no_std`, built for `wasm32-unknown-unknown` and turned into a component by sandbox/build.rs:
//! it imports nothing but `host-log` (see `../../runtime.rs`).
#![no_std]

extern crate alloc;

#[path = "../../runtime.rs"]
mod runtime;

wit_bindgen::generate!({ path: "../../../wit", world: "provider-step" });

use exports::pixgate::chain::provider_selection::{Guest, ProviderInput};
use pixgate::chain::types::{ProviderDecision, StepError};

pixgate_policy_logic::bridge_types!(pixgate::chain::types);
pixgate_policy_logic::bridge_provider!(exports::pixgate::chain::provider_selection);

struct Step;

impl Guest for Step {
    fn rank(input: ProviderInput) -> Result<ProviderDecision, StepError> {
        pixgate_policy_logic::provider::rank(&input.into())
            .map(Into::into)
            .map_err(Into::into)
    }
}

export!(Step);
