//! The control routes of charges with a due date: a payer pays one on a date, the PSP removes
//! one. Like the other control routes: no token, no faults or latency.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::post;
use serde::Deserialize;

use super::{date_at, terms, terms_of};
use crate::api::ApiError;
use crate::callbacks;
use crate::control::{ok_json, parse_optional};
use crate::devolucao::spi_id;
use crate::state::{Sim, now_ms, random_alnum};
use pixgate_domain::due::{Date, amount_due};
use pixgate_pix::apipix::{Amount, CobStatus, Pix, Timestamp, Txid};

pub(crate) fn router() -> Router<Arc<Sim>> {
    Router::new()
        .route("/_sim/cobv/{txid}/pay", post(pay))
        .route("/_sim/cobv/{txid}/remove", post(remove))
        .route("/_sim/cobv/{txid}/age", post(age))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PayRequest {
    /// The payment date (`YYYY-MM-DD`); today in Brasília when absent.
    date: Option<Date>,
    /// What the payer pays; the amount due on `date` when absent.
    valor: Option<Amount>,
    info_pagador: Option<String>,
}

/// Noon in Brasília (15:00 UTC) of `date`, in Unix milliseconds.
fn noon_in_brasilia(date: Date) -> i64 {
    (date.days_since_unix_epoch() * 86_400 + 15 * 3_600) * 1_000
}

/// `POST /_sim/cobv/{txid}/pay` `{"date"?, "valor"?, "infoPagador"?}`: a payer pays the charge
/// on `date`. The pix's `valor` is the amount due on that date unless one is forced, and its
/// `componentesValor` are always the date's (`original`, and `multa`, `juros`, `abatimento`,
/// `desconto` when not zero), so a forced amount shows as not adding up. `horario` is noon of
/// `date` in Brasília when a date is given, now otherwise. The charge becomes `CONCLUIDA`; the
/// pix is read and given back as a `cob`'s, and called back the same way. 409 when the charge
/// is not `ATIVA`, `date` is after its last payable day, or before the charge was created.
async fn pay(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cobv_not_found())?;
    let request: PayRequest = parse_optional(&body)?;
    let suffix = random_alnum(11)?;
    let now = now_ms();
    let date = request.date.unwrap_or_else(|| date_at(now));
    let horario = request.date.map_or(now, noon_in_brasilia);
    let mut state = sim.state();
    super::lote::process_due(&sim, &mut state, now);
    let cobv = state
        .cobvs
        .get_mut(&txid)
        .ok_or_else(ApiError::cobv_not_found)?;
    if cobv.status != CobStatus::Ativa {
        return Err(ApiError::Conflict(format!(
            "the charge is {:?}, not ATIVA: it cannot be paid",
            cobv.status
        )));
    }
    let created_on = date_at(cobv.calendario.criacao.unix_ms());
    if date < created_on {
        return Err(ApiError::Conflict(format!(
            "the charge was created on {created_on}: it cannot be paid on {date}"
        )));
    }
    let (original, terms) = terms_of(cobv)?;
    if !terms.is_payable_on(date) {
        return Err(ApiError::Conflict(format!(
            "{date} is after the charge's last payable day, {}: it cannot be paid",
            terms.last_payable_day()
        )));
    }
    let amount = amount_due(original, &terms, date);
    let (Some(componentes), Some(due)) = (terms::componentes(&amount), terms::total(&amount))
    else {
        return Err(ApiError::Conflict(format!(
            "the amount due on {date} exceeds what API Pix carries (9999999999.99)"
        )));
    };
    let pix = Pix {
        end_to_end_id: spi_id('E', &sim.settings.payer_ispb, horario, &suffix),
        txid: Some(txid.as_str().to_owned()),
        valor: request.valor.unwrap_or(due),
        chave: Some(cobv.chave.clone()),
        horario: Timestamp::from_unix_ms(horario),
        info_pagador: request.info_pagador,
        componentes_valor: Some(componentes),
        devolucoes: Vec::new(),
    };
    cobv.status = CobStatus::Concluida;
    cobv.pix.push(pix.clone());
    let chave = cobv.chave.clone();
    state.pix_index.insert(pix.end_to_end_id.clone(), txid);
    callbacks::notify(&sim, &mut state, &chave, pix.clone());
    Ok(ok_json(&pix))
}

/// `POST /_sim/cobv/{txid}/remove`: the PSP removes an `ATIVA` charge (`REMOVIDA_PELO_PSP`);
/// answers it. 409 when it is not `ATIVA`.
async fn remove(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cobv_not_found())?;
    let mut state = sim.state();
    super::lote::process_due(&sim, &mut state, now_ms());
    let cobv = state
        .cobvs
        .get_mut(&txid)
        .ok_or_else(ApiError::cobv_not_found)?;
    if cobv.status != CobStatus::Ativa {
        return Err(ApiError::Conflict(format!(
            "the charge is {:?}, not ATIVA: it cannot be removed",
            cobv.status
        )));
    }
    cobv.status = CobStatus::RemovidaPeloPsp;
    Ok(ok_json(cobv))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AgeRequest {
    /// Days, 1 to 3650.
    days: u16,
}

/// `POST /_sim/cobv/{txid}/age` `{"days"}`: the charge as if it had been created `days` days
/// earlier: its creation instant, due date and discount dates move back together, the rules
/// stay. What a test of expiry needs without waiting for the calendar (a due date cannot be
/// set in the past). Answers the charge. 409 when it is not `ATIVA` or `days` is out of range.
async fn age(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cobv_not_found())?;
    let request: AgeRequest = parse_optional(&body)?;
    if !(1..=3650).contains(&request.days) {
        return Err(ApiError::Conflict(format!(
            "a charge cannot be aged by {} days: 1 to 3650",
            request.days
        )));
    }
    let days = i64::from(request.days);
    let mut state = sim.state();
    let cobv = state
        .cobvs
        .get_mut(&txid)
        .ok_or_else(ApiError::cobv_not_found)?;
    if cobv.status != CobStatus::Ativa {
        return Err(ApiError::Conflict(format!(
            "the charge is {:?}, not ATIVA: it cannot be aged",
            cobv.status
        )));
    }
    let back = |text: &str| Date::parse(text).map(|d| d.add_days(-days).to_string());
    cobv.calendario.criacao =
        Timestamp::from_unix_ms(cobv.calendario.criacao.unix_ms() - days * 86_400_000);
    if let Some(due) = back(&cobv.calendario.data_de_vencimento) {
        cobv.calendario.data_de_vencimento = due;
    }
    if let Some(desconto) = &mut cobv.valor.desconto {
        for fixa in &mut desconto.desconto_data_fixa {
            if let Some(date) = back(&fixa.data) {
                fixa.data = date;
            }
        }
    }
    Ok(ok_json(cobv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dated_payment_is_at_noon_in_brasilia() {
        let date = Date::parse("2026-12-12").unwrap();
        assert_eq!(
            pixgate_pix::time::iso8601(noon_in_brasilia(date)),
            "2026-12-12T15:00:00.000Z"
        );
        assert_eq!(date_at(noon_in_brasilia(date)), date);
    }
}
