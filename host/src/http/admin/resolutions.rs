//! `/payment-intents/{id}/resolve`: the exit for a charge paid with the wrong amount
//! ([`crate::refunds::Refunds::resolve`], DESIGN.md section 11).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{ok, parse_body, uuid_param};
use crate::access::Actor;
use crate::charges::view::PaymentIntent;
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::{ApiError, ErrorEnvelope};
use crate::refunds::{RefundError, Refunds, Resolution};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(resolve))
}

/// Body of `POST /payment-intents/{id}/resolve`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ResolveRequest {
    /// `refund`: give back what was received less what was already refunded (a MED's
    /// devolução included); the intent stays `PENDING` until the PSP made that devolução, then
    /// ends `CANCELED` (if the PSP does not make it, the refund is `FAILED` and the intent is
    /// resolvable again). `accept`: keep it and end the intent `SUCCEEDED` at the pix's
    /// settlement time, with `amountReceived` beside `amount`.
    action: Resolution,
    /// Why: 1 to 140 characters, no control characters. For `refund` it is the devolução's
    /// `descricao` (API Pix), what the payer reads.
    #[schema(
        min_length = 1,
        max_length = 140,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
    )]
    reason: String,
}

/// Resolves a LIVE charge that its PSP concluded with a pix of another amount (it stays
/// `PENDING` until then, with `amountReceived`): refund what was received, or accept it.
///
/// `accept` ends the intent `SUCCEEDED` (`completedAt` is the pix's settlement time) and
/// sends `payment.succeeded`. `refund` records a refund of what is left of the pix (received
/// less already refunded, a MED's devolução included) and drives it at the PSP like a
/// merchant's: the answer is the intent still `PENDING` unless the PSP gave the money back at
/// once. It ends `CANCELED` (`payment.canceled`) when the devolução is made; if the PSP does
/// not make it (`refund.failed`), the intent can be resolved again.
#[utoipa::path(post, path = "/payment-intents/{paymentIntentId}/resolve", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    request_body = ResolveRequest,
    responses(
        (status = 200, description = "The PaymentIntent, resolved", body = super::Envelope<PaymentIntent>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_action`, `invalid_reason`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "No pix of another amount to resolve, already resolved, or a resolution refund still in progress (`payment_not_resolvable`); nothing received is left to give back (`refund_exceeds_refundable`); being settled right now (`payment_busy`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn resolve(
    State(refunds): State<Refunds>,
    actor: Actor,
    id: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || RefundError::IntentNotFound.into())?;
    let req: ResolveRequest = parse_body(
        body,
        &[("action", "invalid_action"), ("reason", "invalid_reason")],
    )?;
    let reason = pixgate_domain::json::bounded(&req.reason, "reason", "invalid_reason", 1, 140)?;
    let resolved = refunds.resolve(&actor, &id, req.action, &reason).await?;
    Ok(ok(StatusCode::OK, resolved.data))
}
