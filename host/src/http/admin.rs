//! The admin API under `/admin/v1` (admin token), plus `/healthz`, `/readyz` and `/metrics`.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::auth::require_admin;
use super::extract::{JsonBody, parse};
use super::{ApiError, ErrorEnvelope};
use crate::access::Scope;
use crate::app::AppState;
use crate::bootstrap::new_api_key;
use crate::crypto;
use crate::db::{self, catalog, intents, keys, violated_constraint};
use crate::domain::time::iso8601;
use crate::domain::{StoreMode, valid_code};

#[derive(OpenApi)]
#[openapi(
    info(title = "pixgate admin API", version = "1.0.0",
         description = "Merchants, stores, gateways, API keys and decision traces. Bearer admin token."),
    servers((url = "/admin/v1")),
    modifiers(&AdminAuth),
    security(("adminToken" = [])),
    components(schemas(ErrorEnvelope))
)]
struct AdminDoc;

struct AdminAuth;

impl Modify for AdminAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "adminToken",
                SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
            );
    }
}

fn openapi_router() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(AdminDoc::openapi())
        .routes(routes!(create_merchant, list_merchants))
        .routes(routes!(create_store))
        .routes(routes!(get_store, patch_store))
        .routes(routes!(put_store_gateways))
        .routes(routes!(create_gateway, list_gateways))
        .routes(routes!(patch_gateway))
        .routes(routes!(create_api_key, list_api_keys))
        .routes(routes!(revoke_api_key))
        .routes(routes!(get_trace))
        .merge(super::components::routes())
}

/// The admin API's OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_router().into_openapi()
}

pub fn router(state: Arc<AppState>) -> axum::Router<Arc<AppState>> {
    let (api, doc) = openapi_router().split_for_parts();
    let api = api.layer(middleware::from_fn_with_state(state, require_admin));
    let doc = Arc::new(doc);
    axum::Router::new()
        .nest("/admin/v1", api)
        .route(
            "/admin/v1/openapi.json",
            axum::routing::get(move || {
                let doc = doc.clone();
                async move { Json(doc.as_ref().clone()) }
            }),
        )
        .route(
            "/healthz",
            axum::routing::get(|| async { Json(serde_json::json!({"status": "ok"})) }),
        )
        .route("/readyz", axum::routing::get(readyz))
        .route("/metrics", axum::routing::get(super::metrics))
}

async fn readyz(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    match state.db.ping().await {
        Ok(()) => (StatusCode::OK, Json(serde_json::json!({"status": "ready"}))),
        Err(e) => {
            tracing::warn!(error = %e, "not ready: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(
                    serde_json::json!({"status": "unavailable", "reason": "database unreachable"}),
                ),
            )
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct Envelope<T> {
    success: bool,
    data: T,
}

fn ok<T: Serialize>(status: StatusCode, data: T) -> impl IntoResponse {
    (
        status,
        Json(Envelope {
            success: true,
            data,
        }),
    )
}

fn constraint_error(e: sqlx::Error) -> ApiError {
    let conflict = |code: &'static str, message: &str| ApiError::Conflict {
        code,
        message: message.to_owned(),
    };
    match violated_constraint(&e).as_deref() {
        Some("merchants_code_key") => {
            conflict("merchant_code_taken", "a merchant with this code exists")
        }
        Some("stores_code_key") => conflict("store_code_taken", "a store with this code exists"),
        Some("gateways_alias_key") => {
            conflict("gateway_alias_taken", "a gateway with this alias exists")
        }
        Some("gateways_mdr_check") => ApiError::invalid(
            "invalid_fee_terms",
            "feeTerms.mdrBps",
            "mdrBps must be 0 to 10000",
        ),
        _ => ApiError::from(e),
    }
}

fn require_code(code: &str, field: &str) -> Result<(), ApiError> {
    if valid_code(code) {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "invalid_code",
            field,
            format!("`{field}` must be 1 to 64 characters of letters, digits, '-', '_' or '.'"),
        ))
    }
}

fn require_name(name: &str, field: &str) -> Result<(), ApiError> {
    let n = name.trim().chars().count();
    if n == 0 || n > 200 || name.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            "invalid_name",
            field,
            format!("`{field}` must have 1 to 200 characters and no control characters"),
        ));
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CreateMerchant {
    code: String,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct MerchantView {
    merchant_id: String,
    code: String,
    name: String,
    created_at: String,
}

impl From<catalog::Merchant> for MerchantView {
    fn from(m: catalog::Merchant) -> Self {
        Self {
            merchant_id: m.id,
            code: m.code,
            name: m.name,
            created_at: iso8601(m.created_at),
        }
    }
}

/// Creates a merchant.
#[utoipa::path(post, path = "/merchants", tag = "admin", request_body = CreateMerchant,
    responses((status = 201, body = Envelope<MerchantView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 409, body = ErrorEnvelope)))]
async fn create_merchant(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateMerchant = parse(body)?;
    require_code(&req.code, "code")?;
    require_name(&req.name, "name")?;
    let merchant = catalog::Merchant {
        id: uuid::Uuid::now_v7().to_string(),
        code: req.code,
        name: req.name.trim().to_owned(),
        created_at: db::now_ms(),
    };
    catalog::insert_merchant(&state.db.write, &merchant)
        .await
        .map_err(constraint_error)?;
    Ok(ok(StatusCode::CREATED, MerchantView::from(merchant)))
}

/// Lists merchants.
#[utoipa::path(get, path = "/merchants", tag = "admin",
    responses((status = 200, body = Envelope<Vec<MerchantView>>), (status = 401, body = ErrorEnvelope)))]
async fn list_merchants(State(state): State<Arc<AppState>>) -> Result<impl IntoResponse, ApiError> {
    let all = catalog::list_merchants(&state.db.read).await?;
    Ok(ok(
        StatusCode::OK,
        all.into_iter().map(MerchantView::from).collect::<Vec<_>>(),
    ))
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
        mode: store.mode.as_str().to_owned(),
        live_enabled: store.live_enabled.0,
        charge_expiry_seconds: store.charge_expiry_seconds,
        gateways,
        created_at: iso8601(store.created_at),
        updated_at: iso8601(store.updated_at),
    })
}

fn check_mode(mode: &str) -> Result<StoreMode, ApiError> {
    mode.parse()
        .map_err(|_| ApiError::invalid("invalid_mode", "mode", "`mode` must be SHADOW or LIVE"))
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
    let mode = check_mode(&req.mode)?;
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
        mode,
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
        store.mode = check_mode(&mode)?;
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
    let scopes = req.scopes.unwrap_or_else(|| {
        Scope::DEFAULT
            .iter()
            .map(|s| s.as_str().to_owned())
            .collect()
    });
    if let Some(bad) = scopes.iter().find(|s| s.parse::<Scope>().is_err()) {
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

/// The decision trace of a PaymentIntent: each step's component, exact input and output,
/// fuel and duration.
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}/trace", tag = "admin",
    params(("paymentIntentId" = String, Path)),
    responses((status = 200, body = Envelope<Object>), (status = 401, body = ErrorEnvelope), (status = 404, body = ErrorEnvelope)))]
async fn get_trace(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let not_found = || ApiError::not_found("payment_intent_not_found", "payment intent not found");
    let id = uuid::Uuid::parse_str(&id)
        .map_err(|_| not_found())?
        .to_string();
    let trace = intents::trace(&state.db.read, &id)
        .await?
        .ok_or_else(not_found)?;
    let trace: serde_json::Value =
        serde_json::from_str(&trace).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(ok(StatusCode::OK, trace))
}
