//! `/api-keys`: issue, list and revoke merchant API keys ([`crate::catalog`]).

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, parse_body, uuid_param};
use crate::access::Actor;
use crate::catalog::{ApiKeyView, Catalog, CatalogError, CreateApiKey};
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_api_key, list_api_keys))
        .routes(routes!(revoke_api_key))
}

/// Issues an API key; the secret is in this response only (SHA-256 is stored).
#[utoipa::path(post, path = "/api-keys", tag = "admin", request_body = CreateApiKey,
    responses(
        (status = 201, description = "Issued; `apiKey` is the secret", body = Envelope<ApiKeyView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_scope`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No merchant with this code (`merchant_not_found`), or it has no store with one of the codes (`store_not_found`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn create_api_key(
    State(catalog): State<Catalog>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateApiKey = parse_body(body, &[("scopes", "invalid_scope")])?;
    Ok(ok(
        StatusCode::CREATED,
        catalog.create_api_key(&actor, req).await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct KeyFilter {
    /// The merchant's code.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$")]
    merchant: String,
}

/// Lists a merchant's API keys (never their secrets).
#[utoipa::path(get, path = "/api-keys", tag = "admin", params(KeyFilter),
    responses(
        (status = 200, description = "The merchant's keys, revoked ones included", body = Envelope<Vec<ApiKeyView>>),
        (status = 400, description = "`merchant` is missing or repeated (`missing_field`, `invalid_field`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No merchant with this code (`merchant_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_api_keys(
    State(catalog): State<Catalog>,
    filter: Result<Query<KeyFilter>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(filter) = filter.map_err(|e| {
        let text = e.body_text();
        let code = if text.contains("missing field") {
            "missing_field"
        } else {
            "invalid_field"
        };
        ApiError::invalid(code, "merchant", format!("`merchant`: {text}"))
    })?;
    Ok(ok(
        StatusCode::OK,
        catalog.list_api_keys(&filter.merchant).await?,
    ))
}

/// Revokes an API key, effective immediately. Revoking a revoked key answers the same.
#[utoipa::path(post, path = "/api-keys/{keyId}/revoke", tag = "admin",
    params(("keyId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "Revoked", body = Envelope<ApiKeyView>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such key (`api_key_not_found`)", body = ErrorEnvelope),
    ))]
async fn revoke_api_key(
    State(catalog): State<Catalog>,
    actor: Actor,
    key_id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let key_id = uuid_param(key_id, || CatalogError::ApiKeyNotFound.into())?;
    Ok(ok(
        StatusCode::OK,
        catalog.revoke_api_key(&actor, &key_id).await?,
    ))
}
