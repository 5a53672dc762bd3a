//! `GET /pix`: the pix received in a period, a page at a time (API Pix `PixConsultados`), what
//! a receiver's ledger sweep reads (pixgate's DESIGN.md section 18); and `POST /_sim/pix`, a
//! payment to the key with no charge behind it (a static QR code), which only that list and
//! `GET /pix/{e2eid}` show.
//!
//! The list holds the pix of every kind of charge and those to the key alone whose `horario`
//! is in `[inicio, fim]`, ordered by `horario` then `endToEndId` (a stable order, so pages do
//! not overlap), with the standard's paging: `paginacao.paginaAtual` from 0,
//! `paginacao.itensPorPagina` 1 to 1,000 (default 100); a page past the last is empty. Filters:
//! `txid`, `txIdPresente`, `devolucaoPresente`; `cpf` and `cnpj` are checked (not both) but
//! list nothing, as the simulator does not know who paid.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::api::{ApiError, json, violation};
use super::callbacks;
use super::control::parse_optional;
use super::devolucao::{settle_due, spi_id};
use super::state::{Sim, now_ms, random_alnum};
use pixgate_pix::apipix::{
    Amount, Componente, ComponentesValor, Paginacao, ParametrosConsultaPix, Pix, PixConsultados,
    Timestamp, Violacao,
};
use pixgate_pix::time::parse_iso8601;

const MAX_PER_PAGE: u64 = 1_000;
const DEFAULT_PER_PAGE: u64 = 100;

fn invalid_query(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "PixConsultaInvalida",
        title: "Consulta inválida.",
        detail: "Os parâmetros de consulta à lista de pix recebidos não respeitam o schema ou \
                 não fazem sentido semanticamente."
            .to_owned(),
        violacoes,
    }
}

/// The query of `GET /pix`, checked.
#[derive(Debug, Default)]
struct Query {
    inicio: Option<i64>,
    fim: Option<i64>,
    txid: Option<String>,
    txid_presente: Option<bool>,
    devolucao_presente: Option<bool>,
    payer: bool,
    page: u64,
    per_page: u64,
}

fn parse_query(raw: &str) -> Result<Query, ApiError> {
    let mut q = Query {
        per_page: DEFAULT_PER_PAGE,
        ..Query::default()
    };
    let mut out = Vec::new();
    let (mut cpf, mut cnpj) = (false, false);
    let boolean = |v: &str| match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    for (name, value) in url::form_urlencoded::parse(raw.as_bytes()) {
        let value = value.as_ref();
        match name.as_ref() {
            "inicio" | "fim" => {
                let at = value
                    .contains(['T', 't'])
                    .then(|| parse_iso8601(value))
                    .flatten();
                match at {
                    Some(at) if name == "inicio" => q.inicio = Some(at),
                    Some(at) => q.fim = Some(at),
                    None => out.push(violation(&name, "não é um timestamp RFC 3339.")),
                }
            }
            "txid" => {
                if (1..=35).contains(&value.len())
                    && value.bytes().all(|b| b.is_ascii_alphanumeric())
                {
                    q.txid = Some(value.to_owned());
                } else {
                    out.push(violation(
                        "txid",
                        "não respeita o schema ([a-zA-Z0-9]{1,35}).",
                    ));
                }
            }
            "txIdPresente" => match boolean(value) {
                Some(b) => q.txid_presente = Some(b),
                None => out.push(violation("txIdPresente", "não é um booleano.")),
            },
            "devolucaoPresente" => match boolean(value) {
                Some(b) => q.devolucao_presente = Some(b),
                None => out.push(violation("devolucaoPresente", "não é um booleano.")),
            },
            "cpf" => {
                cpf = true;
                if !(value.len() == 11 && value.bytes().all(|b| b.is_ascii_digit())) {
                    out.push(violation("cpf", "não respeita o schema (11 dígitos)."));
                }
            }
            "cnpj" => {
                cnpj = true;
                if !(value.len() == 14
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()))
                {
                    out.push(violation("cnpj", "não respeita o schema ([0-9A-Z]{14})."));
                }
            }
            "paginacao.paginaAtual" => match value.parse::<u64>() {
                Ok(n) => q.page = n,
                Err(_) => out.push(violation(
                    "paginacao.paginaAtual",
                    "não é um inteiro maior ou igual a 0.",
                )),
            },
            "paginacao.itensPorPagina" => match value.parse::<u64>() {
                Ok(n) if (1..=MAX_PER_PAGE).contains(&n) => q.per_page = n,
                _ => out.push(violation(
                    "paginacao.itensPorPagina",
                    "não é um inteiro entre 1 e 1000.",
                )),
            },
            // Parameters the standard does not name are left alone, as a PSP does.
            _ => {}
        }
    }
    for (name, given) in [("inicio", q.inicio), ("fim", q.fim)] {
        if given.is_none() && !out.iter().any(|v| v.propriedade.as_deref() == Some(name)) {
            out.push(violation(name, "é obrigatório."));
        }
    }
    if let (Some(inicio), Some(fim)) = (q.inicio, q.fim)
        && fim < inicio
    {
        out.push(violation("fim", "é anterior a inicio."));
    }
    if cpf && cnpj {
        out.push(violation(
            "cpf",
            "cpf e cnpj não podem ser usados ao mesmo tempo.",
        ));
    }
    q.payer = cpf || cnpj;
    if out.is_empty() {
        Ok(q)
    } else {
        Err(invalid_query(out))
    }
}

/// `GET /pix?inicio&fim[&txid][&txIdPresente][&devolucaoPresente][&cpf|&cnpj]
/// [&paginacao.paginaAtual][&paginacao.itensPorPagina]`.
pub(super) async fn list_pix(
    State(sim): State<Arc<Sim>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let q = parse_query(query.as_deref().unwrap_or(""))?;
    let (inicio, fim) = (q.inicio.unwrap_or(0), q.fim.unwrap_or(0));
    let mut state = sim.state();
    state.stats.list_pix += 1;
    settle_due(&sim, &mut state, now_ms());
    let unlisted = &state.unlisted;
    let mut found: Vec<&Pix> = state
        .all_pix()
        .filter(|p| unlisted.is_empty() || !unlisted.contains(&p.end_to_end_id))
        .filter(|p| (inicio..=fim).contains(&p.horario.unix_ms()))
        .filter(|p| q.txid.is_none() || p.txid == q.txid)
        .filter(|p| {
            q.txid_presente
                .is_none_or(|present| p.txid.is_some() == present)
        })
        .filter(|p| {
            q.devolucao_presente
                .is_none_or(|present| p.devolucoes.is_empty() != present)
        })
        .filter(|_| !q.payer)
        .collect();
    let total = found.len() as u64;
    let start = q.page.saturating_mul(q.per_page).min(total) as usize;
    let end = (start as u64 + q.per_page).min(total) as usize;
    // Only the page's items in their order: the rest need only be on the right side of it (a
    // day of 200,000 pix is read a page at a time, and sorting it all for each page cost more
    // than the receiver's whole sweep of the page).
    let order =
        |a: &&Pix, b: &&Pix| (a.horario, &a.end_to_end_id).cmp(&(b.horario, &b.end_to_end_id));
    if start < end {
        if start > 0 {
            found.select_nth_unstable_by(start, order);
        }
        let rest = &mut found[start..];
        if end - start < rest.len() {
            rest.select_nth_unstable_by(end - start, order);
        }
        found[start..end].sort_unstable_by(order);
    }
    let answer = PixConsultados {
        parametros: ParametrosConsultaPix {
            inicio: Some(Timestamp::from_unix_ms(inicio)),
            fim: Some(Timestamp::from_unix_ms(fim)),
            paginacao: Paginacao {
                pagina_atual: q.page,
                itens_por_pagina: Some(q.per_page),
                quantidade_de_paginas: Some(total.div_ceil(q.per_page).max(1)),
                quantidade_total_de_itens: Some(total),
            },
        },
        pix: found[start..end].iter().map(|p| (*p).clone()).collect(),
    };
    Ok(json(StatusCode::OK, &answer))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KeyPayment {
    /// The key paid (the receiver's, as a static QR code names it).
    chave: String,
    valor: Amount,
    /// A static QR code may carry a short identifier of its own (1 to 35 of `[a-zA-Z0-9]`),
    /// which names no charge.
    txid: Option<String>,
    info_pagador: Option<String>,
}

/// `POST /_sim/pix` `{"chave", "valor", "txid"?, "infoPagador"?}`: a payer pays the key with
/// no charge behind it (a static QR code). The pix is listed by `GET /pix`, read by `GET
/// /pix/{e2eid}`, may be given back like any, and is called back to the key's webhook.
/// Answers the pix.
pub(super) async fn pay_key(
    State(sim): State<Arc<Sim>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: KeyPayment = parse_optional(&body)?;
    if let Some(txid) = &request.txid
        && !((1..=35).contains(&txid.len()) && txid.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return Err(invalid_query(vec![violation(
            "txid",
            "não respeita o schema ([a-zA-Z0-9]{1,35}).",
        )]));
    }
    let suffix = random_alnum(11)?;
    let now = now_ms();
    let pix = Pix {
        end_to_end_id: spi_id('E', &sim.settings.payer_ispb, now, &suffix),
        txid: request.txid,
        valor: request.valor,
        chave: Some(request.chave.clone()),
        horario: Timestamp::from_unix_ms(now),
        info_pagador: request.info_pagador,
        componentes_valor: Some(ComponentesValor {
            original: Some(Componente {
                valor: request.valor,
            }),
            ..ComponentesValor::default()
        }),
        devolucoes: Vec::new(),
    };
    let mut state = sim.state();
    state.keyed_pix.insert(
        pix.end_to_end_id.clone(),
        (pix.clone(), request.chave.clone()),
    );
    callbacks::notify(&sim, &mut state, &request.chave, pix.clone());
    Ok(super::control::ok_json(&pix))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Copies {
    count: u32,
}

/// The most copies one request makes.
const MAX_COPIES: u32 = 1_000_000;

/// `POST /_sim/pix/{e2eid}/copies` `{"count": N}`: for load tests of a receiver's ledger
/// sweep, N more pix just like a charge's (same key, amount and `horario`), each with the txid
/// of the original but its last 10 characters the copy's number (`0000000001`, ...) and the
/// endToEndId of the original but its last 11 characters that number: a receiver that copied
/// its charge the same way matches every one. They are listed by `GET /pix` and read by `GET
/// /pix/{e2eid}`, with no charge behind them and no callback. Answers `{"count"}`.
pub(super) async fn copy_pix(
    State(sim): State<Arc<Sim>>,
    axum::extract::Path(e2eid): axum::extract::Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: Copies = parse_optional(&body)?;
    if !(1..=MAX_COPIES).contains(&request.count) {
        return Err(invalid_query(vec![violation(
            "count",
            "não é um inteiro entre 1 e 1000000.",
        )]));
    }
    let mut state = sim.state();
    let (original, chave) = state.pix_mut(&e2eid).ok_or_else(ApiError::pix_not_found)?;
    let (original, chave) = (original.clone(), chave.to_owned());
    let txid = original
        .txid
        .clone()
        .filter(|t| t.len() >= 26)
        .ok_or_else(|| ApiError::Conflict("the pix has no charge's txid to copy".to_owned()))?;
    for i in 1..=request.count {
        let mut copy = original.clone();
        copy.txid = Some(format!("{}{i:010}", &txid[..txid.len() - 10]));
        copy.end_to_end_id = format!("{}{i:011}", &original.end_to_end_id[..21]);
        copy.devolucoes.clear();
        state
            .keyed_pix
            .insert(copy.end_to_end_id.clone(), (copy, chave.clone()));
    }
    Ok(super::control::ok_json(
        &serde_json::json!({"count": request.count}),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_is_checked_as_the_standard_says() {
        let ok = parse_query(
            "inicio=2026-11-26T03:00:00Z&fim=2026-11-27T02:59:59.999Z&paginacao.paginaAtual=2\
             &paginacao.itensPorPagina=10&txIdPresente=false&other=1",
        )
        .unwrap();
        assert_eq!(
            (ok.page, ok.per_page, ok.txid_presente),
            (2, 10, Some(false))
        );
        assert!(ok.inicio < ok.fim);
        for bad in [
            "",
            "inicio=2026-11-26T03:00:00Z",
            "inicio=2026-11-26&fim=2026-11-27T00:00:00Z",
            "inicio=2026-11-27T00:00:00Z&fim=2026-11-26T00:00:00Z",
            "inicio=2026-11-26T00:00:00Z&fim=2026-11-27T00:00:00Z&paginacao.itensPorPagina=0",
            "inicio=2026-11-26T00:00:00Z&fim=2026-11-27T00:00:00Z&paginacao.itensPorPagina=1001",
            "inicio=2026-11-26T00:00:00Z&fim=2026-11-27T00:00:00Z&paginacao.paginaAtual=-1",
            "inicio=2026-11-26T00:00:00Z&fim=2026-11-27T00:00:00Z&cpf=12345678901&cnpj=12345678000199",
            "inicio=2026-11-26T00:00:00Z&fim=2026-11-27T00:00:00Z&txid=a-b",
            "inicio=2026-11-26T00:00:00Z&fim=2026-11-27T00:00:00Z&devolucaoPresente=yes",
        ] {
            assert!(parse_query(bad).is_err(), "{bad}");
        }
    }
}
