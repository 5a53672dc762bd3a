//! The control routes of Pix Automático: what the payer and the payer's PSP do. Like the
//! other control routes: no token, no faults or latency; 404 for an unknown id, 409 when the
//! state forbids the action, 400 for a bad body.
//!
//! - `POST /_sim/rec/{idRec}/approve`: the payer authorises a recurrence `CRIADA`: by the
//!   request pushed to their bank when one waits (journey 1; the request becomes `ACEITA`),
//!   else by scanning its composite code and paying its immediate charge when it names one
//!   (journey 3: the `cob` is paid exactly as `POST /_sim/cob/{txid}/pay` pays it, its pix
//!   callback included), else by scanning its recurrence code (journey 2).
//! - `POST /_sim/rec/{idRec}/reject` `{"code"?: "AP13"|"AP14"}`, `/cancel` (as the payer),
//!   `/expire`.
//! - `POST /_sim/cobr/{txid}/attempt` `{"outcome": "pay"|"reject", "code"?}`: the payer's PSP
//!   settles or rejects the charge's open attempt.
//! - `POST /_sim/rec/{idRec}/copies` `{"count": N}`: for load tests, N more recurrences just
//!   like an approved one, as if N payers had authorised the same terms.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::post;
use serde::Deserialize;

use super::cobr::{set_attempt_status, set_status as set_cobr_status};
use super::recurrence::set_status as set_rec_status;
use super::{PAGADOR_COD_MUN, callbacks, cobr_not_found, machine, rec_not_found, solicrec};
use crate::api::ApiError;
use crate::control::{ok_json, parse_optional};
use crate::state::{Sim, now_ms};
use pixgate_pix::apipix::{
    Amount, CobStatus, CobrStatus, Componente, ComponentesValor, Documento, Encerramento, Pix,
    RecPagador, RecStatus, Rejeicao, SolicRecStatus, Solicitante, TentativaStatus, Timestamp,
    TipoJornada, Txid,
};

pub(crate) fn router() -> Router<Arc<Sim>> {
    Router::new()
        .route("/_sim/rec/{idRec}/approve", post(approve))
        .route("/_sim/rec/{idRec}/reject", post(reject))
        .route("/_sim/rec/{idRec}/cancel", post(cancel))
        .route("/_sim/rec/{idRec}/expire", post(expire))
        .route("/_sim/rec/{idRec}/copies", post(copies))
        .route("/_sim/cobr/{txid}/attempt", post(attempt))
}

fn bad_field(name: &str, why: &str) -> ApiError {
    ApiError::Invalid {
        name: "RequisicaoInvalida",
        title: "Requisição inválida.",
        detail: "O corpo da requisição de controle do simulador é inválido.".to_owned(),
        violacoes: vec![crate::api::violation(&format!("body.{name}"), why)],
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// How the payer authorises a recurrence, decided from what it has.
enum Journey {
    /// A request waits at the payer's bank.
    Push,
    /// The composite code of this `cob`.
    FirstPayment(Txid),
    /// The recurrence's own code.
    Qr,
}

/// `POST /_sim/rec/{idRec}/approve` (`{}`): the recurrence becomes `APROVADA`, with
/// `ativacao.tipoJornada` the journey taken and `pagador` (the payer's document, the payer
/// PSP's ISPB, a municipality); answers it. 409 when it is not `CRIADA`, or when the payer has
/// nothing to approve it with (no request waiting and no location), or journey 3's charge is
/// not `ATIVA`.
async fn approve(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let Empty {} = parse_optional(&body)?;
    let now = now_ms();
    let journey = {
        let mut state = sim.state();
        let rec = state.rec.recs.get(&id_rec).ok_or_else(rec_not_found)?;
        if rec.status != RecStatus::Criada {
            return Err(ApiError::Conflict(format!(
                "the recurrence is {}, not CRIADA: it cannot be approved",
                super::name(rec.status)
            )));
        }
        let has_loc = rec.loc.is_some();
        let txid = rec
            .ativacao
            .as_ref()
            .and_then(|a| a.txid())
            .map(str::to_owned);
        if solicrec::has_active(&mut state, &id_rec, now) {
            Journey::Push
        } else if !has_loc {
            return Err(ApiError::Conflict(
                "the recurrence has no location and no request waits at the payer's bank: \
                 the payer has no code to scan nor request to answer"
                    .to_owned(),
            ));
        } else if let Some(txid) = txid {
            let txid = Txid::parse(&txid)
                .map_err(|_| ApiError::Conflict(format!("{txid} is no cob's txid")))?;
            let status = state.cobs.get(&txid).map(|c| c.status);
            if status != Some(CobStatus::Ativa) {
                return Err(ApiError::Conflict(format!(
                    "journey 3's charge {txid} is {}, not ATIVA: the payer cannot pay it",
                    status.map_or_else(|| "absent".to_owned(), super::name)
                )));
            }
            Journey::FirstPayment(txid)
        } else {
            Journey::Qr
        }
    };
    if let Journey::FirstPayment(txid) = &journey {
        // Exactly as the control route pays a cob: the pix, its callback, the stats.
        crate::control::pay(
            State(sim.clone()),
            Path(txid.as_str().to_owned()),
            Bytes::from_static(b"{}"),
        )
        .await?;
    }
    let mut state = sim.state();
    let payer_ispb = sim.settings.payer_ispb.clone();
    let destinatario_ispb = state
        .rec
        .solicrecs
        .values()
        .find(|s| s.id_rec == id_rec && solicrec::is_active(s.status))
        .map(|s| s.destinatario.ispb_participante.clone());
    let rec = state.rec.recs.get_mut(&id_rec).ok_or_else(rec_not_found)?;
    if rec.status != RecStatus::Criada {
        return Err(ApiError::Conflict(format!(
            "the recurrence became {} meanwhile",
            super::name(rec.status)
        )));
    }
    let tipo = match journey {
        Journey::Push => TipoJornada::Jornada1,
        Journey::FirstPayment(_) => TipoJornada::Jornada3,
        Journey::Qr => TipoJornada::Jornada2,
    };
    set_rec_status(rec, RecStatus::Aprovada, now);
    let ativacao = rec.ativacao.get_or_insert_with(Default::default);
    ativacao.tipo_jornada = Some(tipo);
    if tipo != TipoJornada::Jornada3 {
        // The standard: dadosJornada is removed when another journey activated it.
        ativacao.dados_jornada = None;
    }
    let (cpf, cnpj) = match &rec.vinculo.devedor.documento {
        Documento::Cpf(cpf) => (Some(cpf.clone()), None),
        Documento::Cnpj(cnpj) => (None, Some(cnpj.clone())),
    };
    rec.pagador = Some(RecPagador {
        cpf,
        cnpj,
        ispb_participante: Some(destinatario_ispb.unwrap_or(payer_ispb)),
        cod_mun: Some(PAGADOR_COD_MUN.to_owned()),
    });
    let rec = rec.clone();
    if tipo == TipoJornada::Jornada1 {
        solicrec::end_active(&mut state, &id_rec, SolicRecStatus::Aceita, now);
    }
    callbacks::notify_rec(&sim, &mut state, &rec);
    Ok(ok_json(&rec))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RejectRequest {
    /// `AP13` (the default) or `AP14`.
    code: Option<String>,
    descricao: Option<String>,
}

/// `POST /_sim/rec/{idRec}/reject` `{"code"?: "AP13"|"AP14", "descricao"?}`: the payer
/// refuses a recurrence `CRIADA`: `REJEITADA` with `encerramento.rejeicao`; a request waiting
/// at their bank becomes `REJEITADA` too. Answers the recurrence; 409 when it is not `CRIADA`.
async fn reject(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: RejectRequest = parse_optional(&body)?;
    let code = request.code.unwrap_or_else(|| "AP13".to_owned());
    if !matches!(code.as_str(), "AP13" | "AP14") {
        return Err(bad_field("code", "AP13 or AP14"));
    }
    if request
        .descricao
        .as_ref()
        .is_some_and(|d| d.chars().count() > 400)
    {
        return Err(bad_field("descricao", "at most 400 characters"));
    }
    let now = now_ms();
    let mut state = sim.state();
    let rec = state.rec.recs.get_mut(&id_rec).ok_or_else(rec_not_found)?;
    if rec.status != RecStatus::Criada {
        return Err(ApiError::Conflict(format!(
            "the recurrence is {}, not CRIADA: it cannot be rejected",
            super::name(rec.status)
        )));
    }
    set_rec_status(rec, RecStatus::Rejeitada, now);
    rec.encerramento = Some(Encerramento {
        rejeicao: Some(Rejeicao {
            codigo: code,
            descricao: Some(
                request
                    .descricao
                    .unwrap_or_else(|| "Recorrência rejeitada pelo usuário pagador".to_owned()),
            ),
        }),
        cancelamento: None,
    });
    let rec = rec.clone();
    solicrec::end_active(&mut state, &id_rec, SolicRecStatus::Rejeitada, now);
    callbacks::notify_rec(&sim, &mut state, &rec);
    Ok(ok_json(&rec))
}

/// The recurrence cancellation codes of API Pix 2.9.0 (`RecEncerramento`).
const REC_CANCEL_CODES: [&str; 8] = [
    "ACCL", "CPCL", "DCSD", "ERSL", "FRUD", "PCFD", "SLCR", "SLDB",
];

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CancelRequest {
    /// One of the standard's codes; `SLDB` (asked by the payer) by default.
    code: Option<String>,
    /// `USUARIO_PAGADOR` (the default) or `PSP_PAGADOR`.
    solicitante: Option<Solicitante>,
    descricao: Option<String>,
}

/// `POST /_sim/rec/{idRec}/cancel` `{"code"?, "solicitante"?, "descricao"?}`: the payer (or
/// their PSP) cancels an `APROVADA` recurrence: `CANCELADA` with `encerramento.cancelamento`;
/// its charges still `ATIVA` are cancelled with it. Answers the recurrence; 409 when it is not
/// `APROVADA`.
async fn cancel(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: CancelRequest = parse_optional(&body)?;
    let code = request.code.unwrap_or_else(|| "SLDB".to_owned());
    if !REC_CANCEL_CODES.contains(&code.as_str()) {
        return Err(bad_field(
            "code",
            "one of ACCL CPCL DCSD ERSL FRUD PCFD SLCR SLDB",
        ));
    }
    let solicitante = request.solicitante.unwrap_or(Solicitante::UsuarioPagador);
    if !matches!(
        solicitante,
        Solicitante::UsuarioPagador | Solicitante::PspPagador
    ) {
        return Err(bad_field("solicitante", "USUARIO_PAGADOR or PSP_PAGADOR"));
    }
    let descricao = request
        .descricao
        .unwrap_or_else(|| "Cancelamento solicitado pelo usuário pagador".to_owned());
    if descricao.chars().count() > 400 {
        return Err(bad_field("descricao", "at most 400 characters"));
    }
    let now = now_ms();
    let mut state = sim.state();
    let status = state
        .rec
        .recs
        .get(&id_rec)
        .ok_or_else(rec_not_found)?
        .status;
    if status != RecStatus::Aprovada {
        return Err(ApiError::Conflict(format!(
            "the recurrence is {}, not APROVADA: the payer cannot cancel it",
            super::name(status)
        )));
    }
    let rec = super::recurrence::cancel(
        &sim,
        &mut state,
        &id_rec,
        solicitante,
        &code,
        &descricao,
        now,
    )?;
    Ok(ok_json(&rec))
}

/// `POST /_sim/rec/{idRec}/expire`: a recurrence `CRIADA` nobody answered becomes `EXPIRADA`
/// (a request waiting at the payer's bank too). Answers it; 409 when it is not `CRIADA`.
async fn expire(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
) -> Result<Response, ApiError> {
    let now = now_ms();
    let mut state = sim.state();
    let rec = state.rec.recs.get_mut(&id_rec).ok_or_else(rec_not_found)?;
    if rec.status != RecStatus::Criada {
        return Err(ApiError::Conflict(format!(
            "the recurrence is {}, not CRIADA: it cannot expire",
            super::name(rec.status)
        )));
    }
    set_rec_status(rec, RecStatus::Expirada, now);
    let rec = rec.clone();
    solicrec::end_active(&mut state, &id_rec, SolicRecStatus::Expirada, now);
    callbacks::notify_rec(&sim, &mut state, &rec);
    Ok(ok_json(&rec))
}

/// The most copies one request makes.
const MAX_COPIES: u64 = 1_000_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CopiesRequest {
    count: u64,
}

/// `POST /_sim/rec/{idRec}/copies` `{"count": N}` (1 to 1,000,000): N more recurrences
/// exactly like `idRec`, which must be `APROVADA` (409 otherwise), as if N payers had
/// authorised the same terms; copy `n` (1 to N) has the id of `idRec` with its last 11
/// characters replaced by `n` in 11 digits, so a load test derives them; no callback is sent.
/// Answers `{"count", "first", "last"}`; 409 when an id is taken.
async fn copies(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: CopiesRequest = parse_optional(&body)?;
    if !(1..=MAX_COPIES).contains(&request.count) {
        return Err(bad_field("count", "deve estar entre 1 e 1000000"));
    }
    let mut state = sim.state();
    let rec = state.rec.recs.get(&id_rec).ok_or_else(rec_not_found)?;
    if rec.status != RecStatus::Aprovada {
        return Err(ApiError::Conflict(format!(
            "the recurrence is {}, not APROVADA: only an approved one is copied",
            super::name(rec.status)
        )));
    }
    let prefix = &id_rec[..id_rec.len() - 11];
    let ids: Vec<String> = (1..=request.count)
        .map(|n| format!("{prefix}{n:011}"))
        .collect();
    if let Some(taken) = ids
        .iter()
        .find(|id| state.rec.recs.contains_key(id.as_str()))
    {
        return Err(ApiError::Conflict(format!("{taken} exists already")));
    }
    let original = rec.clone();
    for id in &ids {
        let mut copy = original.clone();
        copy.id_rec = id.clone();
        state.rec.recs.insert(id.clone(), copy);
    }
    Ok(ok_json(&serde_json::json!({
        "count": request.count,
        "first": ids.first(),
        "last": ids.last(),
    })))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Outcome {
    Pay,
    Reject,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AttemptRequest {
    outcome: Outcome,
    /// The rejection code (4 of `[A-Z0-9]`), `AM04` (insufficient funds) by default.
    code: Option<String>,
    descricao: Option<String>,
    /// What the payer pays; the charge's amount when absent.
    valor: Option<Amount>,
    info_pagador: Option<String>,
}

/// `POST /_sim/cobr/{txid}/attempt` `{"outcome": "pay"|"reject", "code"?, "descricao"?,
/// "valor"?, "infoPagador"?}`: the payer's PSP resolves the charge's open attempt. `pay`: the
/// attempt `PAGA`, the charge `CONCLUIDA` with a pix (the attempt's endToEndId) in `pix[]`,
/// read and given back as any pix. `reject`: the attempt `REJEITADA` with `rejeicao`; the
/// charge `REJEITADA` too when the code ends it, its recurrence allows no retry, or its
/// retries are used up; `ATIVA` otherwise, waiting for a retry. Answers the charge; 409 when it
/// is not `ATIVA` or no attempt is open.
async fn attempt(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| cobr_not_found())?;
    let request: AttemptRequest = crate::api::parse_json(&body, "body", |v| ApiError::Invalid {
        name: "RequisicaoInvalida",
        title: "Requisição inválida.",
        detail: "O corpo da requisição de controle do simulador é inválido.".to_owned(),
        violacoes: v,
    })?;
    let code = request.code.unwrap_or_else(|| "AM04".to_owned());
    if code.len() != 4
        || !code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    {
        return Err(bad_field("code", "4 of A-Z, 0-9 (e.g. AM04, AC05)"));
    }
    if request
        .descricao
        .as_ref()
        .is_some_and(|d| d.chars().count() > 400)
    {
        return Err(bad_field("descricao", "at most 400 characters"));
    }
    if request
        .info_pagador
        .as_ref()
        .is_some_and(|d| d.chars().count() > 140)
    {
        return Err(bad_field("infoPagador", "at most 140 characters"));
    }
    let now = now_ms();
    let mut state = sim.state();
    let cobr = state.rec.cobrs.get_mut(&txid).ok_or_else(cobr_not_found)?;
    if cobr.status != CobrStatus::Ativa {
        return Err(ApiError::Conflict(format!(
            "the recurring charge is {}, not ATIVA: no attempt to resolve",
            super::name(cobr.status)
        )));
    }
    let Some(open) = machine::open_attempt(cobr) else {
        return Err(ApiError::Conflict(
            "no attempt is SOLICITADA or AGENDADA: ask a retry first".to_owned(),
        ));
    };
    let mut paid = None;
    match request.outcome {
        Outcome::Pay => {
            let tentativa = &mut cobr.tentativas[open];
            set_attempt_status(tentativa, TentativaStatus::Paga, now);
            let e2eid = tentativa.end_to_end_id.clone().ok_or_else(|| {
                ApiError::Internal("an attempt without its endToEndId".to_owned())
            })?;
            let valor = request.valor.unwrap_or(cobr.valor.original);
            let pix = Pix {
                end_to_end_id: e2eid.clone(),
                txid: Some(txid.as_str().to_owned()),
                valor,
                chave: None,
                horario: Timestamp::from_unix_ms(now),
                info_pagador: request.info_pagador,
                componentes_valor: Some(ComponentesValor {
                    original: Some(Componente { valor }),
                    ..ComponentesValor::default()
                }),
                devolucoes: Vec::new(),
            };
            cobr.pix.push(pix);
            set_cobr_status(cobr, CobrStatus::Concluida, now);
            paid = Some(e2eid);
        }
        Outcome::Reject => {
            let descricao = request
                .descricao
                .unwrap_or_else(|| format!("Tentativa rejeitada ({code})"));
            let rejeicao = Rejeicao {
                codigo: code.clone(),
                descricao: Some(descricao),
            };
            let tentativa = &mut cobr.tentativas[open];
            set_attempt_status(tentativa, TentativaStatus::Rejeitada, now);
            tentativa.rejeicao = Some(rejeicao.clone());
            if machine::rejection_ends_cobr(cobr, &code) {
                set_cobr_status(cobr, CobrStatus::Rejeitada, now);
                cobr.encerramento = Some(Encerramento {
                    rejeicao: Some(rejeicao),
                    cancelamento: None,
                });
            }
        }
    }
    let cobr = cobr.clone();
    if let Some(e2eid) = paid {
        state.pix_index.insert(e2eid, txid);
    }
    callbacks::notify_cobr(&sim, &mut state, &cobr);
    Ok(ok_json(&cobr))
}
