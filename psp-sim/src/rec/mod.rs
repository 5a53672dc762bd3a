//! Pix Automático (API Pix 2.9.0): the recurrence's location (`POST /locrec`, `GET
//! /locrec/{id}`), the recurrence (`POST /rec`, `GET|PATCH /rec/{idRec}`, with `dadosQR` built
//! on `GET`, [`recurrence`]), the authorisation request pushed to the payer's bank (`POST
//! /solicrec`, `GET|PATCH /solicrec/{idSolicRec}`, [`solicrec`]), the recurring charge
//! (`PUT|GET|PATCH /cobr/{txid}`, `POST /cobr/{txid}/retentativa/{data}`, [`cobr`]), their
//! webhooks (`PUT|GET|DELETE /webhookrec` and `/webhookcobr`, [`webhook`]), the callbacks those
//! post ([`callbacks`]) and the control routes that act as the payer and the payer's PSP
//! ([`control`]).
//!
//! The rules that decide what may happen next (a retry asked, a charge cancelled, an attempt
//! resolved) are pure functions in [`machine`], unit tested on their own. The payer's PSP
//! schedules a recurring charge the moment it is created (`ATIVA`, one attempt `AGENDADA` on
//! its due date); attempts are resolved only by `POST /_sim/cobr/{txid}/attempt`, never by the
//! clock. A paid charge's pix is a pix like a `cob`'s: indexed for `GET /pix/{e2eid}` and the
//! devoluções, its MED's nature `MED_PIX_AUTOMATICO`.

pub(crate) mod callbacks;
pub(crate) mod cobr;
pub(crate) mod control;
pub(crate) mod locrec;
pub(crate) mod machine;
pub(crate) mod recurrence;
pub(crate) mod solicrec;
pub(crate) mod webhook;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post, put};
use serde::Serialize;

use crate::api::{ApiError, STANDARD_FIELDS, check_standard_shape, from_value, parse_value};
use crate::state::{Sim, Webhook};
use pixgate_domain::due::Date;
use pixgate_pix::apipix::{CobrCompleta, LocRec, RecCompleta, SolicRec, Txid, Violacao};

/// The `chave` a recurring charge's pix answers [`crate::state::State::pix_mut`] with: no pix
/// key names it, so a devolução of it is called back through `/webhookcobr`, not a key's
/// webhook (see [`crate::callbacks::notify`]).
pub(crate) const COBR_PIX_KEY: &str = "\u{0}cobr";

/// The receiver in `rec.recebedor` and `cobr.recebedor` (a valid CNPJ, made up; the `cobv`'s).
pub(crate) const RECEBEDOR_CNPJ: &str = "11222333000181";

/// The payer's municipality in an approved recurrence's `pagador` (São Paulo's IBGE code).
const PAGADOR_COD_MUN: &str = "3550308";

/// What the simulator holds of Pix Automático, inside [`crate::state::State`].
#[derive(Default)]
pub(crate) struct RecState {
    /// Locations by id (an int64, as the standard's reads answer it).
    pub locrecs: BTreeMap<i64, LocRec>,
    pub next_locrec_id: i64,
    pub recs: HashMap<String, RecCompleta>,
    pub solicrecs: HashMap<String, SolicRec>,
    pub cobrs: HashMap<Txid, CobrCompleta>,
    /// idRec -> its recurring charges' txids: a new charge is checked against its
    /// recurrence's alone (a scan of every charge made 100,000 charges quadratic).
    pub cobrs_of: HashMap<String, Vec<Txid>>,
    /// `/webhookrec`: one URL for the receiver.
    pub webhook_rec: Option<Webhook>,
    /// `/webhookcobr`.
    pub webhook_cobr: Option<Webhook>,
    /// Callbacks kept back while `switches.callbacks.hold` is on.
    pub held: Vec<(String, callbacks::Notification)>,
}

/// The counters `GET /_sim/stats` adds for Pix Automático (`Stats::rec`, flattened).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecStats {
    pub locrecs_created: u64,
    pub recs_created: u64,
    pub solicrecs_created: u64,
    /// `PUT /cobr/{txid}` requests processed, per txid (refused ones included).
    pub put_cobr: BTreeMap<String, u64>,
    pub cobrs_created: u64,
    /// `POST /cobr/{txid}/retentativa/{data}` requests processed (refused ones included).
    pub retentativas_asked: u64,
    /// Retries scheduled (a new attempt `AGENDADA`).
    pub retentativas_scheduled: u64,
}

impl RecState {
    /// The txid of the recurring charge that `e2eid` paid, if one did.
    pub fn cobr_of_pix(&self, e2eid: &str) -> Option<&CobrCompleta> {
        self.cobrs
            .values()
            .find(|c| c.pix.iter().any(|p| p.end_to_end_id == e2eid))
    }
}

/// The API routes, for [`crate::api::router`] (under `/api/v2`, behind the token).
pub(crate) fn api_routes() -> Router<Arc<Sim>> {
    Router::new()
        .route("/locrec", post(locrec::post_locrec))
        .route("/locrec/{id}", get(locrec::get_locrec))
        .route("/rec", post(recurrence::post_rec))
        .route(
            "/rec/{idRec}",
            get(recurrence::get_rec).patch(recurrence::patch_rec),
        )
        .route("/solicrec", post(solicrec::post_solicrec))
        .route(
            "/solicrec/{idSolicRec}",
            get(solicrec::get_solicrec).patch(solicrec::patch_solicrec),
        )
        .route(
            "/cobr/{txid}",
            put(cobr::put_cobr)
                .get(cobr::get_cobr)
                .patch(cobr::patch_cobr),
        )
        .route(
            "/cobr/{txid}/retentativa/{data}",
            post(cobr::post_retentativa),
        )
        .route(
            "/webhookrec",
            put(webhook::put_rec)
                .get(webhook::get_rec)
                .delete(webhook::delete_rec),
        )
        .route(
            "/webhookcobr",
            put(webhook::put_cobr)
                .get(webhook::get_cobr)
                .delete(webhook::delete_cobr),
        )
}

// ---- Errors ---------------------------------------------------------------------------------

/// The standard's titles of these errors are its examples': "Operação inválida.".
const TITLE: &str = "Operação inválida.";

pub(crate) fn invalid_rec(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "RecOperacaoInvalida",
        title: TITLE,
        detail: "A requisição que busca alterar ou criar uma recorrência não respeita o \
                 schema ou está semanticamente errada."
            .to_owned(),
        violacoes,
    }
}

pub(crate) fn invalid_rec_query(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "RecConsultaInvalida",
        title: "Consulta inválida.",
        detail: "Os parâmetros de consulta à recorrência não respeitam o schema ou não fazem \
                 sentido semanticamente."
            .to_owned(),
        violacoes,
    }
}

pub(crate) fn invalid_solicrec(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "SolicRecOperacaoInvalida",
        title: TITLE,
        detail: "A requisição que busca criar ou alterar uma solicitação de confirmação de \
                 recorrência não respeita o schema ou está semanticamente errada."
            .to_owned(),
        violacoes,
    }
}

pub(crate) fn invalid_cobr(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "CobROperacaoInvalida",
        title: TITLE,
        detail: "A requisição que busca alterar ou criar uma cobrança recorrente não respeita \
                 o schema ou está semanticamente errada."
            .to_owned(),
        violacoes,
    }
}

pub(crate) fn invalid_webhook_rec(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "WebhookRecOperacaoInvalida",
        title: "Webhook inválido.",
        detail: "A presente requisição busca criar um webhook sem respeitar o schema ou, ainda, \
                 apresenta semântica inválida."
            .to_owned(),
        violacoes,
    }
}

pub(crate) fn invalid_webhook_cobr(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "WebhookCobROperacaoInvalida",
        title: "Webhook inválido.",
        detail: "A presente requisição busca criar um webhook sem respeitar o schema ou, ainda, \
                 apresenta semântica inválida."
            .to_owned(),
        violacoes,
    }
}

pub(crate) fn rec_not_found() -> ApiError {
    ApiError::NotFound {
        name: "RecNaoEncontrada",
        detail: "Recorrência não encontrada para o idRec informado.",
    }
}

pub(crate) fn solicrec_not_found() -> ApiError {
    ApiError::NotFound {
        name: "SolicRecNaoEncontrada",
        detail: "Solicitação de recorrência não encontrada para o idSolicRec informado.",
    }
}

pub(crate) fn cobr_not_found() -> ApiError {
    ApiError::NotFound {
        name: "CobRNaoEncontrado",
        detail: "Cobrança não encontrada para o txid informado.",
    }
}

pub(crate) fn locrec_not_found() -> ApiError {
    ApiError::NotFound {
        name: "PayloadLocationRecNaoEncontrado",
        detail: "Location não encontrada para o id informado.",
    }
}

pub(crate) fn webhook_not_found() -> ApiError {
    ApiError::NotFound {
        name: "NaoEncontrado",
        detail: "Entidade não encontrada: nenhum webhook está estabelecido.",
    }
}

// ---- Bodies ---------------------------------------------------------------------------------

/// The fields of the Pix Automático bodies besides the others' ([`STANDARD_FIELDS`]): none
/// may be `null`.
const REC_FIELDS: &[&str] = &[
    "vinculo",
    "objeto",
    "contrato",
    "dataInicial",
    "dataFinal",
    "periodicidade",
    "valorRec",
    "valorMinimoRecebedor",
    "politicaRetentativa",
    "loc",
    "ativacao",
    "dadosJornada",
    "txid",
    "recebedor",
    "convenio",
    "idRec",
    "dataExpiracaoSolicitacao",
    "destinatario",
    "agencia",
    "conta",
    "ispbParticipante",
    "infoAdicional",
    "dataDeVencimento",
    "ajusteDiaUtil",
    "tipoConta",
    "email",
    "logradouro",
    "cidade",
    "uf",
    "cep",
    "tipo",
];

/// Where the Pix Automático bodies have objects (serde would also read one from an array).
const REC_OBJECTS: &[&str] = &[
    "vinculo",
    "vinculo.devedor",
    "calendario",
    "valor",
    "ativacao",
    "ativacao.dadosJornada",
    "recebedor",
    "destinatario",
    "devedor",
];

/// Reads a Pix Automático body: a JSON object with no `null` field of the standard's and no
/// array where an object belongs, that fits `T`; violations name `{root}.{path}`.
pub(crate) fn parse_body<T: serde::de::DeserializeOwned>(
    body: &[u8],
    root: &str,
    error: fn(Vec<Violacao>) -> ApiError,
) -> Result<T, ApiError> {
    let value = parse_value(body, root, error)?;
    let fields: Vec<&str> = STANDARD_FIELDS.iter().chain(REC_FIELDS).copied().collect();
    check_standard_shape(&value, root, &fields, REC_OBJECTS, error)?;
    from_value(value, root, error)
}

/// A recurrence body's `loc` is the standard's int64: [`pixgate_pix::apipix`] also reads it
/// from a string (PSPs differ), the simulator, standing in for a strict PSP, does not.
pub(crate) fn check_loc_is_integer(body: &[u8]) -> Result<(), ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    match value.get("loc") {
        Some(loc) if !(loc.is_i64() || loc.is_u64()) => {
            Err(invalid_rec(vec![crate::api::violation(
                "rec.loc",
                "O campo rec.loc deve ser um inteiro (int64).",
            )]))
        }
        _ => Ok(()),
    }
}

// ---- Identifiers and dates ------------------------------------------------------------------

/// `prefix` (`RR`, `RN`, `SC`) + the ISPB + `yyyyMMdd` + 11 alphanumerics: the 29 characters
/// of an `idRec` or an `idSolicRec` (API Pix 2.9.0 `RecId`, `SolicRecId`).
pub(crate) fn new_id(prefix: &str, ispb: &str, date: Date, suffix: &str) -> String {
    let (y, m, d) = date.ymd();
    format!("{prefix}{ispb}{y:04}{m:02}{d:02}{suffix}")
}

/// Whether `text` is an `idRec` as 2.9.0 forms it: `R`, `R|N`, 8 of `[0-9A-Z]`, a date, 11 of
/// `[a-zA-Z0-9]`.
pub(crate) fn is_id_rec(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 29
        && b[0] == b'R'
        && matches!(b[1], b'R' | b'N')
        && b[2..10]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        && std::str::from_utf8(&b[10..18])
            .ok()
            .and_then(|d| Date::parse(&format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..])))
            .is_some()
        && b[18..].iter().all(u8::is_ascii_alphanumeric)
}

/// A status as the standard spells it (`CANCELADA`), for messages.
pub(crate) fn name<S: Serialize>(status: S) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Today in Brasília, as the simulator's clock says.
pub(crate) fn today(now_ms: i64) -> Date {
    crate::cobv::date_at(now_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_recs_have_the_2_9_0_shape() {
        let date = Date::parse("2026-01-15").unwrap();
        let id = new_id("RR", "87654321", date, "AbCdEfGhIjK");
        assert_eq!(id, "RR8765432120260115AbCdEfGhIjK");
        assert_eq!(id.len(), 29);
        assert!(is_id_rec(&id));
        assert!(is_id_rec("RN1234567820240115abcdefghijk"));
        // 2.9.0: the ISPB part may be alphanumeric (upper case).
        assert!(is_id_rec("RRA1B2C3D420250901abcdefghijk"));
        for bad in [
            "RX1234567820240115abcdefghijk",
            "CR1234567820240115abcdefghijk",
            "RR1234567820241315abcdefghijk",
            "RR12345678202401150abcdefghij-",
            "RRa234567820240115abcdefghijk",
            "RR1234567820240115abcdefghij",
            "",
        ] {
            assert!(!is_id_rec(bad), "{bad}");
        }
        let solic = new_id("SC", "87654321", date, "AbCdEfGhIjK");
        assert_eq!(solic.len(), 29);
        assert!(solic.starts_with("SC87654321"));
    }
}
