//! `POST /rec`, `GET /rec/{idRec}[?txid=]`, `PATCH /rec/{idRec}`: the recurrence (the
//! payer's mandate), checked against v2.9.0's `RecOperacaoInvalida` violations; and what ends
//! one (cancelled by either side), for the control routes too.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::{
    RECEBEDOR_CNPJ, callbacks, invalid_rec, invalid_rec_query, new_id, parse_body, rec_not_found,
    today,
};
use crate::api::{ApiError, json, violation};
use crate::state::{Sim, State as SimState, now_ms, random_alnum};
use pixgate_domain::due::Date;
use pixgate_pix::apipix::{
    Atualizacao, Cancelamento, CobrStatus, DadosQr, Devedor, Documento, Encerramento,
    PoliticaRetentativa, RecAtivacao, RecCompleta, RecRecebedor, RecRevisada, RecSolicitada,
    RecStatus, SolicRecStatus, Solicitante, TentativaStatus, Timestamp, TipoJornada, Txid,
    Violacao,
};

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// A payer's document as the standard's patterns say: a CPF's 11 digits, a CNPJ's 14 of
/// `[0-9A-Z]`.
pub(crate) fn valid_documento(documento: &Documento) -> bool {
    match documento {
        Documento::Cpf(cpf) => cpf.len() == 11 && cpf.bytes().all(|b| b.is_ascii_digit()),
        Documento::Cnpj(cnpj) => {
            cnpj.len() == 14
                && cnpj
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
        }
    }
}

fn check_devedor(devedor: &Devedor, out: &mut Vec<Violacao>) {
    if !valid_documento(&devedor.documento) {
        out.push(violation(
            "rec.vinculo.devedor",
            "O objeto rec.vinculo.devedor não respeita o schema (cpf: 11 dígitos; cnpj: 14 de \
             [0-9A-Z]).",
        ));
    }
    if chars(&devedor.nome) > 140 {
        out.push(violation(
            "rec.vinculo.devedor.nome",
            "O campo rec.vinculo.devedor.nome tem mais de 140 caracteres.",
        ));
    }
}

/// The location `loc` names, if it may serve the recurrence `id_rec` (`None` for a new one):
/// it exists and no other recurrence uses it.
fn check_loc(state: &SimState, loc: &str, id_rec: Option<&str>, out: &mut Vec<Violacao>) {
    let found = loc
        .parse::<i64>()
        .ok()
        .and_then(|id| state.rec.locrecs.get(&id));
    match found {
        None => out.push(violation(
            "rec.loc",
            "O location referenciado por rec.loc inexiste.",
        )),
        Some(l) if l.id_rec.is_some() && l.id_rec.as_deref() != id_rec => out.push(violation(
            "rec.loc",
            "O location referenciado por rec.loc já está sendo utilizado por outra recorrência.",
        )),
        Some(_) => {}
    }
}

/// Journey 3's immediate charge: a `cob` of this simulator.
fn check_journey_txid(state: &SimState, txid: &str, out: &mut Vec<Violacao>) {
    let exists = Txid::parse(txid).is_ok_and(|t| state.cobs.contains_key(&t));
    if !exists {
        out.push(violation(
            "rec.ativacao.dadosJornada.txid",
            "O campo rec.ativacao.dadosJornada.txid não corresponde a uma cobrança imediata \
             (cob) existente.",
        ));
    }
}

/// `POST /rec`'s violations, against the simulator's state (locations, charges) and today.
fn check_request(state: &SimState, request: &RecSolicitada, today: Date) -> Vec<Violacao> {
    let mut out = Vec::new();
    let vinculo = &request.vinculo;
    if chars(&vinculo.contrato) > 35 || vinculo.objeto.as_ref().is_some_and(|o| chars(o) > 35) {
        out.push(violation(
            "rec.vinculo",
            "O objeto rec.vinculo não respeita o schema (contrato e objeto: até 35 caracteres).",
        ));
    }
    check_devedor(&vinculo.devedor, &mut out);
    let inicial = Date::parse(&request.calendario.data_inicial);
    match inicial {
        None => out.push(violation(
            "rec.calendario.dataInicial",
            "O campo rec.calendario.dataInicial não respeita o schema (YYYY-MM-DD).",
        )),
        Some(d) if d < today => out.push(violation(
            "rec.calendario.dataInicial",
            "O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.",
        )),
        Some(_) => {}
    }
    if let Some(text) = &request.calendario.data_final {
        match Date::parse(text) {
            None => out.push(violation(
                "rec.calendario.dataFinal",
                "O campo rec.calendario.dataFinal não respeita o schema (YYYY-MM-DD).",
            )),
            Some(d) if inicial.is_some_and(|i| d < i) => out.push(violation(
                "rec.calendario.dataFinal",
                "O campo rec.calendario.dataFinal é anterior ao campo \
                 rec.calendario.dataInicial.",
            )),
            Some(_) => {}
        }
    }
    if request.valor.valor_rec.is_some() && request.valor.valor_minimo_recebedor.is_some() {
        out.push(violation(
            "rec.valor",
            "Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão \
             preenchidos.",
        ));
    }
    if request
        .recebedor
        .as_ref()
        .and_then(|r| r.convenio.as_ref())
        .is_some_and(|c| chars(c) > 60)
    {
        out.push(violation(
            "rec.recebedor.convenio",
            "O campo rec.recebedor.convenio tem mais de 60 caracteres.",
        ));
    }
    if let Some(loc) = &request.loc {
        check_loc(state, loc, None, &mut out);
    }
    if let Some(txid) = request.ativacao.as_ref().and_then(RecAtivacao::txid) {
        check_journey_txid(state, txid, &mut out);
    }
    out
}

/// Records a status change of a recurrence.
pub(crate) fn set_status(rec: &mut RecCompleta, status: RecStatus, now: i64) {
    rec.status = status;
    rec.atualizacao.push(Atualizacao {
        status,
        data: Timestamp::from_unix_ms(now),
    });
}

/// `POST /rec` -> 201 `RecGerada`: `CRIADA`, its `idRec` (`RR` or `RN` by its policy, the
/// simulator's `--ispb`, today, 11 characters), the receiver, `ativacao.tipoJornada`
/// `AGUARDANDO_DEFINICAO`, and its location (which then names it).
pub(crate) async fn post_rec(
    State(sim): State<Arc<Sim>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: RecSolicitada = parse_body(&body, "rec", invalid_rec)?;
    super::check_loc_is_integer(&body)?;
    let now = now_ms();
    let today = today(now);
    let mut state = sim.state();
    let violacoes = check_request(&state, &request, today);
    if !violacoes.is_empty() {
        return Err(invalid_rec(violacoes));
    }
    let prefix = match request.politica_retentativa {
        PoliticaRetentativa::Permite3R7D => "RR",
        PoliticaRetentativa::NaoPermite => "RN",
    };
    let id_rec = loop {
        let id = new_id(prefix, &sim.settings.ispb, today, &random_alnum(11)?);
        if !state.rec.recs.contains_key(&id) {
            break id;
        }
    };
    let loc = match &request.loc {
        Some(loc) => {
            let id: i64 = loc
                .parse()
                .map_err(|_| ApiError::Internal("a checked location id".to_owned()))?;
            let location = state
                .rec
                .locrecs
                .get_mut(&id)
                .ok_or_else(|| ApiError::Internal("a checked location vanished".to_owned()))?;
            location.id_rec = Some(id_rec.clone());
            Some(location.clone())
        }
        None => None,
    };
    let rec = RecCompleta {
        id_rec: id_rec.clone(),
        vinculo: request.vinculo,
        calendario: request.calendario,
        valor: request.valor,
        politica_retentativa: Some(request.politica_retentativa),
        recebedor: Some(RecRecebedor {
            cnpj: Some(RECEBEDOR_CNPJ.to_owned()),
            nome: Some(sim.settings.merchant_name.clone()),
            convenio: request.recebedor.and_then(|r| r.convenio),
        }),
        pagador: None,
        status: RecStatus::Criada,
        loc,
        ativacao: Some(RecAtivacao {
            tipo_jornada: Some(TipoJornada::AguardandoDefinicao),
            dados_jornada: request.ativacao.and_then(|a| a.dados_jornada),
        }),
        dados_qr: None,
        encerramento: None,
        atualizacao: vec![Atualizacao {
            status: RecStatus::Criada,
            data: Timestamp::from_unix_ms(now),
        }],
    };
    state.rec.recs.insert(id_rec, rec.clone());
    state.stats.rec.recs_created += 1;
    Ok(json(StatusCode::CREATED, &rec))
}

/// The BR Code of `dadosQR` for a recurrence `CRIADA` with a location: journey 2 (the
/// recurrence alone) without `txid`; with the `txid` of a `cob` journey 3, of a `cobv` journey
/// 4 (the charge's code with field 80 added). `None` when a location is missing (the standard
/// then leaves `dadosQR` out) or `txid` names no charge.
fn dados_qr(
    sim: &Sim,
    state: &SimState,
    rec: &RecCompleta,
    txid: Option<&str>,
) -> Result<Option<DadosQr>, ApiError> {
    let Some(loc) = rec.loc.as_ref().filter(|_| rec.status == RecStatus::Criada) else {
        return Ok(None);
    };
    let (name, city) = (&sim.settings.merchant_name, &sim.settings.merchant_city);
    let brcode = |e: pixgate_pix::brcode::BrCodeError| ApiError::Internal(format!("BR Code: {e}"));
    let Some(txid) = txid else {
        let code = pixgate_pix::brcode::recurrence(&loc.location, name, city).map_err(brcode)?;
        return Ok(Some(DadosQr {
            jornada: TipoJornada::Jornada2,
            pix_copia_e_cola: code,
        }));
    };
    let Ok(txid) = Txid::parse(txid) else {
        return Ok(None);
    };
    let (jornada, location) = if let Some(cob) = state.cobs.get(&txid) {
        (TipoJornada::Jornada3, cob.location.as_deref())
    } else if let Some(cobv) = state.cobvs.get(&txid) {
        (TipoJornada::Jornada4, cobv.location.as_deref())
    } else {
        return Ok(None);
    };
    let Some(location) = location else {
        return Ok(None);
    };
    let charge = pixgate_pix::brcode::dynamic(location, name, city).map_err(brcode)?;
    let code = pixgate_pix::brcode::with_recurrence(&charge, &loc.location).map_err(brcode)?;
    Ok(Some(DadosQr {
        jornada,
        pix_copia_e_cola: code,
    }))
}

/// `GET /rec/{idRec}[?txid=]`: the recurrence, with `dadosQR` while it is `CRIADA` and has a
/// location (see [`dados_qr`]). 400 `RecConsultaInvalida` when `txid` names a `cob` other than
/// the journey 3 one, or a `cobv` for a journey 3 recurrence.
pub(crate) async fn get_rec(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let query = query.unwrap_or_default();
    let txid = url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "txid")
        .map(|(_, v)| v.into_owned());
    let state = sim.state();
    let rec = state.rec.recs.get(&id_rec).ok_or_else(rec_not_found)?;
    if let (Some(txid), Some(journey)) = (
        txid.as_deref(),
        rec.ativacao.as_ref().and_then(RecAtivacao::txid),
    ) {
        let parsed = Txid::parse(txid).ok();
        let is_cob = parsed.as_ref().is_some_and(|t| state.cobs.contains_key(t));
        let is_cobv = parsed.as_ref().is_some_and(|t| state.cobvs.contains_key(t));
        if is_cob && txid != journey {
            return Err(invalid_rec_query(vec![violation(
                "txid",
                "o parâmetro txid corresponde a uma cobrança imediata diferente da informada \
                 no campo ativacao.dadosJornada.txid.",
            )]));
        }
        if is_cobv {
            return Err(invalid_rec_query(vec![violation(
                "txid",
                "o parâmetro txid não corresponde a uma cobrança compatível com a jornada 3 da \
                 recorrência (é uma cobrança com vencimento).",
            )]));
        }
    }
    let mut answer = rec.clone();
    answer.dados_qr = dados_qr(&sim, &state, rec, txid.as_deref())?;
    Ok(json(StatusCode::OK, &answer))
}

/// Ends a recurrence `CANCELADA` on behalf of `solicitante` with `codigo`: its recurring
/// charges still `ATIVA` are cancelled with it (their open attempt too; `CCLD`, the
/// recurrence's cancellation), a pending authorisation request is cancelled, and each change
/// is called back. The caller checked the recurrence may be cancelled.
pub(crate) fn cancel(
    sim: &Arc<Sim>,
    state: &mut SimState,
    id_rec: &str,
    solicitante: Solicitante,
    codigo: &str,
    descricao: &str,
    now: i64,
) -> Result<RecCompleta, ApiError> {
    let rec = state.rec.recs.get_mut(id_rec).ok_or_else(rec_not_found)?;
    set_status(rec, RecStatus::Cancelada, now);
    rec.encerramento = Some(Encerramento {
        rejeicao: None,
        cancelamento: Some(Cancelamento {
            solicitante,
            codigo: codigo.to_owned(),
            descricao: Some(descricao.to_owned()),
        }),
    });
    let rec = rec.clone();
    super::solicrec::end_active(state, id_rec, SolicRecStatus::Cancelada, now);
    let mut cancelled = Vec::new();
    for cobr in state.rec.cobrs.values_mut() {
        if cobr.id_rec != id_rec || cobr.status != CobrStatus::Ativa {
            continue;
        }
        super::cobr::set_status(cobr, CobrStatus::Cancelada, now);
        for t in &mut cobr.tentativas {
            if matches!(
                t.status,
                TentativaStatus::Agendada | TentativaStatus::Solicitada
            ) {
                super::cobr::set_attempt_status(t, TentativaStatus::Cancelada, now);
            }
        }
        cobr.encerramento = Some(Encerramento {
            rejeicao: None,
            cancelamento: Some(Cancelamento {
                solicitante,
                codigo: "CCLD".to_owned(),
                descricao: Some("A recorrência foi cancelada.".to_owned()),
            }),
        });
        cancelled.push(cobr.clone());
    }
    callbacks::notify_rec(sim, state, &rec);
    for cobr in &cancelled {
        callbacks::notify_cobr(sim, state, cobr);
    }
    Ok(rec)
}

/// `PATCH /rec/{idRec}` (`RecRevisada`) -> 200: `{"status": "CANCELADA"}` cancels the
/// recurrence as the receiver (`USUARIO_RECEBEDOR`, `SLCR`, as the standard's example), with
/// its charges not yet settled; `loc` and `calendario.dataInicial` change while it is
/// `CRIADA`, `vinculo.devedor.nome` and `ativacao.dadosJornada.txid` while it is not ended.
/// Any change to an `EXPIRADA`, `CANCELADA` or `REJEITADA` one is 400.
pub(crate) async fn patch_rec(
    State(sim): State<Arc<Sim>>,
    Path(id_rec): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let revision: RecRevisada = parse_body(&body, "rec", invalid_rec)?;
    super::check_loc_is_integer(&body)?;
    let now = now_ms();
    let today = today(now);
    let mut state = sim.state();
    let rec = state.rec.recs.get(&id_rec).ok_or_else(rec_not_found)?;
    let mut out = Vec::new();
    let cancelling = match revision.status {
        None => false,
        Some(RecStatus::Cancelada) => true,
        Some(_) => {
            out.push(violation(
                "rec.status",
                "O campo rec.status não respeita o schema (só admite CANCELADA).",
            ));
            false
        }
    };
    let changes = cancelling || revision != RecRevisada::default();
    if changes
        && matches!(
            rec.status,
            RecStatus::Expirada | RecStatus::Cancelada | RecStatus::Rejeitada
        )
    {
        out.push(violation(
            "rec.status",
            "A recorrência encontra-se expirada, cancelada ou rejeitada.",
        ));
    }
    let created = rec
        .atualizacao
        .first()
        .map_or(today, |a| super::today(a.data.unix_ms()));
    if let Some(loc) = &revision.loc {
        if rec.status != RecStatus::Criada {
            out.push(violation(
                "rec.loc",
                "O campo rec.loc somente pode ser alterado quando a recorrência apresentar-se \
                 com o status CRIADA.",
            ));
        }
        check_loc(&state, loc, Some(&id_rec), &mut out);
    }
    if let Some(inicial) = revision
        .calendario
        .as_ref()
        .and_then(|c| c.data_inicial.as_ref())
    {
        if rec.status != RecStatus::Criada {
            out.push(violation(
                "rec.calendario.dataInicial",
                "O campo rec.calendario.dataInicial somente pode ser alterado quando a \
                 recorrência apresentar-se com o status CRIADA.",
            ));
        }
        match Date::parse(inicial) {
            None => out.push(violation(
                "rec.calendario.dataInicial",
                "O campo rec.calendario.dataInicial não respeita o schema (YYYY-MM-DD).",
            )),
            Some(d) if d < created => out.push(violation(
                "rec.calendario.dataInicial",
                "O campo rec.calendario.dataInicial é anterior à data de criação da \
                 recorrência.",
            )),
            Some(d)
                if rec
                    .calendario
                    .data_final
                    .as_deref()
                    .and_then(Date::parse)
                    .is_some_and(|f| f < d) =>
            {
                out.push(violation(
                    "rec.calendario.dataInicial",
                    "O campo rec.calendario.dataFinal seria anterior ao campo \
                     rec.calendario.dataInicial.",
                ))
            }
            Some(_) => {}
        }
    }
    let nome = revision
        .vinculo
        .as_ref()
        .and_then(|v| v.devedor.as_ref())
        .map(|d| d.nome.clone());
    if nome.as_ref().is_some_and(|n| chars(n) > 140) {
        out.push(violation(
            "rec.vinculo.devedor.nome",
            "O campo rec.vinculo.devedor.nome tem mais de 140 caracteres.",
        ));
    }
    let txid = revision
        .ativacao
        .as_ref()
        .and_then(RecAtivacao::txid)
        .map(str::to_owned);
    if let Some(txid) = &txid {
        check_journey_txid(&state, txid, &mut out);
    }
    if !out.is_empty() {
        return Err(invalid_rec(out));
    }
    // Apply: the location first (the old one is free again), then the fields.
    if let Some(loc) = &revision.loc {
        let new_id: i64 = loc
            .parse()
            .map_err(|_| ApiError::Internal("a checked location id".to_owned()))?;
        let old = state.rec.recs[&id_rec]
            .loc
            .as_ref()
            .and_then(|l| l.id.parse::<i64>().ok());
        if let Some(old) = old.filter(|old| *old != new_id)
            && let Some(l) = state.rec.locrecs.get_mut(&old)
        {
            l.id_rec = None;
        }
        let location = state
            .rec
            .locrecs
            .get_mut(&new_id)
            .ok_or_else(|| ApiError::Internal("a checked location vanished".to_owned()))?;
        location.id_rec = Some(id_rec.clone());
        let location = location.clone();
        if let Some(rec) = state.rec.recs.get_mut(&id_rec) {
            rec.loc = Some(location);
        }
    }
    let rec = state.rec.recs.get_mut(&id_rec).ok_or_else(rec_not_found)?;
    if let Some(inicial) = revision.calendario.and_then(|c| c.data_inicial) {
        rec.calendario.data_inicial = inicial;
    }
    if let Some(nome) = nome {
        rec.vinculo.devedor.nome = nome;
    }
    if let Some(txid) = txid {
        let ativacao = rec.ativacao.get_or_insert_with(RecAtivacao::default);
        ativacao.dados_jornada = RecAtivacao::jornada_3(&txid).dados_jornada;
    }
    let answer = if cancelling {
        cancel(
            &sim,
            &mut state,
            &id_rec,
            Solicitante::UsuarioRecebedor,
            "SLCR",
            "Cancelamento solicitado pelo usuário recebedor",
            now,
        )?
    } else {
        rec.clone()
    };
    Ok(json(StatusCode::OK, &answer))
}
