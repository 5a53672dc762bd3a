//! One payment as on-call sees it, beside its trace: `/payment-intents/{id}/refunds`, the
//! webhook deliveries of its events with their attempts (`/payment-intents/{id}/deliveries`),
//! and the resend of any of them (`/webhook-deliveries/{id}/resend`). The merchant API has the
//! same per merchant; these cross every merchant, for the console.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, uuid_param};
use crate::access::Actor;
use crate::http::AppState;
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::{ApiError, ErrorEnvelope};
use crate::refunds::view::RefundView;
use crate::refunds::{RefundError, Refunds};
use crate::webhooks::endpoints::view::{Delivery, IntentDelivery};
use crate::webhooks::endpoints::{EndpointError, Endpoints};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(intent_refunds))
        .routes(routes!(intent_deliveries))
        .routes(routes!(resend))
}

/// A PaymentIntent's refunds, oldest first, whoever asked for them (merchant, MED, resolution).
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}/refunds", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The refunds", body = Envelope<Vec<RefundView>>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
    ))]
async fn intent_refunds(
    State(refunds): State<Refunds>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || RefundError::IntentNotFound.into())?;
    Ok(ok(StatusCode::OK, refunds.list_any(&id).await?))
}

/// The webhook deliveries of a PaymentIntent's events (payment and refund events), newest
/// first, each with its endpoint and attempts; the latest 200 at most.
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}/deliveries", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The deliveries with their attempts", body = Envelope<Vec<IntentDelivery>>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
    ))]
async fn intent_deliveries(
    State(endpoints): State<Endpoints>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || EndpointError::IntentNotFound.into())?;
    Ok(ok(
        StatusCode::OK,
        endpoints.deliveries_of_intent(&id).await?,
    ))
}

/// Sends a delivery again (same id and body; a fresh timestamp and signature), as the
/// merchant's resend does: if that attempt fails, the delivery goes on with the retries its
/// schedule has left.
#[utoipa::path(post, path = "/webhook-deliveries/{deliveryId}/resend", tag = "admin",
    params(("deliveryId" = String, Path, format = Uuid)),
    responses(
        (status = 202, description = "Queued (status `PENDING`, due now)", body = Envelope<Delivery>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such delivery (`webhook_delivery_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Its endpoint is not ACTIVE (`endpoint_not_active`), or an attempt of it is being sent (`delivery_in_flight`)", body = ErrorEnvelope),
    ))]
async fn resend(
    State(endpoints): State<Endpoints>,
    actor: Actor,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || EndpointError::DeliveryNotFound.into())?;
    Ok(ok(
        StatusCode::ACCEPTED,
        endpoints.resend_any(&actor, &id).await?,
    ))
}
