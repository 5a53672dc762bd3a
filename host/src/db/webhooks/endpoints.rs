//! Webhook endpoints: their rows, status and delivery health.

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

#[derive(Debug, Clone)]
pub struct Endpoint {
    pub id: String,
    pub merchant_id: String,
    pub name: String,
    pub url: String,
    pub url_normalized: String,
    /// JSON array of event types.
    pub events: String,
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

crate::db::from_row!(Endpoint {
    id,
    merchant_id,
    name,
    url,
    url_normalized,
    events,
    status: try_from(String),
    secret_sealed,
    failure_count,
    failing_since,
    last_failure_at,
    last_delivery_id,
    created_at,
    updated_at,
    disabled_at,
    revoked_at
});

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
    audit: Option<(
        &(dyn crate::db::audit::Author + Sync),
        &crate::db::audit::Change,
    )>,
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
    if let Some((actor, change)) = audit {
        crate::db::audit::append(&mut *tx, actor, change).await?;
    }
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
