//! `/gateways`: the gateway catalog ([`crate::catalog`]).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, parse_body};
use crate::access::Actor;
use crate::catalog::{Catalog, CreateGateway, GatewayView, PatchGateway};
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_gateway, list_gateways))
        .routes(routes!(patch_gateway))
}

/// Adds a gateway to the catalog.
#[utoipa::path(post, path = "/gateways", tag = "admin", request_body = CreateGateway,
    responses(
        (status = 201, description = "Created, active", body = Envelope<GatewayView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_release_class`, `invalid_fee_terms`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 409, description = "A gateway with this alias exists (`gateway_alias_taken`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        (status = 422, description = "`maxFeeCentavos` is below `minFeeCentavos` (`invalid_fee_terms`)", body = ErrorEnvelope),
    ))]
async fn create_gateway(
    State(catalog): State<Catalog>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateGateway = parse_body(body, &[])?;
    Ok(ok(
        StatusCode::CREATED,
        catalog.create_gateway(&actor, req).await?,
    ))
}

/// Lists the gateway catalog.
#[utoipa::path(get, path = "/gateways", tag = "admin",
    responses(
        (status = 200, description = "Every gateway, active or not", body = Envelope<Vec<GatewayView>>),
        AdminUnauthorized, RoleInsufficient,
    ))]
async fn list_gateways(State(catalog): State<Catalog>) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(StatusCode::OK, catalog.list_gateways().await?))
}

/// Switches a gateway on or off, or changes its fee terms.
#[utoipa::path(patch, path = "/gateways/{alias}", tag = "admin",
    params(("alias" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Gateway alias")),
    request_body = PatchGateway,
    responses(
        (status = 200, description = "The gateway as changed", body = Envelope<GatewayView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `unknown_field`, `invalid_field`, `invalid_fee_terms`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No gateway with this alias (`gateway_not_found`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        (status = 422, description = "`maxFeeCentavos` is below `minFeeCentavos` (`invalid_fee_terms`)", body = ErrorEnvelope),
    ))]
async fn patch_gateway(
    State(catalog): State<Catalog>,
    actor: Actor,
    alias: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchGateway = parse_body(body, &[])?;
    // A path that does not even decode is no alias: the catalog answers it as unknown.
    let alias = alias.map(|Path(alias)| alias).unwrap_or_default();
    Ok(ok(
        StatusCode::OK,
        catalog.patch_gateway(&actor, &alias, req).await?,
    ))
}
