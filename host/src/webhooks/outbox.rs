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
use crate::db::mandates::Mandate;
use crate::db::refunds::{Refund, RefundStatus};
use crate::db::{catalog, intents, webhooks as sql};
use crate::webhooks::EventType;
use pixgate_domain::IntentStatus;
use pixgate_domain::mandate::MandateStatus;
use pixgate_domain::money::brl;
use pixgate_domain::recurring::{Attempt, AttemptStatus};
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

/// The event a status emits; `SHADOW_ONLY` emits none, and `SCHEDULED` none until the charge
/// is sent (`PENDING`).
pub fn event_type(status: IntentStatus) -> Option<EventType> {
    match status {
        IntentStatus::Pending => Some(EventType::PaymentPending),
        IntentStatus::Succeeded => Some(EventType::PaymentSucceeded),
        IntentStatus::Failed => Some(EventType::PaymentFailed),
        IntentStatus::Canceled => Some(EventType::PaymentCanceled),
        IntentStatus::ShadowOnly | IntentStatus::Scheduled => None,
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

/// Moves a `PENDING` intent (or a `SCHEDULED` recurring charge) to a final status and records
/// its event, in the caller's transaction.
pub async fn record_transition(
    conn: &mut AnyConnection,
    intent_id: &str,
    change: Transition<'_>,
) -> Result<Recorded, OutboxError> {
    let mut intent = intents::by_id(&mut *conn, intent_id)
        .await?
        .ok_or_else(|| OutboxError::NotFound(intent_id.to_owned()))?;
    let from = intent.status;
    let allowed = matches!(from, IntentStatus::Pending | IntentStatus::Scheduled)
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
        from,
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

/// Moves a `SCHEDULED` recurring charge to `PENDING` (its `cobr` is at the PSP now, read
/// again from `reconcile_at`) and records `payment.pending`, in the caller's transaction.
pub async fn record_sent(
    conn: &mut AnyConnection,
    intent_id: &str,
    at: i64,
    reconcile_at: i64,
) -> Result<Recorded, OutboxError> {
    let mut intent = intents::by_id(&mut *conn, intent_id)
        .await?
        .ok_or_else(|| OutboxError::NotFound(intent_id.to_owned()))?;
    if intent.status != IntentStatus::Scheduled {
        return Err(OutboxError::IllegalTransition {
            from: intent.status,
            to: IntentStatus::Pending,
        });
    }
    if !intents::sent(&mut *conn, intent_id, at, reconcile_at).await? {
        return Err(OutboxError::Concurrent(intent_id.to_owned()));
    }
    intent.status = IntentStatus::Pending;
    intent.updated_at = at;
    intent.reconcile_at = Some(reconcile_at);
    emit(conn, intent, Some(IntentStatus::Scheduled)).await
}

/// Records a recurring charge's attempts as its PSP now lists them, and `payment.attempt_failed`
/// for each rejected or expired attempt the intent did not know as such, in the caller's
/// transaction. Returns the ids of the deliveries.
pub async fn record_attempts(
    conn: &mut AnyConnection,
    intent: &Intent,
    attempts: &[Attempt],
    at: i64,
) -> Result<Vec<String>, OutboxError> {
    let known: Vec<Attempt> = intent
        .recurring
        .attempts
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default();
    if known.as_slice() == attempts {
        return Ok(Vec::new());
    }
    let text = serde_json::to_string(attempts)
        .map_err(|e| OutboxError::Corrupt(format!("attempts: {e}")))?;
    intents::record_attempts(&mut *conn, &intent.id, &text, at).await?;
    let Some(mandate_id) = intent.recurring.mandate_id.as_deref() else {
        return Err(OutboxError::Corrupt(format!(
            "intent {} has attempts and no mandate",
            intent.id
        )));
    };
    let failed = |a: &Attempt| matches!(a.status, AttemptStatus::Rejected | AttemptStatus::Expired);
    let newly_failed: Vec<&Attempt> = attempts
        .iter()
        .enumerate()
        .filter(|(i, a)| failed(a) && !known.get(*i).is_some_and(|k| failed(k) && k.date == a.date))
        .map(|(_, a)| a)
        .collect();
    let mut delivery_ids = Vec::new();
    if newly_failed.is_empty() {
        return Ok(delivery_ids);
    }
    let store = catalog::store_by_id(&mut *conn, &intent.store_id)
        .await?
        .ok_or_else(|| OutboxError::Corrupt(format!("intent {} has no store", intent.id)))?;
    let fields = event_fields(intent, &store.code);
    for attempt in newly_failed {
        // The payment event's fields with the attempt; the metadata as sent, never respelled.
        let mut fields = fields.clone();
        fields["attempt"] = json!(attempt);
        let data = with_metadata(fields, &intent.metadata);
        let id = uuid::Uuid::now_v7().to_string();
        sql::insert_mandate_event(
            &mut *conn,
            &id,
            &intent.merchant_id,
            mandate_id,
            Some(&intent.id),
            EventType::PaymentAttemptFailed,
            data.get(),
            at,
        )
        .await?;
        delivery_ids.extend(
            fan_out(
                conn,
                &intent.merchant_id,
                EventType::PaymentAttemptFailed,
                EventRef::Mandate(&id),
                &data,
                at,
            )
            .await?,
        );
    }
    Ok(delivery_ids)
}

/// Which event a delivery carries.
#[derive(Debug, Clone, Copy)]
enum EventRef<'a> {
    Payment(&'a str),
    Refund(&'a str),
    Mandate(&'a str),
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
        let (mut event_id, mut refund_event_id, mut mandate_event_id) = (None, None, None);
        match event {
            EventRef::Payment(id) => event_id = Some(id.to_owned()),
            EventRef::Refund(id) => refund_event_id = Some(id.to_owned()),
            EventRef::Mandate(id) => mandate_event_id = Some(id.to_owned()),
        }
        sql::insert_delivery(
            &mut *conn,
            &sql::Delivery {
                id: id.clone(),
                endpoint_id: endpoint.id,
                event_id,
                refund_event_id,
                mandate_event_id,
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

/// The event a mandate's status emits: `mandate.authorized` when it turns `ACTIVE`, and one
/// for each way it ends but `FAILED` (a mandate no PSP took was never before a payer).
pub fn mandate_event_type(status: MandateStatus) -> Option<EventType> {
    match status {
        MandateStatus::Active => Some(EventType::MandateAuthorized),
        MandateStatus::Rejected => Some(EventType::MandateRejected),
        MandateStatus::Expired => Some(EventType::MandateExpired),
        MandateStatus::Canceled => Some(EventType::MandateCanceled),
        MandateStatus::PendingAuthorization | MandateStatus::Failed | MandateStatus::ShadowOnly => {
            None
        }
    }
}

/// Records the event of the move `mandate` just made (its row already moved in this
/// transaction), with its deliveries. Returns their ids (none when the status emits no event).
pub async fn record_mandate_moved(
    conn: &mut AnyConnection,
    mandate: &Mandate,
) -> Result<Vec<String>, OutboxError> {
    let Some(event_type) = mandate_event_type(mandate.status) else {
        return Ok(Vec::new());
    };
    let store = catalog::store_by_id(&mut *conn, &mandate.store_id)
        .await?
        .ok_or_else(|| OutboxError::Corrupt(format!("mandate {} has no store", mandate.id)))?;
    let data = mandate_event_data(mandate, &store.code)?;
    let id = uuid::Uuid::now_v7().to_string();
    let created_at = mandate.updated_at;
    sql::insert_mandate_event(
        &mut *conn,
        &id,
        &mandate.merchant_id,
        &mandate.id,
        None,
        event_type,
        data.get(),
        created_at,
    )
    .await?;
    fan_out(
        conn,
        &mandate.merchant_id,
        event_type,
        EventRef::Mandate(&id),
        &data,
        created_at,
    )
    .await
}

/// The payload's `data` for a mandate event (DESIGN.md section 17).
fn mandate_event_data(m: &Mandate, store_code: &str) -> Result<Box<RawValue>, OutboxError> {
    let stored = |text: &Option<String>, what: &str| -> Result<Option<Value>, OutboxError> {
        text.as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| OutboxError::Corrupt(format!("mandate {} {what}: {e}", m.id)))
    };
    let mut data = json!({
        "mandateId": m.id,
        "reference": m.reference,
        "status": m.status,
        "store": {"code": store_code},
        "provider": {"code": m.provider_code, "recurrenceId": m.recurrence_id},
    });
    if let Some(rejection) = stored(&m.rejection, "rejection")? {
        data["rejection"] = rejection;
    }
    if let Some(cancellation) = stored(&m.cancellation, "cancellation")? {
        data["cancellation"] = cancellation;
    }
    Ok(with_metadata(data, &m.metadata))
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
    with_metadata(event_fields(intent, store_code), &intent.metadata)
}

/// A payment event's `data` but its metadata.
fn event_fields(intent: &Intent, store_code: &str) -> Value {
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
    // A charge under a mandate: which mandate and which due date, as the intent shows them
    // (DESIGN.md section 17).
    if let Some(mandate) = &intent.recurring.mandate_id {
        data["mandateId"] = json!(mandate);
    }
    if let Some(due) = &intent.recurring.due_date {
        data["dueDate"] = json!(due);
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
    data
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
