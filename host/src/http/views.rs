//! Response bodies of the merchant API, as the contract and DESIGN.md section 5 name them.

use pixgate_policy_logic::calendar::Day;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::catalog::Store;
use crate::db::intents::Intent;
use crate::domain::money::brl;

/// `2026-11-22T01:36:38.123Z` for a Unix time in milliseconds.
pub fn iso8601(ms: i64) -> String {
    let day = Day(ms.div_euclid(86_400_000));
    let in_day = ms.rem_euclid(86_400_000);
    let (h, m, s, milli) = (
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000,
    );
    format!("{day}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StoreRef {
    #[schema(example = "demo-store")]
    pub code: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Routing {
    /// `SHADOW` or `LIVE`.
    #[schema(example = "SHADOW")]
    pub mode: String,
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
    #[schema(example = "SHADOW_ONLY")]
    pub status: String,
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
            status: intent.status.clone(),
            amount: brl(intent.amount_centavos as u64),
            currency: intent.currency.clone(),
            reference: intent.reference.clone(),
            description: intent.description.clone(),
            store: StoreRef {
                code: store.code.clone(),
                name: store.name.clone(),
            },
            routing: Routing {
                mode: intent.routing_mode.clone(),
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

#[cfg(test)]
mod tests {
    #[test]
    fn iso8601_is_utc_with_milliseconds() {
        assert_eq!(super::iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            super::iso8601(1_795_100_400_123),
            "2026-11-19T15:00:00.123Z"
        );
    }
}
