//! The console's landing view (issue 31): the charges of the last hours by time bucket and
//! status, the LIVE charges still pending by age, and the stores where a canary or a shadow
//! candidate runs. Every read is bounded: a window of `created_at` (indexed since
//! `migrations/0016_on_call_lookups.sql`), the `PENDING` status, or the few running rollouts.

use sqlx::{Any, Executor};

use super::intents::Intent;
use pixgate_domain::{IntentStatus, Step, StoreMode};

/// The charges created in one bucket of time with one status.
#[derive(Debug, Clone)]
pub struct VolumeRow {
    /// Where the bucket starts, Unix ms (a multiple of its width).
    pub bucket: i64,
    pub status: IntentStatus,
    pub charges: i64,
    pub amount_centavos: i64,
}

crate::db::from_row!(VolumeRow {
    bucket,
    status: try_from(String),
    charges,
    amount_centavos
});

/// The intents created in `[from, to)`, counted by bucket of `width_ms` and status, oldest
/// bucket first.
pub async fn volume<'e>(
    ex: impl Executor<'e, Database = Any>,
    from: i64,
    to: i64,
    width_ms: i64,
) -> sqlx::Result<Vec<VolumeRow>> {
    // PostgreSQL sums bigints into a numeric: cast back, on both backends alike.
    sqlx::query_as(
        "select (created_at / $3) * $3 as bucket, status, count(*) as charges, \
           cast(sum(amount_centavos) as bigint) as amount_centavos \
         from payment_intents where created_at >= $1 and created_at < $2 \
         group by (created_at / $3) * $3, status order by 1, 2",
    )
    .bind(from)
    .bind(to)
    .bind(width_ms)
    .fetch_all(ex)
    .await
}

/// How many LIVE intents are `PENDING`, by age: created after each of `bounds` (Unix ms,
/// newest first), then before the last. `bounds` has four entries; the answer five.
pub async fn pending_live_by_age<'e>(
    ex: impl Executor<'e, Database = Any>,
    bounds: [i64; 4],
) -> sqlx::Result<[i64; 5]> {
    let (a, b, c, d, e): (i64, i64, i64, i64, i64) = sqlx::query_as(
        "select \
           cast(coalesce(sum(case when created_at >= $1 then 1 else 0 end), 0) as bigint), \
           cast(coalesce(sum(case when created_at < $1 and created_at >= $2 then 1 else 0 end), 0) as bigint), \
           cast(coalesce(sum(case when created_at < $2 and created_at >= $3 then 1 else 0 end), 0) as bigint), \
           cast(coalesce(sum(case when created_at < $3 and created_at >= $4 then 1 else 0 end), 0) as bigint), \
           cast(coalesce(sum(case when created_at < $4 then 1 else 0 end), 0) as bigint) \
         from payment_intents where status = 'PENDING' and routing_mode = $5",
    )
    .bind(bounds[0])
    .bind(bounds[1])
    .bind(bounds[2])
    .bind(bounds[3])
    .bind(StoreMode::Live.as_str())
    .fetch_one(ex)
    .await?;
    Ok([a, b, c, d, e])
}

/// The oldest `limit` LIVE intents still `PENDING`, oldest first.
pub async fn oldest_pending_live<'e>(
    ex: impl Executor<'e, Database = Any>,
    limit: i64,
) -> sqlx::Result<Vec<Intent>> {
    sqlx::query_as(
        "select * from payment_intents where status = 'PENDING' and routing_mode = $1 \
         order by created_at, id limit $2",
    )
    .bind(StoreMode::Live.as_str())
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// A rollout running at a store: a canary (with its share) or a shadow candidate.
#[derive(Debug, Clone)]
pub struct Rollout {
    pub store_code: String,
    pub merchant_code: String,
    pub mode: StoreMode,
    pub step: Step,
    pub version: String,
    /// The canary's share in hundredths of a percent; `None` for a shadow candidate.
    pub basis_points: Option<i64>,
    /// When the canary started or the candidate was attached, Unix ms.
    pub since: i64,
}

crate::db::from_row!(Rollout {
    store_code,
    merchant_code,
    mode: try_from(String),
    step: try_from(String),
    version,
    basis_points,
    since
});

/// Every running canary and attached shadow candidate, by store code then step.
pub async fn rollouts<'e>(ex: impl Executor<'e, Database = Any>) -> sqlx::Result<Vec<Rollout>> {
    sqlx::query_as(
        "select s.code as store_code, m.code as merchant_code, s.mode as mode, c.step as step, \
           c.version as version, c.basis_points as basis_points, c.started_at as since \
         from component_canaries c join stores s on s.id = c.store_id \
           join merchants m on m.id = s.merchant_id \
         where c.ended_at is null \
         union all \
         select s.code, m.code, s.mode, sc.step, sc.candidate_version, \
           cast(null as bigint), sc.candidate_since \
         from store_components sc join stores s on s.id = sc.store_id \
           join merchants m on m.id = s.merchant_id \
         where sc.candidate_version is not null and sc.candidate_since is not null \
         order by 1, 4",
    )
    .fetch_all(ex)
    .await
}
