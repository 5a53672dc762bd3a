//! The webhook endpoint service: a merchant's endpoints (create, list, test, revoke, enable)
//! and their deliveries (list, resend). The HTTP layer hands it a parsed
//! [`CreateEndpointRequest`] or the ids and pages a route was asked for, with the merchant of
//! a key that holds `webhooks:manage` (the route checks the scope, before the body); it
//! answers with the response's [`view`]s or an [`EndpointError`].
//!
//! An endpoint is the merchant's own: another merchant's, or an id that is not a UUID, is as
//! unknown as one that does not exist.

pub mod request;
#[cfg(test)]
mod tests;
pub mod view;

use base64::Engine;
use tracing::Span;

pub use request::CreateEndpointRequest;
use request::NewEndpoint;

use super::worker::TestError;
use super::{Delivery, Wake};
use crate::access::Actor;
use crate::crypto::{self, CryptoError, MasterKey};
use crate::db::audit::{self, Action, Change};
use crate::db::webhooks::{self as sql, DeliveryStatus, EndpointStatus};
use crate::db::{self, Db};
use crate::internal::Internal;
use pixgate_domain::json::Invalid;

/// Why an endpoint operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    /// The body or the query breaks a rule (`invalid_endpoint_url`, `invalid_limit`, ...).
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error("webhook endpoint not found")]
    NotFound,
    #[error("webhook delivery not found")]
    DeliveryNotFound,
    /// The admin asked for the deliveries of a PaymentIntent that does not exist.
    #[error("payment intent not found")]
    IntentNotFound,
    /// The admin named a merchant that does not exist.
    #[error("merchant `{0}` not found")]
    MerchantNotFound(String),
    /// The `before` cursor of the delivery list names no delivery of this endpoint.
    #[error("`before` is not a delivery of this endpoint")]
    CursorNotFound,
    #[error("this webhook endpoint is revoked")]
    Revoked,
    /// Only an ACTIVE endpoint's deliveries are resent.
    #[error("this webhook endpoint is {}", .0.as_str())]
    NotActive(EndpointStatus),
    #[error("an attempt of this delivery is being sent; resend it once it ends")]
    InFlight,
    #[error("this merchant already has a live webhook endpoint at this URL")]
    Duplicate,
    #[error(
        "this merchant already has {0} webhook endpoints that are not revoked; revoke one first"
    )]
    LimitReached(u32),
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<sqlx::Error> for EndpointError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<CryptoError> for EndpointError {
    fn from(e: CryptoError) -> Self {
        Self::Internal(e.into())
    }
}

/// A page of a list as the query string asked for it: at most `limit` (1 to 200, 50 when
/// absent), after the item whose id is `cursor` (`after` for endpoints, `before` for
/// deliveries).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

impl Page {
    /// The page size, checked.
    fn limit(&self) -> Result<i64, EndpointError> {
        let limit = self.limit.unwrap_or(50);
        if (1..=200).contains(&limit) {
            Ok(limit)
        } else {
            Err(EndpointError::invalid_limit())
        }
    }
}

impl EndpointError {
    /// A `limit` out of range, or a query string that could not be read.
    pub fn invalid_limit() -> Self {
        Self::Invalid(Invalid::new(
            "invalid_limit",
            "limit",
            "`limit` must be a number from 1 to 200",
        ))
    }
}

/// Webhook endpoints and their deliveries, for their merchant. Built once by the composition
/// root; cheap to clone.
#[derive(Clone)]
pub struct Endpoints {
    db: Db,
    /// Seals a new endpoint's signing secret.
    master_key: MasterKey,
    /// Endpoints a merchant may have that are not revoked (`PIXGATE_WEBHOOK_MAX_ENDPOINTS`).
    max_endpoints: u32,
    /// Sends the test deliveries, within the sender's concurrency.
    delivery: Delivery,
    /// Wakes this instance's sender after a resend.
    wake: Wake,
}

impl std::fmt::Debug for Endpoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoints")
            .field("max_endpoints", &self.max_endpoints)
            .finish_non_exhaustive()
    }
}

impl Endpoints {
    pub fn new(
        db: Db,
        master_key: MasterKey,
        max_endpoints: u32,
        delivery: Delivery,
        wake: Wake,
    ) -> Self {
        Self {
            db,
            master_key,
            max_endpoints,
            delivery,
            wake,
        }
    }

    /// Registers an ACTIVE endpoint with a new signing secret, which the answer carries and
    /// nothing shows again.
    #[tracing::instrument(skip_all, fields(merchant = %merchant, endpoint = tracing::field::Empty))]
    pub async fn create(
        &self,
        merchant: &str,
        request: CreateEndpointRequest,
    ) -> Result<view::CreatedEndpoint, EndpointError> {
        self.create_as(merchant, request, None).await
    }

    /// [`Self::create`], recorded in the audit trail in the same transaction when an admin
    /// (`actor`) made it.
    async fn create_as(
        &self,
        merchant: &str,
        request: CreateEndpointRequest,
        actor: Option<&Actor>,
    ) -> Result<view::CreatedEndpoint, EndpointError> {
        let NewEndpoint { name, url, events } = request.validate()?;
        let secret = format!(
            "whsec_{}",
            base64::engine::general_purpose::STANDARD.encode(crypto::random_bytes::<32>()?)
        );
        let now = db::now_ms();
        let events: Vec<&str> = events.iter().map(|e| e.as_str()).collect();
        let row = sql::Endpoint {
            id: uuid::Uuid::new_v4().to_string(),
            merchant_id: merchant.to_owned(),
            name,
            url: url.as_str().to_owned(),
            url_normalized: url.as_str().to_owned(),
            events: serde_json::to_string(&events).unwrap_or_default(),
            status: EndpointStatus::Active,
            secret_sealed: self.master_key.seal(secret.as_bytes())?,
            failure_count: 0,
            failing_since: None,
            last_failure_at: None,
            last_delivery_id: None,
            created_at: now,
            updated_at: now,
            disabled_at: None,
            revoked_at: None,
        };
        Span::current().record("endpoint", row.id.as_str());
        let cap = self.max_endpoints;
        let change = actor.map(|_| {
            Change::new(
                Action::WebhookEndpointCreate,
                format!("webhook-endpoint/{}", row.id),
            )
            .after(&view::Endpoint::new(&row, None).ok())
        });
        let audit = actor
            .zip(change.as_ref())
            .map(|(a, c)| (a as &(dyn audit::Author + Sync), c));
        match sql::insert_endpoint_capped(&self.db.write, self.db.backend, &row, cap, audit).await {
            Ok(true) => {}
            Ok(false) => return Err(EndpointError::LimitReached(cap)),
            Err(e) => {
                return Err(match db::violated_constraint(&e).as_deref() {
                    Some("webhook_endpoints_merchant_id_key") => EndpointError::Duplicate,
                    _ => e.into(),
                });
            }
        }
        tracing::info!("webhook endpoint created");
        Ok(view::CreatedEndpoint {
            endpoint: self.view(&row).await?,
            signing_secret: secret,
        })
    }

    /// The merchant's endpoints (every status), oldest first, a page at a time.
    #[tracing::instrument(skip_all, fields(merchant = %merchant))]
    pub async fn list(
        &self,
        merchant: &str,
        page: Page,
    ) -> Result<Vec<view::Endpoint>, EndpointError> {
        let limit = page.limit()?;
        let after = match &page.cursor {
            Some(id) => {
                let id = uuid::Uuid::parse_str(id).map_err(|_| {
                    Invalid::new("invalid_after", "after", "`after` must be an endpoint id")
                })?;
                let cursor = sql::endpoint_of_merchant(&self.db.read, merchant, &id.to_string())
                    .await?
                    .ok_or(EndpointError::NotFound)?;
                Some((cursor.created_at, cursor.id))
            }
            None => None,
        };
        let rows = sql::endpoints_of_merchant(&self.db.read, merchant, after, limit).await?;
        let mut endpoints = Vec::with_capacity(rows.len());
        for row in &rows {
            endpoints.push(self.view(row).await?);
        }
        Ok(endpoints)
    }

    /// Sends a `webhook.test` event to the endpoint now and tells what happened. It does not
    /// count toward the endpoint's failure count.
    #[tracing::instrument(skip_all, fields(merchant = %merchant, endpoint = tracing::field::Empty))]
    pub async fn test(&self, merchant: &str, id: &str) -> Result<view::TestResult, EndpointError> {
        let endpoint = self.own_endpoint(merchant, id).await?;
        if endpoint.status == EndpointStatus::Revoked {
            return Err(EndpointError::Revoked);
        }
        let (delivery_id, outcome) =
            self.delivery
                .deliver_test(&endpoint)
                .await
                .map_err(|e| match e {
                    // A revoke committed while the test waited for its turn.
                    TestError::Revoked => EndpointError::Revoked,
                    e => Internal::caused("the test delivery", e).into(),
                })?;
        Ok(view::TestResult {
            delivery_id,
            status: if outcome.succeeded() {
                DeliveryStatus::Delivered
            } else {
                DeliveryStatus::Failed
            },
            http_status: outcome.http_status,
            duration_ms: outcome.duration_ms,
            error: outcome.error,
        })
    }

    /// Revokes the endpoint at once, cancelling its pending deliveries in the same
    /// transaction, so nothing more is sent to it. A revoked endpoint answers the same.
    #[tracing::instrument(skip_all, fields(merchant = %merchant, endpoint = tracing::field::Empty))]
    pub async fn revoke(&self, merchant: &str, id: &str) -> Result<view::Endpoint, EndpointError> {
        let endpoint = self.own_endpoint(merchant, id).await?;
        let now = db::now_ms();
        let mut tx = self.db.write.begin().await?;
        if sql::set_endpoint_status(
            &mut *tx,
            &endpoint.id,
            &[EndpointStatus::Active, EndpointStatus::Disabled],
            EndpointStatus::Revoked,
            now,
        )
        .await?
        {
            let canceled =
                sql::cancel_pending(&mut *tx, &endpoint.id, "endpoint_revoked", now).await?;
            tracing::info!(canceled, "webhook endpoint revoked");
        }
        tx.commit().await?;
        self.reread(merchant, &endpoint.id).await
    }

    /// Re-enables a DISABLED endpoint with a clean failure record (an ACTIVE one answers the
    /// same). Deliveries canceled when it was disabled stay canceled.
    #[tracing::instrument(skip_all, fields(merchant = %merchant, endpoint = tracing::field::Empty))]
    pub async fn enable(&self, merchant: &str, id: &str) -> Result<view::Endpoint, EndpointError> {
        let endpoint = self.own_endpoint(merchant, id).await?;
        if endpoint.status == EndpointStatus::Revoked {
            return Err(EndpointError::Revoked);
        }
        sql::set_endpoint_status(
            &self.db.write,
            &endpoint.id,
            &[EndpointStatus::Disabled],
            EndpointStatus::Active,
            db::now_ms(),
        )
        .await?;
        self.reread(merchant, &endpoint.id).await
    }

    /// The endpoint's deliveries, newest first, each with its attempts, a page at a time.
    /// `page` is `Err` when the query string could not be read: that is judged after the
    /// endpoint is found, so an unknown endpoint is 404 whatever the query.
    #[tracing::instrument(skip_all, fields(merchant = %merchant, endpoint = tracing::field::Empty))]
    pub async fn deliveries(
        &self,
        merchant: &str,
        id: &str,
        page: Result<Page, EndpointError>,
    ) -> Result<Vec<view::Delivery>, EndpointError> {
        let endpoint = self.own_endpoint(merchant, id).await?;
        let page = page?;
        let limit = page.limit()?;
        let before = match &page.cursor {
            Some(id) => {
                let id = uuid::Uuid::parse_str(id).map_err(|_| {
                    Invalid::new("invalid_before", "before", "`before` must be a delivery id")
                })?;
                let cursor = sql::delivery(&self.db.read, &id.to_string())
                    .await?
                    .filter(|d| d.endpoint_id == endpoint.id)
                    .ok_or(EndpointError::CursorNotFound)?;
                Some((cursor.created_at, cursor.id))
            }
            None => None,
        };
        let rows = sql::deliveries_of_endpoint(&self.db.read, &endpoint.id, before, limit).await?;
        let ids: Vec<String> = rows.iter().map(|d| d.id.clone()).collect();
        let attempts = sql::attempts_of(&self.db.read, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|d| view::Delivery::new(d, &attempts))
            .collect())
    }

    /// Makes a delivery of an ACTIVE endpoint due now (same id and body; a fresh timestamp and
    /// signature when sent) and wakes the sender. If that attempt fails, the delivery goes on
    /// with the retries its schedule has left.
    #[tracing::instrument(skip_all, fields(merchant = %merchant, endpoint = tracing::field::Empty, delivery = tracing::field::Empty))]
    pub async fn resend(
        &self,
        merchant: &str,
        endpoint_id: &str,
        delivery_id: &str,
    ) -> Result<view::Delivery, EndpointError> {
        // Both ids are read before either is looked up: a malformed delivery id is unknown
        // whatever the endpoint.
        let endpoint_id = parse_id(endpoint_id).ok_or(EndpointError::NotFound)?;
        let delivery_id = parse_id(delivery_id).ok_or(EndpointError::DeliveryNotFound)?;
        Span::current().record("delivery", delivery_id.as_str());
        let endpoint = self.own_endpoint(merchant, &endpoint_id).await?;
        sql::delivery(&self.db.read, &delivery_id)
            .await?
            .filter(|d| d.endpoint_id == endpoint.id)
            .ok_or(EndpointError::DeliveryNotFound)?;
        self.requeue(&endpoint, &delivery_id, None).await
    }

    /// Any merchant's delivery, resent as [`Self::resend`] does: the admin's resend, from the
    /// view of one payment.
    #[tracing::instrument(skip_all, fields(endpoint = tracing::field::Empty, delivery = tracing::field::Empty))]
    pub async fn resend_any(
        &self,
        actor: &Actor,
        delivery_id: &str,
    ) -> Result<view::Delivery, EndpointError> {
        let delivery_id = parse_id(delivery_id).ok_or(EndpointError::DeliveryNotFound)?;
        Span::current().record("delivery", delivery_id.as_str());
        let delivery = sql::delivery(&self.db.read, &delivery_id)
            .await?
            .ok_or(EndpointError::DeliveryNotFound)?;
        Span::current().record("endpoint", delivery.endpoint_id.as_str());
        let endpoint = sql::endpoint(&self.db.read, &delivery.endpoint_id)
            .await?
            .ok_or(EndpointError::DeliveryNotFound)?;
        self.requeue(&endpoint, &delivery_id, Some(actor)).await
    }

    /// Every merchant's deliveries (or one merchant's), newest first, each with its endpoint's
    /// name and merchant and the payment it is about: the admin's list, where `state=failing`
    /// is the page the person on call reads first.
    #[tracing::instrument(skip_all)]
    pub async fn all_deliveries(
        &self,
        query: &DeliveryQuery,
    ) -> Result<Vec<view::ListedDelivery>, EndpointError> {
        let limit = crate::search::limit(query.limit.as_deref())?;
        let state = query.state.as_deref().map(delivery_state).transpose()?;
        let merchant = match &query.merchant {
            Some(code) => {
                let code = crate::search::code(code, "merchant", "invalid_merchant")?;
                Some(
                    db::catalog::merchant_by_code(&self.db.read, &code)
                        .await?
                        .ok_or(EndpointError::MerchantNotFound(code))?,
                )
            }
            None => None,
        };
        let before = match &query.after {
            Some(id) => {
                let id = parse_id(id).ok_or_else(|| {
                    Invalid::new("invalid_after", "after", "`after` must be a deliveryId")
                })?;
                let cursor = sql::delivery(&self.db.read, &id)
                    .await?
                    .ok_or(EndpointError::DeliveryNotFound)?;
                Some((cursor.created_at, cursor.id))
            }
            None => None,
        };
        let rows = sql::deliveries_page(
            &self.db.read,
            state,
            merchant.as_ref().map(|m| m.id.as_str()),
            before,
            limit,
        )
        .await?;
        let ids: Vec<String> = rows.iter().map(|d| d.delivery.id.clone()).collect();
        let attempts = sql::attempts_of(&self.db.read, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|d| view::ListedDelivery {
                endpoint_id: d.delivery.endpoint_id.clone(),
                endpoint_name: d.endpoint_name,
                endpoint_url: d.endpoint_url,
                merchant: d.merchant_code,
                payment_intent_id: d.payment_intent_id,
                delivery: view::Delivery::new(d.delivery, &attempts),
            })
            .collect())
    }

    /// An admin registers an endpoint for a merchant (onboarding one without handing them an
    /// API key first): the merchant's create, recorded in the audit trail. The signing secret
    /// is in the answer only, never in the trail.
    pub async fn create_for(
        &self,
        actor: &Actor,
        merchant: &str,
        request: CreateEndpointRequest,
    ) -> Result<view::AdminCreatedEndpoint, EndpointError> {
        let merchant = self.merchant(merchant).await?;
        let created = self.create_as(&merchant.id, request, Some(actor)).await?;
        Ok(view::AdminCreatedEndpoint {
            merchant: merchant.code,
            created,
        })
    }

    /// The merchant with this code; a code that could not be one names no merchant.
    async fn merchant(&self, code: &str) -> Result<db::catalog::Merchant, EndpointError> {
        let not_found = || EndpointError::MerchantNotFound(code.to_owned());
        if !pixgate_domain::valid_code(code) {
            return Err(not_found());
        }
        db::catalog::merchant_by_code(&self.db.read, code)
            .await?
            .ok_or_else(not_found)
    }

    /// A merchant's endpoints for the admin, as the merchant lists them.
    pub async fn list_for(
        &self,
        merchant: &str,
        page: Page,
    ) -> Result<Vec<view::Endpoint>, EndpointError> {
        let merchant = self.merchant(merchant).await?;
        self.list(&merchant.id, page).await
    }

    /// Every delivery of a PaymentIntent's events (payment and refund events), newest first,
    /// with its endpoint and attempts: the admin's view of one payment. At most the latest
    /// [`INTENT_DELIVERIES`].
    pub async fn deliveries_of_intent(
        &self,
        intent_id: &str,
    ) -> Result<Vec<view::IntentDelivery>, EndpointError> {
        let id = parse_id(intent_id).ok_or(EndpointError::IntentNotFound)?;
        db::intents::by_id(&self.db.read, &id)
            .await?
            .ok_or(EndpointError::IntentNotFound)?;
        let rows = sql::deliveries_of_intent(&self.db.read, &id, INTENT_DELIVERIES).await?;
        let ids: Vec<String> = rows.iter().map(|d| d.id.clone()).collect();
        let attempts = sql::attempts_of(&self.db.read, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|d| view::IntentDelivery {
                endpoint_id: d.endpoint_id.clone(),
                delivery: view::Delivery::new(d, &attempts),
            })
            .collect())
    }

    /// Makes `delivery_id` of `endpoint` due now, if the endpoint is ACTIVE and no attempt of
    /// it is in flight, and wakes the sender.
    /// An admin's resend (`actor`) is recorded in the audit trail with the requeue, in one
    /// transaction; a merchant's is not an admin write.
    async fn requeue(
        &self,
        endpoint: &sql::Endpoint,
        delivery_id: &str,
        actor: Option<&Actor>,
    ) -> Result<view::Delivery, EndpointError> {
        let delivery_id = delivery_id.to_owned();
        if endpoint.status != EndpointStatus::Active {
            return Err(EndpointError::NotActive(endpoint.status));
        }
        let mut tx = self.db.write.begin().await?;
        let before = sql::delivery(&mut *tx, &delivery_id).await?;
        if !sql::requeue(&mut *tx, &delivery_id, db::now_ms()).await? {
            return Err(EndpointError::InFlight);
        }
        if let (Some(actor), Some(before)) = (actor, before) {
            // The delivery's state only: its body is the merchant's event.
            let change = Change::new(
                Action::WebhookDeliveryResend,
                format!("webhook-delivery/{delivery_id}"),
            )
            .before(
                &serde_json::json!({"status": before.status.as_str(), "attempts": before.attempts}),
            )
            .after(&serde_json::json!({"status": "PENDING", "attempts": before.attempts}));
            audit::append(&mut *tx, actor, &change).await?;
        }
        tx.commit().await?;
        self.wake.wake();
        let delivery = sql::delivery(&self.db.read, &delivery_id)
            .await?
            .ok_or(EndpointError::DeliveryNotFound)?;
        let attempts = sql::attempts_of(&self.db.read, std::slice::from_ref(&delivery_id)).await?;
        Ok(view::Delivery::new(delivery, &attempts))
    }

    /// The merchant's endpoint named by `id`, which goes on the current span.
    async fn own_endpoint(&self, merchant: &str, id: &str) -> Result<sql::Endpoint, EndpointError> {
        let id = parse_id(id).ok_or(EndpointError::NotFound)?;
        Span::current().record("endpoint", id.as_str());
        sql::endpoint_of_merchant(&self.db.read, merchant, &id)
            .await?
            .ok_or(EndpointError::NotFound)
    }

    /// The endpoint as it is after a change.
    async fn reread(&self, merchant: &str, id: &str) -> Result<view::Endpoint, EndpointError> {
        let endpoint = sql::endpoint_of_merchant(&self.db.read, merchant, id)
            .await?
            .ok_or(EndpointError::NotFound)?;
        self.view(&endpoint).await
    }

    async fn view(&self, e: &sql::Endpoint) -> Result<view::Endpoint, EndpointError> {
        let last = match &e.last_delivery_id {
            Some(id) => sql::delivery(&self.db.read, id).await?,
            None => None,
        };
        Ok(view::Endpoint::new(e, last)?)
    }
}

/// How many deliveries the view of one payment shows: a payment has a handful of events, each
/// sent to at most `PIXGATE_WEBHOOK_MAX_ENDPOINTS` endpoints.
pub const INTENT_DELIVERIES: i64 = 200;

/// The query string of the admin's delivery list, each value as sent.
#[derive(Debug, Clone, Default)]
pub struct DeliveryQuery {
    pub state: Option<String>,
    pub merchant: Option<String>,
    pub limit: Option<String>,
    pub after: Option<String>,
}

/// `state`: `failing`, `pending`, `delivered` or `canceled`.
fn delivery_state(raw: &str) -> Result<sql::DeliveryState, Invalid> {
    match raw {
        "failing" => Ok(sql::DeliveryState::Failing),
        "pending" => Ok(sql::DeliveryState::Pending),
        "delivered" => Ok(sql::DeliveryState::Delivered),
        "canceled" => Ok(sql::DeliveryState::Canceled),
        _ => Err(Invalid::new(
            "invalid_state",
            "state",
            "`state` must be failing, pending, delivered or canceled",
        )),
    }
}

/// An id in its canonical form (lower case, hyphenated); `None` when it is not a UUID.
fn parse_id(id: &str) -> Option<String> {
    uuid::Uuid::parse_str(id).ok().map(|u| u.to_string())
}
