//! `PUT|GET|DELETE /webhookrec` and `/webhookcobr`: one callback URL each for the receiver
//! (not keyed by a pix key, unlike `/webhook/{chave}`). The `PUT` body is the standard's
//! `{webhookUrl}` ([`WebhookSolicitado`]); `GET` answers `{webhookUrl, criacao}`
//! ([`WebhookRecCompleto`]). Loopback URLs only, as for `/webhook/{chave}`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{invalid_webhook_cobr, invalid_webhook_rec, parse_body, webhook_not_found};
use crate::api::{ApiError, json, loopback_url, violation};
use crate::state::{Sim, State as SimState, Webhook, now_ms};
use pixgate_pix::apipix::{Timestamp, Violacao, WebhookRecCompleto, WebhookSolicitado};

/// Which of the two webhooks.
#[derive(Clone, Copy)]
enum Kind {
    Rec,
    Cobr,
}

impl Kind {
    fn slot(self, state: &mut SimState) -> &mut Option<Webhook> {
        match self {
            Self::Rec => &mut state.rec.webhook_rec,
            Self::Cobr => &mut state.rec.webhook_cobr,
        }
    }

    fn invalid(self) -> fn(Vec<Violacao>) -> ApiError {
        match self {
            Self::Rec => invalid_webhook_rec,
            Self::Cobr => invalid_webhook_cobr,
        }
    }
}

fn put(sim: &Sim, kind: Kind, body: &[u8]) -> Result<Response, ApiError> {
    let request: WebhookSolicitado = parse_body(body, "webhook", kind.invalid())?;
    loopback_url(&request.webhook_url)
        .map_err(|e| (kind.invalid())(vec![violation("webhook.webhookUrl", e)]))?;
    *kind.slot(&mut sim.state()) = Some(Webhook {
        url: request.webhook_url,
        criacao_ms: now_ms(),
    });
    Ok(StatusCode::OK.into_response())
}

fn get(sim: &Sim, kind: Kind) -> Result<Response, ApiError> {
    let mut state = sim.state();
    let webhook = kind
        .slot(&mut state)
        .as_ref()
        .ok_or_else(webhook_not_found)?;
    Ok(json(
        StatusCode::OK,
        &WebhookRecCompleto {
            webhook_url: webhook.url.clone(),
            criacao: Some(Timestamp::from_unix_ms(webhook.criacao_ms)),
        },
    ))
}

fn delete(sim: &Sim, kind: Kind) -> Result<Response, ApiError> {
    kind.slot(&mut sim.state())
        .take()
        .ok_or_else(webhook_not_found)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `PUT /webhookrec` `{webhookUrl}` -> 200.
pub(crate) async fn put_rec(
    State(sim): State<Arc<Sim>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    put(&sim, Kind::Rec, &body)
}

/// `GET /webhookrec` -> `{webhookUrl, criacao}`; 404 when none.
pub(crate) async fn get_rec(State(sim): State<Arc<Sim>>) -> Result<Response, ApiError> {
    get(&sim, Kind::Rec)
}

/// `DELETE /webhookrec` -> 204; 404 when none.
pub(crate) async fn delete_rec(State(sim): State<Arc<Sim>>) -> Result<Response, ApiError> {
    delete(&sim, Kind::Rec)
}

/// `PUT /webhookcobr` `{webhookUrl}` -> 200.
pub(crate) async fn put_cobr(
    State(sim): State<Arc<Sim>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    put(&sim, Kind::Cobr, &body)
}

/// `GET /webhookcobr`.
pub(crate) async fn get_cobr(State(sim): State<Arc<Sim>>) -> Result<Response, ApiError> {
    get(&sim, Kind::Cobr)
}

/// `DELETE /webhookcobr`.
pub(crate) async fn delete_cobr(State(sim): State<Arc<Sim>>) -> Result<Response, ApiError> {
    delete(&sim, Kind::Cobr)
}
