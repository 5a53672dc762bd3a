//! Idempotency records: one per (merchant, Idempotency-Key), holding the request's hash and
//! the response to replay.

use sqlx::{Any, AssertSqlSafe, Executor, Row};

use super::Params;

#[derive(Debug, Clone)]
pub struct Record {
    pub request_hash: String,
    pub response_status: i64,
    pub response_body: String,
    pub payment_intent_id: Option<String>,
    pub expires_at: i64,
    /// Set while the request is in progress (a LIVE charge calling its PSP), until then.
    pub lease_until: Option<i64>,
}

crate::db::from_row!(Record {
    request_hash,
    response_status,
    response_body,
    payment_intent_id,
    expires_at,
    lease_until
});

/// The live (unexpired) record for the key.
pub async fn find<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    key: &str,
    now: i64,
) -> sqlx::Result<Option<Record>> {
    sqlx::query_as(
        "select request_hash, response_status, response_body, payment_intent_id, expires_at, \
           lease_until \
         from idempotency_records where merchant_id = $1 and idempotency_key = $2 and expires_at > $3",
    )
    .bind(merchant_id)
    .bind(key)
    .bind(now)
    .fetch_optional(ex)
    .await
}

#[derive(Debug, Clone)]
pub struct NewRecord {
    pub merchant_id: String,
    pub key: String,
    pub request_hash: String,
    pub response_status: i64,
    pub response_body: String,
    pub payment_intent_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    /// `Some`: an in-progress claim (no response yet), leased until then.
    pub lease_until: Option<i64>,
}

const CLAIM_COLUMNS: &str = "merchant_id, idempotency_key, request_hash, response_status, \
    response_body, payment_intent_id, created_at, expires_at, lease_until";

/// A claim's insert of `rows` records: a live record for the key wins (nothing is written),
/// an expired one is taken over.
fn claim_sql(rows: usize, params: Params) -> String {
    format!(
        "insert into idempotency_records ({CLAIM_COLUMNS}) values {} \
         on conflict (merchant_id, idempotency_key) do update set \
           request_hash = excluded.request_hash, response_status = excluded.response_status, \
           response_body = excluded.response_body, \
           payment_intent_id = excluded.payment_intent_id, \
           created_at = excluded.created_at, expires_at = excluded.expires_at, \
           lease_until = excluded.lease_until \
         where idempotency_records.expires_at <= excluded.created_at",
        super::placeholders(rows, 9, params)
    )
}

type ClaimQuery<'q> = sqlx::query::Query<'q, Any, <Any as sqlx::Database>::Arguments>;

fn bind<'q>(q: ClaimQuery<'q>, r: &'q NewRecord) -> ClaimQuery<'q> {
    q.bind(&r.merchant_id)
        .bind(&r.key)
        .bind(&r.request_hash)
        .bind(r.response_status)
        .bind(&r.response_body)
        .bind(&r.payment_intent_id)
        .bind(r.created_at)
        .bind(r.expires_at)
        .bind(r.lease_until)
}

/// Claims the key: inserts the record, or takes over an expired one. False when a live
/// record exists (on PostgreSQL this waits for a concurrent claimer to commit first).
pub async fn claim<'e>(ex: impl Executor<'e, Database = Any>, r: &NewRecord) -> sqlx::Result<bool> {
    let done = bind(
        sqlx::query(AssertSqlSafe(claim_sql(1, Params::Numbered))),
        r,
    )
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Claims several keys in one statement; returns the intent ids of the records claimed (a key
/// whose live record exists returns nothing). The records must name distinct keys (one
/// statement cannot claim a key twice).
pub(crate) async fn claim_many<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    records: &[&NewRecord],
) -> sqlx::Result<Vec<String>> {
    if records.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "{} returning payment_intent_id",
        claim_sql(records.len(), params)
    )));
    for r in records {
        q = bind(q, r);
    }
    let rows = q.persistent(false).fetch_all(ex).await?;
    let ids = rows
        .iter()
        .map(|row| row.try_get::<Option<String>, _>(0))
        .collect::<sqlx::Result<Vec<_>>>()?;
    Ok(ids.into_iter().flatten().collect())
}

/// Takes over an in-progress claim whose lease ran out (its request died): moves the lease
/// from `seen` to `until` if no one took it since.
pub async fn take_over<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    key: &str,
    seen: i64,
    until: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update idempotency_records set lease_until = $4 \
         where merchant_id = $1 and idempotency_key = $2 and lease_until = $3",
    )
    .bind(merchant_id)
    .bind(key)
    .bind(seen)
    .bind(until)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Completes an in-progress claim with the response to replay from now on. False when the
/// claim is no longer ours (its lease ran out and another request took it over).
pub async fn complete<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    key: &str,
    lease_until: i64,
    response_status: i64,
    response_body: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update idempotency_records set response_status = $4, response_body = $5, \
           lease_until = null \
         where merchant_id = $1 and idempotency_key = $2 and lease_until = $3",
    )
    .bind(merchant_id)
    .bind(key)
    .bind(lease_until)
    .bind(response_status)
    .bind(response_body)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes expired records; returns how many.
pub async fn purge_expired<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
) -> sqlx::Result<u64> {
    Ok(
        sqlx::query("delete from idempotency_records where expires_at <= $1")
            .bind(now)
            .execute(ex)
            .await?
            .rows_affected(),
    )
}
