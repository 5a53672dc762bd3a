//! Batches of charges with a due date: `PUT /lotecobv/{id}` and `GET /lotecobv/{id}`.
//!
//! `PUT` answers 202 with no body once the batch as a whole is sound: a JSON object with
//! `descricao` (text) and `cobsv` (an array of at most [`MAX_ITEMS`] objects, each with a txid
//! of the standard's shape, no txid twice, none naming a charge that exists or that another
//! batch asked for). Otherwise 400 `LoteCobVOperacaoInvalida`. Each item is then processed as
//! `PUT /cobv/{txid}` would create it: `CRIADA` (with `criacao`; the charge exists, and its
//! txid belongs to the batch for good) or `NEGADA` with the `problema` that `PUT` would have
//! answered (`CobVOperacaoInvalida` and its `violacoes`). By default the items are processed
//! before the 202 is answered; with the switch `lotecobv.processAfterMs` they stay
//! `EM_PROCESSAMENTO` that long and are then processed together (reads show them so meanwhile).
//!
//! A second `PUT` of an id with the same `cobsv` (compared as JSON) answers 202 and changes
//! nothing (`descricao` included). With another `cobsv` it is refused (400
//! `LoteCobVOperacaoInvalida` naming `loteCobV.cobsv`): the standard would let the same
//! charges be revised in a batch, which the simulator does not do (`PATCH /cobv/{txid}` does
//! it one by one); nor does it serve `PATCH /lotecobv/{id}` or `GET /lotecobv`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::check;
use crate::api::{ApiError, check_standard_shape, from_value, json, parse_value, violation};
use crate::state::{Sim, State as SimState, now_ms};
use pixgate_pix::apipix::{
    CobVSolicitada, Documento, LoteCobVConsultado, LoteCobVItemStatus, LoteItemStatus, Timestamp,
    Txid, Violacao,
};

/// The most charges a batch may carry (the standard sets no bound; pixgate sends at most
/// 1,000). More is refused as a whole.
pub(crate) const MAX_ITEMS: usize = 1_000;

/// A batch as the simulator keeps it.
pub(crate) struct Lote {
    pub descricao: String,
    pub criacao: Timestamp,
    /// `cobsv` as first sent: a later `PUT` of the id must send the same.
    request: serde_json::Value,
    pub items: Vec<LoteCobVItemStatus>,
    /// While the items are `EM_PROCESSAMENTO`: when they are processed, and their requests.
    pending: Option<Pending>,
}

struct Pending {
    at_ms: i64,
    items: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct LoteEnvelope {
    descricao: String,
    cobsv: Vec<serde_json::Value>,
}

/// A batch id: an int64, written as digits (a `-` in front allowed).
fn parse_id(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `PUT /lotecobv/{id}`: see the module's documentation.
pub(crate) async fn put_lote(
    State(sim): State<Arc<Sim>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let id = parse_id(&id).ok_or_else(|| {
        ApiError::invalid_lote(vec![violation(
            "id",
            "O parâmetro {id} deve ser um número inteiro (int64).",
        )])
    })?;
    let value = parse_value(&body, "loteCobV", ApiError::invalid_lote)?;
    check_standard_shape(
        &value,
        "loteCobV",
        &["descricao", "cobsv"],
        &["cobsv[]"],
        ApiError::invalid_lote,
    )?;
    let envelope: LoteEnvelope = from_value(value, "loteCobV", ApiError::invalid_lote)?;
    if envelope.cobsv.len() > MAX_ITEMS {
        return Err(ApiError::invalid_lote(vec![violation(
            "loteCobV.cobsv",
            format!(
                "O objeto loteCobV.cobsv tem {} cobranças: o simulador aceita no máximo \
                 {MAX_ITEMS} por lote.",
                envelope.cobsv.len()
            ),
        )]));
    }
    let mut violacoes = Vec::new();
    let mut txids: Vec<Txid> = Vec::with_capacity(envelope.cobsv.len());
    for (i, item) in envelope.cobsv.iter().enumerate() {
        let at = format!("loteCobV.cobsv[{i}].txid");
        match item.get("txid").and_then(|t| t.as_str()).map(Txid::parse) {
            Some(Ok(txid)) if txids.contains(&txid) => {
                violacoes.push(violation(&at, "O txid aparece mais de uma vez no lote."))
            }
            Some(Ok(txid)) => txids.push(txid),
            _ => violacoes.push(violation(
                &at,
                "O campo txid é obrigatório e deve respeitar o schema ([a-zA-Z0-9]{26,35}).",
            )),
        }
    }
    if !violacoes.is_empty() {
        return Err(ApiError::invalid_lote(violacoes));
    }
    let request = serde_json::Value::Array(envelope.cobsv);
    let now = now_ms();
    let mut state = sim.state();
    process_due(&sim, &mut state, now);
    *state.stats.put_lotecobv.entry(id.to_string()).or_default() += 1;
    if let Some(lote) = state.lotes.get(&id) {
        if lote.request == request {
            return Ok(StatusCode::ACCEPTED.into_response());
        }
        return Err(ApiError::invalid_lote(vec![violation(
            "loteCobV.cobsv",
            "O lote já existe e a presente requisição traz outro array de cobranças: o \
             simulador não altera lotes (altere as cobranças com PATCH /cobv/{txid}).",
        )]));
    }
    let taken: Vec<_> = txids
        .iter()
        .enumerate()
        .filter(|(_, txid)| state.txid_taken(txid))
        .map(|(i, _)| {
            violation(
                &format!("loteCobV.cobsv[{i}].txid"),
                "A presente requisição tenta criar um conjunto de cobranças dentre as quais \
                 pelo menos uma cobrança já encontra-se criada.",
            )
        })
        .collect();
    if !taken.is_empty() {
        return Err(ApiError::invalid_lote(taken));
    }
    let serde_json::Value::Array(items) = request.clone() else {
        unreachable!("built as an array")
    };
    for txid in &txids {
        state.lote_of.insert(txid.clone(), id);
    }
    let delay = state.switches.lotecobv.process_after_ms;
    state.lotes.insert(
        id,
        Lote {
            descricao: envelope.descricao,
            criacao: Timestamp::from_unix_ms(now),
            request,
            items: txids
                .into_iter()
                .map(|txid| LoteCobVItemStatus {
                    txid,
                    status: LoteItemStatus::EmProcessamento,
                    problema: None,
                    criacao: None,
                })
                .collect(),
            pending: Some(Pending {
                at_ms: now.saturating_add(i64::try_from(delay).unwrap_or(i64::MAX)),
                items,
            }),
        },
    );
    if delay == 0 {
        process(&sim, &mut state, id, now);
    } else {
        // Reads process what is due as well; this makes it happen on time when nobody reads.
        let sim = sim.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            process_due(&sim, &mut sim.state(), now_ms());
        });
    }
    Ok(StatusCode::ACCEPTED.into_response())
}

/// `GET /lotecobv/{id}`: `LoteCobVConsultado`, each item `EM_PROCESSAMENTO`, `CRIADA` (with
/// `criacao`) or `NEGADA` (with `problema`), in the order sent.
pub(crate) async fn get_lote(
    State(sim): State<Arc<Sim>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = parse_id(&id).ok_or_else(ApiError::lote_not_found)?;
    let mut state = sim.state();
    process_due(&sim, &mut state, now_ms());
    let lote = state.lotes.get(&id).ok_or_else(ApiError::lote_not_found)?;
    Ok(json(
        StatusCode::OK,
        &LoteCobVConsultado {
            id,
            descricao: lote.descricao.clone(),
            criacao: lote.criacao,
            cobsv: lote.items.clone(),
        },
    ))
}

/// Processes every batch whose delay is over.
pub(crate) fn process_due(sim: &Sim, state: &mut SimState, now: i64) {
    let due: Vec<i64> = state
        .lotes
        .iter()
        .filter(|(_, l)| l.pending.as_ref().is_some_and(|p| p.at_ms <= now))
        .map(|(id, _)| *id)
        .collect();
    for id in due {
        process(sim, state, id, now);
    }
}

/// Creates or denies each item of a batch still `EM_PROCESSAMENTO`.
fn process(sim: &Sim, state: &mut SimState, id: i64, now: i64) {
    let Some(lote) = state.lotes.get_mut(&id) else {
        return;
    };
    let Some(pending) = lote.pending.take() else {
        return;
    };
    let txids: Vec<Txid> = lote.items.iter().map(|i| i.txid.clone()).collect();
    let outcomes: Vec<LoteCobVItemStatus> = txids
        .into_iter()
        .zip(pending.items)
        .map(|(txid, item)| process_item(sim, state, txid, item, now))
        .collect();
    if let Some(lote) = state.lotes.get_mut(&id) {
        lote.items = outcomes;
    }
}

/// One item, as `PUT /cobv/{txid}` would create it.
fn process_item(
    sim: &Sim,
    state: &mut SimState,
    txid: Txid,
    mut item: serde_json::Value,
    now: i64,
) -> LoteCobVItemStatus {
    if let Some(fields) = item.as_object_mut() {
        fields.remove("txid");
    }
    let created = check::parse::<CobVSolicitada>(item).and_then(|request| {
        let request = check::normalised(request);
        check::check(&request, super::date_at(now)).map_err(ApiError::invalid_cobv)?;
        if let Some(denied) = denied_document(state, &request) {
            return Err(ApiError::invalid_cobv(vec![denied]));
        }
        // Taken since the batch was accepted (a delayed batch): the same refusal as PUT's.
        if state.cobs.contains_key(&txid) || state.cobvs.contains_key(&txid) {
            return Err(ApiError::invalid_cobv(vec![violation(
                "txid",
                "O txid já identifica uma cobrança.",
            )]));
        }
        super::create(sim, state, txid.clone(), request, now)
    });
    match created {
        Ok(cobv) => LoteCobVItemStatus {
            txid,
            status: LoteItemStatus::Criada,
            problema: None,
            criacao: Some(cobv.calendario.criacao),
        },
        Err(e) => LoteCobVItemStatus {
            txid,
            status: LoteItemStatus::Negada,
            problema: Some(e.problema().1),
            criacao: None,
        },
    }
}

/// The violation of an item whose payer's document the `lotecobv.denyDocuments` switch lists.
fn denied_document(state: &SimState, request: &CobVSolicitada) -> Option<Violacao> {
    let devedor = request.devedor.as_ref()?;
    let (field, document) = match &devedor.pessoa.documento {
        Documento::Cpf(cpf) => ("cobv.devedor.cpf", cpf),
        Documento::Cnpj(cnpj) => ("cobv.devedor.cnpj", cnpj),
    };
    let denied = state.switches.lotecobv.deny_documents.iter().any(|d| {
        d.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .eq_ignore_ascii_case(document)
    });
    denied.then(|| {
        violation(
            field,
            "O PSP recebedor não aceita cobranças para este devedor.",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_int64_digits() {
        assert_eq!(parse_id("1234"), Some(1234));
        assert_eq!(parse_id("-7"), Some(-7));
        assert_eq!(parse_id("9223372036854775807"), Some(i64::MAX));
        for bad in ["", "-", "+1", "1.0", "9223372036854775808", " 1", "abc"] {
            assert_eq!(parse_id(bad), None, "{bad}");
        }
    }
}
