//! The chain's three decision steps, by the names the APIs, the CLI and the database use, and
//! a version chosen per step.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The three decision steps of the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    Policy,
    Provider,
    Economics,
}

impl Step {
    pub const ALL: [Step; 3] = [Step::Policy, Step::Provider, Step::Economics];

    /// The step before this one in the chain.
    pub fn previous(self) -> Option<Step> {
        match self {
            Step::Policy => None,
            Step::Provider => Some(Step::Policy),
            Step::Economics => Some(Step::Provider),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Step::Policy => "policy",
            Step::Provider => "provider",
            Step::Economics => "economics",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Step {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "policy" => Ok(Step::Policy),
            "provider" => Ok(Step::Provider),
            "economics" => Ok(Step::Economics),
            other => Err(format!(
                "unknown step `{other}`; expected policy, provider or economics"
            )),
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
