//! `/stores`: create, read and change a store; the gateways it may use.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, constraint_error, ok, require_code, require_name};
use crate::bootstrap::AppState;
use crate::db::{self, catalog};
use crate::domain::valid_code;
use crate::http::extract::{JsonBody, parse};
use crate::http::views::iso8601;
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_store))
        .routes(routes!(get_store, patch_store))
        .routes(routes!(put_store_gateways))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateStore {
    code: String,
    name: String,
    /// Merchant code.
    merchant: String,
    /// `SHADOW` or `LIVE`.
    mode: String,
    /// Whether LIVE execution is switched on (default false).
    #[serde(default)]
    live_enabled: bool,
    /// Configuration the policy components read (string values).
    #[serde(default)]
    config: BTreeMap<String, String>,
    /// Seconds until a LIVE charge expires: 60 to 1209600 (default 86400).
    charge_expiry_seconds: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PatchStore {
    name: Option<String>,
    mode: Option<String>,
    live_enabled: Option<bool>,
    config: Option<BTreeMap<String, String>>,
    charge_expiry_seconds: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct StoreView {
    store_id: String,
    code: String,
    name: String,
    merchant: String,
    mode: String,
    live_enabled: bool,
    config: BTreeMap<String, String>,
    charge_expiry_seconds: i64,
    /// Gateways granted to the store; empty means every active gateway.
    gateways: Vec<String>,
    created_at: String,
    updated_at: String,
}

async fn store_view(state: &AppState, store: catalog::Store) -> Result<StoreView, ApiError> {
    let merchant = catalog::merchant_code(&state.db.read, &store.merchant_id).await?;
    let gateways = catalog::granted_gateway_aliases(&state.db.read, &store.id).await?;
    Ok(StoreView {
        config: store.config_map(),
        store_id: store.id,
        code: store.code,
        name: store.name,
        merchant,
        mode: store.mode,
        live_enabled: store.live_enabled.0,
        charge_expiry_seconds: store.charge_expiry_seconds,
        gateways,
        created_at: iso8601(store.created_at),
        updated_at: iso8601(store.updated_at),
    })
}

fn check_mode(mode: &str) -> Result<(), ApiError> {
    if mode == "SHADOW" || mode == "LIVE" {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "invalid_mode",
            "mode",
            "`mode` must be SHADOW or LIVE",
        ))
    }
}

fn check_expiry(seconds: i64) -> Result<(), ApiError> {
    if (60..=1_209_600).contains(&seconds) {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "invalid_charge_expiry",
            "chargeExpirySeconds",
            "`chargeExpirySeconds` must be 60 to 1209600",
        ))
    }
}

fn check_config(config: &BTreeMap<String, String>) -> Result<(), ApiError> {
    if config.len() > 100
        || config
            .iter()
            .any(|(k, v)| k.is_empty() || k.len() > 100 || v.len() > 1000)
    {
        return Err(ApiError::invalid(
            "invalid_store_config",
            "config",
            "at most 100 keys of 1 to 100 characters, values of at most 1000",
        ));
    }
    Ok(())
}

/// Creates a store of a merchant.
#[utoipa::path(post, path = "/stores", tag = "admin", request_body = CreateStore,
    responses((status = 201, body = Envelope<StoreView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope), (status = 409, body = ErrorEnvelope)))]
async fn create_store(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateStore = parse(body)?;
    require_code(&req.code, "code")?;
    require_name(&req.name, "name")?;
    check_mode(&req.mode)?;
    check_config(&req.config)?;
    let expiry = req.charge_expiry_seconds.unwrap_or(86_400);
    check_expiry(expiry)?;
    require_code(&req.merchant, "merchant")?;
    let merchant = catalog::merchant_by_code(&state.db.read, &req.merchant)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "merchant_not_found",
                format!("merchant `{}` not found", req.merchant),
            )
        })?;
    let now = db::now_ms();
    let store = catalog::Store {
        id: uuid::Uuid::now_v7().to_string(),
        merchant_id: merchant.id,
        code: req.code,
        name: req.name.trim().to_owned(),
        mode: req.mode,
        live_enabled: db::Flag(req.live_enabled),
        config: serde_json::to_string(&req.config).unwrap_or_else(|_| "{}".into()),
        charge_expiry_seconds: expiry,
        created_at: now,
        updated_at: now,
    };
    catalog::insert_store(&state.db.write, &store)
        .await
        .map_err(constraint_error)?;
    Ok(ok(StatusCode::CREATED, store_view(&state, store).await?))
}

async fn find_store(state: &AppState, code: &str) -> Result<catalog::Store, ApiError> {
    if !valid_code(code) {
        return Err(ApiError::not_found("store_not_found", "store not found"));
    }
    catalog::store_by_code(&state.db.write, code)
        .await?
        .ok_or_else(|| ApiError::not_found("store_not_found", format!("store `{code}` not found")))
}

/// Reads a store.
#[utoipa::path(get, path = "/stores/{code}", tag = "admin", params(("code" = String, Path)),
    responses((status = 200, body = Envelope<StoreView>), (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn get_store(
    State(state): State<Arc<AppState>>,
    Path(code): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let store = find_store(&state, &code).await?;
    Ok(ok(StatusCode::OK, store_view(&state, store).await?))
}

/// Changes a store's name, mode, live switch, configuration or charge expiry.
#[utoipa::path(patch, path = "/stores/{code}", tag = "admin", params(("code" = String, Path)), request_body = PatchStore,
    responses((status = 200, body = Envelope<StoreView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn patch_store(
    State(state): State<Arc<AppState>>,
    Path(code): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchStore = parse(body)?;
    let mut store = find_store(&state, &code).await?;
    if let Some(name) = req.name {
        require_name(&name, "name")?;
        store.name = name.trim().to_owned();
    }
    if let Some(mode) = req.mode {
        check_mode(&mode)?;
        store.mode = mode;
    }
    if let Some(live) = req.live_enabled {
        store.live_enabled = db::Flag(live);
    }
    if let Some(config) = req.config {
        check_config(&config)?;
        store.config = serde_json::to_string(&config).unwrap_or_else(|_| "{}".into());
    }
    if let Some(expiry) = req.charge_expiry_seconds {
        check_expiry(expiry)?;
        store.charge_expiry_seconds = expiry;
    }
    store.updated_at = db::now_ms();
    catalog::update_store(&state.db.write, &store).await?;
    state.stores.clear();
    Ok(ok(StatusCode::OK, store_view(&state, store).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct StoreGateways {
    /// Gateway aliases the store may use; empty lets it use every active gateway.
    gateways: Vec<String>,
}

/// Sets the gateways a store may use.
#[utoipa::path(put, path = "/stores/{code}/gateways", tag = "admin", params(("code" = String, Path)), request_body = StoreGateways,
    responses((status = 200, body = Envelope<StoreView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn put_store_gateways(
    State(state): State<Arc<AppState>>,
    Path(code): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: StoreGateways = parse(body)?;
    let store = find_store(&state, &code).await?;
    let mut tx = state.db.write.begin().await?;
    catalog::clear_store_gateways(&mut *tx, &store.id).await?;
    let mut seen = std::collections::BTreeSet::new();
    for alias in &req.gateways {
        if !seen.insert(alias) {
            continue;
        }
        let gateway = catalog::gateway_by_alias(&mut *tx, alias)
            .await?
            .ok_or_else(|| {
                ApiError::invalid(
                    "unknown_gateway",
                    "gateways",
                    format!("gateway `{alias}` not found"),
                )
            })?;
        catalog::grant_store_gateway(&mut *tx, &store.id, &gateway.id).await?;
    }
    tx.commit().await?;
    state.stores.clear();
    Ok(ok(StatusCode::OK, store_view(&state, store).await?))
}
