//! The bundled policy step: `d0-first` or `lowest-cost` (see `pixgate_policy_logic::policy`).

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
