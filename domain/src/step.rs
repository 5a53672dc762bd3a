//! The chain's three decision steps, by the names the APIs, the CLI and the database use, and
//! a version chosen per step.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::text_enum;

text_enum!(
    /// The three decision steps of the chain.
    Step {
        Policy = "policy",
        Provider = "provider",
        Economics = "economics",
    }
);

impl Step {
    /// The step before this one in the chain.
    pub fn previous(self) -> Option<Step> {
        match self {
            Step::Policy => None,
            Step::Provider => Some(Step::Policy),
            Step::Economics => Some(Step::Provider),
        }
    }
}

/// A version per step, each optional: `bundled` or a version's sha256.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StepVersions {
    #[schema(pattern = "^(bundled|[0-9a-f]{64})$")]
    pub policy: Option<String>,
    #[schema(pattern = "^(bundled|[0-9a-f]{64})$")]
    pub provider: Option<String>,
    #[schema(pattern = "^(bundled|[0-9a-f]{64})$")]
    pub economics: Option<String>,
}

impl StepVersions {
    /// The steps that name a version.
    pub fn to_map(&self) -> BTreeMap<Step, String> {
        [
            (Step::Policy, &self.policy),
            (Step::Provider, &self.provider),
            (Step::Economics, &self.economics),
        ]
        .into_iter()
        .filter_map(|(step, v)| Some((step, v.clone()?)))
        .collect()
    }
}
