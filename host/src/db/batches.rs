//! Batches of due-date charges, their items and their lotes (migration 0019), and the worker's
//! claim on a batch.

use sqlx::{Any, AssertSqlSafe, Executor};

use super::{Backend, Params};
use pixgate_domain::batch::{BatchItemStatus, BatchStatus};

/// A batch's row.
#[derive(Debug, Clone)]
pub struct Batch {
    pub id: String,
    pub merchant_id: String,
    pub store_id: String,
    pub idempotency_key: String,
    pub status: BatchStatus,
    pub total: i64,
    /// `YYYY-MM-DD` in Brasília.
    pub asked_on: String,
    pub attempts: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
}

crate::db::from_row!(Batch {
    id,
    merchant_id,
    store_id,
    idempotency_key,
    status: try_from(String),
    total,
    asked_on,
    attempts,
    created_at,
    updated_at,
    completed_at
});

const BATCH_COLUMNS: &str = "id, merchant_id, store_id, idempotency_key, status, total, \
    asked_on, attempts, created_at, updated_at, completed_at";

/// A new item: `PROCESSING` with its sealed request, or `REJECTED` at once (its request is
/// not kept).
#[derive(Debug, Clone)]
pub struct NewItem {
    pub index: i64,
    pub reference: Option<String>,
    pub status: BatchItemStatus,
    pub payment_intent_id: String,
    pub request_sealed: Option<String>,
    pub error: Option<ItemError>,
}

/// Why an item was rejected: a stable code, a message, and the item's field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemError {
    pub code: String,
    pub message: String,
    pub field: Option<String>,
}

impl ItemError {
    /// An error as stored: PostgreSQL text cannot hold U+0000, which a message or a field may
    /// quote from the merchant's request (a metadata key); it is kept as the escape `\u0000`.
    pub fn new(code: &str, message: &str, field: Option<&str>) -> Self {
        let storable = |s: &str| s.replace('\0', "\\u0000");
        Self {
            code: storable(code),
            message: storable(message),
            field: field.map(storable),
        }
    }
}

/// Writes a new batch (in the caller's transaction).
pub async fn insert_batch<'e>(
    ex: impl Executor<'e, Database = Any>,
    b: &Batch,
) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into charge_batches ({BATCH_COLUMNS}, next_attempt_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $9)"
    )))
    .bind(&b.id)
    .bind(&b.merchant_id)
    .bind(&b.store_id)
    .bind(&b.idempotency_key)
    .bind(b.status.as_str())
    .bind(b.total)
    .bind(&b.asked_on)
    .bind(b.attempts)
    .bind(b.created_at)
    .bind(b.updated_at)
    .bind(b.completed_at)
    .execute(ex)
    .await?;
    Ok(())
}

const ITEM_INSERT_COLUMNS: &str = "batch_id, item_index, reference, status, payment_intent_id, \
    request_sealed, error_code, error_message, error_field, updated_at";
const ITEM_INSERT_COUNT: usize = 10;

/// Writes a batch's items, many to a statement (in the caller's transaction).
pub(crate) async fn insert_items(
    conn: &mut sqlx::AnyConnection,
    params: Params,
    batch_id: &str,
    items: &[NewItem],
    now: i64,
) -> sqlx::Result<()> {
    // 100 rows of 10 parameters: far below either backend's bound on parameters.
    for chunk in items.chunks(100) {
        let sql = format!(
            "insert into charge_batch_items ({ITEM_INSERT_COLUMNS}) values {}",
            super::placeholders(chunk.len(), ITEM_INSERT_COUNT, params)
        );
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for item in chunk {
            let error = item.error.as_ref();
            q = q
                .bind(batch_id)
                .bind(item.index)
                .bind(&item.reference)
                .bind(item.status.as_str())
                .bind(&item.payment_intent_id)
                .bind(&item.request_sealed)
                .bind(error.map(|e| e.code.as_str()))
                .bind(error.map(|e| e.message.as_str()))
                .bind(error.and_then(|e| e.field.as_deref()))
                .bind(now);
        }
        q.persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

pub async fn by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Batch>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {BATCH_COLUMNS} from charge_batches where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// An item as the batch's read shows it.
#[derive(Debug, Clone)]
pub struct ItemView {
    pub item_index: i64,
    pub reference: Option<String>,
    pub status: BatchItemStatus,
    pub payment_intent_id: String,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub error_field: Option<String>,
}

crate::db::from_row!(ItemView {
    item_index,
    reference,
    status: try_from(String),
    payment_intent_id,
    error_code,
    error_message,
    error_field
});

/// A batch's items in their order.
pub async fn items<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
) -> sqlx::Result<Vec<ItemView>> {
    sqlx::query_as(
        "select item_index, reference, status, payment_intent_id, error_code, error_message, \
           error_field \
         from charge_batch_items where batch_id = $1 order by item_index",
    )
    .bind(batch_id)
    .fetch_all(ex)
    .await
}

/// A batch the worker claimed.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub id: String,
    pub claim_token: String,
    /// Passes so far, this one included.
    pub attempts: i64,
}

crate::db::from_row!(Claimed {
    id,
    claim_token,
    attempts
});

/// Claims up to `limit` batches due for a pass: each is held until `lease_until` under `token`
/// (not due again meanwhile), and its pass is counted. PostgreSQL locks the rows it takes and
/// skips rows another instance is claiming.
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
            "update charge_batches b set next_attempt_at = $2, claim_token = $3, \
               attempts = b.attempts + 1, updated_at = $1 \
             from (select id from charge_batches where status = 'PROCESSING' \
                   and next_attempt_at <= $1 order by next_attempt_at limit $4 \
                   for update skip locked) due \
             where b.id = due.id \
             returning b.id, b.claim_token, b.attempts"
        }
        // One writer at a time: the statement is atomic on its own.
        Backend::Sqlite => {
            "update charge_batches set next_attempt_at = $2, claim_token = $3, \
               attempts = attempts + 1, updated_at = $1 \
             where id in (select id from charge_batches where status = 'PROCESSING' \
                          and next_attempt_at <= $1 order by next_attempt_at limit $4) \
             returning id, claim_token, attempts"
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

/// Extends the claim `token` on a batch to `until`, if it is still the batch's (no pass
/// claimed it since, its lease run out or not); every write of a pass does this first, in its
/// transaction, so a pass whose claim another took over writes nothing.
pub async fn renew<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    token: &str,
    now: i64,
    until: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update charge_batches set next_attempt_at = $4, updated_at = $3 \
         where id = $1 and claim_token = $2 and status = 'PROCESSING'",
    )
    .bind(id)
    .bind(token)
    .bind(now)
    .bind(until)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Hands a claimed batch back, due again at `next`.
pub async fn release<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    token: &str,
    next: i64,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update charge_batches set next_attempt_at = $3, claim_token = null, updated_at = $4 \
         where id = $1 and claim_token = $2 and status = 'PROCESSING'",
    )
    .bind(id)
    .bind(token)
    .bind(next)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends a claimed batch `DONE` when none of its items is `PROCESSING` any more.
pub async fn finish<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    token: &str,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update charge_batches set status = 'DONE', claim_token = null, completed_at = $3, \
           updated_at = $3 \
         where id = $1 and claim_token = $2 and status = 'PROCESSING' \
           and not exists (select 1 from charge_batch_items \
                           where batch_id = $1 and status = 'PROCESSING')",
    )
    .bind(id)
    .bind(token)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// An item still `PROCESSING`, with what a pass needs of it.
#[derive(Debug, Clone)]
pub struct PendingItem {
    pub item_index: i64,
    pub payment_intent_id: String,
    pub request_sealed: Option<String>,
    /// The chain's trace as recorded, once a LIVE item is routed.
    pub decision: Option<String>,
    pub lote_id: Option<i64>,
}

crate::db::from_row!(PendingItem {
    item_index,
    payment_intent_id,
    request_sealed,
    decision,
    lote_id
});

/// A batch's `PROCESSING` items, in their order.
pub async fn pending_items<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
) -> sqlx::Result<Vec<PendingItem>> {
    sqlx::query_as(
        "select item_index, payment_intent_id, request_sealed, decision, lote_id \
         from charge_batch_items where batch_id = $1 and status = 'PROCESSING' \
         order by item_index",
    )
    .bind(batch_id)
    .fetch_all(ex)
    .await
}

/// Records a LIVE item's route (its trace) and the lote it goes in, if it is still
/// `PROCESSING` and unrouted.
pub async fn route_item<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
    index: i64,
    decision: &str,
    lote_id: i64,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update charge_batch_items set decision = $3, lote_id = $4, updated_at = $5 \
         where batch_id = $1 and item_index = $2 and status = 'PROCESSING' and decision is null",
    )
    .bind(batch_id)
    .bind(index)
    .bind(decision)
    .bind(lote_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends a `PROCESSING` item `CREATED` (its intent is written in the same transaction) or
/// `REJECTED` with `error`; its request is dropped. False when it was no longer `PROCESSING`.
pub async fn resolve_item<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
    index: i64,
    error: Option<&ItemError>,
    now: i64,
) -> sqlx::Result<bool> {
    let status = match error {
        None => BatchItemStatus::Created,
        Some(_) => BatchItemStatus::Rejected,
    };
    let done = sqlx::query(
        "update charge_batch_items set status = $3, error_code = $4, error_message = $5, \
           error_field = $6, request_sealed = null, updated_at = $7 \
         where batch_id = $1 and item_index = $2 and status = 'PROCESSING'",
    )
    .bind(batch_id)
    .bind(index)
    .bind(status.as_str())
    .bind(error.map(|e| e.code.as_str()))
    .bind(error.map(|e| e.message.as_str()))
    .bind(error.and_then(|e| e.field.as_deref()))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// One lote of a batch.
#[derive(Debug, Clone)]
pub struct Lote {
    pub lote_id: i64,
    pub provider_code: String,
    pub gateway_alias: String,
    pub sent_at: Option<i64>,
}

crate::db::from_row!(Lote {
    lote_id,
    provider_code,
    gateway_alias,
    sent_at
});

/// Records a lote of the batch, unless it is recorded already.
pub async fn insert_lote<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
    lote: &Lote,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into charge_batch_lotes (batch_id, lote_id, provider_code, gateway_alias, sent_at) \
         values ($1, $2, $3, $4, $5) on conflict (batch_id, lote_id) do nothing",
    )
    .bind(batch_id)
    .bind(lote.lote_id)
    .bind(&lote.provider_code)
    .bind(&lote.gateway_alias)
    .bind(lote.sent_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn lotes<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
) -> sqlx::Result<Vec<Lote>> {
    sqlx::query_as(
        "select lote_id, provider_code, gateway_alias, sent_at from charge_batch_lotes \
         where batch_id = $1 order by lote_id",
    )
    .bind(batch_id)
    .fetch_all(ex)
    .await
}

/// Marks a lote as (perhaps) sent, before its first PUT.
pub async fn mark_lote_sent<'e>(
    ex: impl Executor<'e, Database = Any>,
    batch_id: &str,
    lote_id: i64,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update charge_batch_lotes set sent_at = $3 \
         where batch_id = $1 and lote_id = $2 and sent_at is null",
    )
    .bind(batch_id)
    .bind(lote_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The code of a merchant, by its id.
pub async fn merchant_code<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select code from merchants where id = $1")
        .bind(merchant_id)
        .fetch_optional(ex)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    /// The claim, its renewal and its end, as a worker uses them: a claimed batch is not due
    /// again until its lease ends, a claim another pass took over writes nothing, and a batch
    /// ends `DONE` only once none of its items is `PROCESSING`.
    #[tokio::test]
    async fn a_batch_is_claimed_by_one_pass_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::connect(&url, 2).await.unwrap();
        sqlx::query("insert into merchants (id, code, name, created_at) values ('m', 'm', 'm', 0)")
            .execute(&db.write)
            .await
            .unwrap();
        sqlx::query(
            "insert into stores (id, merchant_id, code, name, mode, created_at, updated_at) \
             values ('s', 'm', 's', 's', 'SHADOW', 0, 0)",
        )
        .execute(&db.write)
        .await
        .unwrap();
        let batch = Batch {
            id: "b".into(),
            merchant_id: "m".into(),
            store_id: "s".into(),
            idempotency_key: "k".into(),
            status: BatchStatus::Processing,
            total: 2,
            asked_on: "2026-11-27".into(),
            attempts: 0,
            created_at: 100,
            updated_at: 100,
            completed_at: None,
        };
        let mut conn = db.write.acquire().await.unwrap();
        insert_batch(&mut *conn, &batch).await.unwrap();
        let new: Vec<NewItem> = (0..2)
            .map(|i| NewItem {
                index: i,
                reference: Some(format!("r{i}")),
                status: BatchItemStatus::Processing,
                payment_intent_id: format!("intent-{i}"),
                request_sealed: Some("sealed".into()),
                error: None,
            })
            .collect();
        insert_items(&mut conn, Params::Anonymous, "b", &new, 100)
            .await
            .unwrap();
        drop(conn);

        let claimed = claim_due(&db.write, Backend::Sqlite, 200, 1_000, "t1", 10)
            .await
            .unwrap();
        assert_eq!(claimed.len(), 1);
        assert_eq!(claimed[0].attempts, 1);
        // Held: not due again before its lease ends.
        assert!(
            claim_due(&db.write, Backend::Sqlite, 300, 1_100, "t2", 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(renew(&db.write, "b", "t1", 300, 2_000).await.unwrap());
        // Past the lease, another pass takes it; the first one's writes are refused.
        let again = claim_due(&db.write, Backend::Sqlite, 2_000, 3_000, "t2", 10)
            .await
            .unwrap();
        assert_eq!((again.len(), again[0].attempts), (1, 2));
        assert!(!renew(&db.write, "b", "t1", 2_100, 4_000).await.unwrap());

        assert!(!finish(&db.write, "b", "t2", 2_100).await.unwrap());
        let error = ItemError {
            code: "invalid_tax_id".into(),
            message: "bad".into(),
            field: Some("payer.taxId".into()),
        };
        assert!(
            resolve_item(&db.write, "b", 0, Some(&error), 2_100)
                .await
                .unwrap()
        );
        assert!(!resolve_item(&db.write, "b", 0, None, 2_100).await.unwrap());
        assert_eq!(pending_items(&db.read, "b").await.unwrap().len(), 1);
        assert!(route_item(&db.write, "b", 1, "{}", 7, 2_100).await.unwrap());
        assert!(!route_item(&db.write, "b", 1, "{}", 8, 2_100).await.unwrap());
        assert!(resolve_item(&db.write, "b", 1, None, 2_200).await.unwrap());
        assert!(finish(&db.write, "b", "t2", 2_300).await.unwrap());
        let read = by_id(&db.read, "b").await.unwrap().unwrap();
        assert_eq!(read.status, BatchStatus::Done);
        let shown = items(&db.read, "b").await.unwrap();
        assert_eq!(shown[0].status, BatchItemStatus::Rejected);
        assert_eq!(shown[0].error_field.as_deref(), Some("payer.taxId"));
        assert_eq!(shown[1].status, BatchItemStatus::Created);
    }
}
