//! What the person on call opens first: `GET /overview` (the console's landing view) and
//! `GET /lookup` (a payment by its id, txid or endToEndId), from [`crate::search::overview`].

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok};
use crate::http::AppState;
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use crate::search::Search;
use crate::search::overview::{Match, Overview, hours, lookup_value};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(overview))
        .routes(routes!(lookup))
}

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // The document's parameters; the handler reads the raw query.
struct OverviewParams {
    /// The window, in hours before now: 1 to 168 (default 24).
    #[param(minimum = 1, maximum = 168, nullable = false)]
    hours: Option<i64>,
}

/// Is anything on fire? The charges of the last hours by time bucket and status, the LIVE
/// charges still pending by age (with the oldest), and the stores running a canary or a
/// shadow candidate. PSP health is on `GET /providers`.
#[utoipa::path(get, path = "/overview", tag = "admin", params(OverviewParams),
    responses(
        (status = 200, description = "The landing view", body = Envelope<Overview>),
        (status = 400, description = "`hours` is not a whole number from 1 to 168 (`invalid_hours`), or an unknown parameter (`unknown_field`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
    ))]
async fn overview(
    State(search): State<Search>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let mut values = query_values(raw.as_deref(), &[("hours", "invalid_hours")])?;
    let hours = hours(values.remove("hours").as_deref())?;
    Ok(ok(StatusCode::OK, search.overview(hours).await?))
}

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // The document's parameters; the handler reads the raw query.
struct LookupParams {
    /// A paymentIntentId, a charge's txid or a pix's endToEndId.
    #[param(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9-]{1,64}$")]
    q: String,
}

/// The payments an identifier names, whatever kind it is: a paymentIntentId, the txid of a
/// LIVE charge at its PSP, or the endToEndId of the pix that paid it (as the PSP reported
/// it). Each match says which one matched; none is an empty list.
#[utoipa::path(get, path = "/lookup", tag = "admin", params(LookupParams),
    responses(
        (status = 200, description = "The matches, each with `matchedBy`", body = Envelope<Vec<Match>>),
        (status = 400, description = "`q` is absent, empty, over 64 characters or holds other than letters, digits and '-' (`invalid_q`), or an unknown parameter (`unknown_field`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
    ))]
async fn lookup(
    State(search): State<Search>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let values = query_values(raw.as_deref(), &[("q", "invalid_q")])?;
    let q = lookup_value(values.get("q").map(String::as_str))?;
    Ok(ok(StatusCode::OK, search.lookup(q).await?))
}
