//! The bundled policy step: `d0-first` or `lowest-cost` (see `pixgate_policy_logic::policy`).
//!
//! `no_std`, built for `wasm32-unknown-unknown` and turned into a component by sandbox/build.rs:
//! it imports nothing but `host-log` (see `../../runtime.rs`).
#![no_std]

extern crate alloc;

#[path = "../../runtime.rs"]
mod runtime;

wit_bindgen::generate!({ path: "../../../wit", world: "policy-step" });

use exports::pixgate::chain::policy::{Guest, PolicyInput};
use pixgate::chain::types::{PolicyDecision, StepError};

pixgate_policy_logic::bridge_types!(pixgate::chain::types);
pixgate_policy_logic::bridge_policy!(exports::pixgate::chain::policy);

struct Step;

impl Guest for Step {
    fn decide(input: PolicyInput) -> Result<PolicyDecision, StepError> {
        pixgate_policy_logic::policy::decide(&input.into())
            .map(Into::into)
            .map_err(Into::into)
    }
}

export!(Step);
