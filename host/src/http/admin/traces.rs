//! `/payment-intents/{id}/trace`: the decision trace of a charge.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{ok, uuid_param};
use crate::charges::{ChargeError, Charges};
use crate::http::AppState;
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(get_trace))
}

/// The decision trace of a PaymentIntent: each step's component, exact input and output,
/// fuel and duration; and `pspCalls`, the calls made to PSPs for it (LIVE), in order.
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}/trace", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The trace", body = Envelope<Object>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
        (status = 410, description = "The PaymentIntent's trace is past `PIXGATE_TRACE_RETENTION` and was purged (`trace_purged`)", body = ErrorEnvelope),
    ))]
async fn get_trace(
    State(charges): State<Charges>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || ChargeError::IntentNotFound.into())?;
    Ok(ok(StatusCode::OK, charges.trace(&id).await?))
}
