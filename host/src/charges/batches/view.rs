//! A batch as merchants see it: the 202 of `POST /payments/charge-batches` (what its
//! Idempotency-Key replays) and the read `GET /payments/charge-batches/{batchId}`.

use serde::Serialize;
use utoipa::ToSchema;

use crate::db::batches::{Batch, ItemView};
use crate::db::catalog::Store;
use pixgate_domain::batch::{BatchItemStatus, BatchStatus};
use pixgate_pix::time::iso8601;

/// The batch as accepted: its items are processed after this answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargeBatchAccepted {
    #[schema(format = Uuid)]
    pub batch_id: String,
    /// Whether this answer replays an earlier request with the same Idempotency-Key.
    pub idempotent_replay: bool,
    /// `PROCESSING`: read the batch for its items' fate.
    pub status: BatchStatus,
    /// How many charges the batch holds.
    #[schema(minimum = 1, maximum = 1000)]
    pub total: u32,
}

/// `{"success": true, "data": ChargeBatchAccepted}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeBatchAcceptedEnvelope {
    /// Always true.
    pub success: bool,
    pub data: ChargeBatchAccepted,
}

/// The store a batch is for.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoreCode {
    #[schema(example = "demo-store")]
    pub code: String,
}

/// Why an item was rejected: the error a single charge would have got.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BatchItemError {
    /// Stable snake_case code, the same as a single charge's (`invalid_tax_id`,
    /// `invalid_due_date`, `amount_above_store_limit`, ...), or `psp_refused` when the PSP
    /// denied the charge (its `problema` in the message).
    #[schema(example = "invalid_tax_id")]
    pub code: String,
    pub message: String,
    /// The item's field at fault (`payer.taxId`), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// One charge of a batch.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargeBatchItem {
    /// Its place in the request's `charges`, from 0.
    #[schema(minimum = 0, maximum = 999)]
    pub index: u32,
    /// The item's `reference`; `null` when it had none a charge may have.
    pub reference: Option<String>,
    pub status: BatchItemStatus,
    /// The PaymentIntent it created (`CREATED`): a due-date intent like any other, read and
    /// found with the payment routes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = Uuid)]
    pub payment_intent_id: Option<String>,
    /// Why it was rejected (`REJECTED`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<BatchItemError>,
}

/// A batch and each of its charges.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargeBatch {
    #[schema(format = Uuid)]
    pub batch_id: String,
    /// `PROCESSING` while any item is, then `DONE`.
    pub status: BatchStatus,
    pub store: StoreCode,
    #[schema(minimum = 1, maximum = 1000)]
    pub total: u32,
    /// Items `CREATED` so far.
    pub created: u32,
    /// Items `REJECTED` so far.
    pub rejected: u32,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When the last item was resolved (`DONE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub completed_at: Option<String>,
    /// Every item, in the request's order.
    pub items: Vec<ChargeBatchItem>,
}

/// `{"success": true, "data": ChargeBatch}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeBatchEnvelope {
    /// Always true.
    pub success: bool,
    pub data: ChargeBatch,
}

impl ChargeBatch {
    pub fn from_rows(batch: &Batch, store: &Store, items: &[ItemView]) -> Self {
        let count = |status| items.iter().filter(|i| i.status == status).count() as u32;
        Self {
            batch_id: batch.id.clone(),
            status: batch.status,
            store: StoreCode {
                code: store.code.clone(),
            },
            total: u32::try_from(batch.total).unwrap_or_default(),
            created: count(BatchItemStatus::Created),
            rejected: count(BatchItemStatus::Rejected),
            created_at: iso8601(batch.created_at),
            completed_at: batch.completed_at.map(iso8601),
            items: items
                .iter()
                .map(|i| ChargeBatchItem {
                    index: u32::try_from(i.item_index).unwrap_or_default(),
                    reference: i.reference.clone(),
                    status: i.status,
                    payment_intent_id: (i.status == BatchItemStatus::Created)
                        .then(|| i.payment_intent_id.clone()),
                    error: i.error_code.as_ref().map(|code| BatchItemError {
                        code: code.clone(),
                        message: i.error_message.clone().unwrap_or_default(),
                        field: i.error_field.clone(),
                    }),
                })
                .collect(),
        }
    }
}
