//! Charges with a due date (API Pix `cobv`, v2.9.0): `PUT|GET|PATCH /cobv/{txid}`, their
//! batches (`PUT|GET /lotecobv/{id}`, [`lote`]), the payer PSP's view of one on a date
//! (`GET {location path}/cobv/{pixUrlAccessToken}?codMun&DPP`, [`payload`]) and the control
//! routes that pay and remove them ([`control`]).
//!
//! A `cobv` is held as a `cob` is: its pix in `pix[]`, indexed for `GET /pix/{e2eid}` and the
//! devoluções, paid pix posted to the key's webhook. The amount due on a date is
//! [`pixgate_domain::due::amount_due`], pixgate's own calculation, over the terms
//! [`terms::terms_from_wire`] reads from the wire. A txid names a `cob` or a `cobv`, never
//! both. An unpaid `cobv` stays `ATIVA` for good (the standard has no expiry status); after its
//! last payable day it can no longer be paid, nor its payload asked for that day.

pub(crate) mod check;
pub(crate) mod control;
pub(crate) mod lote;
pub mod terms;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use self::check::CobVRevisada;
use crate::api::{ApiError, json, parse_value, violation};
use crate::devolucao;
use crate::state::{Sim, State as SimState, now_ms, random_hex};
use pixgate_domain::Money;
use pixgate_domain::due::{Date, DueTerms, amount_due};
use pixgate_pix::apipix::{
    CalendarioCobV, CalendarioCobVSolicitado, CobStatus, CobVCompleta, CobVSolicitada, DevedorCobV,
    InfoAdicional, Loc, Timestamp, TipoCob, Txid, ValorNaData,
};

/// The receiver's CNPJ in `recebedor` (a valid one, made up).
const RECEBEDOR_CNPJ: &str = "11222333000181";

/// Brasília's date at `ms` (Unix milliseconds).
pub(crate) fn date_at(ms: i64) -> Date {
    Date::from_unix_seconds_brasilia(ms.div_euclid(1000))
}

/// `recebedor` (`DadosRecebedor`): the simulated receiver, named as in its BR Codes.
fn recebedor(sim: &Sim) -> serde_json::Value {
    serde_json::json!({
        "cnpj": RECEBEDOR_CNPJ,
        "nome": sim.settings.merchant_name,
        "logradouro": "Avenida Paulista, 1000",
        "cidade": sim.settings.merchant_city,
        "uf": "SP",
        "cep": "01310100",
    })
}

/// The request a stored `cobv` amounts to: a `PUT` equal to it is a retry.
pub(crate) fn as_request(cobv: &CobVCompleta) -> CobVSolicitada {
    CobVSolicitada {
        calendario: CalendarioCobVSolicitado {
            data_de_vencimento: cobv.calendario.data_de_vencimento.clone(),
            validade_apos_vencimento: Some(cobv.calendario.validade_apos_vencimento),
        },
        devedor: cobv.devedor.clone(),
        valor: cobv.valor.clone(),
        chave: cobv.chave.clone(),
        solicitacao_pagador: cobv.solicitacao_pagador.clone(),
        info_adicionais: cobv.info_adicionais.clone(),
    }
}

/// The stored `cobv`'s amount and terms. It was checked when created or revised; a failure
/// here is the simulator's bug.
pub(crate) fn terms_of(cobv: &CobVCompleta) -> Result<(Money, DueTerms), ApiError> {
    terms::terms_from_wire(
        &cobv.calendario.data_de_vencimento,
        cobv.calendario.validade_apos_vencimento,
        &cobv.valor,
    )
    .map_err(|e| ApiError::Internal(format!("a stored cobv's terms: {e:?}")))
}

/// Writes a checked revision into the charge: `revisao` + 1.
fn revise(cobv: &mut CobVCompleta, request: CobVSolicitada) {
    cobv.calendario.validade_apos_vencimento = terms::validade(&request.calendario);
    cobv.calendario.data_de_vencimento = request.calendario.data_de_vencimento;
    cobv.devedor = request.devedor;
    cobv.valor = request.valor;
    cobv.chave = request.chave;
    cobv.solicitacao_pagador = request.solicitacao_pagador;
    cobv.info_adicionais = request.info_adicionais;
    cobv.revisao += 1;
}

/// Creates a checked `cobv`: `ATIVA`, `revisao` 0, its location `{--location-base}/cobv/` and a
/// token (32 hex characters, fewer when the base is long: a location is at most 77), the BR
/// Code pointing there (unless the switches leave it out), the receiver.
pub(crate) fn create(
    sim: &Sim,
    state: &mut SimState,
    txid: Txid,
    request: CobVSolicitada,
    now: i64,
) -> Result<CobVCompleta, ApiError> {
    let base = &sim.settings.location_base;
    let token_len = 32.min(77 - base.len() - "/cobv/".len());
    let token = loop {
        let token = random_hex(token_len)?;
        if !state.cobv_tokens.contains_key(&token) {
            break token;
        }
    };
    let location = format!("{base}/cobv/{token}");
    let code = pixgate_pix::brcode::dynamic(
        &location,
        &sim.settings.merchant_name,
        &sim.settings.merchant_city,
    )
    .map_err(|e| ApiError::Internal(format!("BR Code: {e}")))?;
    let loc_id = state.next_loc_id;
    state.next_loc_id += 1;
    let criacao = Timestamp::from_unix_ms(now);
    let validade = terms::validade(&request.calendario);
    let cobv = CobVCompleta {
        calendario: CalendarioCobV {
            criacao,
            data_de_vencimento: request.calendario.data_de_vencimento,
            validade_apos_vencimento: validade,
        },
        txid: txid.clone(),
        revisao: 0,
        loc: Some(Loc {
            id: loc_id,
            location: Some(location.clone()),
            tipo_cob: Some(TipoCob::Cobv),
            criacao: Some(criacao),
        }),
        location: Some(location),
        status: CobStatus::Ativa,
        devedor: request.devedor,
        recebedor: Some(recebedor(sim)),
        valor: request.valor,
        chave: request.chave,
        solicitacao_pagador: request.solicitacao_pagador,
        info_adicionais: request.info_adicionais,
        pix_copia_e_cola: (!state.switches.omit_pix_copia_e_cola).then_some(code),
        pix: Vec::new(),
    };
    state.cobv_tokens.insert(token, txid.clone());
    state.cobvs.insert(txid, cobv.clone());
    state.stats.cobvs_created += 1;
    Ok(cobv)
}

/// Why a txid cannot be a `cobv` created or revised by `PUT /cobv/{txid}`: it is a `cob`'s,
/// or a batch asked for it and it was not created (yet).
pub(crate) fn txid_conflict(state: &SimState, txid: &Txid) -> Option<ApiError> {
    if state.cobs.contains_key(txid) {
        return Some(ApiError::invalid_cobv(vec![violation(
            "txid",
            "O txid já identifica uma cobrança imediata (cob).",
        )]));
    }
    if state.lote_of.contains_key(txid) && !state.cobvs.contains_key(txid) {
        return Some(ApiError::invalid_cobv(vec![violation(
            "txid",
            "Este txid está associado a um lote e no referido lote, o status desta cobrança \
             está atribuído como EM_PROCESSAMENTO ou NEGADA.",
        )]));
    }
    None
}

/// `PUT /cobv/{txid}`: creates the charge (201 `CobVGerada`); the same request again answers
/// the same charge (counted in the stats); another one revises an `ATIVA` charge, as the
/// standard allows, and is refused on any other.
pub(crate) async fn put_cobv(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid)
        .map_err(|e| ApiError::invalid_cobv(vec![violation("txid", e.to_string())]))?;
    let value = parse_value(&body, "cobv", ApiError::invalid_cobv)?;
    let request = check::normalised(check::parse::<CobVSolicitada>(value)?);
    let now = now_ms();
    let mut state = sim.state();
    lote::process_due(&sim, &mut state, now);
    *state
        .stats
        .put_cobv
        .entry(txid.as_str().to_owned())
        .or_default() += 1;
    if let Some(conflict) = txid_conflict(&state, &txid) {
        return Err(conflict);
    }
    if let Some(stored) = state.cobvs.get_mut(&txid) {
        if as_request(stored) == request {
            return Ok(json(StatusCode::CREATED, stored));
        }
        if stored.status != CobStatus::Ativa {
            return Err(ApiError::invalid_cobv(vec![violation(
                "cobv.status",
                "A cobrança já existe, não está ATIVA, e a presente requisição busca alterá-la.",
            )]));
        }
        check::check(&request, date_at(stored.calendario.criacao.unix_ms()))
            .map_err(ApiError::invalid_cobv)?;
        revise(stored, request);
        return Ok(json(StatusCode::CREATED, stored));
    }
    check::check(&request, date_at(now)).map_err(ApiError::invalid_cobv)?;
    let cobv = create(&sim, &mut state, txid, request, now)?;
    Ok(json(StatusCode::CREATED, &cobv))
}

/// `GET /cobv/{txid}`: `CobVCompleta`, with each pix's `devolucoes[]`, those due settled first.
pub(crate) async fn get_cobv(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cobv_not_found())?;
    let now = now_ms();
    let mut state = sim.state();
    devolucao::settle_due(&sim, &mut state, now);
    lote::process_due(&sim, &mut state, now);
    let cobv = state
        .cobvs
        .get(&txid)
        .ok_or_else(ApiError::cobv_not_found)?;
    Ok(json(StatusCode::OK, cobv))
}

/// `PATCH /cobv/{txid}`: revises an `ATIVA` charge (what is sent is changed, and the whole is
/// checked again as of the charge's creation), or removes it (`status`
/// `REMOVIDA_PELO_USUARIO_RECEBEDOR`, alone). Any change to a charge that is not `ATIVA` (a
/// paid `CONCLUIDA` one too) is 400 `CobVOperacaoInvalida`; a revision that changes nothing
/// answers the charge as it is.
pub(crate) async fn patch_cobv(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cobv_not_found())?;
    let value = parse_value(&body, "cobv", ApiError::invalid_cobv)?;
    let revision: CobVRevisada = check::parse(value)?;
    let mut violacoes = Vec::new();
    let removal = match revision.status {
        None => false,
        Some(CobStatus::RemovidaPeloUsuarioRecebedor) => true,
        Some(_) => {
            violacoes.push(violation(
                "cobv.status",
                "O campo cobv.status só admite REMOVIDA_PELO_USUARIO_RECEBEDOR.",
            ));
            false
        }
    };
    let changes = revision.changes_fields();
    if removal && changes {
        violacoes.push(violation(
            "cobv.status",
            "Não se remove uma cobrança ao mesmo tempo em que se alteram outros campos.",
        ));
    }
    if !violacoes.is_empty() {
        return Err(ApiError::invalid_cobv(violacoes));
    }
    let now = now_ms();
    let mut state = sim.state();
    lote::process_due(&sim, &mut state, now);
    let cobv = state
        .cobvs
        .get_mut(&txid)
        .ok_or_else(ApiError::cobv_not_found)?;
    if cobv.status != CobStatus::Ativa && (removal || changes) {
        return Err(ApiError::invalid_cobv(vec![violation(
            "cobv.status",
            "A cobrança não está ATIVA, e a presente requisição busca alterá-la.",
        )]));
    }
    if removal {
        cobv.status = CobStatus::RemovidaPeloUsuarioRecebedor;
        cobv.revisao += 1;
    } else if changes {
        let revised = revision.apply(as_request(cobv));
        check::check(&revised, date_at(cobv.calendario.criacao.unix_ms()))
            .map_err(ApiError::invalid_cobv)?;
        revise(cobv, revised);
    }
    Ok(json(StatusCode::OK, cobv))
}

/// `calendario` of the payload (`CobCriacao`, `CobApresentacao`, `CobDataDeVencimento`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PayloadCalendario<'a> {
    criacao: Timestamp,
    apresentacao: Timestamp,
    data_de_vencimento: &'a str,
    validade_apos_vencimento: u32,
}

/// The payer PSP's view of a `cobv` (`CobVPayload`), as plain JSON.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CobVPayload<'a> {
    calendario: PayloadCalendario<'a>,
    txid: &'a Txid,
    revisao: u32,
    status: CobStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    devedor: Option<&'a DevedorCobV>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recebedor: Option<&'a serde_json::Value>,
    valor: ValorNaData,
    chave: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solicitacao_pagador: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    info_adicionais: &'a [InfoAdicional],
}

/// The first two digits of an IBGE municipality code: the codes of the 27 UFs.
const UF_CODES: [&str; 27] = [
    "11", "12", "13", "14", "15", "16", "17", "21", "22", "23", "24", "25", "26", "27", "28", "29",
    "31", "32", "33", "35", "41", "42", "43", "50", "51", "52", "53",
];

/// `GET {location path}/cobv/{pixUrlAccessToken}?codMun=NNNNNNN&DPP=YYYY-MM-DD`: what the
/// payer's PSP reads when the BR Code is scanned: the charge with `valor {original, multa?,
/// juros?, abatimento?, desconto?, final}` for a payment on `DPP` (default: today in
/// Brasília), the parts present when not zero. Plain JSON, not the standard's JWS: the
/// simulator signs nothing (and serves no `cob` payload at all). `codMun` (optional) must be 7
/// digits starting with a UF's code; the calendar is the national one whatever it says. 404
/// for a token no charge has, 410 for a removed charge (a paid one is still shown, `status`
/// `CONCLUIDA`), 400 `CobPayloadOperacaoInvalida` for a `codMun` or `DPP` that breaks the
/// schema, a `DPP` before today, or after the last payable day.
pub(crate) async fn payload(
    State(sim): State<Arc<Sim>>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let query = query.unwrap_or_default();
    let param = |name: &str| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    let (cod_mun, dpp) = (param("codMun"), param("DPP"));
    let now = now_ms();
    let today = date_at(now);
    let mut state = sim.state();
    lote::process_due(&sim, &mut state, now);
    let txid = state
        .cobv_tokens
        .get(&token)
        .ok_or_else(ApiError::payload_not_found)?;
    let cobv = state
        .cobvs
        .get(txid)
        .ok_or_else(ApiError::payload_not_found)?;
    if matches!(
        cobv.status,
        CobStatus::RemovidaPeloPsp | CobStatus::RemovidaPeloUsuarioRecebedor
    ) {
        return Err(ApiError::payload_gone());
    }
    let (original, terms) = terms_of(cobv)?;
    let mut violacoes = Vec::new();
    if let Some(code) = &cod_mun
        && !(code.len() == 7
            && code.bytes().all(|b| b.is_ascii_digit())
            && UF_CODES.contains(&&code[..2]))
    {
        violacoes.push(violation(
            "codMun",
            "codMun não respeita o schema (7 dígitos) ou não é um código do IBGE.",
        ));
    }
    let date = match dpp.as_deref() {
        None => Some(today),
        Some(text) => match Date::parse(text) {
            None => {
                violacoes.push(violation(
                    "DPP",
                    "DPP não respeita o schema (uma data YYYY-MM-DD).",
                ));
                None
            }
            Some(date) if date < today => {
                violacoes.push(violation("DPP", "DPP anterior ao momento presente."));
                None
            }
            Some(date) => Some(date),
        },
    };
    if let Some(date) = date
        && !terms.is_payable_on(date)
    {
        violacoes.push(violation(
            "DPP",
            format!(
                "DPP ({date}) superior à validade da cobrança em função dos parâmetros \
                 calendario.dataDeVencimento e calendario.validadeAposVencimento \
                 (último dia de pagamento: {}).",
                terms.last_payable_day()
            ),
        ));
    }
    let date = match date {
        Some(date) if violacoes.is_empty() => date,
        _ => return Err(ApiError::invalid_payload(violacoes)),
    };
    let amount = amount_due(original, &terms, date);
    let valor = terms::valor_na_data(&amount).ok_or_else(|| {
        ApiError::invalid_payload(vec![violation(
            "DPP",
            "o valor da cobrança nesta data excede 9999999999.99",
        )])
    })?;
    let body = CobVPayload {
        calendario: PayloadCalendario {
            criacao: cobv.calendario.criacao,
            apresentacao: Timestamp::from_unix_ms(now),
            data_de_vencimento: &cobv.calendario.data_de_vencimento,
            validade_apos_vencimento: cobv.calendario.validade_apos_vencimento,
        },
        txid: &cobv.txid,
        revisao: cobv.revisao,
        status: cobv.status,
        devedor: cobv.devedor.as_ref(),
        recebedor: cobv.recebedor.as_ref(),
        valor,
        chave: &cobv.chave,
        solicitacao_pagador: cobv.solicitacao_pagador.as_deref(),
        info_adicionais: &cobv.info_adicionais,
    };
    Ok(json(StatusCode::OK, &body))
}
