//! Deliveries: one event (or test) to one endpoint, claimed, attempted, retried or finished.

use serde::{Deserialize, Serialize};
use sqlx::{Any, AssertSqlSafe, Executor};
use utoipa::ToSchema;

use super::{Backend, EventType};

/// Where a delivery is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum DeliveryStatus {
    /// Due for its first attempt or a retry.
    Pending,
    /// A 2xx answered in time.
    Delivered,
    /// A test delivery that did not succeed (tests are not retried).
    Failed,
    /// Every attempt of the retry schedule failed.
    Exhausted,
    /// Its endpoint was revoked or disabled before it was delivered.
    Canceled,
}

impl DeliveryStatus {
    /// The column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "PENDING",
            Self::Delivered => "DELIVERED",
            Self::Failed => "FAILED",
            Self::Exhausted => "EXHAUSTED",
            Self::Canceled => "CANCELED",
        }
    }
}

impl TryFrom<String> for DeliveryStatus {
    type Error = String;

    fn try_from(value: String) -> Result<Self, String> {
        [
            Self::Pending,
            Self::Delivered,
            Self::Failed,
            Self::Exhausted,
            Self::Canceled,
        ]
        .into_iter()
        .find(|s| s.as_str() == value)
        .ok_or_else(|| format!("webhook delivery status column holds `{value}`"))
    }
}

/// Cancels the endpoint's PENDING deliveries (revoked or disabled: nothing more is sent).
pub async fn cancel_pending<'e>(
    ex: impl Executor<'e, Database = Any>,
    endpoint_id: &str,
    reason: &str,
    now: i64,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update webhook_deliveries set status = 'CANCELED', next_attempt_at = null, \
         claim_token = null, last_error = $2, updated_at = $3, completed_at = $3 \
         where endpoint_id = $1 and status = 'PENDING'",
    )
    .bind(endpoint_id)
    .bind(reason)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

#[derive(Debug, Clone)]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    /// The payment event it carries, or
    pub event_id: Option<String>,
    /// the refund event, or
    pub refund_event_id: Option<String>,
    /// the Pix Automático event (none of them for a test delivery).
    pub mandate_event_id: Option<String>,
    pub event_type: EventType,
    pub body: String,
    pub status: DeliveryStatus,
    pub attempts: i64,
    pub next_attempt_at: Option<i64>,
    pub claim_token: Option<String>,
    pub last_attempt_at: Option<i64>,
    pub last_http_status: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
}

crate::db::from_row!(Delivery {
    id,
    endpoint_id,
    event_id,
    refund_event_id,
    mandate_event_id,
    event_type: try_from(String),
    body,
    status: try_from(String),
    attempts,
    next_attempt_at,
    claim_token,
    last_attempt_at,
    last_http_status,
    last_error,
    created_at,
    updated_at,
    completed_at
});

const DELIVERY_COLUMNS: &str = "id, endpoint_id, event_id, refund_event_id, mandate_event_id, \
    event_type, body, status, attempts, next_attempt_at, claim_token, last_attempt_at, \
    last_http_status, last_error, created_at, updated_at, completed_at";

pub async fn insert_delivery<'e>(
    ex: impl Executor<'e, Database = Any>,
    d: &Delivery,
) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into webhook_deliveries ({DELIVERY_COLUMNS}) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
    )))
    .bind(&d.id)
    .bind(&d.endpoint_id)
    .bind(&d.event_id)
    .bind(&d.refund_event_id)
    .bind(&d.mandate_event_id)
    .bind(d.event_type.as_str())
    .bind(&d.body)
    .bind(d.status.as_str())
    .bind(d.attempts)
    .bind(d.next_attempt_at)
    .bind(&d.claim_token)
    .bind(d.last_attempt_at)
    .bind(d.last_http_status)
    .bind(&d.last_error)
    .bind(d.created_at)
    .bind(d.updated_at)
    .bind(d.completed_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn delivery<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Delivery>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {DELIVERY_COLUMNS} from webhook_deliveries where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// The endpoint's deliveries, newest first; `before` (`created_at`, `id`) pages.
pub async fn deliveries_of_endpoint<'e>(
    ex: impl Executor<'e, Database = Any>,
    endpoint_id: &str,
    before: Option<(i64, String)>,
    limit: i64,
) -> sqlx::Result<Vec<Delivery>> {
    let (before_at, before_id) = before.unwrap_or((i64::MAX, String::new()));
    sqlx::query_as(AssertSqlSafe(format!(
        "select {DELIVERY_COLUMNS} from webhook_deliveries where endpoint_id = $1 \
         and (created_at < $2 or (created_at = $2 and id < $3)) \
         order by created_at desc, id desc limit $4"
    )))
    .bind(endpoint_id)
    .bind(before_at)
    .bind(before_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// The deliveries of a PaymentIntent's events, payment, refund and failed-attempt events alike,
/// newest first (at most `limit`).
pub async fn deliveries_of_intent<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
    limit: i64,
) -> sqlx::Result<Vec<Delivery>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {DELIVERY_COLUMNS} from webhook_deliveries where event_id in \
           (select id from payment_events where payment_intent_id = $1) \
         union all \
         select {DELIVERY_COLUMNS} from webhook_deliveries where refund_event_id in \
           (select e.id from refund_events e join refunds r on r.id = e.refund_id \
            where r.payment_intent_id = $1) \
         union all \
         select {DELIVERY_COLUMNS} from webhook_deliveries where mandate_event_id in \
           (select id from mandate_events where payment_intent_id = $1) \
         order by created_at desc, id desc limit $2"
    )))
    .bind(intent_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// A delivery claimed for one attempt, with what sending it needs.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub id: String,
    pub endpoint_id: String,
    pub event_type: EventType,
    pub body: String,
    /// The number of the attempt this claim is for (1 for the first).
    pub attempts: i64,
    pub claim_token: String,
}

crate::db::from_row!(Claimed {
    id,
    endpoint_id,
    event_type: try_from(String),
    body,
    attempts,
    claim_token
});

/// The outbox for the metrics: the deliveries waiting, and the earliest `next_attempt_at` at
/// or before `now` (none when nothing is due).
pub async fn backlog<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
) -> sqlx::Result<(i64, Option<i64>)> {
    sqlx::query_as(
        "select count(*), min(case when next_attempt_at <= $1 then next_attempt_at end) \
         from webhook_deliveries where status = 'PENDING'",
    )
    .bind(now)
    .fetch_one(ex)
    .await
}

/// Claims up to `limit` due deliveries for one attempt each: the attempt counter moves on and
/// the delivery is not due again until `lease_until`, so no other sender takes it meanwhile.
/// PostgreSQL locks the rows it takes and skips rows another instance is claiming.
pub async fn claim_due<'e>(
    ex: impl Executor<'e, Database = Any>,
    backend: Backend,
    now: i64,
    lease_until: i64,
    token: &str,
    limit: i64,
) -> sqlx::Result<Vec<Claimed>> {
    let sql = match backend {
        Backend::Postgres => {
            "update webhook_deliveries d set attempts = d.attempts + 1, next_attempt_at = $2, \
             claim_token = $3, updated_at = $1 \
             from (select id from webhook_deliveries where status = 'PENDING' \
                   and next_attempt_at <= $1 order by next_attempt_at limit $4 \
                   for update skip locked) due \
             where d.id = due.id \
             returning d.id, d.endpoint_id, d.event_type, d.body, d.attempts, d.claim_token"
        }
        // One writer at a time: the statement is atomic on its own.
        Backend::Sqlite => {
            "update webhook_deliveries set attempts = attempts + 1, next_attempt_at = $2, \
             claim_token = $3, updated_at = $1 \
             where id in (select id from webhook_deliveries where status = 'PENDING' \
                          and next_attempt_at <= $1 order by next_attempt_at limit $4) \
             returning id, endpoint_id, event_type, body, attempts, claim_token"
        }
    };
    sqlx::query_as(sql)
        .bind(now)
        .bind(lease_until)
        .bind(token)
        .bind(limit)
        .fetch_all(ex)
        .await
}

/// Records the end of a claimed attempt, if the claim still holds (a revoke cancels the
/// delivery and drops the claim). `next_attempt_at` is set for a retry, `None` when final.
#[allow(clippy::too_many_arguments)]
pub async fn finish_attempt<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_id: &str,
    claim_token: &str,
    status: DeliveryStatus,
    next_attempt_at: Option<i64>,
    attempted_at: i64,
    http_status: Option<i64>,
    error: Option<&str>,
    now: i64,
) -> sqlx::Result<bool> {
    let completed_at = (status != DeliveryStatus::Pending).then_some(now);
    let done = sqlx::query(
        "update webhook_deliveries set status = $3, next_attempt_at = $4, claim_token = null, \
         last_attempt_at = $5, last_http_status = $6, last_error = $7, updated_at = $8, \
         completed_at = $9 where id = $1 and claim_token = $2",
    )
    .bind(delivery_id)
    .bind(claim_token)
    .bind(status.as_str())
    .bind(next_attempt_at)
    .bind(attempted_at)
    .bind(http_status)
    .bind(error)
    .bind(now)
    .bind(completed_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Makes a delivery due now again (resend), unless an attempt of it is in flight (claimed
/// and its lease still running); `false` then.
pub async fn requeue<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_id: &str,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update webhook_deliveries set status = 'PENDING', next_attempt_at = $2, \
         claim_token = null, updated_at = $2, completed_at = null \
         where id = $1 and (claim_token is null or next_attempt_at <= $2)",
    )
    .bind(delivery_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A success that arrived after its claim was lost (the lease ran out and the delivery was
/// claimed again, or resent): the delivery still counts as delivered if nothing finished it.
pub async fn mark_delivered_if_pending<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_id: &str,
    attempted_at: i64,
    http_status: Option<i64>,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update webhook_deliveries set status = 'DELIVERED', next_attempt_at = null, \
         claim_token = null, last_attempt_at = $2, last_http_status = $3, last_error = null, \
         updated_at = $4, completed_at = $4 where id = $1 and status = 'PENDING'",
    )
    .bind(delivery_id)
    .bind(attempted_at)
    .bind(http_status)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Cancels a claimed delivery whose endpoint stopped being ACTIVE before it was sent.
pub async fn cancel_claimed<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_id: &str,
    claim_token: &str,
    reason: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update webhook_deliveries set status = 'CANCELED', next_attempt_at = null, \
         claim_token = null, attempts = attempts - 1, last_error = $3, updated_at = $4, \
         completed_at = $4 where id = $1 and claim_token = $2",
    )
    .bind(delivery_id)
    .bind(claim_token)
    .bind(reason)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Gives a claim back without counting its attempt (this instance could not send it), due
/// again at `due_at`.
pub async fn release_claim<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_id: &str,
    claim_token: &str,
    due_at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update webhook_deliveries set attempts = attempts - 1, next_attempt_at = $3, \
         claim_token = null where id = $1 and claim_token = $2",
    )
    .bind(delivery_id)
    .bind(claim_token)
    .bind(due_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Which deliveries a page of every merchant's deliveries holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// `EXHAUSTED`, a test that `FAILED`, or `PENDING` after a failed attempt.
    Failing,
    Pending,
    Delivered,
    Canceled,
}

/// A delivery with what the admin's list shows beside it.
#[derive(Debug, Clone)]
pub struct ListedDelivery {
    pub delivery: Delivery,
    pub endpoint_name: String,
    pub endpoint_url: String,
    pub merchant_code: String,
    /// The PaymentIntent its event is about (none for a test delivery).
    pub payment_intent_id: Option<String>,
}

crate::db::from_row!(ListedDelivery {
    delivery: flatten,
    endpoint_name,
    endpoint_url,
    merchant_code,
    payment_intent_id
});

/// Every merchant's deliveries (or `merchant_id`'s) in `state` (all when `None`), newest first;
/// `before` (`created_at`, `id`) pages.
pub async fn deliveries_page<'e>(
    ex: impl Executor<'e, Database = Any>,
    state: Option<DeliveryState>,
    merchant_id: Option<&str>,
    before: Option<(i64, String)>,
    limit: i64,
) -> sqlx::Result<Vec<ListedDelivery>> {
    let state = match state {
        None => "",
        Some(DeliveryState::Failing) => {
            " and (d.status in ('EXHAUSTED', 'FAILED') or (d.status = 'PENDING' and d.attempts > 0))"
        }
        Some(DeliveryState::Pending) => " and d.status = 'PENDING'",
        Some(DeliveryState::Delivered) => " and d.status = 'DELIVERED'",
        Some(DeliveryState::Canceled) => " and d.status = 'CANCELED'",
    };
    let columns: Vec<String> = DELIVERY_COLUMNS
        .split(", ")
        .map(|c| format!("d.{}", c.trim()))
        .collect();
    let (before_at, before_id) = before.unwrap_or((i64::MAX, String::new()));
    sqlx::query_as(AssertSqlSafe(format!(
        "select {}, e.name as endpoint_name, e.url as endpoint_url, m.code as merchant_code, \
           coalesce(pe.payment_intent_id, r.payment_intent_id, me.payment_intent_id) \
             as payment_intent_id \
         from webhook_deliveries d \
           join webhook_endpoints e on e.id = d.endpoint_id \
           join merchants m on m.id = e.merchant_id \
           left join payment_events pe on pe.id = d.event_id \
           left join refund_events re on re.id = d.refund_event_id \
           left join refunds r on r.id = re.refund_id \
           left join mandate_events me on me.id = d.mandate_event_id \
         where ($1 = '' or e.merchant_id = $1){state} \
           and (d.created_at < $2 or (d.created_at = $2 and d.id < $3)) \
         order by d.created_at desc, d.id desc limit $4",
        columns.join(", ")
    )))
    .bind(merchant_id.unwrap_or_default())
    .bind(before_at)
    .bind(before_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}
