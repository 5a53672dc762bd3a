//! The Refund as merchants see it (DESIGN.md section 11): the body of the refund routes and
//! what an Idempotency-Key replays.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::charges::view::Failure;
use crate::db::refunds::{Refund, RefundStatus};
use pixgate_domain::money::brl;
use pixgate_pix::time::iso8601;

/// The refund at its PSP: the devolução's ids.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundProvider {
    #[schema(example = "sandbox-a")]
    pub code: String,
    /// The devolução's `id` at the PSP (derived from `refundId`, so a retried request names
    /// the same devolução).
    #[schema(example = "0f8fad5bd9cb469fa16570867728950e")]
    pub refund_id: String,
    /// The SPI's ReturnIdentification, once the PSP gave one.
    #[schema(example = "D12345678202611241210abcdefghijk")]
    pub rtr_id: Option<String>,
}

/// A refund of a payment: `PENDING`, then `SUCCEEDED` or `FAILED`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundView {
    #[schema(format = Uuid)]
    pub refund_id: String,
    #[schema(format = Uuid)]
    pub payment_intent_id: String,
    /// True when this response replays an earlier request with the same Idempotency-Key.
    pub idempotent_replay: bool,
    /// Amount in BRL.
    #[schema(example = 30.0)]
    pub amount: f64,
    #[schema(example = "BRL")]
    pub currency: String,
    pub status: RefundStatus,
    /// As sent; for a devolução the PSP made on its own (the MED), its `natureza`.
    pub reason: Option<String>,
    /// The merchant's metadata, as sent.
    #[schema(value_type = Object)]
    pub metadata: serde_json::Value,
    pub provider: RefundProvider,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub completed_at: Option<String>,
}

/// `{"success": true, "data": Refund}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RefundEnvelope {
    /// Always true.
    pub success: bool,
    pub data: RefundView,
}

/// `{"success": true, "data": [Refund, ...]}`, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RefundListEnvelope {
    /// Always true.
    pub success: bool,
    pub data: Vec<RefundView>,
}

impl RefundView {
    pub fn from_row(refund: &Refund, replay: bool) -> Self {
        Self {
            refund_id: refund.id.clone(),
            payment_intent_id: refund.payment_intent_id.clone(),
            idempotent_replay: replay,
            amount: brl(refund.amount_centavos as u64),
            currency: refund.currency.clone(),
            status: refund.status,
            reason: refund.reason.clone(),
            metadata: serde_json::from_str(&refund.metadata).unwrap_or(serde_json::Value::Null),
            provider: RefundProvider {
                code: refund.provider_code.clone(),
                refund_id: refund.devolucao_id.clone(),
                rtr_id: refund.rtr_id.clone(),
            },
            failure: refund.failure_code.as_ref().map(|code| Failure {
                code: code.clone(),
                message: refund.failure_message.clone().unwrap_or_default(),
            }),
            created_at: iso8601(refund.created_at),
            completed_at: refund.completed_at.map(iso8601),
        }
    }
}
