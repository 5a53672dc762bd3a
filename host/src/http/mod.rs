//! The HTTP side: the merchant API (`/api/v1`) on one listener, the admin API (`/admin/v1`),
//! health and metrics on another. Handlers translate HTTP to the services (`charges`,
//! `components`, `webhooks`) and back, nothing more.

pub mod admin;
mod auth;
mod batches;
mod callbacks;
mod console;
mod error;
mod extract;
mod mandates;
pub mod payments;
mod refunds;
pub mod responses;
mod search;
pub mod serve;
mod settlements;
mod state;
pub mod webhooks;

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tracing::Instrument;

pub use error::{ApiError, ErrorDetail, ErrorEnvelope};
pub use state::AppState;

use crate::metrics::HttpLabels;

/// The merchant listener's router: `/api/v1`, `/openapi.json`, the API reference at
/// `/api/v1/docs` and the PSPs' callbacks.
pub fn merchant_router(state: Arc<AppState>) -> Router {
    with_common_layers(
        payments::router()
            .merge(callbacks::router())
            .merge(console::merchant_routes()),
        "merchant",
        state,
    )
}

/// The admin listener's router: `/admin/v1`, `/healthz`, `/readyz`, `/metrics`, the console at
/// `/console/` and the API reference at `/admin/v1/docs`.
pub fn admin_router(state: Arc<AppState>) -> Router {
    with_common_layers(
        admin::router(state.clone()).merge(console::admin_routes()),
        "admin",
        state,
    )
}

fn with_common_layers(
    router: Router<Arc<AppState>>,
    listener: &'static str,
    state: Arc<AppState>,
) -> Router {
    router
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(middleware::from_fn_with_state(
            (state.clone(), listener),
            request_context,
        ))
        .with_state(state)
}

/// Accepts a sane `X-Request-Id` or makes one; echoes it; opens the request's span; counts
/// and times the request; and finishes every error body as the envelope with the id.
async fn request_context(
    State((state, listener)): State<(Arc<AppState>, &'static str)>,
    mut request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    // A fixed label set: a client inventing methods must not grow the metrics without bound.
    let method = match request.method().as_str() {
        m @ ("GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS") => m,
        _ => "OTHER",
    }
    .to_owned();
    request
        .extensions_mut()
        .insert(RequestId(request_id.clone()));
    // `otel.*` name and kind the exported span; the status is recorded once answered.
    let span = tracing::info_span!(
        "request",
        otel.name = %format_args!("{method} {route}"),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        request_id = %request_id,
        %method,
        %route,
        http.response.status_code = tracing::field::Empty,
    );
    crate::telemetry::adopt(&span, request.headers());

    let mut response = next.run(request).instrument(span.clone()).await;

    let status = response.status();
    if status.is_client_error() || status.is_server_error() {
        let mut detail = response
            .extensions_mut()
            .remove::<error::PendingError>()
            .map(|p| p.0)
            .unwrap_or_else(|| error::generic_detail(status));
        detail.request_id = request_id.clone();
        let envelope = ErrorEnvelope {
            success: false,
            error: detail,
        };
        let (mut parts, _) = response.into_parts();
        let body = serde_json::to_vec(&envelope).unwrap_or_default();
        parts.headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        parts.headers.remove(header::CONTENT_LENGTH);
        response = Response::from_parts(parts, Body::from(body));
    }
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert("x-request-id", value);
    }
    let elapsed = started.elapsed();
    span.record("http.response.status_code", status.as_u16());
    if status.is_server_error() {
        span.record("otel.status_code", "error");
    }
    span.in_scope(|| {
        tracing::info!(
            status = status.as_u16(),
            elapsed_ms = elapsed.as_secs_f64() * 1e3,
            "answered"
        )
    });
    state.metrics.observe_request(
        HttpLabels {
            listener,
            method,
            route,
            status: status.as_u16(),
        },
        elapsed.as_secs_f64(),
    );
    response
}

/// The request's id, for handlers that record it.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// `GET /metrics`.
pub async fn metrics(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
}
