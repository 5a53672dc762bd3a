//! `/api-keys`: issue, list and revoke merchant API keys.

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use pixgate_domain::{sha256_hex, valid_code};
use pixgate_pix::time::iso8601;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, code_list_schema, ok, parse_body, require_code, uuid_param};
use crate::access::Scope;
use crate::app::AppState;
use crate::bootstrap::new_api_key;
use crate::db::{self, catalog, keys};
use crate::http::extract::JsonBody;
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_api_key, list_api_keys))
        .routes(routes!(revoke_api_key))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CreateApiKey {
    /// The merchant's code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "acme")]
    merchant: String,
    /// Codes of that merchant's stores the key may use.
    #[schema(schema_with = code_list_schema)]
    stores: Vec<String>,
    /// Null or absent: `payments:create` and `webhooks:manage`.
    scopes: Option<Vec<Scope>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ApiKeyView {
    #[schema(format = Uuid)]
    key_id: String,
    /// The secret: shown in the creation response only.
    #[serde(skip_serializing_if = "Option::is_none")]
    api_key: Option<String>,
    /// The visible, non-secret part of the key.
    prefix: String,
    merchant: String,
    scopes: Vec<Scope>,
    stores: Vec<String>,
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    revoked_at: Option<String>,
}

async fn key_view(
    state: &AppState,
    key: keys::ApiKey,
    merchant: String,
    secret: Option<String>,
) -> Result<ApiKeyView, ApiError> {
    Ok(ApiKeyView {
        stores: keys::granted_store_codes(&state.db.write, &key.id).await?,
        key_id: key.id,
        api_key: secret,
        prefix: key.prefix,
        merchant,
        scopes: Scope::parse_list(&key.scopes),
        created_at: iso8601(key.created_at),
        revoked_at: key.revoked_at.map(iso8601),
    })
}

/// Issues an API key; the secret is in this response only (SHA-256 is stored).
#[utoipa::path(post, path = "/api-keys", tag = "admin", request_body = CreateApiKey,
    responses(
        (status = 201, description = "Issued; `apiKey` is the secret", body = Envelope<ApiKeyView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_scope`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No merchant with this code (`merchant_not_found`), or it has no store with one of the codes (`store_not_found`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
    ))]
async fn create_api_key(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateApiKey = parse_body(body, &[("scopes", "invalid_scope")])?;
    require_code(&req.merchant, "merchant")?;
    for (i, code) in req.stores.iter().enumerate() {
        require_code(code, &format!("stores[{i}]"))?;
    }
    let merchant = catalog::merchant_by_code(&state.db.read, &req.merchant)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "merchant_not_found",
                format!("merchant `{}` not found", req.merchant),
            )
        })?;
    let scopes: Vec<Scope> = req.scopes.unwrap_or_else(|| Scope::DEFAULT.to_vec());
    let mut store_ids = Vec::new();
    for code in &req.stores {
        let store = catalog::store_by_code(&state.db.read, code)
            .await?
            .filter(|s| s.merchant_id == merchant.id)
            .ok_or_else(|| {
                ApiError::not_found("store_not_found", format!("merchant has no store `{code}`"))
            })?;
        if !store_ids.contains(&store.id) {
            store_ids.push(store.id);
        }
    }
    let (prefix, secret) = new_api_key()?;
    let key = keys::ApiKey {
        id: uuid::Uuid::now_v7().to_string(),
        merchant_id: merchant.id,
        prefix,
        scopes: Scope::join(&scopes),
        created_at: db::now_ms(),
        revoked_at: None,
    };
    let mut tx = state.db.write.begin().await?;
    keys::insert(&mut *tx, &key, &sha256_hex(&secret)).await?;
    for store_id in &store_ids {
        keys::grant_store(&mut *tx, &key.id, store_id).await?;
    }
    tx.commit().await?;
    Ok(ok(
        StatusCode::CREATED,
        key_view(&state, key, merchant.code, Some(secret)).await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct KeyFilter {
    /// The merchant's code.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$")]
    merchant: String,
}

fn merchant_not_found() -> ApiError {
    ApiError::not_found("merchant_not_found", "merchant not found")
}

/// Lists a merchant's API keys (never their secrets).
#[utoipa::path(get, path = "/api-keys", tag = "admin", params(KeyFilter),
    responses(
        (status = 200, description = "The merchant's keys, revoked ones included", body = Envelope<Vec<ApiKeyView>>),
        (status = 400, description = "`merchant` is missing or repeated (`missing_field`, `invalid_field`)", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No merchant with this code (`merchant_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_api_keys(
    State(state): State<Arc<AppState>>,
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
    if !valid_code(&filter.merchant) {
        return Err(merchant_not_found());
    }
    let merchant = catalog::merchant_by_code(&state.db.read, &filter.merchant)
        .await?
        .ok_or_else(merchant_not_found)?;
    let mut views = Vec::new();
    for key in keys::of_merchant(&state.db.read, &merchant.id).await? {
        views.push(key_view(&state, key, merchant.code.clone(), None).await?);
    }
    Ok(ok(StatusCode::OK, views))
}

/// Revokes an API key, effective immediately. Revoking a revoked key answers the same.
#[utoipa::path(post, path = "/api-keys/{keyId}/revoke", tag = "admin",
    params(("keyId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "Revoked", body = Envelope<ApiKeyView>),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No such key (`api_key_not_found`)", body = ErrorEnvelope),
    ))]
async fn revoke_api_key(
    State(state): State<Arc<AppState>>,
    key_id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let not_found = || ApiError::not_found("api_key_not_found", "API key not found");
    let key_id = uuid_param(key_id, not_found)?;
    keys::by_id(&state.db.write, &key_id)
        .await?
        .ok_or_else(not_found)?;
    keys::revoke(&state.db.write, &key_id, db::now_ms()).await?;
    // Before the answer: from now on no request authenticates with it.
    state.keys.clear();
    let key = keys::by_id(&state.db.write, &key_id)
        .await?
        .ok_or_else(not_found)?;
    let merchant = catalog::merchant_code(&state.db.write, &key.merchant_id).await?;
    Ok(ok(
        StatusCode::OK,
        key_view(&state, key, merchant, None).await?,
    ))
}
