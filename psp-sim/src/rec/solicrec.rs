//! `POST /solicrec`, `GET|PATCH /solicrec/{idSolicRec}`: journey 1's authorisation request,
//! pushed to the payer's bank (`SolicRecOperacaoInvalida` of v2.9.0). A request waits
//! `CRIADA` until the payer answers (`POST /_sim/rec/{idRec}/approve` or `/reject`), it is
//! cancelled, or its `dataExpiracaoSolicitacao` passes (read as `EXPIRADA` from then on).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::recurrence::valid_documento;
use super::{invalid_solicrec, new_id, parse_body, rec_not_found, solicrec_not_found, today};
use crate::api::{ApiError, json, violation};
use crate::state::{Sim, State as SimState, now_ms, random_alnum};
use pixgate_pix::apipix::{
    Atualizacao, RecStatus, SolicRec, SolicRecRevisada, SolicRecSolicitada, SolicRecStatus,
    Timestamp,
};

/// A request still waiting for the payer.
pub(crate) fn is_active(status: SolicRecStatus) -> bool {
    matches!(
        status,
        SolicRecStatus::Criada | SolicRecStatus::Enviada | SolicRecStatus::Recebida
    )
}

fn set_status(solic: &mut SolicRec, status: SolicRecStatus, now: i64) {
    solic.status = status;
    solic.atualizacao.push(Atualizacao {
        status,
        data: Timestamp::from_unix_ms(now),
    });
}

/// Requests whose expiry passed become `EXPIRADA`.
pub(crate) fn expire_due(state: &mut SimState, now: i64) {
    for solic in state.rec.solicrecs.values_mut() {
        if is_active(solic.status) && solic.calendario.data_expiracao_solicitacao.unix_ms() <= now {
            let at = solic.calendario.data_expiracao_solicitacao.unix_ms();
            set_status(solic, SolicRecStatus::Expirada, at);
        }
    }
}

/// The active request of a recurrence ends as `status` (the payer answered, or the
/// recurrence ended); answers whether there was one.
pub(crate) fn end_active(
    state: &mut SimState,
    id_rec: &str,
    status: SolicRecStatus,
    now: i64,
) -> bool {
    expire_due(state, now);
    let mut found = false;
    for solic in state.rec.solicrecs.values_mut() {
        if solic.id_rec == id_rec && is_active(solic.status) {
            set_status(solic, status, now);
            found = true;
        }
    }
    found
}

/// Whether a recurrence has a request waiting for the payer.
pub(crate) fn has_active(state: &mut SimState, id_rec: &str, now: i64) -> bool {
    expire_due(state, now);
    state
        .rec
        .solicrecs
        .values()
        .any(|s| s.id_rec == id_rec && is_active(s.status))
}

/// `POST /solicrec` -> 201 `SolicRecCompleta` `CRIADA` (`idSolicRec`: `SC`, `--ispb`, today,
/// 11 characters). 404 `RecNaoEncontrada` for an unknown `idRec`; 400 for a recurrence not
/// `CRIADA`, an expiry not after now, a `destinatario` off the schema, or a request still
/// waiting for the same recurrence.
pub(crate) async fn post_solicrec(
    State(sim): State<Arc<Sim>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: SolicRecSolicitada = parse_body(&body, "solicrec", invalid_solicrec)?;
    let now = now_ms();
    let mut out = Vec::new();
    if !super::is_id_rec(&request.id_rec) {
        return Err(invalid_solicrec(vec![violation(
            "solicrec.idRec",
            "O campo solicrec.idRec não respeita o schema (R, R ou N, ISPB, data, 11 \
             caracteres).",
        )]));
    }
    let d = &request.destinatario;
    let alnum_upper = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
    };
    if !valid_documento(&d.documento)
        || d.conta.is_empty()
        || d.conta.chars().count() > 20
        || d.agencia.as_ref().is_some_and(|a| a.chars().count() > 4)
        || d.ispb_participante.len() != 8
        || !alnum_upper(&d.ispb_participante)
    {
        out.push(violation(
            "solicrec.destinatario",
            "O objeto solicrec.destinatario não respeita o schema (conta: 1 a 20 caracteres, \
             agencia: até 4, ispbParticipante: 8 de [0-9A-Z], cpf ou cnpj).",
        ));
    }
    if request.calendario.data_expiracao_solicitacao.unix_ms() <= now {
        out.push(violation(
            "solicrec.calendario.dataExpiracaoSolicitacao",
            "O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de criação \
             da solicitação da recorrência.",
        ));
    }
    let mut state = sim.state();
    let rec = state
        .rec
        .recs
        .get(&request.id_rec)
        .ok_or_else(rec_not_found)?;
    if rec.status != RecStatus::Criada {
        out.push(violation(
            "solicrec.idRec",
            format!(
                "A recorrência está {}: só uma recorrência CRIADA aguarda confirmação.",
                super::name(rec.status)
            ),
        ));
    }
    if has_active(&mut state, &request.id_rec, now) {
        out.push(violation(
            "solicrec.idRec",
            "Existe uma solicitação ativa referente ao mesmo solicrec.idRec.",
        ));
    }
    if !out.is_empty() {
        return Err(invalid_solicrec(out));
    }
    let id = loop {
        let id = new_id("SC", &sim.settings.ispb, today(now), &random_alnum(11)?);
        if !state.rec.solicrecs.contains_key(&id) {
            break id;
        }
    };
    let solic = SolicRec {
        id_solic_rec: id.clone(),
        id_rec: request.id_rec,
        status: SolicRecStatus::Criada,
        calendario: request.calendario,
        destinatario: request.destinatario,
        atualizacao: vec![Atualizacao {
            status: SolicRecStatus::Criada,
            data: Timestamp::from_unix_ms(now),
        }],
    };
    state.rec.solicrecs.insert(id, solic.clone());
    state.stats.rec.solicrecs_created += 1;
    Ok(json(StatusCode::CREATED, &solic))
}

/// `GET /solicrec/{idSolicRec}`.
pub(crate) async fn get_solicrec(
    State(sim): State<Arc<Sim>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let mut state = sim.state();
    expire_due(&mut state, now_ms());
    let solic = state
        .rec
        .solicrecs
        .get(&id)
        .ok_or_else(solicrec_not_found)?;
    Ok(json(StatusCode::OK, solic))
}

/// `PATCH /solicrec/{idSolicRec}` `{"status": "CANCELADA"}` -> **201** (as the standard
/// answers it) with the request `CANCELADA`; 400 from any status but `CRIADA`, `ENVIADA`,
/// `RECEBIDA`, or for another status.
pub(crate) async fn patch_solicrec(
    State(sim): State<Arc<Sim>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let revision: SolicRecRevisada = parse_body(&body, "solicrec", invalid_solicrec)?;
    if revision.status != SolicRecStatus::Cancelada {
        return Err(invalid_solicrec(vec![violation(
            "solicrec.status",
            "O campo solicrec.status não respeita o schema (só admite CANCELADA).",
        )]));
    }
    let now = now_ms();
    let mut state = sim.state();
    expire_due(&mut state, now);
    let solic = state
        .rec
        .solicrecs
        .get_mut(&id)
        .ok_or_else(solicrec_not_found)?;
    if !is_active(solic.status) {
        return Err(invalid_solicrec(vec![violation(
            "solicrec.status",
            "Não é possível cancelar uma solicitação de recorrência com o status diferente de \
             CRIADA, ENVIADA ou RECEBIDA.",
        )]));
    }
    set_status(solic, SolicRecStatus::Cancelada, now);
    Ok(json(StatusCode::CREATED, solic))
}
