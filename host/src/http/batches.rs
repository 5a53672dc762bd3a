//! The merchant API's batch routes: `POST /payments/charge-batches` and
//! `GET /payments/charge-batches/{batchId}` (DESIGN.md section 16).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::payments::idempotency_key;
use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::charges::batches::{
    BatchError, ChargeBatchAcceptedEnvelope, ChargeBatchEnvelope, ChargeBatches,
};
use crate::http::AppState;
use crate::http::responses::{BatchTooLarge, RateLimited, Unauthorized, UnsupportedMediaType};
use pixgate_domain::batch::{BatchRequest, CreateChargeBatchRequest};

/// The most a batch's body may be: a thousand charges of some 4 KB each.
pub const MAX_BATCH_BODY_BYTES: usize = 4 * 1024 * 1024;

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_batch))
        .routes(routes!(get_batch))
}

/// Creates a batch of up to 1,000 due-date charges for one store.
///
/// Answered 202 once the batch and its charges are stored: each charge is then resolved
/// through the store's chain as a single charge (`POST /payments/charge`) is. Read the batch
/// for each charge's fate: `CREATED` with its PaymentIntent, or `REJECTED` with the error code
/// a single charge would get for it (`invalid_tax_id`, `invalid_due_date`,
/// `amount_above_store_limit`, ...; `psp_refused` when the PSP denied it, with the PSP's
/// problem in the message); a bad charge never stops the others. A LIVE store sends the
/// charges it routes to one gateway to that PSP as one API Pix lote (`PUT /lotecobv/{id}`).
/// The same Idempotency-Key with the same body (compared as parsed JSON) replays the 202 with
/// `idempotentReplay: true`; with another body (or the key of a charge) it is 409. Refusals of
/// the whole batch (400, 401, 403, 404) are not stored.
#[utoipa::path(
    post,
    path = "/payments/charge-batches",
    tag = "payments",
    params(("Idempotency-Key" = String, Header, min_length = 1, max_length = 200, pattern = "^[!-~]([ -~]{0,198}[!-~])?$",
            description = "Stable key of one batch: the charge's rules (`missing_idempotency_key`, `invalid_idempotency_key`)")),
    request_body = CreateChargeBatchRequest,
    responses(
        (status = 202, description = "Batch stored; its charges are being processed (or the answer replayed)", body = ChargeBatchAcceptedEnvelope),
        (status = 400, description = "The batch as a whole is invalid: the body (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`), `store` (`invalid_store`), `charges` not 1 to 1000 charges (`invalid_batch_size`), or the Idempotency-Key (`missing_idempotency_key`, `invalid_idempotency_key`). A bad charge is not a 400: it is `REJECTED` in the batch", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "Scope or store not granted (`insufficient_scope`, `store_not_granted`), or the store's live execution is off (`live_execution_disabled`)", body = ErrorEnvelope),
        (status = 404, description = "Store not found (`store_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Idempotency-Key reused with a different body (`idempotency_key_reused`) or in use by a request in progress (`idempotency_key_in_use`)", body = ErrorEnvelope),
        BatchTooLarge,
        UnsupportedMediaType,
        RateLimited,
    )
)]
async fn create_batch(
    State(batches): State<ChargeBatches>,
    principal: Principal,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    // As the charge: scope, then Idempotency-Key, then the body.
    principal.require_any(&[Scope::PaymentsCreate])?;
    let key = idempotency_key(request.headers())?;
    let bytes = JsonBody::read_bytes(request, MAX_BATCH_BODY_BYTES).await?;
    let batch = BatchRequest::from_bytes(&bytes)?;
    let accepted = batches.submit(&principal, &key, batch).await?;
    let status = StatusCode::from_u16(accepted.status).unwrap_or(StatusCode::ACCEPTED);
    Ok((
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        accepted.body,
    )
        .into_response())
}

/// Reads a batch: its status, its counts and each charge's fate.
#[utoipa::path(
    get,
    path = "/payments/charge-batches/{batchId}",
    tag = "payments",
    params(("batchId" = String, Path, format = Uuid, description = "The batch's id")),
    responses(
        (status = 200, description = "The batch", body = ChargeBatchEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:create` and `payments:read` (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, another merchant's, or for a store not granted to the key (`charge_batch_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn get_batch(
    State(batches): State<ChargeBatches>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<ChargeBatchEnvelope>, ApiError> {
    principal.require_any(&[Scope::PaymentsCreate, Scope::PaymentsRead])?;
    // A malformed id (bad encoding) is as unknown as any other.
    let Path(id) = id.map_err(|_| BatchError::BatchNotFound)?;
    Ok(Json(batches.get(&principal, &id).await?))
}
