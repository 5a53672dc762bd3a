//! The operators of the admin API (named tokens with a role) and the audit trail of what
//! they changed (DESIGN.md section 13). [`Operators`] issues, lists and revokes operators and
//! reads the audit trail; presenting a token is [`crate::access`]'s.

mod audit;
mod names;

pub use audit::{AuditEvent, AuditQuery, OPERATOR_ID_PATTERN};
pub use names::OPERATOR_NAME_PATTERN;

use pixgate_domain::json::Invalid;
use pixgate_pix::time::iso8601;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::access::{Actor, OPERATOR_TOKEN_PREFIX, Role};
use crate::crypto;
use crate::db::audit::{self as audit_sql, Action, Change};
use crate::db::{Db, DbError, operators, violated_constraint};
use names::{check_operator_name, name_key};

/// The operator service: what the `/operators` and `/audit-events` routes call. Built once by
/// the composition root; cheap to clone.
#[derive(Debug, Clone)]
pub struct Operators {
    db: Db,
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
    fn of(o: operators::Operator, token: Option<String>) -> Self {
        Self {
            role: o.role,
            id: o.id,
            name: o.name,
            prefix: o.prefix,
            created_at: iso8601(o.created_at),
            revoked_at: o.revoked_at.map(iso8601),
            token,
        }
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

impl Operators {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

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
            role: req.role,
            prefix,
            created_at: crate::db::now_ms(),
            revoked_at: None,
        };
        tracing::Span::current().record("operator", operator.id.as_str());
        let view = OperatorView::of(operator.clone(), None);
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
        audit_sql::append(&mut *tx, actor, &change).await?;
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
        Ok(page
            .into_iter()
            .map(|o| OperatorView::of(o, None))
            .collect())
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
            OperatorView::of(before, None),
            OperatorView::of(after, None),
        );
        let change = Change::new(Action::OperatorRevoke, format!("operator/{id}"))
            .before(&before)
            .after(&after);
        audit_sql::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        Ok(after)
    }
}
