//! Batches of due-date charges (DESIGN.md section 16): `POST /payments/charge-batches` and
//! its read. The HTTP layer hands [`ChargeBatches::submit`] the store and each item's JSON
//! text as sent; the answer is a 202 once the batch is written, and the worker ([`worker`])
//! runs each item through the chain as a single charge, on this instance or another.
//!
//! The submit: the store (404, 403, and 403 `live_execution_disabled` as for a charge), each
//! item judged as a single charge would be on this day (a bad one is written `REJECTED` with
//! the code a single charge gets, and no more is done with it), the Idempotency-Key (replay
//! or 409), then in one transaction the key's record holding the 202 to replay, the batch and
//! its items, each with the id of the intent it will create (its txid derives from it) and
//! its request sealed (it holds the payer). Nothing the 202 acknowledges is lost to a crash:
//! the worker claims batches from the database.

mod view;
mod worker;

use std::sync::Arc;

use tokio::sync::Notify;

pub use view::{
    BatchItemError, ChargeBatch, ChargeBatchAccepted, ChargeBatchAcceptedEnvelope,
    ChargeBatchEnvelope, ChargeBatchItem, StoreCode,
};

use super::Charges;
use crate::access::{MissingScope, Principal};
use crate::crypto::CryptoError;
use crate::db::batches::{self, Batch, ItemError, NewItem};
use crate::db::{self, DbError, catalog, idempotency};
use crate::internal::Internal;
use pixgate_domain::batch::{
    BatchItemStatus, BatchRequest, BatchStatus, item_fingerprint, item_reference, parse_item,
};
use pixgate_domain::charge::canonical_json;
use pixgate_domain::json::Invalid;
use pixgate_domain::{IdempotencyKey, StoreMode};

#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error(transparent)]
    MissingScope(#[from] MissingScope),
    #[error("store `{0}` not found")]
    StoreNotFound(String),
    #[error("this API key is not granted store `{0}`")]
    StoreNotGranted(String),
    #[error("live execution is not enabled for store `{0}`; nothing was created")]
    LiveExecutionDisabled(String),
    #[error("this Idempotency-Key was used with a different request")]
    KeyReused,
    #[error("a request with this Idempotency-Key is in progress; retry")]
    KeyInUse,
    #[error("charge batch not found")]
    BatchNotFound,
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<DbError> for BatchError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<sqlx::Error> for BatchError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<CryptoError> for BatchError {
    fn from(e: CryptoError) -> Self {
        Self::Internal(e.into())
    }
}

/// The answer to send for a submitted batch: its status (202) and JSON text, fresh or
/// replayed.
#[derive(Debug)]
pub struct Accepted {
    pub status: u16,
    pub body: String,
}

/// The batch service. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct ChargeBatches {
    /// The charge service: its chain, its intents and its dependencies.
    charges: Charges,
    /// Wakes this instance's worker once a batch is written.
    wake: Arc<Notify>,
}

impl std::fmt::Debug for ChargeBatches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChargeBatches").finish_non_exhaustive()
    }
}

impl ChargeBatches {
    pub fn new(charges: Charges) -> Self {
        Self {
            charges,
            wake: Arc::new(Notify::new()),
        }
    }

    /// Writes the batch and answers 202, or replays the answer this Idempotency-Key got.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, store = %request.store, batch = tracing::field::Empty))]
    pub async fn submit(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: BatchRequest,
    ) -> Result<Accepted, BatchError> {
        let deps = &self.charges.deps;
        let route = deps
            .stores
            .get(&deps.db, &request.store)
            .await?
            .filter(|r| r.store.merchant_id == principal.merchant_id)
            .ok_or_else(|| BatchError::StoreNotFound(request.store.clone()))?;
        let store = &route.store;
        if !principal.granted(&store.id) {
            return Err(BatchError::StoreNotGranted(store.code.clone()));
        }
        if store.mode == StoreMode::Live && !store.live_enabled.0 {
            return Err(BatchError::LiveExecutionDisabled(store.code.clone()));
        }

        // The request as parsed JSON, whatever its items' validity or the day: a retry is
        // the same request.
        let fingerprint = pixgate_domain::sha256_hex(canonical_json(&serde_json::json!({
            "v": "charge-batch/1",
            "store": store.code,
            "charges": request.items.iter().map(|raw| item_fingerprint(raw)).collect::<Vec<_>>(),
        })));
        let now = db::now_ms();
        if let Some(record) =
            idempotency::find(&deps.db.read, &principal.merchant_id, key.as_str(), now).await?
        {
            return replay(&record, &fingerprint);
        }

        let today = db::today_brasilia();
        let mut items = Vec::with_capacity(request.items.len());
        for (index, raw) in request.items.iter().enumerate() {
            let payment_intent_id = uuid::Uuid::now_v7().to_string();
            let reference = item_reference(raw);
            items.push(match parse_item(raw, &store.code, today) {
                Ok(_) => NewItem {
                    index: index as i64,
                    reference,
                    status: BatchItemStatus::Processing,
                    payment_intent_id,
                    request_sealed: Some(deps.master_key.seal(raw.as_bytes())?),
                    error: None,
                },
                Err(invalid) => NewItem {
                    index: index as i64,
                    reference,
                    status: BatchItemStatus::Rejected,
                    payment_intent_id,
                    request_sealed: None,
                    error: Some(ItemError::new(
                        invalid.code,
                        &invalid.message,
                        invalid.field.as_deref(),
                    )),
                },
            });
        }
        let batch_id = uuid::Uuid::now_v7().to_string();
        tracing::Span::current().record("batch", batch_id.as_str());
        let total = items.len();
        let body = serde_json::to_string(&ChargeBatchAcceptedEnvelope {
            success: true,
            data: ChargeBatchAccepted {
                batch_id: batch_id.clone(),
                idempotent_replay: false,
                status: BatchStatus::Processing,
                total: total as u32,
            },
        })
        .map_err(|e| Internal::caused("the batch's answer", e))?;
        let batch = Batch {
            id: batch_id.clone(),
            merchant_id: principal.merchant_id.clone(),
            store_id: store.id.clone(),
            idempotency_key: key.as_str().to_owned(),
            status: BatchStatus::Processing,
            total: total as i64,
            asked_on: today.to_string(),
            attempts: 0,
            created_at: now,
            updated_at: now,
            completed_at: None,
        };
        let mut tx = deps.db.write.begin().await?;
        let claimed = idempotency::claim(
            &mut *tx,
            &idempotency::NewRecord {
                merchant_id: principal.merchant_id.clone(),
                key: key.as_str().to_owned(),
                request_hash: fingerprint.clone(),
                response_status: 202,
                response_body: body.clone(),
                payment_intent_id: None,
                created_at: now,
                expires_at: now + deps.idempotency_retention_ms,
                lease_until: None,
            },
        )
        .await?;
        if !claimed {
            // A concurrent request with this key committed first: replay it (or 409).
            tx.rollback().await?;
            return match idempotency::find(&deps.db.read, &principal.merchant_id, key.as_str(), now)
                .await?
            {
                Some(record) if record.lease_until.is_none() => replay(&record, &fingerprint),
                _ => Err(BatchError::KeyInUse),
            };
        }
        batches::insert_batch(&mut *tx, &batch).await?;
        batches::insert_items(&mut tx, deps.db.backend.params(), &batch_id, &items, now).await?;
        tx.commit().await?;
        let rejected = items
            .iter()
            .filter(|i| i.status == BatchItemStatus::Rejected)
            .count();
        tracing::info!(total, rejected, "charge batch accepted");
        self.wake.notify_one();
        Ok(Accepted { status: 202, body })
    }

    /// Reads a batch of the caller's merchant, for a store its key is granted.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, batch = %id))]
    pub async fn get(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<ChargeBatchEnvelope, BatchError> {
        let db = &self.charges.deps.db;
        // A malformed id is as unknown as any other.
        let id = uuid::Uuid::parse_str(id)
            .map_err(|_| BatchError::BatchNotFound)?
            .to_string();
        let batch = batches::by_id(&db.read, &id)
            .await?
            .filter(|b| b.merchant_id == principal.merchant_id && principal.granted(&b.store_id))
            .ok_or(BatchError::BatchNotFound)?;
        let store = catalog::store_by_id(&db.read, &batch.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("batch {id} without its store")))?;
        let items = batches::items(&db.read, &id).await?;
        Ok(ChargeBatchEnvelope {
            success: true,
            data: ChargeBatch::from_rows(&batch, &store, &items),
        })
    }
}

/// The stored answer for the key, replayed with `idempotentReplay: true`; or 409 when the
/// key was used for another request (another batch, a charge) or is still in use.
fn replay(record: &idempotency::Record, fingerprint: &str) -> Result<Accepted, BatchError> {
    if record.request_hash != fingerprint {
        return Err(BatchError::KeyReused);
    }
    if record.lease_until.is_some() {
        return Err(BatchError::KeyInUse);
    }
    const FRESH: &str = r#""idempotentReplay":false"#;
    let body = record
        .response_body
        .replacen(FRESH, r#""idempotentReplay":true"#, 1);
    if body == record.response_body {
        return Err(Internal::broken("stored batch answer without idempotentReplay").into());
    }
    Ok(Accepted {
        status: u16::try_from(record.response_status).unwrap_or(202),
        body,
    })
}
