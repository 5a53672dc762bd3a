//! What one run of the chain decided for one charge: the sandbox's chain produces it, the
//! admin API serves it (evaluate, replay, shadow) and the CLI reads it back.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Step;

/// What one run of the chain decided for one charge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum Outcome {
    /// A route was found; these are its primary gateway and economics.
    #[serde(rename_all = "camelCase")]
    Resolved {
        policy: String,
        provider_code: String,
        gateway_alias: String,
        release_class: String,
        fee_centavos: u64,
        net_centavos: u64,
        settlement_date: String,
    },
    /// A step refused the charge (a business rule), or no gateway was acceptable.
    #[serde(rename_all = "camelCase")]
    Refused {
        step: Step,
        code: String,
        message: String,
    },
    /// A step failed in the sandbox (trap, fuel, memory, invalid output, ...).
    #[serde(rename_all = "camelCase")]
    Failed {
        step: Step,
        code: String,
        message: String,
    },
}

impl Outcome {
    /// The provider this outcome routes to; refusals and failures count as `(none)`.
    pub fn provider_key(&self) -> &str {
        match self {
            Outcome::Resolved { provider_code, .. } => provider_code,
            _ => NO_PROVIDER,
        }
    }

    /// How a candidate's money differs from this outcome's: `(fee, net)` of `other` minus
    /// this one's, in centavos, when both resolved (replay and shadow sum these).
    pub fn money_delta(&self, other: &Outcome) -> Option<(i64, i64)> {
        match (self, other) {
            (
                Outcome::Resolved {
                    fee_centavos: f1,
                    net_centavos: n1,
                    ..
                },
                Outcome::Resolved {
                    fee_centavos: f2,
                    net_centavos: n2,
                    ..
                },
            ) => Some((*f2 as i64 - *f1 as i64, *n2 as i64 - *n1 as i64)),
            _ => None,
        }
    }
}

/// The provider key of an outcome that routes nowhere.
pub const NO_PROVIDER: &str = "(none)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_read_back_as_written() {
        let resolved = Outcome::Resolved {
            policy: "d0-first".into(),
            provider_code: "sandbox-a".into(),
            gateway_alias: "sandbox-a-d0".into(),
            release_class: "D0".into(),
            fee_centavos: 5,
            net_centavos: 995,
            settlement_date: "2026-11-23".into(),
        };
        let json = serde_json::to_value(&resolved).unwrap();
        assert_eq!(json["status"], "resolved");
        assert_eq!(json["gatewayAlias"], "sandbox-a-d0");
        let back: Outcome = serde_json::from_value(json).unwrap();
        assert_eq!(back, resolved);
        let failed = serde_json::to_value(Outcome::Failed {
            step: Step::Provider,
            code: "fuel_exhausted".into(),
            message: "m".into(),
        })
        .unwrap();
        assert_eq!(failed["step"], "provider");
        assert_eq!(failed["status"], "failed");
    }
}
