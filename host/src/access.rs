//! Who may do what: the scopes an API key carries and the merchant it acts for, and the
//! operators of the admin API with their roles. [`Access`] turns a presented API key into a
//! [`Principal`] (the services check its scopes and store grants) and an admin token into an
//! [`Actor`] (the admin middleware checks its [`Role`]; the services write it into the audit
//! trail). Issuing and revoking operators, and reading the audit trail, is
//! [`crate::operators`]'s.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use governor::DefaultKeyedRateLimiter;
use governor::clock::{Clock, DefaultClock};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::crypto;
use crate::db::key_cache::KeyCache;
use crate::db::{Db, DbError, keys, operators};

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
    /// Refunds: money leaving the merchant's account. Never in [`Scope::DEFAULT`]: an
    /// administrator names it at key creation, so a key leaked from a checkout page (which
    /// only charges) cannot give the merchant's money away.
    #[serde(rename = "payments:refund")]
    PaymentsRefund,
    /// Pix Automático mandates: the payer's standing authorisation to be charged every
    /// cycle. Never in [`Scope::DEFAULT`], like refunds: an administrator names it.
    #[serde(rename = "mandates:manage")]
    MandatesManage,
}

impl Scope {
    pub const ALL: [Scope; 5] = [
        Scope::PaymentsCreate,
        Scope::PaymentsRead,
        Scope::WebhooksManage,
        Scope::PaymentsRefund,
        Scope::MandatesManage,
    ];
    /// What a new key gets when the administrator names no scopes (the contract's default).
    pub const DEFAULT: [Scope; 2] = [Scope::PaymentsCreate, Scope::WebhooksManage];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::PaymentsCreate => "payments:create",
            Scope::PaymentsRead => "payments:read",
            Scope::WebhooksManage => "webhooks:manage",
            Scope::PaymentsRefund => "payments:refund",
            Scope::MandatesManage => "mandates:manage",
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

/// Why a caller was turned away.
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    #[error("the API key is not valid")]
    InvalidKey,
    #[error("the API key has been revoked")]
    Revoked,
    #[error("rate limit exceeded; retry after {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    #[error("the admin token is not valid")]
    InvalidAdminToken,
    #[error("the operator token has been revoked")]
    RevokedAdminToken,
    #[error(transparent)]
    Db(#[from] DbError),
}

/// The access service: merchant API keys (with their cache and rate limit) and the admin
/// token. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct Access {
    db: Db,
    /// Authenticated API keys (SQLite only; cleared by a revocation).
    keys: Arc<KeyCache>,
    /// SHA-256 (hex) of the admin token.
    admin_token_hash: Arc<str>,
    rate_limiter: Option<Arc<DefaultKeyedRateLimiter<String>>>,
}

impl fmt::Debug for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Access").finish_non_exhaustive()
    }
}

impl Access {
    pub fn new(
        db: Db,
        keys: Arc<KeyCache>,
        admin_token_hash: String,
        rate_limiter: Option<DefaultKeyedRateLimiter<String>>,
    ) -> Self {
        Self {
            db,
            keys,
            admin_token_hash: admin_token_hash.into(),
            rate_limiter: rate_limiter.map(Arc::new),
        }
    }

    /// The merchant a presented API key acts for, within the key's rate limit.
    pub async fn merchant(&self, token: &str) -> Result<Principal, AccessError> {
        if !token.starts_with("pxg_") || token.len() > 128 {
            return Err(AccessError::InvalidKey);
        }
        let found = self
            .keys
            .authenticate(&self.db, &pixgate_domain::sha256_hex(token))
            .await
            .map_err(DbError::Sqlx)?
            .ok_or(AccessError::InvalidKey)?;
        let keys::Authenticated {
            key,
            merchant_code,
            store_ids,
        } = &*found;
        if key.revoked_at.is_some() {
            return Err(AccessError::Revoked);
        }
        if let Some(limiter) = &self.rate_limiter
            && let Err(not_until) = limiter.check_key(&key.id)
        {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(AccessError::RateLimited {
                retry_after_secs: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
            });
        }
        Ok(Principal {
            merchant_id: key.merchant_id.clone(),
            merchant_code: merchant_code.clone(),
            scopes: Scope::parse_list(&key.scopes),
            store_ids: store_ids.clone(),
        })
    }

    /// The operator a presented admin token belongs to: the bootstrap token (compared in
    /// constant time) or an operator's token, looked up on every request so a revocation on
    /// any instance holds from its commit on.
    pub async fn admin(&self, token: &str) -> Result<Actor, AccessError> {
        let hash = pixgate_domain::sha256_hex(token);
        if crypto::same_secret(&hash, &self.admin_token_hash) {
            return Ok(Actor::bootstrap());
        }
        if !token.starts_with(OPERATOR_TOKEN_PREFIX) || token.len() > 128 {
            return Err(AccessError::InvalidAdminToken);
        }
        let operator = operators::by_token_hash(&self.db.read, &hash)
            .await
            .map_err(DbError::Sqlx)?
            .ok_or(AccessError::InvalidAdminToken)?;
        if operator.revoked_at.is_some() {
            return Err(AccessError::RevokedAdminToken);
        }
        Ok(Actor {
            role: operator.role,
            id: operator.id,
            name: operator.name,
        })
    }
}

pub use pixgate_domain::Role;

/// The visible start of every operator token (`pgo_<12 hex>_<43 random characters>`): tells
/// it apart from merchant keys (`pxg_`) and the bootstrap token (`pxa_`) in a leak report.
pub const OPERATOR_TOKEN_PREFIX: &str = "pgo_";

/// Who is acting on the admin API: handed by the admin middleware to the handlers (request
/// extensions), and by them to the services, which record it in the audit trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub name: String,
    pub role: Role,
}

impl crate::db::audit::Author for Actor {
    fn id(&self) -> &str {
        &self.id
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Actor {
    /// The bootstrap admin token (`PIXGATE_ADMIN_TOKEN` or the data dir's): an `admin` with
    /// no row in `operators`. Its id is not a UUID, so it can never be an operator's.
    pub fn bootstrap() -> Self {
        Self {
            id: "bootstrap".into(),
            name: "bootstrap admin token".into(),
            role: Role::Admin,
        }
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
    fn each_role_includes_the_ones_before() {
        assert!(Role::Viewer < Role::Tester && Role::Tester < Role::Operator);
        assert!(Role::Operator < Role::Admin);
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
            assert_eq!(serde_json::to_value(role).unwrap(), role.as_str());
        }
        assert!("Admin".parse::<Role>().is_err());
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
