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
use crate::app::AppState;
use crate::charges::view::PaymentIntent;
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
    /// `refund`: give the whole pix received back and end the intent `CANCELED`; `accept`:
    /// keep it and end the intent `SUCCEEDED`, with `amountReceived` beside `amount`.
    action: Resolution,
    /// Why, for the record: 1 to 200 characters, no control characters.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
    )]
    reason: String,
}

/// Resolves a LIVE charge that its PSP concluded with a pix of another amount (it stays
/// `PENDING` until then, with `amountReceived`): refund what was received, or accept it.
/// The intent's event is sent; a refund is driven at the PSP like a merchant's.
#[utoipa::path(post, path = "/payment-intents/{paymentIntentId}/resolve", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    request_body = ResolveRequest,
    responses(
        (status = 200, description = "The PaymentIntent, resolved", body = super::Envelope<PaymentIntent>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_action`, `invalid_reason`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "No pix of another amount to resolve, or already resolved (`payment_not_resolvable`); being settled right now (`payment_busy`)", body = ErrorEnvelope),
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
    let reason = pixgate_domain::json::bounded(&req.reason, "reason", "invalid_reason", 1, 200)?;
    let resolved = refunds.resolve(&actor, &id, req.action, &reason).await?;
    Ok(ok(StatusCode::OK, resolved.data))
}
