//! Refunds (DESIGN.md section 11) and what they reserve of their payment.

use sqlx::{Any, AssertSqlSafe, Executor};

use super::Flag;

/// Where a refund is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RefundStatus {
    /// Asked at the PSP, not settled yet.
    Pending,
    /// The money went back to the payer (`DEVOLVIDO`).
    Succeeded,
    /// It did not happen (`NAO_REALIZADO`, or refused at once).
    Failed,
}

impl RefundStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "PENDING",
            Self::Succeeded => "SUCCEEDED",
            Self::Failed => "FAILED",
        }
    }
}

impl TryFrom<String> for RefundStatus {
    type Error = String;

    fn try_from(value: String) -> Result<Self, String> {
        [Self::Pending, Self::Succeeded, Self::Failed]
            .into_iter()
            .find(|s| s.as_str() == value)
            .ok_or_else(|| format!("refund status column holds `{value}`"))
    }
}

/// Who asked for a refund.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The merchant, through `POST /payments/{id}/refunds`.
    Merchant,
    /// An admin resolving a charge paid with the wrong amount.
    Admin,
    /// The PSP on its own (the MED), seen in a callback or a read.
    Psp,
}

impl Origin {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Merchant => "merchant",
            Self::Admin => "admin",
            Self::Psp => "psp",
        }
    }
}

impl TryFrom<String> for Origin {
    type Error = String;

    fn try_from(value: String) -> Result<Self, String> {
        [Self::Merchant, Self::Admin, Self::Psp]
            .into_iter()
            .find(|s| s.as_str() == value)
            .ok_or_else(|| format!("refund origin column holds `{value}`"))
    }
}

#[derive(Debug, Clone)]
pub struct Refund {
    pub id: String,
    pub merchant_id: String,
    pub payment_intent_id: String,
    pub status: RefundStatus,
    pub amount_centavos: i64,
    pub currency: String,
    pub reason: Option<String>,
    pub metadata: String,
    pub origin: Origin,
    pub idempotency_key: Option<String>,
    pub request_hash: Option<String>,
    pub response_body: Option<String>,
    pub natureza: String,
    pub provider_code: String,
    pub e2eid: String,
    pub devolucao_id: String,
    pub rtr_id: Option<String>,
    pub failure_code: Option<String>,
    pub failure_message: Option<String>,
    pub psp_attempted: Flag,
    pub lease_until: Option<i64>,
    pub reconcile_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
}

crate::db::from_row!(Refund {
    id,
    merchant_id,
    payment_intent_id,
    status: try_from(String),
    amount_centavos,
    currency,
    reason,
    metadata,
    origin: try_from(String),
    idempotency_key,
    request_hash,
    response_body,
    natureza,
    provider_code,
    e2eid,
    devolucao_id,
    rtr_id,
    failure_code,
    failure_message,
    psp_attempted: try_from(i64),
    lease_until,
    reconcile_at,
    created_at,
    updated_at,
    completed_at
});

const COLUMNS: &str = "id, merchant_id, payment_intent_id, status, amount_centavos, currency, \
    reason, metadata, origin, idempotency_key, request_hash, response_body, natureza, \
    provider_code, e2eid, devolucao_id, rtr_id, failure_code, failure_message, psp_attempted, \
    lease_until, reconcile_at, created_at, updated_at, completed_at";

pub async fn insert<'e>(ex: impl Executor<'e, Database = Any>, r: &Refund) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into refunds ({COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)"
    )))
    .bind(&r.id)
    .bind(&r.merchant_id)
    .bind(&r.payment_intent_id)
    .bind(r.status.as_str())
    .bind(r.amount_centavos)
    .bind(&r.currency)
    .bind(&r.reason)
    .bind(&r.metadata)
    .bind(r.origin.as_str())
    .bind(&r.idempotency_key)
    .bind(&r.request_hash)
    .bind(&r.response_body)
    .bind(&r.natureza)
    .bind(&r.provider_code)
    .bind(&r.e2eid)
    .bind(&r.devolucao_id)
    .bind(&r.rtr_id)
    .bind(&r.failure_code)
    .bind(&r.failure_message)
    .bind(r.psp_attempted.as_i64())
    .bind(r.lease_until)
    .bind(r.reconcile_at)
    .bind(r.created_at)
    .bind(r.updated_at)
    .bind(r.completed_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Refund>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from refunds where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// The refund a merchant's Idempotency-Key made.
pub async fn by_key<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    key: &str,
) -> sqlx::Result<Option<Refund>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from refunds where merchant_id = $1 and idempotency_key = $2"
    )))
    .bind(merchant_id)
    .bind(key)
    .fetch_optional(ex)
    .await
}

/// The refund recorded for a devolução.
pub async fn by_devolucao<'e>(
    ex: impl Executor<'e, Database = Any>,
    provider_code: &str,
    e2eid: &str,
    devolucao_id: &str,
) -> sqlx::Result<Option<Refund>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from refunds \
         where provider_code = $1 and e2eid = $2 and devolucao_id = $3"
    )))
    .bind(provider_code)
    .bind(e2eid)
    .bind(devolucao_id)
    .fetch_optional(ex)
    .await
}

/// An intent's refunds, oldest first.
pub async fn for_intent<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
) -> sqlx::Result<Vec<Refund>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from refunds where payment_intent_id = $1 order by created_at, id"
    )))
    .bind(intent_id)
    .fetch_all(ex)
    .await
}

/// The refund an admin asked to resolve intent `intent_id` that is still `PENDING`, if any:
/// while it runs, the intent is not resolvable again.
pub async fn pending_resolution<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "select id from refunds \
         where payment_intent_id = $1 and origin = 'admin' and status = 'PENDING' \
         order by created_at limit 1",
    )
    .bind(intent_id)
    .fetch_optional(ex)
    .await
}

/// Reserves `amount` of what intent `id` received for a refund, if its refunds (`PENDING` and
/// `SUCCEEDED`) stay within `paid`. One conditional update: concurrent reservations on one
/// intent, from any instance, are serialised by the row and re-checked, so they never sum
/// past `paid`. Returns whether the amount was reserved.
pub async fn reserve<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
    amount: i64,
    paid: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update payment_intents set refund_reserved_centavos = refund_reserved_centavos + $2 \
         where id = $1 and refund_reserved_centavos + $2 <= $3",
    )
    .bind(intent_id)
    .bind(amount)
    .bind(paid)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What an intent has reserved for refunds so far.
pub async fn reserved<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar("select refund_reserved_centavos from payment_intents where id = $1")
        .bind(intent_id)
        .fetch_one(ex)
        .await
}

/// Moves the intent's totals for a refund of `amount` that settled as `to` (`reserved` only
/// for a refund that was never reserved: a devolução the PSP made on its own).
pub async fn settle_totals<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
    amount: i64,
    to: RefundStatus,
    was_reserved: bool,
) -> sqlx::Result<()> {
    let (reserved, refunded) = match (to, was_reserved) {
        (RefundStatus::Succeeded, true) => (0, amount),
        (RefundStatus::Succeeded, false) => (amount, amount),
        (RefundStatus::Failed, true) => (-amount, 0),
        (RefundStatus::Failed, false) | (RefundStatus::Pending, false) => (0, 0),
        (RefundStatus::Pending, true) => (0, 0),
    };
    sqlx::query(
        "update payment_intents set refund_reserved_centavos = refund_reserved_centavos + $2, \
         refunded_centavos = refunded_centavos + $3 where id = $1",
    )
    .bind(intent_id)
    .bind(reserved)
    .bind(refunded)
    .execute(ex)
    .await?;
    Ok(())
}

/// Moves a `PENDING` refund to `to` (a compare-and-set). Returns whether it moved.
pub async fn finish<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    to: RefundStatus,
    rtr_id: Option<&str>,
    failure: Option<(&str, &str)>,
    completed_at: i64,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update refunds set status = $2, rtr_id = coalesce($3, rtr_id), failure_code = $4, \
         failure_message = $5, completed_at = $6, updated_at = $7, lease_until = null, \
         reconcile_at = null where id = $1 and status = 'PENDING'",
    )
    .bind(id)
    .bind(to.as_str())
    .bind(rtr_id)
    .bind(failure.map(|f| f.0))
    .bind(failure.map(|f| f.1))
    .bind(completed_at)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that a PUT of the refund's devolução is about to be sent: from now on it may
/// have reached the PSP.
pub async fn mark_attempted<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<()> {
    sqlx::query("update refunds set psp_attempted = 1 where id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Keeps the PSP's `rtrId` of a refund still in progress.
pub async fn set_rtr_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    rtr_id: &str,
) -> sqlx::Result<()> {
    sqlx::query("update refunds set rtr_id = $2 where id = $1")
        .bind(id)
        .bind(rtr_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Keeps the answer given for the refund's Idempotency-Key, once.
pub async fn set_response<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    body: &str,
) -> sqlx::Result<()> {
    sqlx::query("update refunds set response_body = $2 where id = $1 and response_body is null")
        .bind(id)
        .bind(body)
        .execute(ex)
        .await?;
    Ok(())
}

/// Takes the lease on a `PENDING` refund until `until`, if no one holds it at `now`.
pub async fn take_lease<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    now: i64,
    until: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update refunds set lease_until = $3 where id = $1 and status = 'PENDING' \
         and (lease_until is null or lease_until <= $2)",
    )
    .bind(id)
    .bind(now)
    .bind(until)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives the lease `mine` back and sets the next read at `next`.
pub async fn release_lease<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    mine: i64,
    next: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update refunds set lease_until = null, reconcile_at = $3 \
         where id = $1 and lease_until = $2",
    )
    .bind(id)
    .bind(mine)
    .bind(next)
    .execute(ex)
    .await?;
    Ok(())
}

/// `PENDING` refunds due for a read at their PSP that no one holds, oldest due first.
pub async fn due_for_reconcile<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select id from refunds where status = 'PENDING' and reconcile_at <= $1 \
           and (lease_until is null or lease_until <= $1) \
         order by reconcile_at limit $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// The intent a provider's pix (`endToEndId`) paid: settled with it, or holding it as a pix of
/// the wrong amount.
pub async fn intent_by_e2eid<'e, E>(
    ex: E,
    provider_code: &str,
    e2eid: &str,
) -> sqlx::Result<Option<String>>
where
    E: Executor<'e, Database = Any> + Copy,
{
    let paid = sqlx::query_scalar(
        "select id from payment_intents where provider_code = $1 and provider_payment_id = $2",
    )
    .bind(provider_code)
    .bind(e2eid)
    .fetch_optional(ex)
    .await?;
    if paid.is_some() {
        return Ok(paid);
    }
    sqlx::query_scalar(
        "select id from payment_intents where provider_code = $1 and received_e2eid = $2",
    )
    .bind(provider_code)
    .bind(e2eid)
    .fetch_optional(ex)
    .await
}
