//! `PUT|GET|PATCH /cobr/{txid}` and `POST /cobr/{txid}/retentativa/{data}`: a recurrence's
//! charges (`CobROperacaoInvalida` of v2.9.0, the rules in [`super::machine`]). The payer's PSP
//! schedules a charge as soon as it is created: it answers `ATIVA`, with one attempt
//! `AGENDADA` (`AGND`) on its due date (the next business day when `ajusteDiaUtil`), its
//! endToEndId already given.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::machine::{self, NEW_ATTEMPT, SCHEDULED};
use super::{RECEBEDOR_CNPJ, callbacks, cobr_not_found, invalid_cobr, parse_body, today};
use crate::api::{ApiError, json, violation};
use crate::devolucao::spi_id;
use crate::state::{Sim, State as SimState, now_ms, random_alnum};
use pixgate_domain::due::Date;
use pixgate_pix::apipix::{
    Atualizacao, CalendarioCobr, Cancelamento, CobrCompleta, CobrRevisada, CobrSolicitada,
    CobrStatus, ContaRecebedor, Encerramento, RecStatus, Solicitante, Tentativa, TentativaStatus,
    Timestamp, Txid, Violacao,
};

/// Records a status change of a recurring charge.
pub(crate) fn set_status(cobr: &mut CobrCompleta, status: CobrStatus, now: i64) {
    cobr.status = status;
    cobr.atualizacao.push(Atualizacao {
        status,
        data: Timestamp::from_unix_ms(now),
    });
}

/// Records a status change of an attempt.
pub(crate) fn set_attempt_status(tentativa: &mut Tentativa, status: TentativaStatus, now: i64) {
    tentativa.status = status;
    tentativa.atualizacao.push(Atualizacao {
        status,
        data: Timestamp::from_unix_ms(now),
    });
}

/// A new attempt `AGENDADA` on `date`, with the endToEndId the payer's PSP gives it.
pub(crate) fn new_attempt(
    sim: &Sim,
    date: Date,
    tipo: &str,
    now: i64,
) -> Result<Tentativa, ApiError> {
    Ok(Tentativa {
        data_liquidacao: date.to_string(),
        tipo: Some(tipo.to_owned()),
        status: TentativaStatus::Agendada,
        end_to_end_id: Some(spi_id(
            'E',
            &sim.settings.payer_ispb,
            now,
            &random_alnum(11)?,
        )),
        rejeicao: None,
        atualizacao: vec![Atualizacao {
            status: TentativaStatus::Agendada,
            data: Timestamp::from_unix_ms(now),
        }],
    })
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The request a stored charge amounts to: a `PUT` equal to it is a retry.
fn as_request(cobr: &CobrCompleta) -> Option<CobrSolicitada> {
    let recebedor = cobr.recebedor.as_ref()?;
    Some(CobrSolicitada {
        id_rec: cobr.id_rec.clone(),
        info_adicional: cobr.info_adicional.clone(),
        calendario: pixgate_pix::apipix::CalendarioCobrSolicitado {
            data_de_vencimento: cobr.calendario.data_de_vencimento.clone(),
        },
        valor: cobr.valor,
        ajuste_dia_util: cobr.ajuste_dia_util.unwrap_or(true),
        devedor: cobr.devedor.clone(),
        recebedor: ContaRecebedor {
            cnpj: None,
            nome: None,
            ..recebedor.clone()
        },
    })
}

/// The request's own rules (`cobr.infoAdicional`, `cobr.recebedor`, `cobr.devedor`, the due
/// date), apart from the recurrence.
fn check_fields(request: &CobrSolicitada, today: Date) -> Vec<Violacao> {
    let mut out = Vec::new();
    if request
        .info_adicional
        .as_ref()
        .is_some_and(|i| chars(i) > 140)
    {
        out.push(violation(
            "cobr.infoAdicional",
            "O campo cobr.infoAdicional não respeita o schema (até 140 caracteres).",
        ));
    }
    match Date::parse(&request.calendario.data_de_vencimento) {
        None => out.push(violation(
            "cobr.calendario.dataDeVencimento",
            "O objeto cobr.calendario não respeita o schema (dataDeVencimento: YYYY-MM-DD).",
        )),
        Some(due) if due < today => out.push(violation(
            "cobr.calendario.dataDeVencimento",
            "O campo cobr.calendario.dataDeVencimento é anterior à data de criação da \
             cobrança.",
        )),
        Some(_) => {}
    }
    let r = &request.recebedor;
    if r.conta.is_empty()
        || chars(&r.conta) > 20
        || r.agencia.as_ref().is_some_and(|a| chars(a) > 4)
    {
        out.push(violation(
            "cobr.recebedor",
            "O objeto cobr.recebedor não respeita o schema (conta: 1 a 20 caracteres, agencia: \
             até 4).",
        ));
    }
    if let Some(d) = &request.devedor {
        let long = |f: &Option<String>, max: usize| f.as_ref().is_some_and(|s| chars(s) > max);
        if long(&d.logradouro, 200) || long(&d.cidade, 200) || long(&d.uf, 2) || long(&d.cep, 8) {
            out.push(violation(
                "cobr.devedor",
                "O objeto cobr.devedor não respeita o schema (logradouro e cidade: até 200 \
                 caracteres, uf: 2, cep: 8).",
            ));
        }
    }
    out
}

/// The rules tying the charge to its recurrence: it exists and is `APROVADA`, and no other
/// charge of it that is not `REJEITADA` or `CANCELADA` falls in the same cycle.
fn check_recurrence(state: &SimState, request: &CobrSolicitada, txid: &Txid) -> Vec<Violacao> {
    if !super::is_id_rec(&request.id_rec) {
        return vec![violation(
            "cobr.idRec",
            "O campo cobr.idRec não respeita o schema (R, R ou N, ISPB, data, 11 caracteres).",
        )];
    }
    let Some(rec) = state.rec.recs.get(&request.id_rec) else {
        return vec![violation(
            "cobr.idRec",
            "O campo cobr.idRec não corresponde a uma recorrência existente.",
        )];
    };
    if rec.status != RecStatus::Aprovada {
        return vec![violation(
            "cobr.idRec",
            format!(
                "A recorrência está {}: só uma recorrência APROVADA admite cobranças.",
                super::name(rec.status)
            ),
        )];
    }
    let (Some(inicial), Some(due)) = (
        Date::parse(&rec.calendario.data_inicial),
        Date::parse(&request.calendario.data_de_vencimento),
    ) else {
        return vec![];
    };
    let periodicidade = rec.calendario.periodicidade;
    let cycle = machine::cycle(periodicidade, inicial, due);
    let theirs = state
        .rec
        .cobrs_of
        .get(&request.id_rec)
        .into_iter()
        .flatten();
    let clash = theirs.filter_map(|t| state.rec.cobrs.get(t)).any(|other| {
        other.txid != txid.as_str()
            && other.id_rec == request.id_rec
            && !matches!(other.status, CobrStatus::Rejeitada | CobrStatus::Cancelada)
            && Date::parse(&other.calendario.data_de_vencimento)
                .is_some_and(|d| machine::cycle(periodicidade, inicial, d) == cycle)
    });
    if clash {
        return vec![violation(
            "cobr.calendario.dataDeVencimento",
            "Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo \
             cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.",
        )];
    }
    vec![]
}

/// `PUT /cobr/{txid}` (`CobRSolicitada`) -> 201 `CobRGerada`: `ATIVA` with its first attempt
/// `AGENDADA`. The same request again answers the same charge (counted in `putCobr`); another
/// one for a txid in use (by a charge of any kind) is 400.
pub(crate) async fn put_cobr(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid =
        Txid::parse(&txid).map_err(|e| invalid_cobr(vec![violation("txid", e.to_string())]))?;
    let request: CobrSolicitada = parse_body(&body, "cobr", invalid_cobr)?;
    let now = now_ms();
    let today = today(now);
    let mut state = sim.state();
    *state
        .stats
        .rec
        .put_cobr
        .entry(txid.as_str().to_owned())
        .or_default() += 1;
    if let Some(stored) = state.rec.cobrs.get(&txid) {
        // The receiver's company is the PSP's to say: what the client sent of it is no change.
        let mut again = request.clone();
        again.recebedor.cnpj = None;
        again.recebedor.nome = None;
        if as_request(stored).as_ref() == Some(&again) {
            return Ok(json(StatusCode::CREATED, stored));
        }
        return Err(invalid_cobr(vec![violation(
            "cobr.txid",
            "O campo cobr.txid encontra-se em uso.",
        )]));
    }
    if state.txid_taken(&txid) {
        return Err(invalid_cobr(vec![violation(
            "cobr.txid",
            "O campo cobr.txid encontra-se em uso (por uma cobrança imediata ou com \
             vencimento).",
        )]));
    }
    let mut out = check_fields(&request, today);
    if out.is_empty() {
        out = check_recurrence(&state, &request, &txid);
    }
    if !out.is_empty() {
        return Err(invalid_cobr(out));
    }
    let rec = &state.rec.recs[&request.id_rec];
    let politica = rec.politica();
    let due = Date::parse(&request.calendario.data_de_vencimento)
        .ok_or_else(|| ApiError::Internal("a checked due date".to_owned()))?;
    let first = new_attempt(
        &sim,
        machine::settlement_date(due, request.ajuste_dia_util),
        SCHEDULED,
        now,
    )?;
    let created = Timestamp::from_unix_ms(now);
    let cobr = CobrCompleta {
        txid: txid.as_str().to_owned(),
        id_rec: request.id_rec,
        info_adicional: request.info_adicional,
        calendario: CalendarioCobr {
            criacao: Some(today.to_string()),
            data_de_vencimento: request.calendario.data_de_vencimento,
        },
        valor: request.valor,
        status: CobrStatus::Ativa,
        politica_retentativa: politica,
        ajuste_dia_util: Some(request.ajuste_dia_util),
        devedor: request.devedor,
        recebedor: Some(ContaRecebedor {
            cnpj: Some(RECEBEDOR_CNPJ.to_owned()),
            nome: Some(sim.settings.merchant_name.clone()),
            ..request.recebedor
        }),
        tentativas: vec![first],
        pix: vec![],
        encerramento: None,
        atualizacao: vec![
            Atualizacao {
                status: CobrStatus::Criada,
                data: created,
            },
            Atualizacao {
                status: CobrStatus::Ativa,
                data: created,
            },
        ],
    };
    state
        .rec
        .cobrs_of
        .entry(cobr.id_rec.clone())
        .or_default()
        .push(txid.clone());
    state.rec.cobrs.insert(txid, cobr.clone());
    state.stats.rec.cobrs_created += 1;
    callbacks::notify_cobr(&sim, &mut state, &cobr);
    Ok(json(StatusCode::CREATED, &cobr))
}

/// `GET /cobr/{txid}`: with its attempts and, once paid, its pix (with their devoluções).
pub(crate) async fn get_cobr(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| cobr_not_found())?;
    let mut state = sim.state();
    crate::devolucao::settle_due(&sim, &mut state, now_ms());
    let cobr = state.rec.cobrs.get(&txid).ok_or_else(cobr_not_found)?;
    Ok(json(StatusCode::OK, cobr))
}

/// `PATCH /cobr/{txid}` `{"status": "CANCELADA"}` -> 200: the receiver cancels the charge
/// (`USUARIO_RECEBEDOR`, `SLCR`), its open attempt with it. 400 once an attempt was settled
/// or rejected, on or after the first attempt's date (the simulator's clock, Brasília), for a
/// charge no longer `ATIVA`, or for another status. An empty body changes nothing.
pub(crate) async fn patch_cobr(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| cobr_not_found())?;
    let revision: CobrRevisada = parse_body(&body, "cobr", invalid_cobr)?;
    let cancelling = match revision.status {
        None => false,
        Some(CobrStatus::Cancelada) => true,
        Some(_) => {
            return Err(invalid_cobr(vec![violation(
                "cobr.status",
                "O campo cobr.status não respeita o schema (só admite CANCELADA).",
            )]));
        }
    };
    let now = now_ms();
    let mut state = sim.state();
    let cobr = state.rec.cobrs.get_mut(&txid).ok_or_else(cobr_not_found)?;
    if !cancelling {
        return Ok(json(StatusCode::OK, cobr));
    }
    if let Some(why) = machine::cancel_refusal(cobr, today(now)) {
        return Err(invalid_cobr(vec![violation("cobr.status", why)]));
    }
    set_status(cobr, CobrStatus::Cancelada, now);
    for t in &mut cobr.tentativas {
        if matches!(
            t.status,
            TentativaStatus::Agendada | TentativaStatus::Solicitada
        ) {
            set_attempt_status(t, TentativaStatus::Cancelada, now);
        }
    }
    cobr.encerramento = Some(Encerramento {
        rejeicao: None,
        cancelamento: Some(Cancelamento {
            solicitante: Solicitante::UsuarioRecebedor,
            codigo: "SLCR".to_owned(),
            descricao: Some(
                "Cancelamento de agendamento solicitado pelo usuário recebedor".to_owned(),
            ),
        }),
    });
    let cobr = cobr.clone();
    callbacks::notify_cobr(&sim, &mut state, &cobr);
    Ok(json(StatusCode::OK, &cobr))
}

/// `POST /cobr/{txid}/retentativa/{data}` -> 201 `CobRCompleta` with a new attempt `AGENDADA`
/// (`NTAG`) on `data`. 400 (see [`machine::retry_refusal`]) when the charge is not `ATIVA`,
/// its recurrence allows no retry, an attempt is still open, `data` is not a date after today
/// and after the last attempt's, 3 retries were asked already, or `data` is more than 7 days
/// after the due date.
pub(crate) async fn post_retentativa(
    State(sim): State<Arc<Sim>>,
    Path((txid, data)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| cobr_not_found())?;
    let now = now_ms();
    let mut state = sim.state();
    state.stats.rec.retentativas_asked += 1;
    if !state.rec.cobrs.contains_key(&txid) {
        return Err(cobr_not_found());
    }
    let date = Date::parse(&data).ok_or_else(|| {
        invalid_cobr(vec![violation(
            "data",
            "O parâmetro data não respeita o schema (YYYY-MM-DD).",
        )])
    })?;
    let cobr = state.rec.cobrs.get_mut(&txid).ok_or_else(cobr_not_found)?;
    if let Some(why) = machine::retry_refusal(cobr, date, today(now)) {
        return Err(invalid_cobr(vec![violation("data", why)]));
    }
    cobr.tentativas
        .push(new_attempt(&sim, date, NEW_ATTEMPT, now)?);
    let cobr = cobr.clone();
    state.stats.rec.retentativas_scheduled += 1;
    callbacks::notify_cobr(&sim, &mut state, &cobr);
    Ok(json(StatusCode::CREATED, &cobr))
}
