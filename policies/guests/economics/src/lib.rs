//! The bundled economics/release step: MDR plus fixed fee, settlement in business days
//! (see `pixgate_policy_logic::economics`).

wit_bindgen::generate!({ path: "../../../wit", world: "economics-step" });

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
