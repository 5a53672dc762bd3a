//! The PaymentIntent as merchants see it (contract section 2.3, DESIGN.md section 5): the
//! response body of the charge and status routes, and what an Idempotency-Key replays.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::catalog::Store;
use crate::db::intents::{Intent, PaidComponents};
use pixgate_domain::due::{AbatementBody, DiscountBody, DueDateFields, FineBody, InterestBody};
use pixgate_domain::money::brl;
use pixgate_domain::{ChargeKind, IntentStatus, StoreMode};
use pixgate_pix::time::iso8601;
use serde_json::Value;

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
    #[schema(example = "sandbox-a")]
    pub code: String,
    /// The PSP's id of the payment (the pix's `endToEndId`), once paid; `null` before.
    pub payment_id: Option<String>,
}

/// The PIX charge of a LIVE intent, as created at the PSP.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PixCharge {
    /// The API Pix txid (26 to 35 letters and digits), the same on every retry of the request.
    #[schema(example = "3f1e0a9c2b7d4e8f9a0b1c2d3e4f5a6b")]
    pub txid: String,
    /// The BR Code (EMV, CRC-checked) the payer pastes into their bank's app. Absent for a
    /// `RECURRING` charge: the payer's bank debits it under the mandate, nobody pays a code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_and_paste: Option<String>,
    /// The same BR Code as a QR code, a self-contained SVG document: while the intent is
    /// `PENDING` (nobody scans a paid or canceled code), in the charge answer and in reads; a
    /// search page carries it only when asked with `include=qrCode`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_code_svg: Option<String>,
    /// When the code stops being payable (absent for a `RECURRING` charge).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub expires_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Failure {
    pub code: String,
    pub message: String,
}

/// A PaymentIntent. `status` is `SHADOW_ONLY` (terminal) or `PENDING`, then `SUCCEEDED`,
/// `FAILED` or `CANCELED` (terminal); a recurring charge due more than 10 days ahead is
/// `SCHEDULED` until its window opens.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentIntent {
    #[schema(format = Uuid)]
    pub payment_intent_id: String,
    /// True when this response replays an earlier request with the same Idempotency-Key.
    pub idempotent_replay: bool,
    pub status: IntentStatus,
    /// `IMMEDIATE` (API Pix `cob`), `DUE_DATE` (`cobv`) or `RECURRING` (`cobr`).
    pub kind: ChargeKind,
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
    /// LIVE intents a PSP created: the PIX charge to pay.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pix: Option<PixCharge>,
    /// LIVE intents a PSP created: the provider and, once paid, its payment id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// The sum of the payment's `SUCCEEDED` refunds, in BRL.
    #[schema(example = 0.0)]
    pub amount_refunded: f64,
    /// A pix of another amount than `amount` was received for this charge (in BRL): it stays
    /// `PENDING` until an admin resolves it, and keeps this once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount_received: Option<f64>,
    /// `RECURRING`: the mandate it charges under (Pix Automático).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = Uuid)]
    pub mandate_id: Option<String>,
    /// `RECURRING`: each attempt to settle it at the payer's bank, oldest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<Vec<pixgate_domain::recurring::Attempt>>,
    /// `DUE_DATE`: the due date (`YYYY-MM-DD`) and the terms below, as the charge set them
    /// (normalised: numbers as JSON numbers, the default `daysAfterDue` written out).
    /// `RECURRING`: its due date.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Date)]
    pub due_date: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>)]
    pub days_after_due: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<FineBody>)]
    pub fine: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<InterestBody>)]
    pub interest: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<AbatementBody>)]
    pub abatement: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<DiscountBody>)]
    pub discount: Option<Value>,
    /// A paid `DUE_DATE` charge: what the payer paid, in BRL (the amount due on the payment
    /// date).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount_paid: Option<f64>,
    /// A paid `DUE_DATE` charge: what `amountPaid` is made of, as the PSP reported it
    /// (API Pix `componentesValor`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount_components: Option<AmountComponents>,
    /// The merchant's metadata, as sent: the exact text (whitespace between tokens aside),
    /// every number with its digits.
    #[schema(value_type = Object)]
    pub metadata: Box<serde_json::value::RawValue>,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub completed_at: Option<String>,
}

/// The parts of a due-date charge's paid amount, in BRL: `amountPaid = original + fine +
/// interest - abatement - discount`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AmountComponents {
    pub original: f64,
    pub fine: f64,
    pub interest: f64,
    pub abatement: f64,
    pub discount: f64,
}

impl From<PaidComponents> for AmountComponents {
    fn from(c: PaidComponents) -> Self {
        Self {
            original: brl(c.original),
            fine: brl(c.fine),
            interest: brl(c.interest),
            abatement: brl(c.abatement),
            discount: brl(c.discount),
        }
    }
}

/// `{"success": true, "data": PaymentIntent}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PaymentIntentEnvelope {
    /// Always true.
    pub success: bool,
    pub data: PaymentIntent,
}

/// Whether a view draws the QR code of a `PENDING` intent's BR Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrCode {
    /// The charge answer and reads (DESIGN.md section 5): a `PENDING` intent's code, drawn.
    IfPending,
    /// A search page not asked `include=qrCode`: never drawn.
    Omit,
}

impl PaymentIntent {
    /// The intent as the charge answer and a read show it: with the QR code while `PENDING`.
    pub fn from_row(intent: &Intent, store: &Store, replay: bool) -> Self {
        Self::from_row_with(intent, store, replay, QrCode::IfPending)
    }

    /// The intent, with its QR code as `qr` says.
    pub fn from_row_with(intent: &Intent, store: &Store, replay: bool, qr: QrCode) -> Self {
        let failure = match (&intent.failure_code, &intent.failure_message) {
            (Some(code), message) => Some(Failure {
                code: code.clone(),
                message: message.clone().unwrap_or_default(),
            }),
            _ => None,
        };
        let due = due_fields(intent);
        Self {
            payment_intent_id: intent.id.clone(),
            idempotent_replay: replay,
            status: intent.status,
            kind: intent.kind,
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
            pix: pix_charge(
                intent,
                qr == QrCode::IfPending && intent.status == IntentStatus::Pending,
            ),
            provider: (intent.txid.is_some() || intent.provider_payment_id.is_some()).then(|| {
                ProviderRef {
                    code: intent.provider_code.clone(),
                    payment_id: intent.provider_payment_id.clone(),
                }
            }),
            failure,
            amount_refunded: brl(intent.money_back.refunded_centavos.max(0) as u64),
            amount_received: intent
                .money_back
                .received_centavos
                .map(|c| brl(c.max(0) as u64)),
            mandate_id: intent.recurring.mandate_id.clone(),
            attempts: intent
                .recurring
                .attempts
                .as_deref()
                .map(|text| serde_json::from_str(text).unwrap_or_default()),
            due_date: due.due_date.or_else(|| {
                intent
                    .recurring
                    .due_date
                    .as_ref()
                    .map(|d| Value::String(d.clone()))
            }),
            days_after_due: due.days_after_due,
            fine: due.fine,
            interest: due.interest,
            abatement: due.abatement,
            discount: due.discount,
            amount_paid: intent.amount_paid_centavos.map(|c| brl(c.max(0) as u64)),
            amount_components: intent
                .amount_components
                .as_deref()
                .and_then(|text| serde_json::from_str::<PaidComponents>(text).ok())
                .map(AmountComponents::from),
            metadata: metadata_as_sent(&intent.metadata),
            created_at: iso8601(intent.created_at),
            updated_at: iso8601(intent.updated_at),
            completed_at: intent.completed_at.map(iso8601),
        }
    }
}

/// A due-date intent's terms as the body set them (none for another kind). The stored JSON is
/// what `DueTerms::to_json` wrote.
fn due_fields(intent: &Intent) -> DueDateFields {
    intent
        .due_terms
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default()
}

/// The metadata text an intent keeps, as JSON to embed verbatim (`null` should a row hold
/// something else, which no write path stores).
pub fn metadata_as_sent(text: &str) -> Box<serde_json::value::RawValue> {
    serde_json::value::RawValue::from_string(text.to_owned()).unwrap_or_else(|_| {
        serde_json::value::RawValue::from_string("null".to_owned()).expect("null is JSON")
    })
}

/// The PIX charge of an intent a PSP created; with its QR code drawn when `with_qr`.
fn pix_charge(intent: &Intent, with_qr: bool) -> Option<PixCharge> {
    let txid = intent.txid.as_ref()?;
    // A recurring charge has its txid (the `cobr`'s) and no code to pay.
    if intent.kind == ChargeKind::Recurring {
        return Some(PixCharge {
            txid: txid.clone(),
            copy_and_paste: None,
            qr_code_svg: None,
            expires_at: None,
        });
    }
    let (code, expires_at) = (intent.pix_copy_paste.as_ref()?, intent.pix_expires_at?);
    Some(PixCharge {
        txid: txid.clone(),
        copy_and_paste: Some(code.clone()),
        qr_code_svg: with_qr.then(|| qr_svg(code)),
        expires_at: Some(iso8601(expires_at)),
    })
}

/// The QR code of a BR Code, drawn once per code while it is among the most recently shown.
///
/// Drawing one costs 1.6 to 2.4 ms of CPU (the encoder tries every mask pattern). A BR Code
/// never changes, so its drawing can be kept. Where: in this process, bounded (512 entries of
/// about 22 KB, near 11 MB), not in the database. The charge answer draws it, so the reads
/// that follow on this instance find it here; another instance, or this one after a restart,
/// draws it once more on its first read. That costs milliseconds once per code and instance;
/// a column would cost about 22 KB for every LIVE intent ever created (22 GB at a million)
/// for a picture shown only while the intent is `PENDING`, at most its expiry (1 day by
/// default, 14 at most). The idempotent replay of a charge needs neither: it replays the
/// stored answer, picture included.
fn qr_svg(code: &str) -> String {
    use std::num::NonZeroUsize;
    use std::sync::{LazyLock, Mutex};

    static CACHE: LazyLock<Mutex<lru::LruCache<String, String>>> = LazyLock::new(|| {
        Mutex::new(lru::LruCache::new(
            NonZeroUsize::new(512).expect("a non-zero capacity"),
        ))
    });
    if let Some(svg) = CACHE.lock().ok().and_then(|mut c| c.get(code).cloned()) {
        return svg;
    }
    // A BR Code is at most 512 characters, far inside a QR code's capacity.
    let svg = pixgate_pix::qr::svg(code).unwrap_or_default();
    if let Ok(mut cache) = CACHE.lock() {
        cache.put(code.to_owned(), svg.clone());
    }
    svg
}
