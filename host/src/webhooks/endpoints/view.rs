//! What the endpoint service answers: an endpoint as its owner sees it (never with its
//! secret), the creation with its secret, a test's outcome, a delivery with its attempts.
//! These are the response bodies' `data`, with their OpenAPI schemas; the HTTP layer wraps
//! them in the `{"success": true, "data": ...}` envelope.

use serde::Serialize;
use utoipa::ToSchema;

use crate::db::webhooks::{self as sql, DeliveryStatus, EndpointStatus, EventType};
use crate::internal::Internal;
use pixgate_pix::time::iso8601;

/// The signature scheme every endpoint's deliveries carry.
const SIGNING_ALGORITHM: &str = "HMAC-SHA256";

/// A webhook endpoint as its owner sees it (never with its secret).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    #[schema(format = Uuid)]
    pub endpoint_id: String,
    pub name: String,
    #[schema(format = "uri")]
    pub endpoint_url: String,
    #[schema(example = json!(["payment.pending", "payment.succeeded", "payment.failed", "payment.canceled"]))]
    pub events: Vec<String>,
    /// `ACTIVE`, `DISABLED` (after failing continuously; see the enable route) or `REVOKED`.
    pub status: EndpointStatus,
    /// Consecutive failed attempts; a success resets it.
    pub failure_count: i64,
    pub last_delivery: Option<LastDelivery>,
    #[schema(example = "HMAC-SHA256")]
    pub signing_algorithm: &'static str,
    #[schema(example = "X-Service-Signature")]
    pub signature_header: &'static str,
    #[schema(example = "X-Service-Timestamp")]
    pub timestamp_header: &'static str,
    pub created_at: String,
}

impl Endpoint {
    /// The row with its last delivery; `Err` names a stored event list that is not JSON.
    pub(super) fn new(e: &sql::Endpoint, last: Option<sql::Delivery>) -> Result<Self, Internal> {
        Ok(Self {
            endpoint_id: e.id.clone(),
            name: e.name.clone(),
            endpoint_url: e.url.clone(),
            events: serde_json::from_str(&e.events)
                .map_err(|err| Internal::caused(format!("endpoint {} events", e.id), err))?,
            status: e.status,
            failure_count: e.failure_count,
            last_delivery: last.map(|d| LastDelivery {
                delivery_id: d.id,
                event: d.event_type,
                status: d.status,
                http_status: d.last_http_status,
                attempted_at: d.last_attempt_at.map(iso8601),
                error: d.last_error,
            }),
            signing_algorithm: SIGNING_ALGORITHM,
            signature_header: pixgate_webhook::SIGNATURE_HEADER,
            timestamp_header: pixgate_webhook::TIMESTAMP_HEADER,
            created_at: iso8601(e.created_at),
        })
    }
}

/// The most recent delivery attempted to an endpoint.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastDelivery {
    #[schema(format = Uuid)]
    pub delivery_id: String,
    pub event: EventType,
    /// `PENDING` (retrying), `DELIVERED`, `FAILED` (a test), `EXHAUSTED` or `CANCELED`.
    pub status: DeliveryStatus,
    pub http_status: Option<i64>,
    pub attempted_at: Option<String>,
    pub error: Option<String>,
}

/// The creation response: the endpoint plus its signing secret, shown only here.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedEndpoint {
    #[serde(flatten)]
    pub endpoint: Endpoint,
    /// `whsec_` + base64 of 32 random bytes. The HMAC key is this whole string as UTF-8.
    #[schema(example = "whsec_3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")]
    pub signing_secret: String,
}

/// What the test delivery did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    #[schema(format = Uuid)]
    pub delivery_id: String,
    /// `DELIVERED` or `FAILED`.
    pub status: DeliveryStatus,
    pub http_status: Option<u16>,
    pub duration_ms: i64,
    /// Why it failed: a stable code then details, e.g. `http_status: HTTP 500`,
    /// `redirect_not_followed: HTTP 302`, `target_refused: ...` (a host that does not resolve or
    /// resolves to a refused address), `tls_failed: ...`, `timeout`.
    pub error: Option<String>,
}

/// One delivery (one event to one endpoint) with its attempts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    #[schema(format = Uuid)]
    pub delivery_id: String,
    pub event: EventType,
    /// `PENDING`, `DELIVERED`, `FAILED` (a test), `EXHAUSTED` or `CANCELED`.
    pub status: DeliveryStatus,
    pub attempt_count: i64,
    /// When the next attempt is due (PENDING only).
    pub next_attempt_at: Option<String>,
    pub created_at: String,
    pub completed_at: Option<String>,
    /// Why it was canceled or how its last attempt failed.
    pub last_error: Option<String>,
    pub attempts: Vec<AttemptView>,
}

impl Delivery {
    /// The row with its attempts, picked from `attempts` (those of several deliveries).
    pub(super) fn new(d: sql::Delivery, attempts: &[sql::Attempt]) -> Self {
        Self {
            attempts: attempts
                .iter()
                .filter(|a| a.delivery_id == d.id)
                .map(|a| AttemptView {
                    attempt: a.attempt,
                    attempted_at: iso8601(a.attempted_at),
                    http_status: a.http_status,
                    duration_ms: a.duration_ms,
                    error: a.error.clone(),
                })
                .collect(),
            delivery_id: d.id,
            event: d.event_type,
            next_attempt_at: (d.status == DeliveryStatus::Pending)
                .then_some(d.next_attempt_at)
                .flatten()
                .map(iso8601),
            status: d.status,
            attempt_count: d.attempts,
            created_at: iso8601(d.created_at),
            completed_at: d.completed_at.map(iso8601),
            last_error: d.last_error,
        }
    }
}

/// A delivery as the admin sees it from one payment: with the endpoint it goes to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntentDelivery {
    #[schema(format = Uuid)]
    pub endpoint_id: String,
    #[serde(flatten)]
    pub delivery: Delivery,
}

/// A delivery in the admin's list of every merchant's deliveries.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedDelivery {
    #[schema(format = Uuid)]
    pub endpoint_id: String,
    pub endpoint_name: String,
    pub endpoint_url: String,
    /// The merchant's code.
    pub merchant: String,
    /// The PaymentIntent its event is about; `null` for a test delivery.
    #[schema(format = Uuid)]
    pub payment_intent_id: Option<String>,
    #[serde(flatten)]
    pub delivery: Delivery,
}

/// An endpoint an admin registered for a merchant, with its signing secret (shown once).
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminCreatedEndpoint {
    /// The merchant's code.
    pub merchant: String,
    #[serde(flatten)]
    pub created: CreatedEndpoint,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptView {
    pub attempt: i64,
    pub attempted_at: String,
    pub http_status: Option<i64>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A delivery's event is an enum in the merchant document, every type a delivery can carry
    /// (`webhook.test` too), under a name of its own: `EventType` stays the events an endpoint
    /// may subscribe to.
    #[test]
    fn a_deliverys_event_is_listed_apart_from_the_subscribable_ones() {
        let doc = serde_json::to_value(crate::http::payments::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["DeliveryEvent"]["enum"],
            serde_json::json!(EventType::ALL.map(EventType::as_str))
        );
        assert_eq!(
            schemas["EventType"]["enum"],
            serde_json::json!(EventType::SUBSCRIBABLE.map(EventType::as_str))
        );
        for schema in ["Delivery", "LastDelivery"] {
            assert_eq!(
                schemas[schema]["properties"]["event"]["$ref"],
                "#/components/schemas/DeliveryEvent",
                "{schema}: {}",
                schemas[schema]
            );
        }
    }
}
