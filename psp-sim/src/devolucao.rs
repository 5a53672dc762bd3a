//! A pix the simulator received, and its devoluções (refunds), as the standard defines them:
//! `GET /pix/{e2eid}` and `PUT|GET /pix/{e2eid}/devolucao/{id}`; and what the control routes do
//! to devoluções (settle or refuse one, record the MED's).
//!
//! The rules are a real PSP's (v2.9.0's `PixDevolucaoInvalida` violations): the sum of a pix's
//! devoluções that are not `NAO_REALIZADO` never exceeds its `valor`, an `id` names one
//! devolução of a pix for good (a second PUT of it is refused, even with the same body: the
//! client reads it back with GET), and none is asked past 90 days after the pix. How a new
//! devolução settles (at once or later, `DEVOLVIDO` or `NAO_REALIZADO`) is the switches'
//! choice; each one that settles sends the pix, with its `devolucoes[]`, through the callback
//! machinery, so the callback switches apply to it as to a payment's.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::api::{ApiError, json, parse_standard, violation};
use super::callbacks;
use super::state::{Pending, SettleAs, Sim, State as SimState, now_ms, random_alnum};
use pixgate_pix::apipix::{
    Amount, Devolucao, DevolucaoHorario, DevolucaoSolicitada, DevolucaoStatus, Natureza, Pix,
    Timestamp, Violacao, valid_devolucao_id,
};
use pixgate_pix::time::iso8601;

/// How long after a pix its receiver may still give money back (the standard's text).
const WINDOW_MS: i64 = 90 * 86_400_000;

/// `GET /pix/{e2eid}`: the pix with its `devolucoes[]`.
pub(super) async fn get_pix(
    State(sim): State<Arc<Sim>>,
    Path(e2eid): Path<String>,
) -> Result<Response, ApiError> {
    let mut state = sim.state();
    settle_due(&sim, &mut state, now_ms());
    let (pix, _) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    Ok(json(StatusCode::OK, pix))
}

/// `GET /pix/{e2eid}/devolucao/{id}`.
pub(super) async fn get_devolucao(
    State(sim): State<Arc<Sim>>,
    Path((e2eid, id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let mut state = sim.state();
    state.stats.get_devolucao += 1;
    settle_due(&sim, &mut state, now_ms());
    let (pix, _) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    let devolucao = find(pix, &id).ok_or_else(ApiError::devolucao_not_found)?;
    Ok(json(StatusCode::OK, devolucao))
}

/// `PUT /pix/{e2eid}/devolucao/{id}`: records the devolução and answers it (201), settled or
/// `EM_PROCESSAMENTO` as the switches say.
pub(super) async fn put_devolucao(
    State(sim): State<Arc<Sim>>,
    Path((e2eid, id)): Path<(String, String)>,
    body: Bytes,
) -> Result<Response, ApiError> {
    if !valid_devolucao_id(&id) {
        return Err(ApiError::invalid_devolucao(vec![violation(
            "id",
            "O parâmetro {id} não respeita o schema (1 a 35 caracteres de a-z, A-Z, 0-9).",
        )]));
    }
    let request: DevolucaoSolicitada =
        parse_standard(&body, "devolucao", &[], ApiError::invalid_devolucao)?;
    let violacoes = check_request(&request);
    if !violacoes.is_empty() {
        return Err(ApiError::invalid_devolucao(violacoes));
    }
    let now = now_ms();
    let mut state = sim.state();
    settle_due(&sim, &mut state, now);
    if state.pix_mut(&e2eid).is_none() {
        return Err(ApiError::pix_not_found());
    }
    *state
        .stats
        .put_devolucao
        .entry(format!("{e2eid}/{id}"))
        .or_default() += 1;
    let switches = state.switches.devolucoes.clone();
    let (pix, _) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    // An id taken is the one thing said: the request names a devolução that exists, so how
    // it would fit the pix is beside the point, and a client then reads that one back.
    if find(pix, &id).is_some() {
        return Err(ApiError::invalid_devolucao(vec![violation(
            "id",
            "A presente requisição de devolução apresenta um {id} já utilizado por outra \
             requisição de devolução para o {e2eid} em questão.",
        )]));
    }
    let mut violacoes = Vec::new();
    if now > pix.horario.unix_ms().saturating_add(WINDOW_MS) {
        violacoes.push(violation(
            "e2eid",
            "A presente requisição de devolução viola a janela de tempo permitida para \
             solicitações de devoluções de um pix (90 dias desde a liquidação do pix).",
        ));
    }
    if !has_room(pix, request.valor) {
        violacoes.push(violation(
            "devolucao.valor",
            "A presente requisição de devolução, em conjunto com as demais prévias \
             devoluções, excederia o valor do pix originário.",
        ));
    }
    if !violacoes.is_empty() {
        return Err(ApiError::invalid_devolucao(violacoes));
    }
    let refusal = match switches.settle_as {
        SettleAs::Devolvido => None,
        // Switches::check keeps a motivo beside NAO_REALIZADO; the default guards a bug only.
        SettleAs::NaoRealizado => Some(switches.motivo.unwrap_or_default()),
    };
    let devolucao = Devolucao {
        id,
        rtr_id: String::new(),
        valor: request.valor,
        natureza: Some(request.natureza.unwrap_or(Natureza::Original)),
        descricao: request.descricao,
        horario: DevolucaoHorario {
            solicitacao: Timestamp::from_unix_ms(now),
            liquidacao: None,
        },
        status: DevolucaoStatus::EmProcessamento,
        motivo: None,
    };
    let recorded = record(&sim, &mut state, &e2eid, devolucao)?;
    let answer = if switches.settle_after_ms == 0 {
        settle(&sim, &mut state, &e2eid, &recorded.id, refusal, now)?
    } else {
        let delay = switches.settle_after_ms;
        let at_ms = now.saturating_add(i64::try_from(delay).unwrap_or(i64::MAX));
        state
            .pending
            .insert((e2eid, recorded.id.clone()), Pending { at_ms, refusal });
        // Reads settle what is due as well; this task makes the callback go out on time
        // even when nobody reads.
        let sim = sim.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            settle_due(&sim, &mut sim.state(), now_ms());
        });
        recorded
    };
    Ok(json(StatusCode::CREATED, &answer))
}

/// The request's own rules, apart from the pix it names.
fn check_request(request: &DevolucaoSolicitada) -> Vec<Violacao> {
    let mut out = Vec::new();
    if request.valor.centavos() == 0 {
        out.push(violation(
            "devolucao.valor",
            "O campo devolucao.valor não respeita o schema (deve ser maior que zero).",
        ));
    }
    // The MED's natures are the PSP's to give, never the receiver's to ask.
    if request
        .natureza
        .as_ref()
        .is_some_and(|n| !matches!(n, Natureza::Original | Natureza::Retirada))
    {
        out.push(violation(
            "devolucao.natureza",
            "O campo devolucao.natureza só admite ORIGINAL ou RETIRADA.",
        ));
    }
    if request
        .descricao
        .as_ref()
        .is_some_and(|d| d.chars().count() > 140)
    {
        out.push(violation(
            "devolucao.descricao",
            "O campo devolucao.descricao tem mais de 140 caracteres.",
        ));
    }
    out
}

fn find<'a>(pix: &'a Pix, id: &str) -> Option<&'a Devolucao> {
    pix.devolucoes.iter().find(|d| d.id == id)
}

/// Whether `valor` more still fits in the pix: every devolução counts but those that did not
/// happen (`NAO_REALIZADO`), those still in processing included.
pub(super) fn has_room(pix: &Pix, valor: Amount) -> bool {
    let taken: u64 = pix
        .devolucoes
        .iter()
        .filter(|d| d.status != DevolucaoStatus::NaoRealizado)
        .map(|d| d.valor.centavos())
        .sum();
    taken.saturating_add(valor.centavos()) <= pix.valor.centavos()
}

/// Adds `devolucao` to the pix, with a new rtrId; the caller checked the rules.
pub(super) fn record(
    sim: &Sim,
    state: &mut SimState,
    e2eid: &str,
    mut devolucao: Devolucao,
) -> Result<Devolucao, ApiError> {
    devolucao.rtr_id = new_rtr_id(sim, state, devolucao.horario.solicitacao.unix_ms())?;
    let (pix, _) = state.pix_mut(e2eid).ok_or_else(ApiError::pix_not_found)?;
    pix.devolucoes.push(devolucao.clone());
    state.stats.devolucoes_created += 1;
    Ok(devolucao)
}

/// An rtrId no other devolução has.
fn new_rtr_id(sim: &Sim, state: &SimState, at_ms: i64) -> Result<String, ApiError> {
    let taken: HashSet<&str> = state
        .all_pix()
        .flat_map(|p| &p.devolucoes)
        .map(|d| d.rtr_id.as_str())
        .collect();
    loop {
        let id = spi_id('D', &sim.settings.ispb, at_ms, &random_alnum(11)?);
        if !taken.contains(id.as_str()) {
            return Ok(id);
        }
    }
}

/// The shape of the SPI's identifiers (endToEndId, rtrId), 32 characters: a letter, the
/// ISPB of the PSP that starts the message, `yyyyMMddHHmm` (UTC) and 11 random characters.
pub(super) fn spi_id(letter: char, ispb: &str, at_ms: i64, suffix: &str) -> String {
    // 2026-11-23T12:34:56.789Z
    let iso = iso8601(at_ms);
    let stamp: String = [
        &iso[0..4],
        &iso[5..7],
        &iso[8..10],
        &iso[11..13],
        &iso[14..16],
    ]
    .concat();
    format!("{letter}{ispb}{stamp}{suffix}")
}

/// Ends a devolução still `EM_PROCESSAMENTO`: `DEVOLVIDO`, or `NAO_REALIZADO` with `refusal`
/// as its `motivo`; then the pix goes out in a callback. 409 for one already settled.
pub(super) fn settle(
    sim: &Arc<Sim>,
    state: &mut SimState,
    e2eid: &str,
    id: &str,
    refusal: Option<String>,
    now: i64,
) -> Result<Devolucao, ApiError> {
    let (pix, chave) = state.pix_mut(e2eid).ok_or_else(ApiError::pix_not_found)?;
    let devolucao = pix
        .devolucoes
        .iter_mut()
        .find(|d| d.id == id)
        .ok_or_else(ApiError::devolucao_not_found)?;
    if devolucao.status != DevolucaoStatus::EmProcessamento {
        return Err(ApiError::Conflict(format!(
            "the devolução is {:?}, not EM_PROCESSAMENTO: it is settled already",
            devolucao.status
        )));
    }
    match refusal {
        None => {
            devolucao.status = DevolucaoStatus::Devolvido;
            devolucao.horario.liquidacao = Some(Timestamp::from_unix_ms(now));
        }
        Some(motivo) => {
            devolucao.status = DevolucaoStatus::NaoRealizado;
            devolucao.motivo = Some(motivo);
        }
    }
    let settled = devolucao.clone();
    let (pix, chave) = (pix.clone(), chave.to_owned());
    state.pending.remove(&(e2eid.to_owned(), id.to_owned()));
    callbacks::notify(sim, state, &chave, pix);
    Ok(settled)
}

/// Settles, as planned, every devolução whose delay is over.
pub(super) fn settle_due(sim: &Arc<Sim>, state: &mut SimState, now: i64) {
    let due: Vec<_> = state
        .pending
        .iter()
        .filter(|(_, p)| p.at_ms <= now)
        .map(|(key, p)| (key.clone(), p.refusal.clone()))
        .collect();
    for ((e2eid, id), refusal) in due {
        // Only a control route can have settled it first, and it removed it from `pending`.
        let _ = settle(sim, state, &e2eid, &id, refusal, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pix(valor: u64, devolucoes: &[(u64, DevolucaoStatus)]) -> Pix {
        Pix {
            end_to_end_id: "E12345678202611231234AbCdEfGh123".to_owned(),
            txid: None,
            valor: Amount::from_centavos(valor).unwrap(),
            chave: None,
            horario: Timestamp::from_unix_ms(0),
            info_pagador: None,
            componentes_valor: None,
            devolucoes: devolucoes
                .iter()
                .enumerate()
                .map(|(i, (valor, status))| Devolucao {
                    id: format!("d{i}"),
                    rtr_id: String::new(),
                    valor: Amount::from_centavos(*valor).unwrap(),
                    natureza: None,
                    descricao: None,
                    horario: DevolucaoHorario {
                        solicitacao: Timestamp::from_unix_ms(0),
                        liquidacao: None,
                    },
                    status: *status,
                    motivo: None,
                })
                .collect(),
        }
    }

    #[test]
    fn devolucoes_never_exceed_the_pix() {
        use DevolucaoStatus::*;
        let amount = |c| Amount::from_centavos(c).unwrap();
        assert!(has_room(&pix(1000, &[]), amount(1000)));
        assert!(!has_room(&pix(1000, &[]), amount(1001)));
        // In processing counts: it may still happen.
        let p = pix(1000, &[(300, Devolvido), (200, EmProcessamento)]);
        assert!(has_room(&p, amount(500)));
        assert!(!has_room(&p, amount(501)));
        // Refused does not: that money never left.
        let p = pix(1000, &[(900, NaoRealizado), (100, Devolvido)]);
        assert!(has_room(&p, amount(900)));
        assert!(!has_room(&p, amount(901)));
    }

    #[test]
    fn requests_keep_the_standards_limits() {
        let request = |valor: &str, natureza: Option<&str>, descricao: usize| {
            check_request(&DevolucaoSolicitada {
                valor: Amount::parse(valor).unwrap(),
                natureza: natureza.map(Natureza::parse),
                descricao: (descricao > 0).then(|| "é".repeat(descricao)),
            })
            .into_iter()
            .filter_map(|v| v.propriedade)
            .collect::<Vec<_>>()
        };
        assert!(request("1.00", None, 140).is_empty());
        assert!(request("1.00", Some("ORIGINAL"), 0).is_empty());
        assert!(request("1.00", Some("RETIRADA"), 0).is_empty());
        assert_eq!(request("0.00", None, 0), ["devolucao.valor"]);
        assert_eq!(
            request("1.00", Some("MED_FRAUDE"), 141),
            ["devolucao.natureza", "devolucao.descricao"]
        );
        assert_eq!(request("1.00", Some("OUTRA"), 0), ["devolucao.natureza"]);
    }

    #[test]
    fn spi_ids_have_the_spi_shape() {
        // 2026-11-23T12:34:56.789Z
        let id = spi_id('D', "87654321", 1_795_437_296_789, "AbCdEfGh123");
        assert_eq!(id, "D87654321202611231234AbCdEfGh123");
        assert_eq!(id.len(), 32);
        let id = spi_id('E', "12345678", 1_795_437_296_789, "AbCdEfGh123");
        assert_eq!(id, "E12345678202611231234AbCdEfGh123");
    }
}
