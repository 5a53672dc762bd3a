//! Webhook endpoints, payment events (the outbox), deliveries and attempts.
//!
//! Statuses are enums here and their upper-case names in the text columns. A status the SQL
//! fixes is written in it as a literal: as a bound parameter it would hide the partial index
//! `webhook_deliveries_due_idx` (`where status = 'PENDING'`) from PostgreSQL's planner.

use serde::{Deserialize, Serialize};
use sqlx::{Any, AssertSqlSafe, Executor};
use utoipa::ToSchema;

use super::Backend;

/// Where an endpoint is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum EndpointStatus {
    /// Receives new events.
    Active,
    /// Failed continuously for too long; receives nothing until re-enabled.
    Disabled,
    /// Revoked by its owner; final.
    Revoked,
}

impl EndpointStatus {
    /// The column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Active => "ACTIVE",
            Self::Disabled => "DISABLED",
            Self::Revoked => "REVOKED",
        }
    }
}

impl TryFrom<String> for EndpointStatus {
    type Error = String;

    fn try_from(value: String) -> Result<Self, String> {
        [Self::Active, Self::Disabled, Self::Revoked]
            .into_iter()
            .find(|s| s.as_str() == value)
            .ok_or_else(|| format!("webhook endpoint status column holds `{value}`"))
    }
}

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

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Endpoint {
    pub id: String,
    pub merchant_id: String,
    pub name: String,
    pub url: String,
    pub url_normalized: String,
    /// JSON array of event types.
    pub events: String,
    #[sqlx(try_from = "String")]
    pub status: EndpointStatus,
    pub secret_sealed: String,
    pub failure_count: i64,
    pub failing_since: Option<i64>,
    pub last_failure_at: Option<i64>,
    pub last_delivery_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub disabled_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

const ENDPOINT_COLUMNS: &str = "id, merchant_id, name, url, url_normalized, events, status, \
    secret_sealed, failure_count, failing_since, last_failure_at, last_delivery_id, created_at, \
    updated_at, disabled_at, revoked_at";

pub async fn insert_endpoint<'e>(
    ex: impl Executor<'e, Database = Any>,
    e: &Endpoint,
) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into webhook_endpoints ({ENDPOINT_COLUMNS}) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
    )))
    .bind(&e.id)
    .bind(&e.merchant_id)
    .bind(&e.name)
    .bind(&e.url)
    .bind(&e.url_normalized)
    .bind(&e.events)
    .bind(e.status.as_str())
    .bind(&e.secret_sealed)
    .bind(e.failure_count)
    .bind(e.failing_since)
    .bind(e.last_failure_at)
    .bind(&e.last_delivery_id)
    .bind(e.created_at)
    .bind(e.updated_at)
    .bind(e.disabled_at)
    .bind(e.revoked_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// The merchant's endpoint with this id (another merchant's is `None`).
pub async fn endpoint_of_merchant<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    id: &str,
) -> sqlx::Result<Option<Endpoint>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {ENDPOINT_COLUMNS} from webhook_endpoints where id = $1 and merchant_id = $2"
    )))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(ex)
    .await
}

pub async fn endpoint<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Endpoint>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {ENDPOINT_COLUMNS} from webhook_endpoints where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// A page of the merchant's endpoints, oldest first, after the `(created_at, id)` cursor.
pub async fn endpoints_of_merchant<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    after: Option<(i64, String)>,
    limit: i64,
) -> sqlx::Result<Vec<Endpoint>> {
    // Creation times are never negative: (-1, '') is before every row.
    let (created_at, id) = after.unwrap_or((-1, String::new()));
    sqlx::query_as(AssertSqlSafe(format!(
        "select {ENDPOINT_COLUMNS} from webhook_endpoints where merchant_id = $1 \
         and (created_at, id) > ($2, $3) order by created_at, id limit $4"
    )))
    .bind(merchant_id)
    .bind(created_at)
    .bind(id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Inserts the endpoint unless its merchant already has `cap` endpoints that are not
/// revoked; `false` then, and nothing is written.
pub async fn insert_endpoint_capped(
    pool: &sqlx::AnyPool,
    backend: Backend,
    e: &Endpoint,
    cap: u32,
) -> sqlx::Result<bool> {
    let mut tx = pool.begin().await?;
    if backend == Backend::Postgres {
        // Serialises one merchant's creations, so two at once cannot both see room for one.
        // `no key update` leaves the rows that reference the merchant free to be written.
        sqlx::query("select id from merchants where id = $1 for no key update")
            .bind(&e.merchant_id)
            .execute(&mut *tx)
            .await?;
    }
    let (live,): (i64,) = sqlx::query_as(
        "select count(*) from webhook_endpoints where merchant_id = $1 and status <> 'REVOKED'",
    )
    .bind(&e.merchant_id)
    .fetch_one(&mut *tx)
    .await?;
    if live >= i64::from(cap) {
        return Ok(false);
    }
    insert_endpoint(&mut *tx, e).await?;
    tx.commit().await?;
    Ok(true)
}

/// The merchant's ACTIVE endpoints (the ones a new event is delivered to).
pub async fn active_endpoints<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
) -> sqlx::Result<Vec<Endpoint>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {ENDPOINT_COLUMNS} from webhook_endpoints \
         where merchant_id = $1 and status = 'ACTIVE' order by created_at, id"
    )))
    .bind(merchant_id)
    .fetch_all(ex)
    .await
}

/// Sets the status (`REVOKED` or `DISABLED` stamp their time); a re-enabled endpoint starts
/// with a clean failure record. Returns whether a row changed.
pub async fn set_endpoint_status<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    from: &[EndpointStatus],
    to: EndpointStatus,
    now: i64,
) -> sqlx::Result<bool> {
    let from = from
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    let stamp = match to {
        EndpointStatus::Revoked => ", revoked_at = $2",
        EndpointStatus::Disabled => ", disabled_at = $2",
        EndpointStatus::Active => {
            ", disabled_at = null, failure_count = 0, failing_since = null, last_failure_at = null"
        }
    };
    let done = sqlx::query(AssertSqlSafe(format!(
        "update webhook_endpoints set status = $3, updated_at = $2 {stamp} \
         where id = $1 and status in ({from})"
    )))
    .bind(id)
    .bind(now)
    .bind(to.as_str())
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Locks the endpoint's row until the transaction ends (PostgreSQL), as an update of it
/// would: writers that touch an endpoint and its deliveries take the endpoint first.
pub async fn lock_endpoint<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<()> {
    sqlx::query("select id from webhook_endpoints where id = $1 for no key update")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
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
pub struct Event {
    pub id: String,
    pub merchant_id: String,
    pub payment_intent_id: String,
    pub event_type: String,
    pub from_status: Option<String>,
    pub to_status: String,
    pub data: String,
    pub created_at: i64,
}

pub async fn insert_event<'e>(
    ex: impl Executor<'e, Database = Any>,
    e: &Event,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into payment_events (id, merchant_id, payment_intent_id, type, from_status, \
         to_status, data, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&e.id)
    .bind(&e.merchant_id)
    .bind(&e.payment_intent_id)
    .bind(&e.event_type)
    .bind(&e.from_status)
    .bind(&e.to_status)
    .bind(&e.data)
    .bind(e.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: Option<String>,
    pub event_type: String,
    pub body: String,
    #[sqlx(try_from = "String")]
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

const DELIVERY_COLUMNS: &str = "id, endpoint_id, event_id, event_type, body, status, attempts, \
    next_attempt_at, claim_token, last_attempt_at, last_http_status, last_error, created_at, \
    updated_at, completed_at";

pub async fn insert_delivery<'e>(
    ex: impl Executor<'e, Database = Any>,
    d: &Delivery,
) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into webhook_deliveries ({DELIVERY_COLUMNS}) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
    )))
    .bind(&d.id)
    .bind(&d.endpoint_id)
    .bind(&d.event_id)
    .bind(&d.event_type)
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

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Attempt {
    pub delivery_id: String,
    pub attempt: i64,
    pub attempted_at: i64,
    pub http_status: Option<i64>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

pub async fn insert_attempt<'e>(
    ex: impl Executor<'e, Database = Any>,
    a: &Attempt,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into webhook_attempts (delivery_id, attempt, attempted_at, http_status, \
         duration_ms, error) values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&a.delivery_id)
    .bind(a.attempt)
    .bind(a.attempted_at)
    .bind(a.http_status)
    .bind(a.duration_ms)
    .bind(&a.error)
    .execute(ex)
    .await?;
    Ok(())
}

/// The attempts of these deliveries, in order.
pub async fn attempts_of<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_ids: &[String],
) -> sqlx::Result<Vec<Attempt>> {
    if delivery_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders = (1..=delivery_ids.len())
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "select delivery_id, attempt, attempted_at, http_status, duration_ms, error \
         from webhook_attempts where delivery_id in ({placeholders}) order by delivery_id, attempt"
    );
    let mut query = sqlx::query_as(AssertSqlSafe(sql));
    for id in delivery_ids {
        query = query.bind(id);
    }
    query.fetch_all(ex).await
}

/// A delivery claimed for one attempt, with what sending it needs.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub id: String,
    pub endpoint_id: String,
    pub event_type: String,
    pub body: String,
    /// The number of the attempt this claim is for (1 for the first).
    pub attempts: i64,
    pub claim_token: String,
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

/// After a batch with a success: the failures that followed it are the whole current run.
#[allow(clippy::too_many_arguments)]
pub async fn restart_endpoint_health<'e>(
    ex: impl Executor<'e, Database = Any>,
    endpoint_id: &str,
    failures: i64,
    first_failure_at: Option<i64>,
    last_failure_at: Option<i64>,
    last_delivery_id: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update webhook_endpoints set failure_count = $2, failing_since = $3, \
         last_failure_at = $4, last_delivery_id = $5, updated_at = $6 where id = $1",
    )
    .bind(endpoint_id)
    .bind(failures)
    .bind(first_failure_at)
    .bind(last_failure_at)
    .bind(last_delivery_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// After a batch of only failures: they extend the current run, or start a new one when the
/// previous failure is older than `run_gap_before` (a silence, not a run).
#[allow(clippy::too_many_arguments)]
pub async fn add_endpoint_failures<'e>(
    ex: impl Executor<'e, Database = Any>,
    endpoint_id: &str,
    failures: i64,
    first_failure_at: i64,
    last_failure_at: i64,
    run_gap_before: i64,
    last_delivery_id: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update webhook_endpoints set failure_count = failure_count + $2, \
         failing_since = case when failing_since is null or last_failure_at is null \
             or last_failure_at < $5 then $3 else failing_since end, \
         last_failure_at = $4, last_delivery_id = $6, updated_at = $7 where id = $1",
    )
    .bind(endpoint_id)
    .bind(failures)
    .bind(first_failure_at)
    .bind(last_failure_at)
    .bind(run_gap_before)
    .bind(last_delivery_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
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

/// Points the endpoint's `lastDelivery` at this delivery without touching its health (the
/// test route).
pub async fn set_last_delivery<'e>(
    ex: impl Executor<'e, Database = Any>,
    endpoint_id: &str,
    delivery_id: &str,
) -> sqlx::Result<()> {
    sqlx::query("update webhook_endpoints set last_delivery_id = $2 where id = $1")
        .bind(endpoint_id)
        .bind(delivery_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Disables the endpoint if it is ACTIVE and has been failing since `failing_before` or
/// earlier. Returns whether it was disabled now.
pub async fn disable_if_failing_since<'e>(
    ex: impl Executor<'e, Database = Any>,
    endpoint_id: &str,
    failing_before: i64,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update webhook_endpoints set status = 'DISABLED', disabled_at = $3, updated_at = $3 \
         where id = $1 and status = 'ACTIVE' and failing_since is not null \
         and failing_since <= $2",
    )
    .bind(endpoint_id)
    .bind(failing_before)
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

#[cfg(test)]
mod tests {
    use super::*;

    const MIGRATION: &str = include_str!("../../../migrations/0002_webhooks.sql");

    #[test]
    fn statuses_round_trip_and_match_the_column_checks() {
        let endpoint = [
            EndpointStatus::Active,
            EndpointStatus::Disabled,
            EndpointStatus::Revoked,
        ];
        for s in endpoint {
            assert_eq!(EndpointStatus::try_from(s.as_str().to_owned()), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        let delivery = [
            DeliveryStatus::Pending,
            DeliveryStatus::Delivered,
            DeliveryStatus::Failed,
            DeliveryStatus::Exhausted,
            DeliveryStatus::Canceled,
        ];
        for s in delivery {
            assert_eq!(DeliveryStatus::try_from(s.as_str().to_owned()), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        let names = |list: &[&str]| {
            list.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let endpoint_names: Vec<&str> = endpoint.iter().map(|s| s.as_str()).collect();
        let delivery_names: Vec<&str> = delivery.iter().map(|s| s.as_str()).collect();
        assert!(MIGRATION.contains(&format!("check (status in ({}))", names(&endpoint_names))));
        assert!(MIGRATION.contains(&format!("check (status in ({}))", names(&delivery_names))));
        assert!(EndpointStatus::try_from("active".to_owned()).is_err());
    }
}
