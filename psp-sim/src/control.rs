//! The simulator's control routes, under `/_sim/`: what a payer, the PSP's back office or a
//! bad network would do, on demand. `README.md` beside this file lists them with examples.
//!
//! They need no token (they are no part of the standard; a test reaches them over the same
//! TLS and mTLS as the API), and faults and latency never apply to them, so a test can always
//! steer and read the simulator.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use super::api::{ApiError, parse_json};
use super::callbacks;
use super::devolucao::{self, spi_id};
use super::state::{Faults, Sim, Switches, now_ms, random_alnum};
use pixgate_pix::apipix::{
    Amount, CobStatus, Componente, ComponentesValor, Devolucao, DevolucaoHorario, DevolucaoStatus,
    Natureza, Pix, Timestamp, Txid, Violacao, valid_devolucao_id,
};

pub(super) fn router(sim: Arc<Sim>) -> Router {
    Router::new()
        .route("/_sim/cob/{txid}/pay", post(pay))
        .route("/_sim/cob/{txid}/remove", post(remove))
        .route("/_sim/cob/{txid}/expire", post(expire))
        .route("/_sim/pix", post(super::pix_list::pay_key))
        .route("/_sim/pix/{e2eid}/backdate", post(backdate))
        .route("/_sim/pix/{e2eid}/unlist", post(unlist))
        .route("/_sim/pix/{e2eid}/copies", post(super::pix_list::copy_pix))
        .route("/_sim/pix/{e2eid}/med", post(med))
        .route("/_sim/pix/{e2eid}/devolucao/{id}/settle", post(settle))
        .route("/_sim/pix/{e2eid}/devolucao/{id}/fail", post(fail))
        .route("/_sim/switches", get(get_switches).put(put_switches))
        .route(
            "/_sim/faults",
            get(get_faults).post(post_faults).delete(delete_faults),
        )
        .route("/_sim/tokens/expire", post(expire_tokens))
        .route("/_sim/callbacks", get(get_callbacks))
        .route("/_sim/callbacks/flush", post(flush_callbacks))
        .route("/_sim/stats", get(get_stats))
        .merge(super::cobv::control::router())
        .merge(super::rec::control::router())
        .with_state(sim)
}

/// Control bodies are the simulator's own; their errors name the field like the API's.
fn invalid(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "RequisicaoInvalida",
        title: "Requisição inválida.",
        detail: "O corpo da requisição de controle do simulador é inválido.".to_owned(),
        violacoes,
    }
}

/// An empty body reads as `{}`.
pub(super) fn parse_optional<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    parse_json(body, "body", invalid)
}

pub(super) fn ok_json<T: Serialize>(value: &T) -> Response {
    (StatusCode::OK, axum::Json(value)).into_response()
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PayRequest {
    /// What the payer pays; the charge's amount when absent.
    valor: Option<Amount>,
    info_pagador: Option<String>,
    /// Pay whatever the charge's status and expiry: a payment already under way when the
    /// charge was removed or expired (the SPI settles it all the same).
    #[serde(default)]
    force: bool,
    /// Send no callback for this pix, and answer the next this many reads of the charge as
    /// if it were still unpaid: a receiver that hears of the payment only from its ledger.
    unseen: Option<u32>,
}

/// `POST /_sim/cob/{txid}/pay`: a payer pays the charge. It becomes `CONCLUIDA` with the pix
/// in `pix[]`, whatever the amount (a wrong amount is for testing the receiver's check), and
/// the callback goes out as the switches say.
pub(super) async fn pay(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cob_not_found())?;
    let request: PayRequest = parse_optional(&body)?;
    let suffix = random_alnum(11)?;
    let now = now_ms();
    let mut state = sim.state();
    let cob = state
        .cobs
        .get_mut(&txid)
        .ok_or_else(ApiError::cob_not_found)?;
    if cob.status != CobStatus::Ativa && !request.force {
        return Err(ApiError::Conflict(format!(
            "the charge is {:?}, not ATIVA: it cannot be paid",
            cob.status
        )));
    }
    if cob.status == CobStatus::Concluida {
        return Err(ApiError::Conflict(
            "the charge is paid already: it cannot be paid twice".to_owned(),
        ));
    }
    let expires = cob
        .calendario
        .criacao
        .unix_ms()
        .saturating_add(i64::from(cob.calendario.expiracao) * 1000);
    if now >= expires && !request.force {
        return Err(ApiError::Conflict(
            "the charge has expired (criacao + expiracao is past): it cannot be paid".to_owned(),
        ));
    }
    let valor = request.valor.unwrap_or(cob.valor.original);
    let pix = Pix {
        end_to_end_id: spi_id('E', &sim.settings.payer_ispb, now, &suffix),
        txid: Some(txid.as_str().to_owned()),
        valor,
        chave: Some(cob.chave.clone()),
        horario: Timestamp::from_unix_ms(now),
        info_pagador: request.info_pagador,
        // An immediate charge's pix is its original amount, whatever was paid.
        componentes_valor: Some(ComponentesValor {
            original: Some(Componente { valor }),
            ..ComponentesValor::default()
        }),
        devolucoes: Vec::new(),
    };
    cob.status = CobStatus::Concluida;
    cob.pix.push(pix.clone());
    let chave = cob.chave.clone();
    state
        .pix_index
        .insert(pix.end_to_end_id.clone(), txid.clone());
    match request.unseen {
        Some(reads) => {
            state.unseen.insert(txid, reads);
            state.stats.callbacks.dropped += 1;
        }
        None => callbacks::notify(&sim, &mut state, &chave, pix.clone()),
    }
    Ok(ok_json(&pix))
}

/// `POST /_sim/pix/{e2eid}/unlist`: `GET /pix` leaves the pix out from now on (a PSP whose
/// list of the day lags behind its charges); the charge and `GET /pix/{e2eid}` still show it.
async fn unlist(
    State(sim): State<Arc<Sim>>,
    Path(e2eid): Path<String>,
) -> Result<Response, ApiError> {
    let mut state = sim.state();
    let (pix, _) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    let pix = pix.clone();
    state.unlisted.insert(e2eid);
    Ok(ok_json(&pix))
}

/// `POST /_sim/cob/{txid}/remove`: the PSP removes an `ATIVA` charge (`REMOVIDA_PELO_PSP`).
async fn remove(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cob_not_found())?;
    let mut state = sim.state();
    let cob = state
        .cobs
        .get_mut(&txid)
        .ok_or_else(ApiError::cob_not_found)?;
    if cob.status != CobStatus::Ativa {
        return Err(ApiError::Conflict(format!(
            "the charge is {:?}, not ATIVA: it cannot be removed",
            cob.status
        )));
    }
    cob.status = CobStatus::RemovidaPeloPsp;
    Ok(ok_json(cob))
}

/// `POST /_sim/cob/{txid}/expire`: moves the charge's creation back so that its lifetime is
/// over. Its status stays what it was: in the standard, expiry is not a status.
async fn expire(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cob_not_found())?;
    let mut state = sim.state();
    let cob = state
        .cobs
        .get_mut(&txid)
        .ok_or_else(ApiError::cob_not_found)?;
    let lifetime_ms = i64::from(cob.calendario.expiracao) * 1000;
    // An hour past its expiry: beyond any grace a receiver gives payments in flight.
    cob.calendario.criacao = Timestamp::from_unix_ms(now_ms() - lifetime_ms - 3_600_000);
    Ok(ok_json(cob))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BackdateRequest {
    days: u32,
}

/// `POST /_sim/pix/{e2eid}/backdate`: moves the pix's `horario` `days` back, so that the
/// 90 days within which its receiver may give money back can be over. The charge and its
/// devoluções stay as they are.
async fn backdate(
    State(sim): State<Arc<Sim>>,
    Path(e2eid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: BackdateRequest = parse_json(&body, "body", invalid)?;
    let mut state = sim.state();
    let (pix, _) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    let back_ms = i64::from(request.days) * 86_400_000;
    pix.horario = Timestamp::from_unix_ms(pix.horario.unix_ms().saturating_sub(back_ms));
    Ok(ok_json(pix))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MedRequest {
    valor: Amount,
    /// `MED_FRAUDE`, `MED_OPERACIONAL` (`MED_PIX_AUTOMATICO` for a recurring charge's pix),
    /// or `ORIGINAL`: a devolução the receiver made in the PSP's portal, not through the API.
    natureza: Natureza,
    /// The devolução's id; made up when absent.
    id: Option<String>,
    descricao: Option<String>,
}

/// `POST /_sim/pix/{e2eid}/med`: the MED (the Central Bank's special return mechanism) takes
/// money of the pix back without the receiver asking: a devolução `DEVOLVIDO` at once, whatever
/// the switches, with its callback. 409 when it would take more than is left of the pix. With
/// `natureza` `ORIGINAL` it is a devolução made in the PSP's portal, which the receiver's API
/// client never asked for either.
async fn med(
    State(sim): State<Arc<Sim>>,
    Path(e2eid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: MedRequest = parse_json(&body, "body", invalid)?;
    let field = |name: &str, why: &str| {
        invalid(vec![Violacao {
            razao: Some(why.to_owned()),
            propriedade: Some(format!("body.{name}")),
            valor: None,
        }])
    };
    if !matches!(
        request.natureza,
        Natureza::MedFraude
            | Natureza::MedOperacional
            | Natureza::MedPixAutomatico
            | Natureza::Original
    ) {
        return Err(field(
            "natureza",
            "MED_FRAUDE, MED_OPERACIONAL, ORIGINAL, or for a recurring charge's pix \
             MED_PIX_AUTOMATICO",
        ));
    }
    if request.valor.centavos() == 0 {
        return Err(field("valor", "more than zero"));
    }
    if request
        .descricao
        .as_ref()
        .is_some_and(|d| d.chars().count() > 140)
    {
        return Err(field("descricao", "at most 140 characters"));
    }
    let id = match request.id {
        Some(id) if valid_devolucao_id(&id) => id,
        Some(_) => return Err(field("id", "1 to 35 of a-z, A-Z, 0-9")),
        None => random_alnum(32)?,
    };
    let now = now_ms();
    let mut state = sim.state();
    devolucao::settle_due(&sim, &mut state, now);
    // Pix Automático's MED is its own nature (DevolucaoNaturezaPixAutomatico), MED_OPERACIONAL
    // not one of them.
    let automatico = state.rec.cobr_of_pix(&e2eid).is_some();
    let fits = match request.natureza {
        Natureza::MedPixAutomatico => automatico,
        Natureza::MedOperacional => !automatico,
        _ => true,
    };
    if !fits {
        return Err(field(
            "natureza",
            "MED_PIX_AUTOMATICO (or MED_FRAUDE) for a recurring charge's pix, \
             MED_OPERACIONAL (or MED_FRAUDE) for others",
        ));
    }
    let (pix, _) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    if pix.devolucoes.iter().any(|d| d.id == id) {
        return Err(ApiError::Conflict(format!(
            "the pix has a devolução {id} already"
        )));
    }
    if !devolucao::has_room(pix, request.valor) {
        return Err(ApiError::Conflict(
            "the pix's devoluções would exceed its valor".to_owned(),
        ));
    }
    let recorded = devolucao::record(
        &sim,
        &mut state,
        &e2eid,
        Devolucao {
            id,
            rtr_id: String::new(),
            valor: request.valor,
            natureza: Some(request.natureza),
            descricao: request.descricao,
            horario: DevolucaoHorario {
                solicitacao: Timestamp::from_unix_ms(now),
                liquidacao: None,
            },
            status: DevolucaoStatus::EmProcessamento,
            motivo: None,
        },
    )?;
    let settled = devolucao::settle(&sim, &mut state, &e2eid, &recorded.id, None, now)?;
    Ok(ok_json(&settled))
}

/// `POST /_sim/pix/{e2eid}/devolucao/{id}/settle`: a devolução `EM_PROCESSAMENTO` becomes
/// `DEVOLVIDO` now, whatever its delay was to end in; its callback goes out. 409 if it is
/// settled already.
async fn settle(
    State(sim): State<Arc<Sim>>,
    Path((e2eid, id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let now = now_ms();
    let mut state = sim.state();
    devolucao::settle_due(&sim, &mut state, now);
    let settled = devolucao::settle(&sim, &mut state, &e2eid, &id, None, now)?;
    Ok(ok_json(&settled))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FailRequest {
    motivo: String,
}

/// `POST /_sim/pix/{e2eid}/devolucao/{id}/fail` `{"motivo": "..."}`: a devolução
/// `EM_PROCESSAMENTO` becomes `NAO_REALIZADO` with that `motivo`; its callback goes out. 409 if
/// it is settled already: money given back does not come back.
async fn fail(
    State(sim): State<Arc<Sim>>,
    Path((e2eid, id)): Path<(String, String)>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: FailRequest = parse_json(&body, "body", invalid)?;
    if request.motivo.is_empty() || request.motivo.chars().count() > 140 {
        return Err(invalid(vec![Violacao {
            razao: Some("1 to 140 characters".to_owned()),
            propriedade: Some("body.motivo".to_owned()),
            valor: None,
        }]));
    }
    let now = now_ms();
    let mut state = sim.state();
    devolucao::settle_due(&sim, &mut state, now);
    let settled = devolucao::settle(&sim, &mut state, &e2eid, &id, Some(request.motivo), now)?;
    Ok(ok_json(&settled))
}

async fn get_switches(State(sim): State<Arc<Sim>>) -> Response {
    ok_json(&sim.state().switches)
}

/// `PUT /_sim/switches`: a JSON merge patch (RFC 7386) of the switches; answers them all.
async fn put_switches(State(sim): State<Arc<Sim>>, body: Bytes) -> Result<Response, ApiError> {
    let patch: serde_json::Value = parse_optional(&body)?;
    let mut state = sim.state();
    let mut current =
        serde_json::to_value(&state.switches).map_err(|e| ApiError::Internal(e.to_string()))?;
    merge_patch(&mut current, patch);
    let switches: Switches = parse_json(current.to_string().as_bytes(), "body", invalid)?;
    switches.check().map_err(|(propriedade, razao)| {
        invalid(vec![Violacao {
            razao: Some(razao.to_owned()),
            propriedade: Some(propriedade.to_owned()),
            valor: None,
        }])
    })?;
    state.switches = switches;
    Ok(ok_json(&state.switches))
}

fn merge_patch(target: &mut serde_json::Value, patch: serde_json::Value) {
    match (target, patch) {
        (serde_json::Value::Object(target), serde_json::Value::Object(patch)) => {
            for (key, value) in patch {
                if value.is_null() {
                    target.remove(&key);
                } else {
                    merge_patch(target.entry(key).or_insert(serde_json::Value::Null), value);
                }
            }
        }
        (target, patch) => *target = patch,
    }
}

async fn get_faults(State(sim): State<Arc<Sim>>) -> Response {
    ok_json(&sim.state().faults)
}

/// `POST /_sim/faults`: the next `count` API requests (to `route`, or any) fail or hang;
/// replaces any faults still pending.
async fn post_faults(State(sim): State<Arc<Sim>>, body: Bytes) -> Result<Response, ApiError> {
    let faults: Faults = parse_json(&body, "body", invalid)?;
    if !(500..=599).contains(&faults.status) {
        return Err(invalid(vec![Violacao {
            razao: Some("status must be 500 to 599".to_owned()),
            propriedade: Some("body.status".to_owned()),
            valor: Some(faults.status.to_string()),
        }]));
    }
    let mut state = sim.state();
    state.faults = (faults.remaining > 0).then_some(faults);
    Ok(ok_json(&state.faults))
}

async fn delete_faults(State(sim): State<Arc<Sim>>) -> Response {
    sim.state().faults = None;
    StatusCode::NO_CONTENT.into_response()
}

/// `POST /_sim/tokens/expire`: every access token issued so far stops working, as if its
/// lifetime were over; the client must fetch a new one.
async fn expire_tokens(State(sim): State<Arc<Sim>>) -> Response {
    let mut state = sim.state();
    let expired = state.tokens.len();
    state.tokens.clear();
    ok_json(&serde_json::json!({ "expired": expired }))
}

async fn get_callbacks(State(sim): State<Arc<Sim>>) -> Response {
    let state = sim.state();
    ok_json(&serde_json::json!({
        "held": state.held.len() + state.rec.held.len(),
        "deliveries": state.deliveries,
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FlushRequest {
    #[serde(default)]
    order: FlushOrder,
    /// One POST per webhook URL carrying all its pix, instead of one per pix.
    #[serde(default)]
    batch: bool,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum FlushOrder {
    /// The order the payments happened in.
    #[default]
    Fifo,
    /// Newest first: callbacks out of order.
    Reverse,
}

/// `POST /_sim/callbacks/flush`: sends the held callbacks, one after the other, in the order
/// asked, batched or not; answers the deliveries.
async fn flush_callbacks(State(sim): State<Arc<Sim>>, body: Bytes) -> Result<Response, ApiError> {
    let request: FlushRequest = parse_optional(&body)?;
    let mut held = std::mem::take(&mut sim.state().held);
    if request.order == FlushOrder::Reverse {
        held.reverse();
    }
    // Groups keep the order within each URL; the first pix of a URL decides where its
    // batch goes among the others.
    let mut posts: Vec<(String, Vec<Pix>)> = Vec::new();
    for (url, pix) in held {
        match posts.iter_mut().find(|(u, _)| request.batch && *u == url) {
            Some((_, batch)) => batch.push(pix),
            None => posts.push((url, vec![pix])),
        }
    }
    let mut deliveries = Vec::with_capacity(posts.len());
    for (url, pix) in posts {
        deliveries.push(callbacks::post(&sim, &url, pix).await);
    }
    let reverse = request.order == FlushOrder::Reverse;
    deliveries.extend(super::rec::callbacks::flush(&sim, reverse, request.batch).await);
    Ok(ok_json(&serde_json::json!({ "deliveries": deliveries })))
}

async fn get_stats(State(sim): State<Arc<Sim>>) -> Response {
    ok_json(&sim.state().stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_patches_replace_only_what_they_name() {
        let mut switches = serde_json::to_value(Switches::default()).unwrap();
        merge_patch(
            &mut switches,
            serde_json::json!({"callbacks": {"hold": true}, "latencyMs": 5}),
        );
        let switches: Switches = serde_json::from_value(switches).unwrap();
        assert!(switches.callbacks.hold);
        assert!(!switches.callbacks.duplicate);
        assert_eq!(switches.latency_ms, 5);
    }

    #[test]
    fn a_refusal_switch_needs_its_motivo() {
        let set = |patch| {
            let mut value = serde_json::to_value(Switches::default()).unwrap();
            merge_patch(&mut value, patch);
            serde_json::from_value::<Switches>(value).unwrap().check()
        };
        assert!(set(serde_json::json!({})).is_ok());
        assert!(set(serde_json::json!({"devolucoes": {"settleAs": "NAO_REALIZADO"}})).is_err());
        assert!(
            set(serde_json::json!({"devolucoes": {"settleAs": "NAO_REALIZADO", "motivo": "x"}}))
                .is_ok()
        );
        assert!(set(serde_json::json!({"devolucoes": {"motivo": ""}})).is_err());
        assert!(set(serde_json::json!({"devolucoes": {"motivo": "x".repeat(141)}})).is_err());
    }
}
