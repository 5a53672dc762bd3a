//! The merchant API's mandate routes (DESIGN.md section 17, Pix Automático): `POST` and
//! `GET /mandates`, `GET /mandates/{mandateId}`, `POST /mandates/{mandateId}/cancel`, `POST
//! /mandates/{mandateId}/charges`.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::payments::idempotency_key;
use super::search::query_values;
use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::charges::view::PaymentIntentEnvelope;
use crate::db::today_brasilia;
use crate::http::AppState;
use crate::http::responses::{PayloadTooLarge, RateLimited, Unauthorized, UnsupportedMediaType};
use crate::mandates::view::{MandateEnvelope, MandateListEnvelope};
use crate::mandates::{MandateError, MandateSearch, Mandates};
use crate::search::MAX_LIMIT;
use pixgate_domain::json::Invalid;
use pixgate_domain::mandate::{CreateMandateChargeRequest, CreateMandateRequest, MandateStatus};

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_mandate, search_mandates))
        .routes(routes!(get_mandate))
        .routes(routes!(cancel_mandate))
        .routes(routes!(charge_mandate))
}

/// Creates an idempotent Pix Automático mandate.
///
/// The payer authorises once, in their bank app, to be charged every cycle. The mandate is
/// resolved through the store's chain once, as a recurring charge of its first cycle. A LIVE
/// store's goes to the first PSP of the ranking that accepts it (API Pix `POST /rec`; only
/// providers with a receiving account take mandates) and stays there: every charge of it goes
/// to that PSP. It answers `PENDING_AUTHORIZATION` with what the payer answers (`authorization`:
/// the code they scan, or when a PUSH request expires), or `FAILED` when no PSP accepted it. A
/// SHADOW store answers `SHADOW_ONLY` with the routing and sends nothing to a PSP. A
/// `QR_WITH_FIRST_PAYMENT` mandate's first payment is an ordinary PaymentIntent
/// (`firstPayment.paymentIntentId`), at the mandate's PSP. Idempotent like the charge: the same
/// key and body replay the mandate, as it now is, with `idempotentReplay: true`; another body
/// is 409. Mandate keys are a key space of their own, kept as long as the mandate.
#[utoipa::path(
    post,
    path = "/mandates",
    tag = "mandates",
    params(("Idempotency-Key" = String, Header, min_length = 1, max_length = 200, pattern = "^[!-~]([ -~]{0,198}[!-~])?$",
            description = "Stable key of one logical mandate: the charge's rules (`missing_idempotency_key`, `invalid_idempotency_key`)")),
    request_body = CreateMandateRequest,
    responses(
        (status = 200, description = "The mandate, fresh or replayed", body = MandateEnvelope),
        (status = 400, description = "Invalid body: `invalid_reference`, `invalid_description`, `invalid_payer`, `invalid_payer_name`, `invalid_tax_id`, `invalid_frequency`, `invalid_start_date`, `invalid_end_date`, `invalid_amount` (also `amount` with `minimumAmount`), `invalid_auto_charge` (without a fixed `amount`), `invalid_retry_policy`, `invalid_journey`, `invalid_first_payment`, `invalid_payer_account`, `invalid_metadata`, `metadata_too_large`, `missing_field` (`firstPayment` for QR_WITH_FIRST_PAYMENT, `payerAccount` for PUSH), `unknown_field`, `invalid_json`; the Idempotency-Key; or a store rule", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `mandates:manage` (`insufficient_scope`), is not granted the store (`store_not_granted`), or the store's live execution is off (`live_execution_disabled`)", body = ErrorEnvelope),
        (status = 404, description = "Store not found (`store_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "The key was used with another body (`idempotency_key_reused`), or its first request is still at the PSP (`idempotency_key_in_use`: retry)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        RateLimited,
        (status = 503, description = "A step's component could not run (`routing_unavailable`), or every gateway of the store is failing at its PSP for now (`psp_unavailable`): retry with the same key", body = ErrorEnvelope),
    )
)]
async fn create_mandate(
    State(mandates): State<Mandates>,
    principal: Principal,
    request: axum::extract::Request,
) -> Result<Json<MandateEnvelope>, ApiError> {
    principal.require_any(&[Scope::MandatesManage])?;
    let key = idempotency_key(request.headers())?;
    let (body, literals) = JsonBody::read_checked(request, |bytes| {
        Ok(pixgate_domain::charge::check_literals(bytes, false)?)
    })
    .await?;
    let mandate = CreateMandateRequest::from_body(body, literals)?.validate(today_brasilia())?;
    Ok(Json(mandates.create(&principal, &key, mandate).await?))
}

/// The search's parameters, as the query string carries them: the document's statement of
/// them. [`MandateSearchParams::read`] reads the query string itself (each parameter once, no
/// other name), so the fields are never read.
#[allow(dead_code)]
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MandateSearchParams {
    /// At most this many mandates, newest first (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100, nullable = false)]
    limit: Option<String>,
    /// The `mandateId` of the previous page's last mandate: the mandates created before it.
    /// 404 `mandate_not_found` if the key cannot read it.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
    /// A store's code: only its mandates (the key must be granted it).
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    store: Option<String>,
    /// Only mandates in this status.
    #[param(value_type = Option<MandateStatus>, nullable = false)]
    status: Option<String>,
    /// Only mandates with exactly this `reference`.
    #[param(
        min_length = 1,
        max_length = 35,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$",
        nullable = false
    )]
    reference: Option<String>,
}

/// The search's parameters and the code each one's refusal carries.
pub(super) const MANDATE_SEARCH_PARAMS: [(&str, &str); 5] = [
    ("limit", "invalid_limit"),
    ("after", "invalid_after"),
    ("store", "invalid_store"),
    ("status", "invalid_status"),
    ("reference", "invalid_reference"),
];

impl MandateSearchParams {
    fn read(raw: Option<&str>) -> Result<MandateSearch, ApiError> {
        Self::parse(query_values(raw, &MANDATE_SEARCH_PARAMS)?)
    }

    /// The search of these query values (the admin list's take `merchant` out first).
    pub(super) fn parse(
        mut values: std::collections::HashMap<&'static str, String>,
    ) -> Result<MandateSearch, ApiError> {
        let limit = match values.remove("limit") {
            None => 20,
            Some(raw) => raw
                .parse::<i64>()
                .ok()
                .filter(|n| raw.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_LIMIT).contains(n))
                .ok_or_else(|| {
                    Invalid::new(
                        "invalid_limit",
                        "limit",
                        format!("`limit` must be a whole number from 1 to {MAX_LIMIT}"),
                    )
                })?,
        };
        let after = values
            .remove("after")
            .map(|a| {
                uuid::Uuid::parse_str(&a)
                    .map(|u| u.to_string())
                    .map_err(|_| {
                        Invalid::new("invalid_after", "after", "`after` is not a mandateId")
                    })
            })
            .transpose()?;
        let store = values
            .remove("store")
            .map(|s| {
                if pixgate_domain::valid_code(&s) {
                    Ok(s)
                } else {
                    Err(Invalid::new(
                        "invalid_store",
                        "store",
                        "`store` is not a store code",
                    ))
                }
            })
            .transpose()?;
        let status = values
            .remove("status")
            .map(|s| {
                s.parse::<MandateStatus>().map_err(|_| {
                    Invalid::new(
                        "invalid_status",
                        "status",
                        format!(
                            "`status` must be one of {}",
                            MandateStatus::ALL.map(MandateStatus::as_str).join(", ")
                        ),
                    )
                })
            })
            .transpose()?;
        let reference = values
            .remove("reference")
            .map(|r| pixgate_domain::json::bounded(&r, "reference", "invalid_reference", 1, 35))
            .transpose()?;
        Ok(MandateSearch {
            limit,
            after,
            store,
            status,
            reference,
        })
    }
}

/// Searches the key's mandates, newest first, a page at a time (`mandates:manage` or
/// `payments:read`).
///
/// Only mandates of the stores the key is granted. Filters combine with AND. Pass the last
/// `mandateId` of a page as `after` for the next; a page shorter than `limit` is the last.
/// Unknown parameters, and a parameter given twice, are refused (400).
#[utoipa::path(
    get,
    path = "/mandates",
    tag = "mandates",
    params(MandateSearchParams),
    responses(
        (status = 200, description = "A page of mandates, newest first (createdAt, then mandateId, descending)", body = MandateListEnvelope),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`, `invalid_store`, `invalid_status`, `invalid_reference`; an unknown parameter: `unknown_field`", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `mandates:manage` and `payments:read` (`insufficient_scope`), or is not granted `store` (`store_not_granted`)", body = ErrorEnvelope),
        (status = 404, description = "`store` is unknown or another merchant's (`store_not_found`), or `after` is not a mandate the key can read (`mandate_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn search_mandates(
    State(mandates): State<Mandates>,
    principal: Principal,
    RawQuery(raw): RawQuery,
) -> Result<Json<MandateListEnvelope>, ApiError> {
    principal.require_any(&[Scope::MandatesManage, Scope::PaymentsRead])?;
    let search = MandateSearchParams::read(raw.as_deref())?;
    Ok(Json(mandates.search(&principal, search).await?))
}

/// Reads one mandate (`mandates:manage` or `payments:read`).
#[utoipa::path(
    get,
    path = "/mandates/{mandateId}",
    tag = "mandates",
    params(("mandateId" = String, Path, format = Uuid, description = "The mandate's id")),
    responses(
        (status = 200, description = "The mandate", body = MandateEnvelope),
        Unauthorized,
        (status = 403, description = "The key has neither scope (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or of a store not granted to the key (`mandate_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn get_mandate(
    State(mandates): State<Mandates>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<MandateEnvelope>, ApiError> {
    principal.require_any(&[Scope::MandatesManage, Scope::PaymentsRead])?;
    let Path(id) = id.map_err(|_| MandateError::MandateNotFound)?;
    Ok(Json(mandates.get(&principal, &id).await?))
}

/// Cancels a mandate (`mandates:manage`).
///
/// A mandate waiting for the payer or active is canceled at its PSP (API Pix `PATCH /rec`
/// `{"status": "CANCELADA"}`) and answers `CANCELED` with `cancellation`. One already
/// `CANCELED` answers as it is. A SHADOW store's mandate (`SHADOW_ONLY`) was never at a PSP, and
/// a rejected, expired or failed one has ended: 409 `mandate_not_cancelable`. The PSP
/// unreachable: 503 `psp_unavailable`, nothing changed.
#[utoipa::path(
    post,
    path = "/mandates/{mandateId}/cancel",
    tag = "mandates",
    params(("mandateId" = String, Path, format = Uuid, description = "The mandate's id")),
    responses(
        (status = 200, description = "The mandate, canceled", body = MandateEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `mandates:manage` (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or of a store not granted to the key (`mandate_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Not cancelable in its state (`mandate_not_cancelable`)", body = ErrorEnvelope),
        RateLimited,
        (status = 503, description = "The mandate's PSP could not be reached or did not cancel it (`psp_unavailable`); nothing changed", body = ErrorEnvelope),
    )
)]
async fn cancel_mandate(
    State(mandates): State<Mandates>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<MandateEnvelope>, ApiError> {
    principal.require_any(&[Scope::MandatesManage])?;
    let Path(id) = id.map_err(|_| MandateError::MandateNotFound)?;
    Ok(Json(mandates.cancel(&principal, &id).await?))
}

/// Charges one cycle of a mandate (`mandates:manage`).
///
/// A PaymentIntent of `kind: RECURRING` with `mandateId`, `dueDate` and `attempts`, made as
/// every charge (routed by the store's chain, pinned to the gateway whose PSP holds the
/// mandate; the same Idempotency-Key and body replay it). One charge per cycle: the cycle is
/// the one `dueDate` falls in. A LIVE mandate's charge goes to its PSP as an API Pix `cobr`
/// (`PENDING`) within 10 days of its due date; further ahead it is `SCHEDULED` and sent when
/// that window opens. A SHADOW store's answers `SHADOW_ONLY`.
#[utoipa::path(
    post,
    path = "/mandates/{mandateId}/charges",
    tag = "mandates",
    params(("mandateId" = String, Path, format = Uuid, description = "The mandate's id"),
           ("Idempotency-Key" = String, Header, min_length = 1, max_length = 200, pattern = "^[!-~]([ -~]{0,198}[!-~])?$",
            description = "Stable key of one logical charge: the charge's rules (`missing_idempotency_key`, `invalid_idempotency_key`)")),
    request_body = CreateMandateChargeRequest,
    responses(
        (status = 200, description = "The PaymentIntent, fresh or replayed", body = PaymentIntentEnvelope),
        (status = 400, description = "Invalid body: `invalid_amount` (not the mandate's fixed amount, or below its minimum), `missing_field` (`amount` of a mandate without a fixed amount), `invalid_due_date` (not 2 days ahead, or outside the mandate), `invalid_reference`, `invalid_description`, `invalid_metadata`, `metadata_too_large`, `unknown_field`, `invalid_json`; the Idempotency-Key; or a store rule", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `mandates:manage` (`insufficient_scope`), or the store's live execution is off (`live_execution_disabled`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or of a store not granted to the key (`mandate_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "The mandate is not ACTIVE (`mandate_not_active`), the cycle has its charge (`cycle_already_charged`), or the key was used with another body (`idempotency_key_reused`) or its first request is still at the PSP (`idempotency_key_in_use`: retry)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        RateLimited,
        (status = 503, description = "A step's component could not run (`routing_unavailable`), or every gateway of the store is failing at its PSP for now (`psp_unavailable`): retry with the same key", body = ErrorEnvelope),
    )
)]
async fn charge_mandate(
    State(mandates): State<Mandates>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
    request: axum::extract::Request,
) -> Result<axum::response::Response, ApiError> {
    principal.require_any(&[Scope::MandatesManage])?;
    let Path(id) = id.map_err(|_| MandateError::MandateNotFound)?;
    let key = idempotency_key(request.headers())?;
    let (body, literals) = JsonBody::read_checked(request, |bytes| {
        Ok(pixgate_domain::charge::check_literals(bytes, false)?)
    })
    .await?;
    let charge = CreateMandateChargeRequest::from_body(body, literals)?;
    let charged = mandates.charge(&principal, &key, &id, charge).await?;
    let status =
        axum::http::StatusCode::from_u16(charged.status).unwrap_or(axum::http::StatusCode::OK);
    // The body is JSON text already: the metadata in it is the merchant's, as written.
    Ok((
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        charged.body,
    )
        .into_response())
}
