//! Canaries and their calls (migration 0012).

use sqlx::{Any, Executor};

use super::intents::OptionalText;
use pixgate_domain::Step;

pixgate_domain::text_enum!(
    /// How a canary ended.
    CanaryEnd {
        /// Its version was activated.
        Promoted = "promoted",
        /// An operator ended it.
        Ended = "ended",
        /// Its error rate reached the threshold.
        ErrorRate = "error_rate",
        /// Its changed rate reached the threshold.
        ChangedRate = "changed_rate",
        /// A new canary of the step took its place.
        Replaced = "replaced",
        /// The active version changed under it (an activation of another version, a rollback
        /// or the kill switch): its comparison no longer means anything.
        Superseded = "superseded",
    }
);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canary {
    pub id: String,
    pub store_id: String,
    pub step: Step,
    pub version: String,
    pub basis_points: i64,
    pub window_seconds: i64,
    pub min_calls: i64,
    pub max_error_rate_percent: i64,
    pub max_changed_rate_percent: Option<i64>,
    pub started_at: i64,
    pub started_by: String,
    pub ended_at: Option<i64>,
    pub end_kind: Option<CanaryEnd>,
    pub ended_reason: Option<String>,
}

crate::db::from_row!(Canary {
    id,
    store_id,
    step: try_from(String),
    version,
    basis_points,
    window_seconds,
    min_calls,
    max_error_rate_percent,
    max_changed_rate_percent,
    started_at,
    started_by,
    ended_at,
    end_kind: try_from(OptionalText),
    ended_reason
});

const COLUMNS: &str = "id, store_id, step, version, basis_points, window_seconds, min_calls, \
    max_error_rate_percent, max_changed_rate_percent, started_at, started_by, ended_at, \
    end_kind, ended_reason";

pub async fn insert<'e>(ex: impl Executor<'e, Database = Any>, c: &Canary) -> sqlx::Result<()> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into component_canaries ({COLUMNS}) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
    )))
    .bind(&c.id)
    .bind(&c.store_id)
    .bind(c.step.as_str())
    .bind(&c.version)
    .bind(c.basis_points)
    .bind(c.window_seconds)
    .bind(c.min_calls)
    .bind(c.max_error_rate_percent)
    .bind(c.max_changed_rate_percent)
    .bind(c.started_at)
    .bind(&c.started_by)
    .bind(c.ended_at)
    .bind(c.end_kind.map(CanaryEnd::as_str))
    .bind(&c.ended_reason)
    .execute(ex)
    .await?;
    Ok(())
}

/// The running canaries of a store, one per step at most.
pub async fn running<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
) -> sqlx::Result<Vec<Canary>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from component_canaries where store_id = $1 and ended_at is null \
         order by step"
    )))
    .bind(store_id)
    .fetch_all(ex)
    .await
}

/// The newest canary of a store's step, running or ended.
pub async fn latest<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    step: Step,
) -> sqlx::Result<Option<Canary>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from component_canaries where store_id = $1 and step = $2 \
         order by started_at desc, id desc limit 1"
    )))
    .bind(store_id)
    .bind(step.as_str())
    .fetch_optional(ex)
    .await
}

/// A store's canaries, newest first: the store's history shows their starts and ends.
pub async fn history<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    limit: i64,
) -> sqlx::Result<Vec<Canary>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from component_canaries where store_id = $1 \
         order by started_at desc, id desc limit $2"
    )))
    .bind(store_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Ends the running canary of a store's step (or only canary `id`, when given); returns the
/// ended row, or `None` when none was running. A compare-and-set: two instances ending one
/// canary at once end it once.
pub async fn end<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    step: Step,
    id: Option<&str>,
    kind: CanaryEnd,
    reason: &str,
    now: i64,
) -> sqlx::Result<Option<String>> {
    let only = if id.is_some() { " and id = $6" } else { "" };
    let query = sqlx::AssertSqlSafe(format!(
        "update component_canaries set ended_at = $1, end_kind = $2, ended_reason = $3 \
         where store_id = $4 and step = $5 and ended_at is null{only} returning id"
    ));
    let mut query = sqlx::query_scalar(query)
        .bind(now)
        .bind(kind.as_str())
        .bind(reason)
        .bind(store_id)
        .bind(step.as_str());
    if let Some(id) = id {
        query = query.bind(id);
    }
    query.fetch_optional(ex).await
}

/// Whether `version` of `step` is the version of a running canary somewhere: the stores.
pub async fn running_with<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select s.code from component_canaries c join stores s on s.id = c.store_id \
         where c.step = $1 and c.version = $2 and c.ended_at is null order by s.code",
    )
    .bind(step.as_str())
    .bind(version)
    .fetch_all(ex)
    .await
}

#[derive(Debug, Clone)]
pub struct Call {
    pub id: String,
    pub canary_id: String,
    pub payment_intent_id: Option<String>,
    pub failed: i64,
    pub changed: i64,
    pub error_code: Option<String>,
    pub created_at: i64,
}

crate::db::from_row!(Call {
    id,
    canary_id,
    payment_intent_id,
    failed,
    changed,
    error_code,
    created_at
});

pub async fn insert_call<'e>(ex: impl Executor<'e, Database = Any>, c: &Call) -> sqlx::Result<()> {
    sqlx::query(
        "insert into canary_calls (id, canary_id, payment_intent_id, failed, changed, \
           error_code, created_at) values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&c.id)
    .bind(&c.canary_id)
    .bind(&c.payment_intent_id)
    .bind(c.failed)
    .bind(c.changed)
    .bind(&c.error_code)
    .bind(c.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// A canary's calls since `since`: how many, how many failed, how many changed. (PostgreSQL
/// sums a bigint as numeric, which the Any driver does not read: hence the casts.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub calls: i64,
    pub failed: i64,
    pub changed: i64,
}

crate::db::from_row!(Counts {
    calls,
    failed,
    changed
});

pub async fn counts<'e>(
    ex: impl Executor<'e, Database = Any>,
    canary_id: &str,
    since: i64,
) -> sqlx::Result<Counts> {
    sqlx::query_as(
        "select count(*) as calls, cast(coalesce(sum(failed), 0) as bigint) as failed, \
           cast(coalesce(sum(changed), 0) as bigint) as changed \
         from canary_calls where canary_id = $1 and created_at >= $2",
    )
    .bind(canary_id)
    .bind(since)
    .fetch_one(ex)
    .await
}

/// The store's charges created since `since`: the denominator of a canary's share.
pub async fn store_charges_since<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    since: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from payment_intents where store_id = $1 and created_at >= $2",
    )
    .bind(store_id)
    .bind(since)
    .fetch_one(ex)
    .await
}

/// The canaries that ran `version` of `step`: `(store id, started at, ended at)`; a version
/// is needed while traces its canary charges recorded are kept.
pub async fn spans_of<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Vec<(String, i64, Option<i64>)>> {
    sqlx::query_as(
        "select store_id, started_at, ended_at from component_canaries \
         where step = $1 and version = $2 order by store_id, started_at",
    )
    .bind(step.as_str())
    .bind(version)
    .fetch_all(ex)
    .await
}
