//! The PaymentIntent as merchants see it (contract section 2.3, DESIGN.md section 5): the
//! response body of the charge and status routes, and what an Idempotency-Key replays.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::catalog::Store;
use crate::db::intents::Intent;
use crate::domain::money::brl;
use crate::domain::time::iso8601;
use crate::domain::{IntentStatus, StoreMode};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StoreRef {
    #[schema(example = "demo-store")]
    pub code: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Routing {
    pub mode: StoreMode,
    /// The routing policy the policy step chose.
    #[schema(example = "d0-first")]
    pub policy: String,
    #[schema(example = "sandbox-b")]
    pub provider_code: String,
    #[schema(example = "sandbox-b-d0")]
    pub gateway_alias: String,
    #[schema(example = "D0")]
    pub release_class: String,
    pub cross_release_class_failover: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Economics {
    /// Fee in BRL.
    #[schema(example = 1.65)]
    pub fee_amount: f64,
    /// Amount minus fee, in BRL.
    #[schema(example = 128.25)]
    pub net_amount: f64,
    /// When the money is released to the merchant (Brasília calendar).
    #[schema(example = "2026-11-19", format = Date)]
    pub settlement_date: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderRef {
    pub code: String,
    pub payment_id: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Failure {
    pub code: String,
    pub message: String,
}

/// A PaymentIntent. `status` is `SHADOW_ONLY` (terminal) or `PENDING`, then `SUCCEEDED`,
/// `FAILED` or `CANCELED` (terminal).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentIntent {
    #[schema(format = Uuid)]
    pub payment_intent_id: String,
    /// True when this response replays an earlier request with the same Idempotency-Key.
    pub idempotent_replay: bool,
    pub status: IntentStatus,
    /// Amount in BRL.
    #[schema(example = 129.9)]
    pub amount: f64,
    #[schema(example = "BRL")]
    pub currency: String,
    pub reference: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub store: StoreRef,
    pub routing: Routing,
    pub economics: Economics,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// The merchant's metadata, as sent.
    #[schema(value_type = Object)]
    pub metadata: serde_json::Value,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub completed_at: Option<String>,
}

/// `{"success": true, "data": PaymentIntent}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PaymentIntentEnvelope {
    /// Always true.
    pub success: bool,
    pub data: PaymentIntent,
}

impl PaymentIntent {
    pub fn from_row(intent: &Intent, store: &Store, replay: bool) -> Self {
        let failure = match (&intent.failure_code, &intent.failure_message) {
            (Some(code), message) => Some(Failure {
                code: code.clone(),
                message: message.clone().unwrap_or_default(),
            }),
            _ => None,
        };
        Self {
            payment_intent_id: intent.id.clone(),
            idempotent_replay: replay,
            status: intent.status,
            amount: brl(intent.amount_centavos as u64),
            currency: intent.currency.clone(),
            reference: intent.reference.clone(),
            description: intent.description.clone(),
            store: StoreRef {
                code: store.code.clone(),
                name: store.name.clone(),
            },
            routing: Routing {
                mode: intent.routing_mode,
                policy: intent.routing_policy.clone(),
                provider_code: intent.provider_code.clone(),
                gateway_alias: intent.gateway_alias.clone(),
                release_class: intent.release_class.clone(),
                cross_release_class_failover: intent.cross_class_failover.0,
            },
            economics: Economics {
                fee_amount: brl(intent.fee_centavos as u64),
                net_amount: brl(intent.net_centavos as u64),
                settlement_date: intent.settlement_date.clone(),
            },
            provider: intent.provider_payment_id.as_ref().map(|id| ProviderRef {
                code: intent.provider_code.clone(),
                payment_id: id.clone(),
            }),
            failure,
            metadata: serde_json::from_str(&intent.metadata).unwrap_or(serde_json::Value::Null),
            created_at: iso8601(intent.created_at),
            updated_at: iso8601(intent.updated_at),
            completed_at: intent.completed_at.map(iso8601),
        }
    }
}
