//! The roles of the admin API's operators (DESIGN.md section 13), as the host checks them and
//! stores them (`operators.role`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What an operator may do on the admin API, each role including the one before
/// (`viewer < tester < operator < admin`); the host's `http::auth::required_role` says
/// which route needs which.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Reads everything except secrets.
    Viewer,
    /// Also dry runs (evaluate, replays) and shadow candidates.
    Tester,
    /// Also components, activation, rollback, kill switch, stores, gateways, resolutions and
    /// webhook resends.
    Operator,
    /// Also merchants, API keys, providers and operators.
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Viewer, Role::Tester, Role::Operator, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Tester => "tester",
            Role::Operator => "operator",
            Role::Admin => "admin",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Role::ALL
            .into_iter()
            .find(|role| role.as_str() == s)
            .ok_or_else(|| format!("unknown role `{s}`: viewer, tester, operator or admin"))
    }
}
