//! The bundled economics/release step: MDR plus fixed fee, settlement in business days
//! (see `pixgate_policy_logic::economics`).
//!
//! `no_std`, built for `wasm32-unknown-unknown` and turned into a component by sandbox/build.rs:
//! it imports nothing but `host-log` (see `../../runtime.rs`).
#![no_std]

extern crate alloc;

#[path = "../../runtime.rs"]
mod runtime;

wit_bindgen::generate!({ path: "../../../wit", world: "economics-step" });

use alloc::vec::Vec;
use exports::pixgate::chain::economics::{EconomicsInput, Guest};
use pixgate::chain::types::{CandidateEconomics, StepError};

pixgate_policy_logic::bridge_types!(pixgate::chain::types);
pixgate_policy_logic::bridge_economics!(exports::pixgate::chain::economics);

struct Step;

impl Guest for Step {
    fn evaluate(input: EconomicsInput) -> Result<Vec<CandidateEconomics>, StepError> {
        pixgate_policy_logic::economics::evaluate(&input.into())
            .map(|v| v.into_iter().map(Into::into).collect())
            .map_err(Into::into)
    }
}

export!(Step);
