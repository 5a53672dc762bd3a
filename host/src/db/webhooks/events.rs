//! Payment and refund events: the outbox's record of each transition.

use sqlx::{Any, Executor};

use pixgate_domain::IntentStatus;

pixgate_domain::text_enum!(
    /// What a delivery announces: a payment's move, a refund's end, a mandate's move, a
    /// recurring charge's failed attempt, or a test of the endpoint.
    /// Its name is the `type` of the body and the `X-Service-Event` header. Its schema is
    /// `DeliveryEvent`: `EventType` is the schema of the events an endpoint may subscribe to
    /// (all of these but `webhook.test`).
    #[schema(as = DeliveryEvent)]
    EventType {
        PaymentPending = "payment.pending",
        PaymentSucceeded = "payment.succeeded",
        PaymentFailed = "payment.failed",
        PaymentCanceled = "payment.canceled",
        RefundSucceeded = "refund.succeeded",
        RefundFailed = "refund.failed",
        MandateAuthorized = "mandate.authorized",
        MandateRejected = "mandate.rejected",
        MandateExpired = "mandate.expired",
        MandateCanceled = "mandate.canceled",
        PaymentAttemptFailed = "payment.attempt_failed",
        WebhookTest = "webhook.test",
    }
);

impl EventType {
    /// The events an endpoint may subscribe to.
    pub const PAYMENT: [Self; 4] = [
        Self::PaymentPending,
        Self::PaymentSucceeded,
        Self::PaymentFailed,
        Self::PaymentCanceled,
    ];

    /// Every event an endpoint may name in `events` (payment, refund and Pix Automático
    /// events); an endpoint that names none gets [`Self::PAYMENT`], as before refunds existed.
    pub const SUBSCRIBABLE: [Self; 11] = [
        Self::PaymentPending,
        Self::PaymentSucceeded,
        Self::PaymentFailed,
        Self::PaymentCanceled,
        Self::RefundSucceeded,
        Self::RefundFailed,
        Self::MandateAuthorized,
        Self::MandateRejected,
        Self::MandateExpired,
        Self::MandateCanceled,
        Self::PaymentAttemptFailed,
    ];

    /// An event an endpoint may subscribe to, by its name.
    pub fn subscribable(name: &str) -> Option<Self> {
        Self::SUBSCRIBABLE.into_iter().find(|e| e.as_str() == name)
    }
}

#[derive(Debug, Clone)]
pub struct Event {
    pub id: String,
    pub merchant_id: String,
    pub payment_intent_id: String,
    pub event_type: EventType,
    pub from_status: Option<IntentStatus>,
    pub to_status: IntentStatus,
    pub data: String,
    pub created_at: i64,
}

pub async fn insert_event<'e>(
    ex: impl Executor<'e, Database = Any>,
    e: &Event,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into payment_events (id, merchant_id, payment_intent_id, type, from_status, \
         to_status, data, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&e.id)
    .bind(&e.merchant_id)
    .bind(&e.payment_intent_id)
    .bind(e.event_type.as_str())
    .bind(e.from_status.map(IntentStatus::as_str))
    .bind(e.to_status.as_str())
    .bind(&e.data)
    .bind(e.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records a refund event (`refund.succeeded`, `refund.failed`).
pub async fn insert_refund_event<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    merchant_id: &str,
    refund_id: &str,
    event_type: EventType,
    data: &str,
    created_at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into refund_events (id, merchant_id, refund_id, type, data, created_at) \
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(merchant_id)
    .bind(refund_id)
    .bind(event_type.as_str())
    .bind(data)
    .bind(created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records a Pix Automático event: a mandate's move, or a failed attempt of `intent_id`, one
/// of its recurring charges (`payment.attempt_failed`).
#[allow(clippy::too_many_arguments)]
pub async fn insert_mandate_event<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    merchant_id: &str,
    mandate_id: &str,
    intent_id: Option<&str>,
    event_type: EventType,
    data: &str,
    created_at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into mandate_events (id, merchant_id, mandate_id, payment_intent_id, type, data, \
         created_at) values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(merchant_id)
    .bind(mandate_id)
    .bind(intent_id)
    .bind(event_type.as_str())
    .bind(data)
    .bind(created_at)
    .execute(ex)
    .await?;
    Ok(())
}
