//! `/gateways`: the gateway catalog.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, constraint_error, ok, require_code};
use crate::bootstrap::AppState;
use crate::db::{self, catalog};
use crate::domain::valid_code;
use crate::http::extract::{JsonBody, parse};
use crate::http::views::iso8601;
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_gateway, list_gateways))
        .routes(routes!(patch_gateway))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FeeTermsBody {
    /// MDR in basis points (150 = 1.50 %), 0 to 10000.
    mdr_bps: i64,
    #[serde(default)]
    fixed_centavos: i64,
    #[serde(default)]
    min_fee_centavos: i64,
    max_fee_centavos: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateGateway {
    provider_code: String,
    gateway_alias: String,
    /// `D0`, `D1`, ..., `D365`.
    release_class: String,
    fee_terms: FeeTermsBody,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PatchGateway {
    active: Option<bool>,
    fee_terms: Option<FeeTermsBody>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct GatewayView {
    gateway_id: String,
    provider_code: String,
    gateway_alias: String,
    release_class: String,
    fee_terms: FeeTermsBody,
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
            fee_terms: FeeTermsBody {
                mdr_bps: g.mdr_bps,
                fixed_centavos: g.fixed_centavos,
                min_fee_centavos: g.min_fee_centavos,
                max_fee_centavos: g.max_fee_centavos,
            },
            active: g.active.0,
            created_at: iso8601(g.created_at),
            updated_at: iso8601(g.updated_at),
        }
    }
}

fn check_fee_terms(t: &FeeTermsBody) -> Result<(), ApiError> {
    let bad = |field: &str, message: &str| {
        ApiError::invalid("invalid_fee_terms", field, message.to_owned())
    };
    if !(0..=10_000).contains(&t.mdr_bps) {
        return Err(bad("feeTerms.mdrBps", "`mdrBps` must be 0 to 10000"));
    }
    if t.fixed_centavos < 0 || t.min_fee_centavos < 0 {
        return Err(bad("feeTerms", "fees must not be negative"));
    }
    if t.max_fee_centavos.is_some_and(|m| m < t.min_fee_centavos) {
        return Err(bad(
            "feeTerms.maxFeeCentavos",
            "`maxFeeCentavos` must be at least `minFeeCentavos`",
        ));
    }
    Ok(())
}

/// Adds a gateway to the catalog.
#[utoipa::path(post, path = "/gateways", tag = "admin", request_body = CreateGateway,
    responses((status = 201, body = Envelope<GatewayView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 409, body = ErrorEnvelope)))]
async fn create_gateway(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateGateway = parse(body)?;
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
        mdr_bps: req.fee_terms.mdr_bps,
        fixed_centavos: req.fee_terms.fixed_centavos,
        min_fee_centavos: req.fee_terms.min_fee_centavos,
        max_fee_centavos: req.fee_terms.max_fee_centavos,
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

/// Lists the gateway catalog.
#[utoipa::path(get, path = "/gateways", tag = "admin",
    responses((status = 200, body = Envelope<Vec<GatewayView>>), (status = 401, body = ErrorEnvelope)))]
async fn list_gateways(State(state): State<Arc<AppState>>) -> Result<impl IntoResponse, ApiError> {
    let all = catalog::list_gateways(&state.db.read).await?;
    Ok(ok(
        StatusCode::OK,
        all.into_iter().map(GatewayView::from).collect::<Vec<_>>(),
    ))
}

/// Switches a gateway on or off, or changes its fee terms.
#[utoipa::path(patch, path = "/gateways/{alias}", tag = "admin", params(("alias" = String, Path)), request_body = PatchGateway,
    responses((status = 200, body = Envelope<GatewayView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn patch_gateway(
    State(state): State<Arc<AppState>>,
    Path(alias): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchGateway = parse(body)?;
    if !valid_code(&alias) {
        return Err(ApiError::not_found(
            "gateway_not_found",
            "gateway not found",
        ));
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
        gateway.mdr_bps = terms.mdr_bps;
        gateway.fixed_centavos = terms.fixed_centavos;
        gateway.min_fee_centavos = terms.min_fee_centavos;
        gateway.max_fee_centavos = terms.max_fee_centavos;
    }
    gateway.updated_at = db::now_ms();
    catalog::update_gateway(&state.db.write, &gateway).await?;
    state.stores.clear();
    Ok(ok(StatusCode::OK, GatewayView::from(gateway)))
}
