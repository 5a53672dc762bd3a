//! `/api-keys`: issue, list and revoke merchant API keys.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, require_code};
use crate::bootstrap::{AppState, new_api_key};
use crate::crypto;
use crate::db::{self, catalog, keys};
use crate::domain::valid_code;
use crate::http::auth::{SCOPE_PAYMENTS_CREATE, SCOPE_PAYMENTS_READ, SCOPE_WEBHOOKS_MANAGE};
use crate::http::extract::{JsonBody, parse};
use crate::http::views::iso8601;
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_api_key, list_api_keys))
        .routes(routes!(revoke_api_key))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CreateApiKey {
    /// Merchant code.
    merchant: String,
    /// Store codes of that merchant the key may use.
    stores: Vec<String>,
    /// Default: `payments:create` and `webhooks:manage`. Also `payments:read`.
    scopes: Option<Vec<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ApiKeyView {
    key_id: String,
    /// The secret: shown in the creation response only.
    #[serde(skip_serializing_if = "Option::is_none")]
    api_key: Option<String>,
    /// The visible, non-secret part of the key.
    prefix: String,
    merchant: String,
    scopes: Vec<String>,
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
        scopes: key.scopes.split_whitespace().map(str::to_owned).collect(),
        created_at: iso8601(key.created_at),
        revoked_at: key.revoked_at.map(iso8601),
    })
}

/// Issues an API key; the secret is in this response only (SHA-256 is stored).
#[utoipa::path(post, path = "/api-keys", tag = "admin", request_body = CreateApiKey,
    responses((status = 201, body = Envelope<ApiKeyView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn create_api_key(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateApiKey = parse(body)?;
    require_code(&req.merchant, "merchant")?;
    let merchant = catalog::merchant_by_code(&state.db.read, &req.merchant)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "merchant_not_found",
                format!("merchant `{}` not found", req.merchant),
            )
        })?;
    let known = [
        SCOPE_PAYMENTS_CREATE,
        SCOPE_PAYMENTS_READ,
        SCOPE_WEBHOOKS_MANAGE,
    ];
    let scopes = req.scopes.unwrap_or_else(|| {
        crate::bootstrap::ALL_SCOPES
            .iter()
            .map(|s| s.to_string())
            .collect()
    });
    if let Some(bad) = scopes.iter().find(|s| !known.contains(&s.as_str())) {
        return Err(ApiError::invalid(
            "invalid_scope",
            "scopes",
            format!("unknown scope `{bad}`"),
        ));
    }
    let mut store_ids = Vec::new();
    for code in &req.stores {
        if !valid_code(code) {
            return Err(ApiError::invalid(
                "unknown_store",
                "stores",
                "not a store code",
            ));
        }
        let store = catalog::store_by_code(&state.db.read, code)
            .await?
            .filter(|s| s.merchant_id == merchant.id)
            .ok_or_else(|| {
                ApiError::invalid(
                    "unknown_store",
                    "stores",
                    format!("merchant has no store `{code}`"),
                )
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
        scopes: scopes.join(" "),
        created_at: db::now_ms(),
        revoked_at: None,
    };
    let mut tx = state.db.write.begin().await?;
    keys::insert(&mut *tx, &key, &crypto::sha256_hex(&secret)).await?;
    for store_id in &store_ids {
        keys::grant_store(&mut *tx, &key.id, store_id).await?;
    }
    tx.commit().await?;
    Ok(ok(
        StatusCode::CREATED,
        key_view(&state, key, merchant.code, Some(secret)).await?,
    ))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct KeyFilter {
    /// Merchant code.
    merchant: String,
}

/// Lists a merchant's API keys (never their secrets).
#[utoipa::path(get, path = "/api-keys", tag = "admin", params(KeyFilter),
    responses((status = 200, body = Envelope<Vec<ApiKeyView>>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn list_api_keys(
    State(state): State<Arc<AppState>>,
    Query(filter): Query<KeyFilter>,
) -> Result<impl IntoResponse, ApiError> {
    if !valid_code(&filter.merchant) {
        return Err(ApiError::not_found(
            "merchant_not_found",
            "merchant not found",
        ));
    }
    let merchant = catalog::merchant_by_code(&state.db.read, &filter.merchant)
        .await?
        .ok_or_else(|| ApiError::not_found("merchant_not_found", "merchant not found"))?;
    let mut views = Vec::new();
    for key in keys::of_merchant(&state.db.read, &merchant.id).await? {
        views.push(key_view(&state, key, merchant.code.clone(), None).await?);
    }
    Ok(ok(StatusCode::OK, views))
}

/// Revokes an API key, effective immediately.
#[utoipa::path(post, path = "/api-keys/{keyId}/revoke", tag = "admin", params(("keyId" = String, Path)),
    responses((status = 200, body = Envelope<ApiKeyView>), (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn revoke_api_key(
    State(state): State<Arc<AppState>>,
    Path(key_id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let not_found = || ApiError::not_found("api_key_not_found", "API key not found");
    let key_id = uuid::Uuid::parse_str(&key_id)
        .map_err(|_| not_found())?
        .to_string();
    keys::by_id(&state.db.write, &key_id)
        .await?
        .ok_or_else(not_found)?;
    keys::revoke(&state.db.write, &key_id, db::now_ms()).await?;
    let key = keys::by_id(&state.db.write, &key_id)
        .await?
        .ok_or_else(not_found)?;
    let merchant = catalog::merchant_code(&state.db.write, &key.merchant_id).await?;
    Ok(ok(
        StatusCode::OK,
        key_view(&state, key, merchant, None).await?,
    ))
}
