//! `/settlements` and `/settlements.csv`: the settlement calendar of every merchant
//! ([`crate::settlements`], DESIGN.md section 18).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok};
use crate::http::AppState;
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::search::query_values;
use crate::http::settlements::{code_param, period};
use crate::http::{ApiError, ErrorEnvelope};
use crate::settlements::view::{self, Settlement};
use crate::settlements::{SettlementRow, Settlements};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(export))
}

/// The report's parameters.
#[allow(dead_code)] // Read through `query_values`; the struct states the document.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
struct SettlementParams {
    /// The first settlement date, `YYYY-MM-DD`.
    #[param(format = Date)]
    from: String,
    /// The last settlement date (inclusive), at most 366 days after `from`.
    #[param(format = Date)]
    to: String,
    /// Only this merchant's rows (its code).
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    merchant: Option<String>,
    /// Only this provider's rows.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    provider: Option<String>,
}

async fn report(
    settlements: &Settlements,
    raw: Option<&str>,
) -> Result<Vec<SettlementRow>, ApiError> {
    let mut values = query_values(
        raw,
        &[
            ("from", "invalid_date"),
            ("to", "invalid_date"),
            ("merchant", "invalid_merchant"),
            ("provider", "invalid_provider"),
        ],
    )?;
    let period = period(&mut values)?;
    let merchant = code_param(&mut values, "merchant", "invalid_merchant")?;
    Ok(settlements.report(&period, merchant.as_deref()).await?)
}

/// What arrives from which PSP on which day: per settlement date, merchant, provider, gateway
/// and release class, the LIVE payments that succeeded and settle that date (count, gross,
/// fees, from the economics each charge recorded) and the refunds of that group's payments
/// that completed that Brasília date; `net = gross - fees - refunds`.
#[utoipa::path(get, path = "/settlements", tag = "admin",
    params(SettlementParams),
    responses(
        (status = 200, description = "The rows, by date, merchant, provider, gateway and release class", body = Envelope<Vec<Settlement>>),
        (status = 400, description = "`missing_field` (`from` or `to`), `invalid_date`, `invalid_range` (`to` before `from`, or more than 366 days), `invalid_merchant`, `invalid_provider`, `unknown_field`", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`merchant_not_found`, `provider_not_found`", body = ErrorEnvelope),
    ))]
async fn list(
    State(settlements): State<Settlements>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let rows = report(&settlements, raw.as_deref()).await?;
    let rows: Vec<Settlement> = rows.iter().map(Settlement::from).collect();
    Ok(ok(StatusCode::OK, rows))
}

/// The same rows as CSV: a header line of the JSON field names, then a line per row, amounts
/// as decimals with two places.
#[utoipa::path(get, path = "/settlements.csv", tag = "admin",
    params(SettlementParams),
    responses(
        (status = 200, description = "The rows as CSV", body = String, content_type = "text/csv"),
        (status = 400, description = "As `GET /settlements`", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`merchant_not_found`, `provider_not_found`", body = ErrorEnvelope),
    ))]
async fn export(
    State(settlements): State<Settlements>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let rows = report(&settlements, raw.as_deref()).await?;
    let body = view::csv(&rows).map_err(ApiError::Internal)?;
    Ok(csv_response(body, "settlements.csv"))
}

/// A CSV body, offered for download as `name`.
pub(super) fn csv_response(body: String, name: &str) -> impl IntoResponse + use<> {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
}
