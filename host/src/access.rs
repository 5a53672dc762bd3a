//! Who may do what: the scopes an API key carries and the merchant it acts for, and the
//! operators of the admin API with their roles. [`Access`] turns a presented API key into a
//! [`Principal`] (the services check its scopes and store grants) and an admin token into an
//! [`Actor`] (the admin middleware checks its [`Role`]; the services write it into the audit
//! trail). It also manages the operators and reads the audit trail.

use std::fmt;
use std::str::FromStr;

use std::sync::{Arc, LazyLock};

use governor::DefaultKeyedRateLimiter;
use governor::clock::{Clock, DefaultClock};
use pixgate_domain::json::Invalid;
use pixgate_pix::time::iso8601;
use regex::Regex;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::crypto;
use crate::db::audit::{self, Action, Change};
use crate::db::key_cache::KeyCache;
use crate::db::{Db, DbError, keys, operators, violated_constraint};

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
}

impl Scope {
    pub const ALL: [Scope; 4] = [
        Scope::PaymentsCreate,
        Scope::PaymentsRead,
        Scope::WebhooksManage,
        Scope::PaymentsRefund,
    ];
    /// What a new key gets when the administrator names no scopes (the contract's default).
    pub const DEFAULT: [Scope; 2] = [Scope::PaymentsCreate, Scope::WebhooksManage];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::PaymentsCreate => "payments:create",
            Scope::PaymentsRead => "payments:read",
            Scope::WebhooksManage => "webhooks:manage",
            Scope::PaymentsRefund => "payments:refund",
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
            role: operator.role()?,
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

/// An operator's name as the document states it ([`CreateOperator`] repeats it as a literal):
/// a character [`refused_in_a_name`] nowhere, and a space character neither first nor last.
/// Astral ranges are written as the characters themselves (JSON Schema's, Python's and Rust's
/// regular expressions agree on those, not on an escape for them). A test holds it to the rule
/// character by character.
pub const OPERATOR_NAME_PATTERN: &str = "^[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u1680\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u2064\\u2066-\\u206F\\u3000\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}](?:[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]*[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u1680\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u2064\\u2066-\\u206F\\u3000\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}])?$";

/// The longest operator name, in characters.
pub const OPERATOR_NAME_MAX_CHARS: usize = 120;

/// Whether `c` may not appear in an operator's name: not printable, or printable as nothing
/// (control, format such as zero-width and bidirectional marks, private use, line and
/// paragraph separators). Unassigned code points are not refused: their set changes with each
/// Unicode version, and the document's pattern could not state it.
fn refused_in_a_name(c: char) -> bool {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    matches!(
        c.general_category(),
        G::Control
            | G::Format
            | G::PrivateUse
            | G::Surrogate
            | G::LineSeparator
            | G::ParagraphSeparator
    )
}

/// Whether `c` may not start or end an operator's name: a refused character or a space.
fn refused_at_an_end(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    refused_in_a_name(c) || c.general_category() == GeneralCategory::SpaceSeparator
}

/// Names no operator may take, as [`name_key`] writes them: the bootstrap token's and the
/// roles', which the audit trail would show as if they had acted.
const RESERVED_NAMES: [&str; 9] = [
    "admin",
    "administrator",
    "root",
    "system",
    "pixgate",
    "kill switch",
    "viewer",
    "tester",
    "operator",
];

/// Words no operator name may contain (in [`name_key`]'s form): "Bootstrap admin token (2)"
/// is still the bootstrap token to a reader of the trail.
const RESERVED_WORDS: [&str; 2] = ["bootstrap", "admin token"];

/// The form two operator names are compared in: compatibility forms folded (NFKC: a
/// full-width `Ａ` is `A`), lower case, runs of spaces as one space. Unique among the
/// operators not revoked (migration 0014's `name_key`).
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let folded: String = name.nfkc().collect::<String>().to_lowercase();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The name of a new operator, or why it is refused (`invalid_name`, the message says why).
pub fn check_operator_name(name: &str) -> Result<String, Invalid> {
    let invalid = |why: String| Invalid::new("invalid_name", "name", why);
    let chars = name.chars().count();
    if !(1..=OPERATOR_NAME_MAX_CHARS).contains(&chars) {
        return Err(invalid(format!(
            "`name` must have 1 to {OPERATOR_NAME_MAX_CHARS} characters"
        )));
    }
    if let Some((at, c)) = name
        .chars()
        .enumerate()
        .find(|(_, c)| refused_in_a_name(*c))
    {
        return Err(invalid(format!(
            "`name` must hold printable characters only: U+{:04X} at position {} is a control, \
             format (zero-width, bidirectional), private-use or line-separator character",
            u32::from(c),
            at + 1
        )));
    }
    let first = name.chars().next().is_some_and(refused_at_an_end);
    let last = name.chars().next_back().is_some_and(refused_at_an_end);
    if first || last {
        return Err(invalid(
            "`name` must not start or end with a space".to_owned(),
        ));
    }
    let key = name_key(name);
    if RESERVED_NAMES.contains(&key.as_str()) || RESERVED_WORDS.iter().any(|w| key.contains(w)) {
        return Err(invalid(format!(
            "`name` is reserved: `{key}` could be read as the bootstrap admin token or a role \
             (`bootstrap`, `admin token`, `admin` and the role names are not operator names)"
        )));
    }
    Ok(name.to_owned())
}

// Body of `POST /operators`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateOperator {
    /// Who holds the token: 1 to 120 printable characters, with no control or format
    /// character (zero-width, bidirectional), no private-use, line or paragraph separator
    /// character, and no space first or last. Unique among the operators not revoked,
    /// compared regardless of case, compatibility forms (NFKC) and runs of spaces; never a
    /// reserved name (`bootstrap`, `admin token`, `admin`, a role's name and the like).
    #[schema(
        min_length = 1,
        max_length = 120,
        example = "Ana (payment ops)",
        pattern = "^[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u1680\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u2064\\u2066-\\u206F\\u3000\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}](?:[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]*[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u1680\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u2064\\u2066-\\u206F\\u3000\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}])?$"
    )]
    pub name: String,
    pub role: Role,
}

// An operator as the admin API shows it: the token only when it is issued.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperatorView {
    #[schema(format = Uuid)]
    pub id: String,
    pub name: String,
    pub role: Role,
    /// The visible, non-secret part of the token.
    pub prefix: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub revoked_at: Option<String>,
    /// The bearer token: shown in the creation response only (its SHA-256 is stored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

impl OperatorView {
    fn of(o: operators::Operator, token: Option<String>) -> Result<Self, OperatorError> {
        Ok(Self {
            role: o.role()?,
            id: o.id,
            name: o.name,
            prefix: o.prefix,
            created_at: iso8601(o.created_at),
            revoked_at: o.revoked_at.map(iso8601),
            token,
        })
    }
}

// The caller of `GET /operators/me`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Me {
    /// An operator's id, or `bootstrap` for the bootstrap admin token.
    pub id: String,
    pub name: String,
    pub role: Role,
}

impl From<&Actor> for Me {
    fn from(actor: &Actor) -> Self {
        Self {
            id: actor.id.clone(),
            name: actor.name.clone(),
            role: actor.role,
        }
    }
}

// Who acted, in an audit event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditOperator {
    /// An operator's id, or `bootstrap`.
    pub id: String,
    /// The name the operator had when they acted.
    pub name: String,
}

// One admin write.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEvent {
    #[schema(format = Uuid)]
    pub event_id: String,
    #[schema(format = DateTime)]
    pub at: String,
    pub operator: AuditOperator,
    pub action: Action,
    /// `kind/id`: `store/demo`, `component/policy/<version>`, `api-key/<keyId>`, ...
    pub target: String,
    /// The resource before the change (absent for a creation); never a secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The resource after the change (absent for a deletion); never a secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
}

impl AuditEvent {
    fn of(e: audit::Event) -> Result<Self, OperatorError> {
        let json = |raw: Option<String>| -> Result<Option<serde_json::Value>, OperatorError> {
            raw.map(|raw| serde_json::from_str(&raw))
                .transpose()
                .map_err(|err| DbError::Corrupt(format!("audit event {}: {err}", e.id)).into())
        };
        Ok(Self {
            action: audit::Action::parse(&e.action).ok_or_else(|| {
                DbError::Corrupt(format!("audit event {}: action {}", e.id, e.action))
            })?,
            before: json(e.before_json)?,
            after: json(e.after_json)?,
            event_id: e.id,
            at: iso8601(e.at),
            operator: AuditOperator {
                id: e.operator_id,
                name: e.operator_name,
            },
            target: e.target,
        })
    }
}

/// The query string of `GET /audit-events`, each value as sent (`None`: absent).
#[derive(Debug, Clone, Default)]
pub struct AuditQuery {
    pub limit: Option<String>,
    pub after: Option<String>,
    pub operator: Option<String>,
    pub action: Option<String>,
    pub target: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
}

/// An operator's id as the `operator` filter takes it: `bootstrap` or a canonical UUID. The
/// document states it as a literal; a test holds the two together.
pub const OPERATOR_ID_PATTERN: &str =
    "^(bootstrap|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$";

static OPERATOR_ID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(OPERATOR_ID_PATTERN).expect("OPERATOR_ID_PATTERN"));

/// What the operator and audit routes refuse, and why.
#[derive(Debug, thiserror::Error)]
pub enum OperatorError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error("operator not found")]
    NotFound,
    #[error(
        "an operator with this name exists, compared regardless of case and spacing (revoke \
         it first, or choose another name)"
    )]
    NameTaken,
    #[error("`after` is not an audit event")]
    EventNotFound,
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Crypto(#[from] crypto::CryptoError),
}

impl From<sqlx::Error> for OperatorError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(DbError::Sqlx(e))
    }
}

/// The unique indexes on operators' names: as sent (migration 0010) and as compared
/// ([`name_key`], migration 0014).
const NAME_TAKEN: &str = "operators_name_key";
const NAME_KEY_TAKEN: &str = "operators_name_key_key";

/// `after` of a page: a UUID, in its canonical form.
fn after_id(raw: &str, message: &str) -> Result<String, Invalid> {
    uuid::Uuid::parse_str(raw)
        .map(|u| u.to_string())
        .map_err(|_| Invalid::new("invalid_after", "after", message))
}

impl Access {
    /// Issues an operator token; the token is in the answer only.
    #[tracing::instrument(skip_all, fields(operator = tracing::field::Empty))]
    pub async fn create_operator(
        &self,
        actor: &Actor,
        req: CreateOperator,
    ) -> Result<OperatorView, OperatorError> {
        let name = check_operator_name(&req.name)?;
        let name_key = name_key(&name);
        let prefix = hex::encode(crypto::random_bytes::<6>()?);
        let token = format!(
            "{OPERATOR_TOKEN_PREFIX}{prefix}_{}",
            crypto::random_token()?
        );
        let operator = operators::Operator {
            id: uuid::Uuid::now_v7().to_string(),
            name,
            role: req.role.as_str().to_owned(),
            prefix,
            created_at: crate::db::now_ms(),
            revoked_at: None,
        };
        tracing::Span::current().record("operator", operator.id.as_str());
        let view = OperatorView::of(operator.clone(), None)?;
        let mut tx = self.db.write.begin().await?;
        operators::insert(
            &mut *tx,
            &operator,
            &name_key,
            &pixgate_domain::sha256_hex(&token),
        )
        .await
        .map_err(|e| match violated_constraint(&e).as_deref() {
            Some(NAME_TAKEN | NAME_KEY_TAKEN) => OperatorError::NameTaken,
            _ => e.into(),
        })?;
        let change =
            Change::new(Action::OperatorCreate, format!("operator/{}", operator.id)).after(&view);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        Ok(OperatorView {
            token: Some(token),
            ..view
        })
    }

    /// Gives every operator without one its [`name_key`] (the rows from before migration 0014),
    /// oldest first; run at start. A row whose key an older operator not revoked already has
    /// (a case twin created before names were compared that way) keeps none: it still works,
    /// and is logged at every start until one of the two is revoked. Idempotent, and safe
    /// with instances starting at once (the unique index decides).
    pub async fn key_operator_names(&self) -> Result<(), OperatorError> {
        for (id, name) in operators::without_name_key(&self.db.write).await? {
            match operators::set_name_key(&self.db.write, &id, &name_key(&name)).await {
                Ok(()) => {}
                Err(e) if violated_constraint(&e).as_deref() == Some(NAME_KEY_TAKEN) => {
                    tracing::warn!(operator = %id, %name,
                        "an older operator not revoked has this name regardless of case: \
                         revoke one of the two");
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// A page of operators, oldest first, revoked ones included; never their tokens.
    pub async fn list_operators(
        &self,
        limit: Option<&str>,
        after: Option<&str>,
    ) -> Result<Vec<OperatorView>, OperatorError> {
        let limit = crate::search::limit(limit)?;
        let after = match after {
            Some(raw) => {
                let id = after_id(raw, "`after` must be an operator's id")?;
                let last = operators::by_id(&self.db.read, &id)
                    .await?
                    .ok_or(OperatorError::NotFound)?;
                Some((last.created_at, last.id))
            }
            None => None,
        };
        let page = operators::page(
            &self.db.read,
            after.as_ref().map(|(at, id)| (*at, id.as_str())),
            limit,
        )
        .await?;
        page.into_iter()
            .map(|o| OperatorView::of(o, None))
            .collect()
    }

    /// Revokes an operator: its next request is refused, on every instance (tokens are looked
    /// up per request). Revoking a revoked operator answers the same.
    #[tracing::instrument(skip_all, fields(operator = %id))]
    pub async fn revoke_operator(
        &self,
        actor: &Actor,
        id: &str,
    ) -> Result<OperatorView, OperatorError> {
        let mut tx = self.db.write.begin().await?;
        let before = operators::by_id(&mut *tx, id)
            .await?
            .ok_or(OperatorError::NotFound)?;
        operators::revoke(&mut *tx, id, crate::db::now_ms()).await?;
        let after = operators::by_id(&mut *tx, id)
            .await?
            .ok_or(OperatorError::NotFound)?;
        let (before, after) = (
            OperatorView::of(before, None)?,
            OperatorView::of(after, None)?,
        );
        let change = Change::new(Action::OperatorRevoke, format!("operator/{id}"))
            .before(&before)
            .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        Ok(after)
    }

    /// A page of the audit trail, newest first, narrowed by the query's filters.
    pub async fn audit_events(&self, q: &AuditQuery) -> Result<Vec<AuditEvent>, OperatorError> {
        let limit = crate::search::limit(q.limit.as_deref())?;
        let after = q
            .after
            .as_deref()
            .map(|raw| after_id(raw, "`after` must be an audit event's `eventId`"))
            .transpose()?;
        let operator = q
            .operator
            .as_deref()
            .map(|raw| {
                if OPERATOR_ID.is_match(raw) {
                    Ok(raw.to_owned())
                } else {
                    Err(Invalid::new(
                        "invalid_operator",
                        "operator",
                        "`operator` must be an operator's id or `bootstrap`",
                    ))
                }
            })
            .transpose()?;
        let action = q
            .action
            .as_deref()
            .map(|raw| {
                audit::Action::parse(raw).ok_or_else(|| {
                    Invalid::new(
                        "invalid_action",
                        "action",
                        "`action` must be one of the audit actions (`store.update`, ...)",
                    )
                })
            })
            .transpose()?;
        let target = q
            .target
            .as_deref()
            .map(|raw| pixgate_domain::json::bounded(raw, "target", "invalid_target", 1, 200))
            .transpose()?;
        let since = q
            .since
            .as_deref()
            .map(|raw| crate::search::date_time(raw, "since", "invalid_since"))
            .transpose()?;
        let until = q
            .until
            .as_deref()
            .map(|raw| crate::search::date_time(raw, "until", "invalid_until"))
            .transpose()?;
        let after = match after {
            Some(id) => {
                let last = audit::by_id(&self.db.read, &id)
                    .await?
                    .ok_or(OperatorError::EventNotFound)?;
                Some((last.at, last.id))
            }
            None => None,
        };
        let filter = audit::Filter {
            operator,
            action,
            target,
            since,
            until,
        };
        let page = audit::page(
            &self.db.read,
            &filter,
            after.as_ref().map(|(at, id)| (*at, id.as_str())),
            limit,
        )
        .await?;
        page.into_iter().map(AuditEvent::of).collect()
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
    fn the_operator_filter_pattern_is_bootstrap_or_a_canonical_uuid() {
        let id = uuid::Uuid::now_v7().to_string();
        assert!(OPERATOR_ID.is_match(&id) && OPERATOR_ID.is_match("bootstrap"));
        for bad in [
            id.to_uppercase(),
            id.replace('-', ""),
            "boot".into(),
            String::new(),
        ] {
            assert!(!OPERATOR_ID.is_match(&bad), "{bad}");
        }
    }

    #[test]
    fn the_operator_name_pattern_refuses_exactly_what_the_rule_refuses() {
        let pattern = Regex::new(OPERATOR_NAME_PATTERN).unwrap();
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let alone = c.to_string();
            assert_eq!(
                pattern.is_match(&alone),
                !refused_at_an_end(c),
                "U+{:04X} alone",
                u32::from(c)
            );
            assert_eq!(
                pattern.is_match(&format!("a{c}b")),
                !refused_in_a_name(c),
                "U+{:04X} inside",
                u32::from(c)
            );
        }
        for (name, ok) in [
            ("Ana Silva", true),
            ("A", true),
            ("Ana ", false),
            ("", false),
        ] {
            assert_eq!(pattern.is_match(name), ok, "{name:?}");
            assert_eq!(check_operator_name(name).is_ok(), ok, "{name:?}");
        }
    }

    #[test]
    fn names_are_compared_regardless_of_case_compatibility_forms_and_spacing() {
        assert_eq!(name_key("Ana  SILVA"), "ana silva");
        assert_eq!(name_key("\u{FF21}na\u{A0}Silva"), "ana silva");
        assert_eq!(name_key("ÉLodie"), name_key("élodie"));
        assert_ne!(name_key("Ana Silva"), name_key("Ana Silvia"));
    }

    #[test]
    fn reserved_names_are_refused_in_any_case_and_spacing() {
        for name in [
            "bootstrap",
            "BOOTSTRAP",
            "bootstrap admin token",
            "Bootstrap   Admin Token",
            "the bootstrap",
            "admin token",
            "Admin",
            "operator",
        ] {
            let why = check_operator_name(name).unwrap_err();
            assert_eq!(why.code, "invalid_name");
            assert!(why.message.contains("reserved"), "{name}: {}", why.message);
        }
        assert_eq!(check_operator_name("Admina"), Ok("Admina".to_owned()));
        assert!(check_operator_name(&Actor::bootstrap().name).is_err());
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
