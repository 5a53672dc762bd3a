//! The payment-event outbox. A PaymentIntent's transition and its event are written in one
//! transaction, with one delivery per subscribed ACTIVE endpoint of the merchant: an event is
//! never lost to a crash between "the payment moved" and "the merchant will hear of it", and
//! never sent for a transition that rolled back. The sender ([`crate::webhooks::worker`])
//! picks the deliveries up after the commit.
//!
//! Live execution calls [`record_created`] when it creates an intent in `PENDING` or `FAILED`,
//! and [`record_transition`] for every later move; then `Webhooks::wake` after committing.

use serde_json::value::RawValue;
use serde_json::{Value, json};
use sqlx::AnyConnection;

use crate::charges::view::AmountComponents;
use crate::db::intents::{Intent, PaidComponents};
use crate::db::refunds::{Refund, RefundStatus};
use crate::db::{catalog, intents, webhooks as sql};
use crate::webhooks::EventType;
use pixgate_domain::IntentStatus;
use pixgate_domain::money::brl;
use pixgate_pix::time::iso8601;

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("payment intent {0} not found")]
    NotFound(String),
    #[error("a payment intent cannot move from {from} to {to}")]
    IllegalTransition {
        from: IntentStatus,
        to: IntentStatus,
    },
    #[error("payment intent {0} changed status concurrently")]
    Concurrent(String),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

/// The event a status emits; `SHADOW_ONLY` emits none.
pub fn event_type(status: IntentStatus) -> Option<EventType> {
    match status {
        IntentStatus::Pending => Some(EventType::PaymentPending),
        IntentStatus::Succeeded => Some(EventType::PaymentSucceeded),
        IntentStatus::Failed => Some(EventType::PaymentFailed),
        IntentStatus::Canceled => Some(EventType::PaymentCanceled),
        IntentStatus::ShadowOnly => None,
    }
}

/// A move out of `PENDING`.
#[derive(Debug, Clone)]
pub struct Transition<'a> {
    /// `SUCCEEDED`, `FAILED` or `CANCELED`.
    pub to: IntentStatus,
    /// The PSP's id for the payment, once known.
    pub provider_payment_id: Option<&'a str>,
    /// `(code, message)` for `FAILED`.
    pub failure: Option<(&'a str, &'a str)>,
    /// A due-date charge's `SUCCEEDED`: what was paid, and its parts.
    pub paid: Option<Paid>,
    pub at: i64,
}

/// What a due-date charge was paid with: the pix's `valor` in centavos and its parts as JSON
/// in centavos (`original`, `fine`, `interest`, `abatement`, `discount`).
#[derive(Debug, Clone)]
pub struct Paid {
    pub amount_centavos: i64,
    pub components: String,
}

/// What was written.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub intent: Intent,
    /// `None` when the status emits no event.
    pub event_id: Option<String>,
    pub delivery_ids: Vec<String>,
}

/// Records the event of an intent just inserted in this transaction (`PENDING`, or `FAILED`
/// when no gateway could create the charge).
pub async fn record_created(
    conn: &mut AnyConnection,
    intent: &Intent,
) -> Result<Recorded, OutboxError> {
    emit(conn, intent.clone(), None).await
}

/// Moves a `PENDING` intent to a final status and records its event, in the caller's
/// transaction.
pub async fn record_transition(
    conn: &mut AnyConnection,
    intent_id: &str,
    change: Transition<'_>,
) -> Result<Recorded, OutboxError> {
    let mut intent = intents::by_id(&mut *conn, intent_id)
        .await?
        .ok_or_else(|| OutboxError::NotFound(intent_id.to_owned()))?;
    let allowed = intent.status == IntentStatus::Pending
        && change.to.is_terminal()
        && change.to != IntentStatus::ShadowOnly
        && (change.to == IntentStatus::Failed) == change.failure.is_some();
    if !allowed {
        return Err(OutboxError::IllegalTransition {
            from: intent.status,
            to: change.to,
        });
    }
    let moved = intents::transition(
        &mut *conn,
        intent_id,
        IntentStatus::Pending,
        change.to,
        change.provider_payment_id,
        change.failure,
        Some(change.at),
        change.at,
    )
    .await?;
    if !moved {
        return Err(OutboxError::Concurrent(intent_id.to_owned()));
    }
    if let Some(paid) = &change.paid {
        intents::record_paid(
            &mut *conn,
            intent_id,
            paid.amount_centavos,
            &paid.components,
        )
        .await?;
        intent.amount_paid_centavos = Some(paid.amount_centavos);
        intent.amount_components = Some(paid.components.clone());
    }
    let from = std::mem::replace(&mut intent.status, change.to);
    if let Some(id) = change.provider_payment_id {
        intent.provider_payment_id = Some(id.to_owned());
    }
    intent.failure_code = change.failure.map(|f| f.0.to_owned());
    intent.failure_message = change.failure.map(|f| f.1.to_owned());
    intent.completed_at = Some(change.at);
    intent.updated_at = change.at;
    emit(conn, intent, Some(from)).await
}

async fn emit(
    conn: &mut AnyConnection,
    intent: Intent,
    from: Option<IntentStatus>,
) -> Result<Recorded, OutboxError> {
    let Some(event_type) = event_type(intent.status) else {
        return Ok(Recorded {
            intent,
            event_id: None,
            delivery_ids: Vec::new(),
        });
    };
    let store = catalog::store_by_id(&mut *conn, &intent.store_id)
        .await?
        .ok_or_else(|| OutboxError::Corrupt(format!("intent {} has no store", intent.id)))?;
    let data = event_data(&intent, &store.code);
    let event = sql::Event {
        id: uuid::Uuid::now_v7().to_string(),
        merchant_id: intent.merchant_id.clone(),
        payment_intent_id: intent.id.clone(),
        event_type,
        from_status: from,
        to_status: intent.status,
        data: data.get().to_owned(),
        created_at: intent.updated_at,
    };
    sql::insert_event(&mut *conn, &event).await?;
    let delivery_ids = fan_out(
        conn,
        &intent.merchant_id,
        event_type,
        EventRef::Payment(&event.id),
        &data,
        event.created_at,
    )
    .await?;
    Ok(Recorded {
        intent,
        event_id: Some(event.id),
        delivery_ids,
    })
}

/// Which event a delivery carries.
#[derive(Debug, Clone, Copy)]
enum EventRef<'a> {
    Payment(&'a str),
    Refund(&'a str),
}

/// One delivery of the event to each ACTIVE endpoint of the merchant that subscribed to its
/// type, in the caller's transaction. Returns their ids.
async fn fan_out(
    conn: &mut AnyConnection,
    merchant_id: &str,
    event_type: EventType,
    event: EventRef<'_>,
    data: &RawValue,
    created_at: i64,
) -> Result<Vec<String>, OutboxError> {
    let mut delivery_ids = Vec::new();
    for endpoint in sql::active_endpoints(&mut *conn, merchant_id).await? {
        let events: Vec<String> = serde_json::from_str(&endpoint.events)
            .map_err(|e| OutboxError::Corrupt(format!("endpoint {} events: {e}", endpoint.id)))?;
        if !events.iter().any(|e| e == event_type.as_str()) {
            continue;
        }
        let id = uuid::Uuid::new_v4().to_string();
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Payload<'a> {
            id: &'a str,
            r#type: &'a str,
            created_at: String,
            data: &'a RawValue,
        }
        let body = serde_json::to_string(&Payload {
            id: &id,
            r#type: event_type.as_str(),
            created_at: iso8601(created_at),
            data,
        })
        .map_err(|e| OutboxError::Corrupt(format!("event payload: {e}")))?;
        let (event_id, refund_event_id) = match event {
            EventRef::Payment(id) => (Some(id.to_owned()), None),
            EventRef::Refund(id) => (None, Some(id.to_owned())),
        };
        sql::insert_delivery(
            &mut *conn,
            &sql::Delivery {
                id: id.clone(),
                endpoint_id: endpoint.id,
                event_id,
                refund_event_id,
                event_type,
                body,
                status: sql::DeliveryStatus::Pending,
                attempts: 0,
                next_attempt_at: Some(created_at),
                claim_token: None,
                last_attempt_at: None,
                last_http_status: None,
                last_error: None,
                created_at,
                updated_at: created_at,
                completed_at: None,
            },
        )
        .await?;
        delivery_ids.push(id);
    }
    Ok(delivery_ids)
}

/// Records `refund.succeeded` or `refund.failed` for a refund that just settled (its row
/// already moved in this transaction), with its deliveries. Returns their ids.
pub async fn record_refund_settled(
    conn: &mut AnyConnection,
    refund: &Refund,
) -> Result<Vec<String>, OutboxError> {
    let event_type = match refund.status {
        RefundStatus::Succeeded => EventType::RefundSucceeded,
        RefundStatus::Failed => EventType::RefundFailed,
        RefundStatus::Pending => return Ok(Vec::new()),
    };
    let intent = intents::by_id(&mut *conn, &refund.payment_intent_id)
        .await?
        .ok_or_else(|| OutboxError::NotFound(refund.payment_intent_id.clone()))?;
    let store = catalog::store_by_id(&mut *conn, &intent.store_id)
        .await?
        .ok_or_else(|| OutboxError::Corrupt(format!("intent {} has no store", intent.id)))?;
    let data = refund_event_data(refund, &intent, &store.code);
    let id = uuid::Uuid::now_v7().to_string();
    let created_at = refund.updated_at;
    sql::insert_refund_event(
        &mut *conn,
        &id,
        &refund.merchant_id,
        &refund.id,
        event_type,
        data.get(),
        created_at,
    )
    .await?;
    fan_out(
        conn,
        &refund.merchant_id,
        event_type,
        EventRef::Refund(&id),
        &data,
        created_at,
    )
    .await
}

/// The payload's `data` for a refund event (DESIGN.md section 11).
pub fn refund_event_data(refund: &Refund, intent: &Intent, store_code: &str) -> Box<RawValue> {
    let mut data = json!({
        "refundId": refund.id,
        "paymentIntentId": intent.id,
        "reference": intent.reference,
        "amount": brl(refund.amount_centavos as u64),
        "currency": refund.currency,
        "status": refund.status,
        "store": {"code": store_code},
        "provider": {"code": refund.provider_code, "refundId": refund.devolucao_id,
                     "rtrId": refund.rtr_id},
    });
    if let Some(at) = refund.completed_at {
        data["completedAt"] = json!(iso8601(at));
    }
    if let (Some(code), Some(message)) = (&refund.failure_code, &refund.failure_message) {
        data["failure"] = json!({"code": code, "message": message});
    }
    with_metadata(data, &refund.metadata)
}

/// The payload's `data` for a payment event (DESIGN.md section 8).
pub fn event_data(intent: &Intent, store_code: &str) -> Box<RawValue> {
    let mut data = json!({
        "paymentIntentId": intent.id,
        "reference": intent.reference,
        "amount": brl(intent.amount_centavos as u64),
        "currency": intent.currency,
        "status": intent.status,
        "kind": intent.kind,
        "store": {"code": store_code},
        "provider": {"code": intent.provider_code, "paymentId": intent.provider_payment_id},
    });
    if let Some(at) = intent.completed_at {
        data["completedAt"] = json!(iso8601(at));
    }
    if let (Some(code), Some(message)) = (&intent.failure_code, &intent.failure_message) {
        data["failure"] = json!({"code": code, "message": message});
    }
    // A due-date charge: its terms, and once paid what was paid (DESIGN.md section 16).
    if let Some(Value::Object(terms)) = intent
        .due_terms
        .as_deref()
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
    {
        for (name, value) in terms {
            data[name] = value;
        }
    }
    if let Some(paid) = intent.amount_paid_centavos {
        data["amountPaid"] = json!(brl(paid.max(0) as u64));
    }
    if let Some(parts) = intent
        .amount_components
        .as_deref()
        .and_then(|t| serde_json::from_str::<PaidComponents>(t).ok())
    {
        data["amountComponents"] = json!(AmountComponents::from(parts));
    }
    with_metadata(data, &intent.metadata)
}

/// An event's `data` as JSON text: `fields` and the merchant's `metadata` as the text it was
/// sent as (DESIGN.md section 5: echoed as sent, also in events), which a `Value` would
/// respell.
fn with_metadata(fields: Value, metadata: &str) -> Box<RawValue> {
    #[derive(serde::Serialize)]
    struct Data<'a> {
        #[serde(flatten)]
        fields: Value,
        metadata: &'a RawValue,
    }
    let metadata = crate::charges::view::metadata_as_sent(metadata);
    let text = serde_json::to_string(&Data {
        fields,
        metadata: &metadata,
    })
    .expect("a map of JSON values and JSON text serialise");
    RawValue::from_string(text).expect("serde_json writes JSON")
}
