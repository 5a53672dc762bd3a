//! Who may do what: the scopes an API key carries and the merchant it acts for. The HTTP
//! layer builds a [`Principal`] from the request; the services check it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What an API key may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum Scope {
    /// Create charges and read them.
    #[serde(rename = "payments:create")]
    PaymentsCreate,
    /// Read charges only.
    #[serde(rename = "payments:read")]
    PaymentsRead,
    /// Every webhook-endpoint operation.
    #[serde(rename = "webhooks:manage")]
    WebhooksManage,
}

impl Scope {
    pub const ALL: [Scope; 3] = [
        Scope::PaymentsCreate,
        Scope::PaymentsRead,
        Scope::WebhooksManage,
    ];
    /// What a new key gets when the administrator names no scopes (the contract's default).
    pub const DEFAULT: [Scope; 2] = [Scope::PaymentsCreate, Scope::WebhooksManage];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::PaymentsCreate => "payments:create",
            Scope::PaymentsRead => "payments:read",
            Scope::WebhooksManage => "webhooks:manage",
        }
    }

    /// The space-separated form stored with a key.
    pub fn join(scopes: &[Scope]) -> String {
        scopes
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads the stored form; unknown words (from a newer version) are ignored.
    pub fn parse_list(stored: &str) -> Vec<Scope> {
        stored
            .split_whitespace()
            .filter_map(|s| s.parse().ok())
            .collect()
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.as_str() == s)
            .ok_or_else(|| format!("unknown scope `{s}`"))
    }
}

/// The merchant an API key acts for, with its scopes and store grants.
#[derive(Debug, Clone)]
pub struct Principal {
    pub merchant_id: String,
    pub merchant_code: String,
    pub scopes: Vec<Scope>,
    pub store_ids: Vec<String>,
}

/// The key lacks every scope the operation accepts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("this API key lacks the scope {}", .0.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" or "))]
pub struct MissingScope(pub Vec<Scope>);

impl Principal {
    /// Passes when the key has at least one of `scopes`.
    pub fn require_any(&self, scopes: &[Scope]) -> Result<(), MissingScope> {
        if scopes.iter().any(|s| self.scopes.contains(s)) {
            Ok(())
        } else {
            Err(MissingScope(scopes.to_vec()))
        }
    }

    pub fn granted(&self, store_id: &str) -> bool {
        self.store_ids.iter().any(|s| s == store_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_through_their_stored_form() {
        let stored = Scope::join(&Scope::DEFAULT);
        assert_eq!(stored, "payments:create webhooks:manage");
        assert_eq!(Scope::parse_list(&stored), Scope::DEFAULT.to_vec());
        assert_eq!(
            Scope::parse_list("payments:read future:scope"),
            vec![Scope::PaymentsRead]
        );
    }

    #[test]
    fn a_principal_needs_one_of_the_scopes() {
        let p = Principal {
            merchant_id: "m".into(),
            merchant_code: "m".into(),
            scopes: vec![Scope::PaymentsRead],
            store_ids: vec![],
        };
        assert!(
            p.require_any(&[Scope::PaymentsCreate, Scope::PaymentsRead])
                .is_ok()
        );
        let err = p.require_any(&[Scope::WebhooksManage]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "this API key lacks the scope webhooks:manage"
        );
    }
}
