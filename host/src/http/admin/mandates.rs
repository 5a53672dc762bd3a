//! `GET /mandates` and `GET /mandates/{mandateId}`: every merchant's Pix Automático mandates,
//! newest first, with the merchant search's filters plus `merchant` ([`crate::mandates`]).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, uuid_param};
use crate::http::AppState;
use crate::http::mandates::{MANDATE_SEARCH_PARAMS, MandateSearchParams};
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use crate::mandates::view::AdminMandate;
use crate::mandates::{MandateError, Mandates};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(list_mandates))
        .routes(routes!(get_mandate))
}

/// The admin list's parameter beyond the merchant search's.
#[allow(dead_code)] // Read through `query_values`; the struct states the document.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct AdminMandateParams {
    /// A merchant's code: only its mandates (with `store`: none unless the store is the
    /// merchant's).
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    merchant: Option<String>,
}

/// Lists the Pix Automático mandates of every merchant, newest first, a page at a time.
///
/// The merchant search's parameters (`limit`, `after`, `store`, `status`, `reference`) plus
/// `merchant`; filters combine with AND. Pass the last `mandateId` of a page as `after` for
/// the next; a page shorter than `limit` is the last. Each item is the mandate as the merchant
/// API shows it, with `merchant`. Unknown parameters, and a parameter given twice, are
/// refused (400).
#[utoipa::path(get, path = "/mandates", tag = "admin",
    params(MandateSearchParams, AdminMandateParams),
    responses(
        (status = 200, description = "A page of mandates, newest first (createdAt, then mandateId, descending)", body = Envelope<Vec<AdminMandate>>),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`, `invalid_store`, `invalid_status`, `invalid_reference`, `invalid_merchant`; an unknown parameter: `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`merchant` or `store` names nothing (`merchant_not_found`, `store_not_found`), or `after` is no mandate (`mandate_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_mandates(
    State(mandates): State<Mandates>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let known: Vec<(&'static str, &'static str)> = MANDATE_SEARCH_PARAMS
        .into_iter()
        .chain([("merchant", "invalid_merchant")])
        .collect();
    let mut values = query_values(raw.as_deref(), &known)?;
    let merchant = values
        .remove("merchant")
        .map(|m| {
            if pixgate_domain::valid_code(&m) {
                Ok(m)
            } else {
                Err(pixgate_domain::json::Invalid::new(
                    "invalid_merchant",
                    "merchant",
                    "`merchant` is not a merchant code",
                ))
            }
        })
        .transpose()?;
    let search = MandateSearchParams::parse(values)?;
    Ok(ok(
        StatusCode::OK,
        mandates.admin_search(merchant.as_deref(), search).await?,
    ))
}

/// One mandate of any merchant, as the list shows it (with `merchant`).
#[utoipa::path(get, path = "/mandates/{mandateId}", tag = "admin",
    params(("mandateId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The mandate", body = Envelope<AdminMandate>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such mandate (`mandate_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_mandate(
    State(mandates): State<Mandates>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || MandateError::MandateNotFound.into())?;
    Ok(ok(StatusCode::OK, mandates.admin_get(&id).await?))
}
