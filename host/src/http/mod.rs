//! The HTTP side: the merchant API (`/api/v1`) on one listener, the admin API (`/admin/v1`),
//! health and metrics on another. [`App::build`] is what `pixgate serve` and the tests call.

pub mod admin;
mod auth;
mod error;
mod extract;
pub mod payments;
pub(crate) mod views;
pub mod webhooks;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tracing::Instrument;

pub use error::{ApiError, ErrorDetail, ErrorEnvelope};

use crate::bootstrap::Bootstrapped;
use crate::metrics::HttpLabels;

pub use crate::bootstrap::AppState;

/// Both listeners, bound, with the state they serve.
pub struct App {
    merchant: TcpListener,
    admin: TcpListener,
    state: Arc<AppState>,
    pub merchant_addr: SocketAddr,
    pub admin_addr: SocketAddr,
    /// Secrets generated on this start (shown once by `pixgate serve`).
    pub generated: crate::bootstrap::Generated,
}

impl App {
    /// Opens the database (migrating it), prepares the sandbox and binds both listeners.
    pub async fn build(config: &crate::config::ServeConfig) -> anyhow::Result<Self> {
        let Bootstrapped { state, generated } = crate::bootstrap::bootstrap(config).await?;
        let merchant = TcpListener::bind(config.listen).await?;
        let admin = TcpListener::bind(config.admin_listen).await?;
        Ok(Self {
            merchant_addr: merchant.local_addr()?,
            admin_addr: admin.local_addr()?,
            merchant,
            admin,
            state: Arc::new(state),
            generated,
        })
    }

    /// The shared state (benchmarks and in-process embedders write through it).
    pub fn state(&self) -> Arc<AppState> {
        self.state.clone()
    }

    /// Serves until `shutdown` resolves, then lets in-flight requests finish.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let state = self.state;
        crate::bootstrap::spawn_housekeeping(state.clone());
        let merchant = with_common_layers(payments::router(), "merchant", state.clone());
        let admin = with_common_layers(admin::router(state.clone()), "admin", state.clone());

        let (tx, rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown.await;
            let _ = tx.send(true);
        });
        let wait = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
            let _ = rx.wait_for(|stop| *stop).await;
        };
        let sender = state
            .webhooks
            .settings
            .worker
            .then(|| tokio::spawn(crate::webhooks::worker::run(state.clone(), rx.clone())));
        let merchant =
            axum::serve(self.merchant, merchant).with_graceful_shutdown(wait(rx.clone()));
        let admin = axum::serve(self.admin, admin).with_graceful_shutdown(wait(rx));
        tokio::try_join!(merchant.into_future(), admin.into_future())?;
        if let Some(sender) = sender {
            let _ = sender.await;
        }
        Ok(())
    }
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
    let span = tracing::info_span!("request", request_id = %request_id, %method, %route);

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
