//! The admin API under `/admin/v1` (admin token), plus `/healthz`, `/readyz` and `/metrics`.
//! One module per resource, each handing its routes to [`openapi_router`].

mod api_keys;
mod gateways;
mod merchants;
mod stores;
mod traces;

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::middleware;
use axum::response::IntoResponse;
use serde::Serialize;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::auth::require_admin;
use super::{ApiError, ErrorEnvelope};
use crate::bootstrap::AppState;
use crate::db::violated_constraint;
use crate::domain::valid_code;

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

/// The admin routes and their OpenAPI document: one module per resource.
fn openapi_router() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(AdminDoc::openapi())
        .merge(merchants::routes())
        .merge(stores::routes())
        .merge(gateways::routes())
        .merge(api_keys::routes())
        .merge(traces::routes())
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
