//! `/gateways`: the gateway catalog.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, conflict, ok, parse_body, path_param, require_code};
use crate::app::AppState;
use crate::db::{self, catalog, violated_constraint};
use crate::http::extract::{Integer, JsonBody};
use crate::http::{ApiError, ErrorEnvelope};
use pixgate_domain::money::Money;
use pixgate_domain::valid_code;
use pixgate_pix::time::iso8601;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_gateway, list_gateways))
        .routes(routes!(patch_gateway))
}

/// `D0` to `D365`, leading zeros allowed: what `release_days` accepts (a test holds the
/// schema and the function to each other).
#[cfg(test)]
pub(super) const RELEASE_CLASS_PATTERN: &str =
    "^D(0{0,2}[0-9]|0?[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$";

/// A gateway's fee terms. The fee is the MDR plus the fixed fee, raised to the minimum and
/// then capped at the maximum.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FeeTerms {
    /// MDR in basis points (150 = 1.50 %).
    #[schema(value_type = i64, minimum = 0, maximum = 10000)]
    mdr_bps: Integer,
    /// Centavos added to every charge's fee (default 0).
    #[serde(default)]
    #[schema(value_type = i64, minimum = 0, maximum = 10000000000_i64)]
    fixed_centavos: Integer,
    /// The lowest fee in centavos (default 0).
    #[serde(default)]
    #[schema(value_type = i64, minimum = 0, maximum = 10000000000_i64)]
    min_fee_centavos: Integer,
    /// The highest fee in centavos (null or absent: no cap). Below `minFeeCentavos` it
    /// contradicts it: 422 `invalid_fee_terms`.
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10000000000_i64)]
    max_fee_centavos: Option<Integer>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateGateway {
    /// The provider's code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "sandbox-a")]
    provider_code: String,
    /// Unique.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "sandbox-a-d1")]
    gateway_alias: String,
    /// When the money is released: `D0` (same day) to `D365` business days.
    #[schema(
        pattern = "^D(0{0,2}[0-9]|0?[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$",
        example = "D1"
    )]
    release_class: String,
    fee_terms: FeeTerms,
}

/// What to change; a field that is absent or null stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PatchGateway {
    active: Option<bool>,
    /// Replaces the terms as a whole.
    fee_terms: Option<FeeTerms>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct GatewayView {
    #[schema(format = Uuid)]
    gateway_id: String,
    provider_code: String,
    gateway_alias: String,
    release_class: String,
    fee_terms: FeeTerms,
    active: bool,
    created_at: String,
    updated_at: String,
}

impl From<catalog::Gateway> for GatewayView {
    fn from(g: catalog::Gateway) -> Self {
        Self {
            gateway_id: g.id,
            provider_code: g.provider_code,
            gateway_alias: g.alias,
            release_class: g.release_class,
            fee_terms: FeeTerms {
                mdr_bps: Integer(g.mdr_bps),
                fixed_centavos: Integer(g.fixed_centavos),
                min_fee_centavos: Integer(g.min_fee_centavos),
                max_fee_centavos: g.max_fee_centavos.map(Integer),
            },
            active: g.active.0,
            created_at: iso8601(g.created_at),
            updated_at: iso8601(g.updated_at),
        }
    }
}

fn check_fee_terms(t: &FeeTerms) -> Result<(), ApiError> {
    let bad = |field: &str, message: &str| {
        ApiError::invalid("invalid_fee_terms", field, message.to_owned())
    };
    if !(0..=10_000).contains(&t.mdr_bps.0) {
        return Err(bad("feeTerms.mdrBps", "`mdrBps` must be 0 to 10000"));
    }
    // No fee is worth more than the largest charge.
    let centavos = 0..=Money::MAX_CENTAVOS as i64;
    for (field, value) in [
        ("feeTerms.fixedCentavos", Some(t.fixed_centavos.0)),
        ("feeTerms.minFeeCentavos", Some(t.min_fee_centavos.0)),
        ("feeTerms.maxFeeCentavos", t.max_fee_centavos.map(|m| m.0)),
    ] {
        if value.is_some_and(|v| !centavos.contains(&v)) {
            return Err(bad(field, "fees must be 0 to 10000000000 centavos"));
        }
    }
    // A rule between two fields, which a JSON schema cannot state: hence 422, not 400.
    if t.max_fee_centavos.is_some_and(|m| m < t.min_fee_centavos) {
        return Err(ApiError::Unprocessable {
            code: "invalid_fee_terms",
            field: "feeTerms.maxFeeCentavos".into(),
            message: "`maxFeeCentavos` must be at least `minFeeCentavos`".into(),
        });
    }
    Ok(())
}

/// Adds a gateway to the catalog.
#[utoipa::path(post, path = "/gateways", tag = "admin", request_body = CreateGateway,
    responses(
        (status = 201, description = "Created, active", body = Envelope<GatewayView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_release_class`, `invalid_fee_terms`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 409, description = "A gateway with this alias exists (`gateway_alias_taken`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
        (status = 422, description = "`maxFeeCentavos` is below `minFeeCentavos` (`invalid_fee_terms`)", body = ErrorEnvelope),
    ))]
async fn create_gateway(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateGateway = parse_body(body, &[])?;
    require_code(&req.provider_code, "providerCode")?;
    require_code(&req.gateway_alias, "gatewayAlias")?;
    if pixgate_policy_logic::release_days(&req.release_class).is_none() {
        return Err(ApiError::invalid(
            "invalid_release_class",
            "releaseClass",
            "`releaseClass` must be D0 to D365",
        ));
    }
    check_fee_terms(&req.fee_terms)?;
    let now = db::now_ms();
    let gateway = catalog::Gateway {
        id: uuid::Uuid::now_v7().to_string(),
        provider_code: req.provider_code,
        alias: req.gateway_alias,
        release_class: req.release_class,
        mdr_bps: req.fee_terms.mdr_bps.0,
        fixed_centavos: req.fee_terms.fixed_centavos.0,
        min_fee_centavos: req.fee_terms.min_fee_centavos.0,
        max_fee_centavos: req.fee_terms.max_fee_centavos.map(|m| m.0),
        active: db::Flag(true),
        created_at: now,
        updated_at: now,
    };
    catalog::insert_gateway(&state.db.write, &gateway)
        .await
        .map_err(constraint_error)?;
    state.stores.clear();
    Ok(ok(StatusCode::CREATED, GatewayView::from(gateway)))
}

fn constraint_error(e: sqlx::Error) -> ApiError {
    match violated_constraint(&e).as_deref() {
        Some("gateways_alias_key") => {
            conflict("gateway_alias_taken", "a gateway with this alias exists")
        }
        _ => ApiError::from(e),
    }
}

/// Lists the gateway catalog.
#[utoipa::path(get, path = "/gateways", tag = "admin",
    responses(
        (status = 200, description = "Every gateway, active or not", body = Envelope<Vec<GatewayView>>),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
    ))]
async fn list_gateways(State(state): State<Arc<AppState>>) -> Result<impl IntoResponse, ApiError> {
    let all = catalog::list_gateways(&state.db.read).await?;
    Ok(ok(
        StatusCode::OK,
        all.into_iter().map(GatewayView::from).collect::<Vec<_>>(),
    ))
}

fn gateway_not_found() -> ApiError {
    ApiError::not_found("gateway_not_found", "gateway not found")
}

/// Switches a gateway on or off, or changes its fee terms.
#[utoipa::path(patch, path = "/gateways/{alias}", tag = "admin",
    params(("alias" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Gateway alias")),
    request_body = PatchGateway,
    responses(
        (status = 200, description = "The gateway as changed", body = Envelope<GatewayView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `unknown_field`, `invalid_field`, `invalid_fee_terms`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No gateway with this alias (`gateway_not_found`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
        (status = 422, description = "`maxFeeCentavos` is below `minFeeCentavos` (`invalid_fee_terms`)", body = ErrorEnvelope),
    ))]
async fn patch_gateway(
    State(state): State<Arc<AppState>>,
    alias: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchGateway = parse_body(body, &[])?;
    let alias = path_param(alias, gateway_not_found)?;
    if !valid_code(&alias) {
        return Err(gateway_not_found());
    }
    let mut gateway = catalog::gateway_by_alias(&state.db.write, &alias)
        .await?
        .ok_or_else(|| {
            ApiError::not_found("gateway_not_found", format!("gateway `{alias}` not found"))
        })?;
    if let Some(active) = req.active {
        gateway.active = db::Flag(active);
    }
    if let Some(terms) = req.fee_terms {
        check_fee_terms(&terms)?;
        gateway.mdr_bps = terms.mdr_bps.0;
        gateway.fixed_centavos = terms.fixed_centavos.0;
        gateway.min_fee_centavos = terms.min_fee_centavos.0;
        gateway.max_fee_centavos = terms.max_fee_centavos.map(|m| m.0);
    }
    gateway.updated_at = db::now_ms();
    catalog::update_gateway(&state.db.write, &gateway).await?;
    state.stores.clear();
    Ok(ok(StatusCode::OK, GatewayView::from(gateway)))
}

#[cfg(test)]
mod tests {
    use super::RELEASE_CLASS_PATTERN;

    #[test]
    fn the_release_class_pattern_is_release_days() {
        let pattern = regex::Regex::new(RELEASE_CLASS_PATTERN).unwrap();
        let mut classes = vec!["", "D", "d1", "D-1", "D1 ", "D+1", "D0x1", "E1", "D٣"];
        let numbered: Vec<String> = (0..1200)
            .flat_map(|n| [format!("D{n}"), format!("D0{n}"), format!("D00{n}")])
            .collect();
        classes.extend(numbered.iter().map(String::as_str));
        for class in classes {
            assert_eq!(
                pattern.is_match(class),
                pixgate_policy_logic::release_days(class).is_some(),
                "{class:?}"
            );
        }
    }
}
