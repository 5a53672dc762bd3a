//! `POST /psp-callbacks/{provider}/{token}/pix`: where PSPs post the pix they received
//! (DESIGN.md section 10), and `.../rec` where they post recurrences that changed (section 17). On the merchant listener, because `PIXGATE_PUBLIC_URL` (the
//! address PSPs reach) defaults to it. In production this path sits behind mTLS at the edge;
//! here the token in the path is what authenticates the PSP, and a callback only triggers a
//! read of the charge at the PSP.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::routing::post;

use super::ApiError;
use crate::http::AppState;
use crate::psp::live::LiveExecution;

/// Callback bodies are a few pix at most; a batch of thousands is still far below this.
const MAX_BODY_BYTES: usize = 1024 * 1024;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/psp-callbacks/{provider}/{token}/pix", post(receive))
        .route("/psp-callbacks/{provider}/{token}/rec", post(receive_rec))
        .route("/psp-callbacks/{provider}/{token}/cobr", post(receive_cobr))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
}

async fn receive(
    State(live): State<LiveExecution>,
    Path((provider, token)): Path<(String, String)>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let started = live.receive(&provider, &token, &read(body)?).await?;
    Ok(answer("charges", started))
}

/// `POST /psp-callbacks/{provider}/{token}/rec`: a PSP's word that recurrences changed (Pix
/// Automático, `PUT /webhookrec`); each named mandate is read at the PSP.
async fn receive_rec(
    State(live): State<LiveExecution>,
    Path((provider, token)): Path<(String, String)>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let started = live.receive_rec(&provider, &token, &read(body)?).await?;
    Ok(answer("mandates", started))
}

/// `POST /psp-callbacks/{provider}/{token}/cobr`: a PSP's word that recurring charges changed
/// (Pix Automático, `PUT /webhookcobr`); each named pending charge is read at the PSP.
async fn receive_cobr(
    State(live): State<LiveExecution>,
    Path((provider, token)): Path<(String, String)>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let started = live.receive_cobr(&provider, &token, &read(body)?).await?;
    Ok(answer("charges", started))
}

/// The callback's body, or the refusal of one too large or unreadable.
fn read(body: Result<Bytes, axum::extract::rejection::BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        super::extract::body_error(&rejection, ApiError::PayloadTooLarge(MAX_BODY_BYTES))
    })
}

/// The answer to a PSP: how many reads the callback started, of `what`.
fn answer(what: &str, started: usize) -> Json<serde_json::Value> {
    Json(serde_json::json!({"success": true, "data": {what: started}}))
}
