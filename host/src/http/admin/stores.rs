//! `/stores`: create, read and change a store; the gateways it may use ([`crate::catalog`]).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, parse_body};
use crate::app::AppState;
use crate::catalog::{Catalog, CreateStore, PatchStore, StoreGateways, StoreView};
use crate::http::extract::JsonBody;
use crate::http::responses::{AdminUnauthorized, PayloadTooLarge, UnsupportedMediaType};
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_store))
        .routes(routes!(get_store, patch_store))
        .routes(routes!(put_store_gateways))
}

/// What a refused `mode` answers instead of `invalid_field`.
const MODE_CODE: [(&str, &str); 1] = [("mode", "invalid_mode")];

/// The store code of the path. One that does not even decode is no code: the catalog answers
/// it as an unknown store, at the point where it looks for the store.
fn code_param(code: Result<Path<String>, PathRejection>) -> String {
    code.map(|Path(code)| code).unwrap_or_default()
}

/// Creates a store of a merchant.
#[utoipa::path(post, path = "/stores", tag = "admin", request_body = CreateStore,
    responses(
        (status = 201, description = "Created", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_name`, `invalid_mode`, `invalid_store_config` (also a value that a key the bundled components read cannot hold, with `field` `config.<key>`), `invalid_charge_expiry`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized,
        (status = 404, description = "No merchant with this code (`merchant_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "A store with this code exists (`store_code_taken`)", body = ErrorEnvelope),
        (status = 422, description = "`config` sets `limits.min-amount-centavos` above `limits.max-amount-centavos` (`invalid_store_config`), a rule between two keys", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn create_store(
    State(catalog): State<Catalog>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateStore = parse_body(body, &MODE_CODE)?;
    Ok(ok(StatusCode::CREATED, catalog.create_store(req).await?))
}

/// Reads a store.
#[utoipa::path(get, path = "/stores/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    responses(
        (status = 200, description = "The store", body = Envelope<StoreView>),
        AdminUnauthorized,
        (status = 404, description = "No store with this code (`store_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_store(
    State(catalog): State<Catalog>,
    code: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(
        StatusCode::OK,
        catalog.get_store(&code_param(code)).await?,
    ))
}

/// Changes a store's name, mode, live switch, configuration or charge expiry.
#[utoipa::path(patch, path = "/stores/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    request_body = PatchStore,
    responses(
        (status = 200, description = "The store as changed", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `unknown_field`, `invalid_field`, `invalid_name`, `invalid_mode`, `invalid_store_config` (also a value that a key the bundled components read cannot hold, with `field` `config.<key>`), `invalid_charge_expiry`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized,
        (status = 404, description = "No store with this code (`store_not_found`)", body = ErrorEnvelope),
        (status = 422, description = "`config` sets `limits.min-amount-centavos` above `limits.max-amount-centavos` (`invalid_store_config`), a rule between two keys", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn patch_store(
    State(catalog): State<Catalog>,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchStore = parse_body(body, &MODE_CODE)?;
    Ok(ok(
        StatusCode::OK,
        catalog.patch_store(&code_param(code), req).await?,
    ))
}

/// Sets the gateways a store may use.
#[utoipa::path(put, path = "/stores/{code}/gateways", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    request_body = StoreGateways,
    responses(
        (status = 200, description = "The store with its grants", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized,
        (status = 404, description = "No store with this code (`store_not_found`), or no gateway with one of the aliases (`gateway_not_found`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn put_store_gateways(
    State(catalog): State<Catalog>,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: StoreGateways = parse_body(body, &[])?;
    Ok(ok(
        StatusCode::OK,
        catalog.put_store_gateways(&code_param(code), req).await?,
    ))
}
