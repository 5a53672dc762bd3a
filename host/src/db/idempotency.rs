//! Idempotency records: one per (merchant, Idempotency-Key), holding the request's hash and
//! the response to replay.

use sqlx::{Any, Executor};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Record {
    pub request_hash: String,
    pub response_status: i64,
    pub response_body: String,
    pub payment_intent_id: Option<String>,
    pub expires_at: i64,
}

/// The live (unexpired) record for the key.
pub async fn find<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    key: &str,
    now: i64,
) -> sqlx::Result<Option<Record>> {
    sqlx::query_as(
        "select request_hash, response_status, response_body, payment_intent_id, expires_at \
         from idempotency_records where merchant_id = $1 and idempotency_key = $2 and expires_at > $3",
    )
    .bind(merchant_id)
    .bind(key)
    .bind(now)
    .fetch_optional(ex)
    .await
}

pub struct NewRecord<'a> {
    pub merchant_id: &'a str,
    pub key: &'a str,
    pub request_hash: &'a str,
    pub response_status: i64,
    pub response_body: &'a str,
    pub payment_intent_id: Option<&'a str>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// Claims the key: inserts the record, or takes over an expired one. False when a live
/// record exists (on PostgreSQL this waits for a concurrent claimer to commit first).
pub async fn claim<'e>(
    ex: impl Executor<'e, Database = Any>,
    r: &NewRecord<'_>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "insert into idempotency_records (merchant_id, idempotency_key, request_hash, \
           response_status, response_body, payment_intent_id, created_at, expires_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8) \
         on conflict (merchant_id, idempotency_key) do update set \
           request_hash = excluded.request_hash, response_status = excluded.response_status, \
           response_body = excluded.response_body, payment_intent_id = excluded.payment_intent_id, \
           created_at = excluded.created_at, expires_at = excluded.expires_at \
         where idempotency_records.expires_at <= $7",
    )
    .bind(r.merchant_id)
    .bind(r.key)
    .bind(r.request_hash)
    .bind(r.response_status)
    .bind(r.response_body)
    .bind(r.payment_intent_id)
    .bind(r.created_at)
    .bind(r.expires_at)
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
