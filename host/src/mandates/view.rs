//! The Mandate as merchants see it (DESIGN.md section 17): the body of the mandate routes and
//! what an Idempotency-Key replays.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::charges::view::{Failure, metadata_as_sent};
use crate::db::mandates::Mandate;
use pixgate_domain::StoreMode;
use pixgate_domain::mandate::{Frequency, Journey, MandateStatus, RetryPolicy};
use pixgate_domain::money::brl;
use pixgate_pix::time::iso8601;

/// The payer as a mandate shows it: the name only (the tax id stays sealed).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MandatePayerView {
    #[schema(example = "Ana Souza")]
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MandateStore {
    #[schema(example = "demo-store")]
    pub code: String,
}

/// Where the mandate lives: every charge of it goes to this provider.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MandateProvider {
    #[schema(example = "sandbox-a")]
    pub code: String,
    /// The PSP's id of the recurrence (API Pix `idRec`), once it accepted it; `null` for a
    /// SHADOW store's mandate.
    #[schema(example = "RR1234567820301210abcdefghijk")]
    pub recurrence_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirstPaymentRef {
    #[schema(format = Uuid)]
    pub payment_intent_id: String,
}

/// What the payer answers to authorise the mandate: the code they scan (QR journeys, with
/// the first payment for `QR_WITH_FIRST_PAYMENT`), or, for `PUSH`, when the request sent to
/// their bank expires.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Authorization {
    /// The BR Code the payer pastes into their bank's app or scans; `null` for `PUSH`.
    pub copy_and_paste: Option<String>,
    /// The same code as a QR code, a self-contained SVG document, while the mandate waits for
    /// the payer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_code_svg: Option<String>,
    /// When a `PUSH` request stops waiting for the payer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub expires_at: Option<String>,
}

/// Why the payer's bank refused the mandate (API Pix `AP13`, `AP14`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Rejection {
    #[schema(example = "AP13")]
    pub code: String,
    pub message: String,
}

/// Who canceled the mandate, with the standard's code.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cancellation {
    pub by: CanceledBy,
    #[schema(example = "ACCL")]
    pub code: String,
    pub message: String,
}

pixgate_domain::text_enum!(
    /// Who canceled a mandate: the payer or their bank, the merchant or its PSP.
    CanceledBy {
        Payer = "PAYER",
        PayerPsp = "PAYER_PSP",
        Merchant = "MERCHANT",
        MerchantPsp = "MERCHANT_PSP",
        /// A `solicitante` API Pix added after this release.
        Unknown = "UNKNOWN",
    }
);

/// The chain's decision for the mandate, made once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MandateRouting {
    pub mode: StoreMode,
    #[schema(example = "lowest-fee")]
    pub policy: String,
    #[schema(example = "sandbox-a")]
    pub provider_code: String,
    #[schema(example = "sandbox-a-d0")]
    pub gateway_alias: String,
}

/// A mandate as the admin API shows it: the merchant's view, with its merchant (and, read
/// alone, its charges).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminMandate {
    #[serde(flatten)]
    pub mandate: MandateView,
    /// The merchant's code.
    #[schema(example = "demo")]
    pub merchant: String,
    /// Its charges by cycle, with their attempts: in `GET /mandates/{mandateId}` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charges: Option<Vec<MandateChargeView>>,
}

/// One charge of a mandate, as its admin view lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MandateChargeView {
    #[schema(format = Uuid)]
    pub payment_intent_id: String,
    /// The cycle it charges, from 1.
    pub cycle: i64,
    #[schema(format = Date)]
    pub due_date: String,
    pub status: pixgate_domain::IntentStatus,
    /// In BRL.
    pub amount: f64,
    pub attempts: Vec<pixgate_domain::recurring::Attempt>,
}

impl MandateChargeView {
    pub fn from_row(intent: &crate::db::intents::Intent) -> Self {
        Self {
            payment_intent_id: intent.id.clone(),
            cycle: intent.recurring.mandate_cycle.unwrap_or_default(),
            due_date: intent.recurring.due_date.clone().unwrap_or_default(),
            status: intent.status,
            amount: pixgate_domain::money::brl(intent.amount_centavos.max(0) as u64),
            attempts: intent
                .recurring
                .attempts
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_default(),
        }
    }
}

/// A Pix Automático mandate.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MandateView {
    #[schema(format = Uuid)]
    pub mandate_id: String,
    /// True when this response replays an earlier request with the same Idempotency-Key.
    pub idempotent_replay: bool,
    pub status: MandateStatus,
    pub store: MandateStore,
    #[schema(example = "contract-2031")]
    pub reference: String,
    pub description: Option<String>,
    pub payer: MandatePayerView,
    pub frequency: Frequency,
    #[schema(format = Date, example = "2030-12-10")]
    pub start_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = Date)]
    pub end_date: Option<String>,
    /// The fixed amount each cycle charges, in BRL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<f64>,
    /// The least a cycle charges, in BRL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum_amount: Option<f64>,
    pub auto_charge: bool,
    pub retry_policy: RetryPolicy,
    pub journey: Journey,
    /// A `QR_WITH_FIRST_PAYMENT` mandate's first payment: an ordinary PaymentIntent, which
    /// the same QR code pays while it authorises.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_payment: Option<FirstPaymentRef>,
    pub provider: MandateProvider,
    pub routing: MandateRouting,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorization: Option<Authorization>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejection: Option<Rejection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancellation: Option<Cancellation>,
    /// No PSP accepted the mandate (`FAILED`): why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// The merchant's metadata, as sent.
    #[schema(value_type = Object)]
    pub metadata: Box<serde_json::value::RawValue>,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// The authorization as a row keeps it (`psp::live::recurrence::authorization_json`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredAuthorization {
    copy_and_paste: Option<String>,
    expires_at: Option<i64>,
}

/// `{"success": true, "data": Mandate}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MandateEnvelope {
    /// Always true.
    pub success: bool,
    pub data: MandateView,
}

/// `{"success": true, "data": [Mandate, ...]}`, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MandateListEnvelope {
    /// Always true.
    pub success: bool,
    pub data: Vec<MandateView>,
}

impl MandateView {
    /// `payer_name` is the unsealed payer's name; `store_code` the store's code.
    pub fn from_row(m: &Mandate, store_code: &str, payer_name: String, replay: bool) -> Self {
        Self {
            mandate_id: m.id.clone(),
            idempotent_replay: replay,
            status: m.status,
            store: MandateStore {
                code: store_code.to_owned(),
            },
            reference: m.reference.clone(),
            description: m.description.clone(),
            payer: MandatePayerView { name: payer_name },
            frequency: m.frequency,
            start_date: m.start_date.clone(),
            end_date: m.end_date.clone(),
            amount: m.amount_centavos.map(|c| brl(c.max(0) as u64)),
            minimum_amount: m.minimum_amount_centavos.map(|c| brl(c.max(0) as u64)),
            auto_charge: m.auto_charge.0,
            retry_policy: m.retry_policy,
            journey: m.journey,
            first_payment: m
                .first_payment_intent_id
                .clone()
                .map(|payment_intent_id| FirstPaymentRef { payment_intent_id }),
            provider: MandateProvider {
                code: m.provider_code.clone(),
                recurrence_id: m.recurrence_id.clone(),
            },
            routing: MandateRouting {
                mode: m.routing_mode,
                policy: m.routing_policy.clone(),
                provider_code: m.provider_code.clone(),
                gateway_alias: m.gateway_alias.clone(),
            },
            authorization: m.authorization_json.as_deref().and_then(|text| {
                let stored: StoredAuthorization = serde_json::from_str(text).ok()?;
                let waiting = m.status == MandateStatus::PendingAuthorization;
                Some(Authorization {
                    qr_code_svg: stored
                        .copy_and_paste
                        .as_deref()
                        .filter(|_| waiting)
                        .and_then(|code| pixgate_pix::qr::svg(code).ok()),
                    copy_and_paste: stored.copy_and_paste,
                    expires_at: stored.expires_at.map(iso8601),
                })
            }),
            rejection: m
                .rejection
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok()),
            cancellation: m
                .cancellation
                .as_deref()
                .and_then(|c| serde_json::from_str(c).ok()),
            failure: m
                .failure
                .as_deref()
                .and_then(|f| serde_json::from_str(f).ok()),
            metadata: metadata_as_sent(&m.metadata),
            created_at: iso8601(m.created_at),
            updated_at: iso8601(m.updated_at),
        }
    }
}
