//! The merchant API's refund routes (DESIGN.md section 11): `POST` and `GET
//! /payments/{id}/refunds`, `GET /refunds/{refundId}`.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::payments::idempotency_key;
use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::http::AppState;
use crate::http::responses::{PayloadTooLarge, RateLimited, Unauthorized, UnsupportedMediaType};
use crate::refunds::view::{RefundEnvelope, RefundListEnvelope};
use crate::refunds::{RefundError, Refunds};
use pixgate_domain::refund::CreateRefundRequest;

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_refund, list_refunds))
        .routes(routes!(get_refund))
}

/// Refunds a paid payment, in full or in part.
///
/// Only a `SUCCEEDED` LIVE payment, within 90 days of its payment. Several partial refunds
/// are allowed while their sum (counting `PENDING` ones) stays within the amount paid. At the
/// PSP: API Pix `PUT /pix/{e2eid}/devolucao/{id}` with an `id` derived from the refund, so no
/// retry refunds twice. The answer is 200 whatever the PSP said: `status` is `SUCCEEDED`,
/// `PENDING` (settled later; `refund.succeeded` or `refund.failed` tells) or `FAILED` (with
/// `failure`). Idempotent like the charge: the same Idempotency-Key and body replay the stored
/// answer with `idempotentReplay: true`; another body is 409. Refund keys are a key space of
/// their own, kept as long as the refund. Rejections (400, 401, 403, 404, 409) are not stored.
#[utoipa::path(
    post,
    path = "/payments/{paymentIntentId}/refunds",
    tag = "refunds",
    params(
        ("paymentIntentId" = String, Path, format = Uuid, description = "The PaymentIntent's id"),
        ("Idempotency-Key" = String, Header, min_length = 1, max_length = 200, pattern = "^[!-~]([ -~]{0,198}[!-~])?$",
         description = "Stable key of one logical refund: the charge's rules (`missing_idempotency_key`, `invalid_idempotency_key`)"),
    ),
    request_body = CreateRefundRequest,
    responses(
        (status = 200, description = "The refund, fresh or replayed", body = RefundEnvelope),
        (status = 400, description = "Invalid body (`invalid_amount`, `invalid_reason`, `invalid_metadata`, `metadata_too_large`, `unknown_field`, `invalid_json`) or Idempotency-Key", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:refund` (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or not granted to the key (`payment_intent_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Not refundable: not `SUCCEEDED`, SHADOW, or past 90 days (`payment_not_refundable`); more than is left (`refund_exceeds_refundable`); key reused with another body (`idempotency_key_reused`) or in progress (`idempotency_key_in_use`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        RateLimited,
    )
)]
async fn create_refund(
    State(refunds): State<Refunds>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    principal.require_any(&[Scope::PaymentsRefund])?;
    let Path(id) = id.map_err(|_| RefundError::IntentNotFound)?;
    let key = idempotency_key(request.headers())?;
    let (body, literals) = JsonBody::read_checked(request, |bytes| {
        Ok(pixgate_domain::charge::check_literals(bytes, false)?)
    })
    .await?;
    let refund = CreateRefundRequest::from_body(body, literals)?.validate()?;
    let refunded = refunds.create(&principal, &key, &id, refund).await?;
    Ok(Json(refunded.body).into_response())
}

/// A payment's refunds, oldest first (any of `payments:create`, `payments:read`,
/// `payments:refund`).
#[utoipa::path(
    get,
    path = "/payments/{paymentIntentId}/refunds",
    tag = "refunds",
    params(("paymentIntentId" = String, Path, format = Uuid, description = "The PaymentIntent's id")),
    responses(
        (status = 200, description = "The payment's refunds", body = RefundListEnvelope),
        Unauthorized,
        (status = 403, description = "The key has none of the scopes (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or not granted to the key (`payment_intent_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn list_refunds(
    State(refunds): State<Refunds>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<RefundListEnvelope>, ApiError> {
    let Path(id) = id.map_err(|_| RefundError::IntentNotFound)?;
    Ok(Json(refunds.list(&principal, &id).await?))
}

/// Reads one refund (any of `payments:create`, `payments:read`, `payments:refund`).
#[utoipa::path(
    get,
    path = "/refunds/{refundId}",
    tag = "refunds",
    params(("refundId" = String, Path, format = Uuid, description = "The refund's id")),
    responses(
        (status = 200, description = "The refund", body = RefundEnvelope),
        Unauthorized,
        (status = 403, description = "The key has none of the scopes (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or of a store not granted to the key (`refund_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn get_refund(
    State(refunds): State<Refunds>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<RefundEnvelope>, ApiError> {
    let Path(id) = id.map_err(|_| RefundError::RefundNotFound)?;
    Ok(Json(refunds.get(&principal, &id).await?))
}
