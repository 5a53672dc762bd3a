//! The merchant API's `GET /settlements`: the settlement calendar over the key's granted
//! stores ([`crate::settlements`], DESIGN.md section 18).

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::search::query_values;
use super::{ApiError, ErrorEnvelope};
use crate::access::Principal;
use crate::http::AppState;
use crate::http::responses::{RateLimited, Unauthorized};
use crate::settlements::view::{Settlement, SettlementListEnvelope};
use crate::settlements::{Period, Settlements};
use pixgate_domain::due::Date;
use pixgate_domain::json::Invalid;

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(list_settlements))
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
    /// Only this provider's rows.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    provider: Option<String>,
}

/// What arrives on which day (scope `payments:read` or `payments:create`): per settlement
/// date, provider, gateway and release class, the LIVE payments of the key's granted stores
/// that succeeded and settle that date (count, gross and fees as each charge's economics
/// recorded them) and the refunds of those payments completed that Brasília date; `net =
/// gross - fees - refunds`. SHADOW payments moved no money and are not counted.
#[utoipa::path(
    get,
    path = "/settlements",
    tag = "settlements",
    params(SettlementParams),
    responses(
        (status = 200, description = "The rows, by date, provider, gateway and release class", body = SettlementListEnvelope),
        (status = 400, description = "`missing_field` (`from` or `to`), `invalid_date`, `invalid_range` (`to` before `from`, or more than 366 days), `invalid_provider`, `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:read` and `payments:create` (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "`provider` is no provider (`provider_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn list_settlements(
    State(settlements): State<Settlements>,
    principal: Principal,
    RawQuery(raw): RawQuery,
) -> Result<Json<SettlementListEnvelope>, ApiError> {
    let mut values = query_values(
        raw.as_deref(),
        &[
            ("from", "invalid_date"),
            ("to", "invalid_date"),
            ("provider", "invalid_provider"),
        ],
    )?;
    let period = period(&mut values)?;
    let rows = settlements.for_merchant(&principal, &period).await?;
    Ok(Json(SettlementListEnvelope {
        success: true,
        data: rows.iter().map(Settlement::from).collect(),
    }))
}

/// A code parameter, if given.
pub(crate) fn code_param(
    values: &mut HashMap<&'static str, String>,
    name: &'static str,
    code: &'static str,
) -> Result<Option<String>, ApiError> {
    values
        .remove(name)
        .map(|v| {
            if pixgate_domain::valid_code(&v) {
                Ok(v)
            } else {
                Err(Invalid::new(code, name, format!("`{name}` is not a code")).into())
            }
        })
        .transpose()
}

/// `from`, `to` and `provider`, read and checked (the admin report's too).
pub(crate) fn period(values: &mut HashMap<&'static str, String>) -> Result<Period, ApiError> {
    let mut date = |name: &'static str| {
        let text = values.remove(name).ok_or_else(|| {
            Invalid::new(
                "missing_field",
                name,
                format!("`{name}` is required (YYYY-MM-DD)"),
            )
        })?;
        Date::parse(&text).ok_or_else(|| {
            Invalid::new("invalid_date", name, format!("`{name}` is not YYYY-MM-DD"))
        })
    };
    let (from, to) = (date("from")?, date("to")?);
    let provider = code_param(values, "provider", "invalid_provider")?;
    Ok(Period::new(from, to, provider)?)
}
