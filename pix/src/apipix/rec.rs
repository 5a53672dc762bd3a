//! Pix Automático (API Pix 2.7.0 on, as of 2.9.0): the wire types of the recurrence
//! (`POST|GET|PATCH /rec`, its location `POST|GET /locrec`), the authorisation request pushed to
//! the payer's bank (`POST|GET|PATCH /solicrec`), the recurring charge (`PUT|GET|PATCH
//! /cobr/{txid}`, `POST /cobr/{txid}/retentativa/{data}`), their webhooks (`/webhookrec`,
//! `/webhookcobr`) and the callbacks those post (`{webhookUrl}/rec`, `{webhookUrl}/cobr`).
//!
//! Read more tolerantly still than the rest of [`super`]: the standard renamed Pix Automático
//! fields within a minor release (2.7.0: `cobr.dadosDevedor` became `devedor`,
//! `contaRecebedor` `recebedor`, `calendario.dataVencimento` `dataDeVencimento`, `dataCriacao`
//! `criacao`, the string `valor` an object `valor.original`, and the `CANCELADA_PELO_...`
//! requesters lost their prefix), and 2.9.0 made the ISPBs inside ids alphanumeric. So:
//! - the older names are read too (`#[serde(alias)]`, and `valor` as a bare amount);
//! - ids (`idRec`, `idSolicRec`, a location's `id`, txids) are opaque text; a location id
//!   comes as a JSON number (the standard's int64) or a string and is kept as text;
//! - a status the standard may add is [`RecStatus::Unknown`] (and the like), not an error;
//! - a callback needs only its id: the standard's own `RecNotification` lists a required
//!   `atualizacao"` (a quote too many, API Pix 2.9.0 `openapi.yaml` line 6464), and callbacks
//!   are triggers to read the resource again anyway;
//! - dates of the recurring charge (`dataLiquidacao`, `calendario.criacao`) are kept as text:
//!   the standard's own example has `dataLiquidacao: '2024-20-08'` and writes `criacao` as a
//!   date where other PSPs write a date-time.
//!
//! What is written is exactly the standard's JSON, with its 2.9.0 names.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Amount, Devedor, Documento, Pix, Timestamp};

/// `calendario.periodicidade` of a recurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Periodicidade {
    Semanal,
    Mensal,
    Trimestral,
    Semestral,
    Anual,
}

/// `politicaRetentativa`: whether a failed charge may be tried again after its due date (up
/// to 3 more times within 7 days).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PoliticaRetentativa {
    #[serde(rename = "NAO_PERMITE")]
    NaoPermite,
    #[serde(rename = "PERMITE_3R_7D")]
    Permite3R7D,
}

/// The status of a recurrence (`RecStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RecStatus {
    Criada,
    Aprovada,
    Rejeitada,
    Expirada,
    Cancelada,
    /// A status a later version of the standard adds; written back as `UNKNOWN`.
    #[serde(other)]
    Unknown,
}

/// The status of an authorisation request (`SolicRecStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SolicRecStatus {
    Criada,
    Enviada,
    Recebida,
    Aceita,
    Rejeitada,
    Expirada,
    Cancelada,
    #[serde(other)]
    Unknown,
}

/// The status of a recurring charge (`CobRStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CobrStatus {
    Criada,
    Ativa,
    Concluida,
    Expirada,
    Rejeitada,
    Cancelada,
    #[serde(other)]
    Unknown,
}

/// The status of one attempt to settle a recurring charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TentativaStatus {
    Solicitada,
    Agendada,
    Paga,
    Cancelada,
    Rejeitada,
    Expirada,
    /// Also what an attempt without a status reads as.
    #[default]
    #[serde(other)]
    Unknown,
}

/// Who ended a recurrence or a recurring charge (`encerramento.cancelamento.solicitante`).
/// 2.7.0-RC1 wrote these `CANCELADA_PELO_...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Solicitante {
    #[serde(alias = "CANCELADA_PELO_PSP_PAGADOR")]
    PspPagador,
    #[serde(alias = "CANCELADA_PELO_USUARIO_PAGADOR")]
    UsuarioPagador,
    #[serde(alias = "CANCELADA_PELO_PSP_RECEBEDOR")]
    PspRecebedor,
    #[serde(alias = "CANCELADA_PELO_USUARIO_RECEBEDOR")]
    UsuarioRecebedor,
    #[serde(other)]
    Unknown,
}

/// How the payer authorised the recurrence (`ativacao.tipoJornada`), and which code
/// `dadosQR` carries (`dadosQR.jornada`, journeys 2 to 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TipoJornada {
    /// Accepted a request pushed to their bank app (`/solicrec`).
    #[serde(rename = "JORNADA_1")]
    Jornada1,
    /// Scanned a recurrence-only QR code.
    #[serde(rename = "JORNADA_2")]
    Jornada2,
    /// Scanned a composite QR code and paid an immediate charge (`cob`) with it.
    #[serde(rename = "JORNADA_3")]
    Jornada3,
    /// Scanned a composite QR code of a charge with a due date (`cobv`).
    #[serde(rename = "JORNADA_4")]
    Jornada4,
    AguardandoDefinicao,
    #[serde(other)]
    Unknown,
}

/// `recebedor.tipoConta` of a recurring charge. One of the standard's own examples writes
/// `POUPANÇA`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TipoConta {
    Corrente,
    #[serde(alias = "POUPANÇA")]
    Poupanca,
    Pagamento,
}

/// One entry of a resource's status history (`atualizacao[]`). The standard's recurrence
/// examples write `nome` for `status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Atualizacao<S> {
    #[serde(alias = "nome")]
    pub status: S,
    pub data: Timestamp,
}

/// A rejection (`encerramento.rejeicao`, `tentativas[].rejeicao`): the SPI's code and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejeicao {
    pub codigo: String,
    /// At most 400 characters (2.8.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descricao: Option<String>,
}

/// A cancellation (`encerramento.cancelamento`): who, the SPI's code and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cancelamento {
    pub solicitante: Solicitante,
    pub codigo: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descricao: Option<String>,
}

/// `encerramento` of a recurrence or a recurring charge: one of the two.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Encerramento {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejeicao: Option<Rejeicao>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancelamento: Option<Cancelamento>,
}

/// The attempt rejection codes that also reject the recurring charge, so that no retry can be
/// asked: API Pix 2.9.0 `openapi.yaml` line 7118 (`CobRTentativas`, `rejeicao.codigo`): "Os
/// códigos de rejeição da tentativa `AC05`,`AM09`,`DENC`,`DS27`,`DTED`,`MIDI`,`MSUC`,`NITX`,
/// `RC09` e `DTED` causam a rejeição da cobrança recorrente correspondente."
pub const COBR_ENDING_REJECTIONS: [&str; 9] = [
    "AC05", "AM09", "DENC", "DS27", "DTED", "MIDI", "MSUC", "NITX", "RC09",
];

/// Whether an attempt rejected with `codigo` rejects its recurring charge for good (see
/// [`COBR_ENDING_REJECTIONS`]).
pub fn attempt_rejection_ends_cobr(codigo: &str) -> bool {
    COBR_ENDING_REJECTIONS.contains(&codigo)
}

// ---- Location ids: a JSON number or a string, kept as text ----------------------------------

/// Reads a location id written as a number (the standard's int64) or a string; writes it as a
/// number when it is one, as the standard types it.
mod loc_id {
    use super::*;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrText {
        Number(serde_json::Number),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        match NumberOrText::deserialize(d)? {
            NumberOrText::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            NumberOrText::Number(_) => Err(serde::de::Error::custom(
                "a location id is a whole number or a string",
            )),
            NumberOrText::Text(text) => Ok(text),
        }
    }

    pub fn serialize<S: Serializer>(id: &str, s: S) -> Result<S::Ok, S::Error> {
        match id.parse::<i64>() {
            Ok(n) if n.to_string() == id => s.serialize_i64(n),
            _ => s.serialize_str(id),
        }
    }

    pub mod option {
        use super::*;

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
            #[derive(Deserialize)]
            struct Wrapped(#[serde(with = "super")] String);
            Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
        }

        pub fn serialize<S: Serializer>(id: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
            match id {
                Some(id) => super::serialize(id, s),
                None => s.serialize_none(),
            }
        }
    }
}

/// Reads a list item by item, leaving out the items that do not read: for the callbacks,
/// whose lists are hints (the receiver reads the resource again).
fn lenient_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let items = Option::<Vec<serde_json::Value>>::deserialize(d)?.unwrap_or_default();
    Ok(items
        .into_iter()
        .filter_map(|item| serde_json::from_value(item).ok())
        .collect())
}

// ---- Locations of recurrences ---------------------------------------------------------------

/// A recurrence's location: the answer of `POST /locrec` (`PayloadLocationRecGerada`) and
/// `GET /locrec/{id}` (`PayloadLocationRecCompleta`, with the `idRec` using it), and `loc` of a
/// [`RecCompleta`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocRec {
    /// An int64 in the standard, kept as text.
    #[serde(with = "loc_id")]
    pub id: String,
    /// `pix.example.com/qr/v2/rec/...`, without a scheme: what the BR Code's field 80 carries.
    pub location: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criacao: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_rec: Option<String>,
}

/// The body of `POST /locrec` (`PayloadLocationRecSolicitada`): `{"tipo": "rec"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocRecSolicitada {
    pub tipo: String,
}

impl Default for LocRecSolicitada {
    fn default() -> Self {
        Self {
            tipo: "rec".to_owned(),
        }
    }
}

// ---- Recurrences ----------------------------------------------------------------------------

/// `vinculo`: what the payments are for, and who pays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vinculo {
    /// Free text the payer recognises the payments by: at most 35 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objeto: Option<String>,
    /// The contract (or order) number: at most 35 characters.
    pub contrato: String,
    /// The payer: a CPF or a CNPJ, and a name of at most 140 characters.
    pub devedor: Devedor,
}

/// `calendario` of a recurrence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioRec {
    /// `YYYY-MM-DD`: the expected first payment, not before the recurrence is created.
    pub data_inicial: String,
    /// `YYYY-MM-DD`, absent for a recurrence without an end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_final: Option<String>,
    pub periodicidade: Periodicidade,
}

/// `valor` of a recurrence: a fixed amount (`valorRec`), or the floor the payer's own maximum
/// may not go below (`valorMinimoRecebedor`), or neither; never both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValorRec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valor_rec: Option<Amount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valor_minimo_recebedor: Option<Amount>,
}

impl ValorRec {
    pub fn is_empty(&self) -> bool {
        self.valor_rec.is_none() && self.valor_minimo_recebedor.is_none()
    }
}

/// `ativacao.dadosJornada`: the immediate charge a journey 3 recurrence is authorised with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DadosJornada {
    pub txid: String,
    /// Where one of the standard's examples (`recResponse1`) puts `ativacao.tipoJornada`:
    /// read, and written back only when read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tipo_jornada: Option<TipoJornada>,
}

/// `ativacao` of a recurrence: in a request, the journey 3 charge; in an answer, also the
/// journey the payer took (`AGUARDANDO_DEFINICAO` until approved).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecAtivacao {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tipo_jornada: Option<TipoJornada>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dados_jornada: Option<DadosJornada>,
}

impl RecAtivacao {
    /// The journey with `txid` as its immediate charge (journey 3), for a request.
    pub fn jornada_3(txid: &str) -> Self {
        Self {
            tipo_jornada: None,
            dados_jornada: Some(DadosJornada {
                txid: txid.to_owned(),
                tipo_jornada: None,
            }),
        }
    }

    /// `tipoJornada`, wherever the PSP put it.
    pub fn jornada(&self) -> Option<TipoJornada> {
        self.tipo_jornada
            .or_else(|| self.dados_jornada.as_ref().and_then(|d| d.tipo_jornada))
    }

    /// `dadosJornada.txid`.
    pub fn txid(&self) -> Option<&str> {
        self.dados_jornada.as_ref().map(|d| d.txid.as_str())
    }
}

/// `recebedor` of a recurrence: in a request only `convenio`; in an answer the receiver (a
/// company: `cnpj`, `nome`) too.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecRecebedor {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnpj: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nome: Option<String>,
    /// The agreement between the receiver and its PSP: at most 60 characters (2.8.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convenio: Option<String>,
}

/// `pagador` of an approved recurrence: the payer's document, PSP and municipality.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecPagador {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpf: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnpj: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ispb_participante: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cod_mun: Option<String>,
}

/// `dadosQR` of `GET /rec/{idRec}[?txid=]`: the code a payer scans for the journey.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DadosQr {
    pub jornada: TipoJornada,
    pub pix_copia_e_cola: String,
}

/// The body of `POST /rec` (`RecSolicitada`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecSolicitada {
    pub vinculo: Vinculo,
    pub calendario: CalendarioRec,
    #[serde(default, skip_serializing_if = "ValorRec::is_empty")]
    pub valor: ValorRec,
    pub politica_retentativa: PoliticaRetentativa,
    /// The id of a location from `POST /locrec` (journeys 2 and 3).
    #[serde(
        default,
        with = "loc_id::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub loc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ativacao: Option<RecAtivacao>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recebedor: Option<RecRecebedor>,
}

/// A recurrence as the PSP keeps it: the answer of `POST /rec` (`RecGerada`), `GET
/// /rec/{idRec}` (`RecCompleta`) and `PATCH /rec/{idRec}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecCompleta {
    /// `R`, `R|N` (retries allowed or not), the PSP's 8-character ISPB, `yyyyMMdd` and 11
    /// characters: 29 in 2.9.0, kept as text.
    pub id_rec: String,
    pub vinculo: Vinculo,
    pub calendario: CalendarioRec,
    #[serde(default, skip_serializing_if = "ValorRec::is_empty")]
    pub valor: ValorRec,
    /// Absent from `RecGerada`'s schema (the `POST /rec` answer); see
    /// [`RecCompleta::politica`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub politica_retentativa: Option<PoliticaRetentativa>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recebedor: Option<RecRecebedor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagador: Option<RecPagador>,
    pub status: RecStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loc: Option<LocRec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ativacao: Option<RecAtivacao>,
    /// Named `dadosQR` (not camel case) by the standard.
    #[serde(rename = "dadosQR", default, skip_serializing_if = "Option::is_none")]
    pub dados_qr: Option<DadosQr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encerramento: Option<Encerramento>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atualizacao: Vec<Atualizacao<RecStatus>>,
}

impl RecCompleta {
    /// The retry policy: as written, or as the id says (`RR...` allows retries, `RN...` not).
    pub fn politica(&self) -> Option<PoliticaRetentativa> {
        self.politica_retentativa
            .or_else(|| match self.id_rec.as_bytes().get(..2) {
                Some(b"RR") => Some(PoliticaRetentativa::Permite3R7D),
                Some(b"RN") => Some(PoliticaRetentativa::NaoPermite),
                _ => None,
            })
    }
}

/// `vinculo` of a `PATCH /rec`: only the payer's name may change.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VinculoRevisado {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devedor: Option<NomeDevedor>,
}

/// `vinculo.devedor` of a `PATCH /rec`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NomeDevedor {
    pub nome: String,
}

/// `calendario` of a `PATCH /rec`: only `dataInicial`, while the recurrence is `CRIADA`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioRevisado {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_inicial: Option<String>,
}

/// The body of `PATCH /rec/{idRec}` (`RecRevisada`): `{"status": "CANCELADA"}` cancels; the
/// other fields revise a recurrence not yet approved.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecRevisada {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<RecStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vinculo: Option<VinculoRevisado>,
    #[serde(
        default,
        with = "loc_id::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub loc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendario: Option<CalendarioRevisado>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ativacao: Option<RecAtivacao>,
}

impl RecRevisada {
    /// `{"status": "CANCELADA"}`.
    pub fn cancelar() -> Self {
        Self {
            status: Some(RecStatus::Cancelada),
            ..Self::default()
        }
    }
}

// ---- Authorisation requests (journey 1) -----------------------------------------------------

/// `calendario` of an authorisation request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioSolicRec {
    /// When the request stops waiting for the payer's answer (after its creation).
    pub data_expiracao_solicitacao: Timestamp,
}

/// `destinatario`: the payer's account the request is pushed to, and their document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "DestinatarioWire", into = "DestinatarioWire")]
pub struct Destinatario {
    /// At most 4 characters.
    pub agencia: Option<String>,
    /// At most 20 characters.
    pub conta: String,
    /// The payer's PSP: 8 of `[0-9A-Z]`.
    pub ispb_participante: String,
    pub documento: Documento,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DestinatarioWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agencia: Option<String>,
    conta: String,
    ispb_participante: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cpf: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cnpj: Option<String>,
}

impl TryFrom<DestinatarioWire> for Destinatario {
    type Error = String;

    fn try_from(wire: DestinatarioWire) -> Result<Self, Self::Error> {
        let documento = match (wire.cpf, wire.cnpj) {
            (Some(cpf), None) => Documento::Cpf(cpf),
            (None, Some(cnpj)) => Documento::Cnpj(cnpj),
            _ => return Err("destinatario needs exactly one of cpf and cnpj".to_owned()),
        };
        Ok(Self {
            agencia: wire.agencia,
            conta: wire.conta,
            ispb_participante: wire.ispb_participante,
            documento,
        })
    }
}

impl From<Destinatario> for DestinatarioWire {
    fn from(d: Destinatario) -> Self {
        let (cpf, cnpj) = match d.documento {
            Documento::Cpf(cpf) => (Some(cpf), None),
            Documento::Cnpj(cnpj) => (None, Some(cnpj)),
        };
        Self {
            agencia: d.agencia,
            conta: d.conta,
            ispb_participante: d.ispb_participante,
            cpf,
            cnpj,
        }
    }
}

/// The body of `POST /solicrec` (`SolicRecSolicitada`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SolicRecSolicitada {
    pub id_rec: String,
    pub calendario: CalendarioSolicRec,
    /// Required since 2.8.0.
    pub destinatario: Destinatario,
}

/// An authorisation request as the PSP keeps it (`SolicRecCompleta`): the answer of `POST
/// /solicrec`, `GET` and `PATCH /solicrec/{idSolicRec}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SolicRec {
    /// `SC`, the sending PSP's ISPB, `yyyyMMdd` and 11 characters: 29, kept as text.
    pub id_solic_rec: String,
    pub id_rec: String,
    pub status: SolicRecStatus,
    pub calendario: CalendarioSolicRec,
    pub destinatario: Destinatario,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atualizacao: Vec<Atualizacao<SolicRecStatus>>,
}

/// The body of `PATCH /solicrec/{idSolicRec}` (`SolicRecRevisada`): `{"status": "CANCELADA"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolicRecRevisada {
    pub status: SolicRecStatus,
}

impl SolicRecRevisada {
    pub fn cancelar() -> Self {
        Self {
            status: SolicRecStatus::Cancelada,
        }
    }
}

// ---- Recurring charges ----------------------------------------------------------------------

/// `calendario` of a recurring charge request. 2.7.0-RC1 named the due date `dataVencimento`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioCobrSolicitado {
    /// `YYYY-MM-DD`.
    #[serde(alias = "dataVencimento")]
    pub data_de_vencimento: String,
}

/// `calendario` of a recurring charge. 2.7.0-RC1 named these `dataCriacao` and
/// `dataVencimento`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioCobr {
    /// A date (`YYYY-MM-DD`) in the standard; some PSPs write a date-time. Kept as text.
    #[serde(
        default,
        alias = "dataCriacao",
        skip_serializing_if = "Option::is_none"
    )]
    pub criacao: Option<String>,
    #[serde(alias = "dataVencimento")]
    pub data_de_vencimento: String,
}

/// `valor` of a recurring charge: `{"original": "d.dd"}`; 2.7.0-RC1 wrote the bare amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "ValorCobrWire")]
pub struct ValorCobr {
    pub original: Amount,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ValorCobrWire {
    Object { original: Amount },
    Bare(Amount),
}

impl From<ValorCobrWire> for ValorCobr {
    fn from(wire: ValorCobrWire) -> Self {
        match wire {
            ValorCobrWire::Object { original } | ValorCobrWire::Bare(original) => Self { original },
        }
    }
}

/// `recebedor` of a recurring charge: the receiver's account the money goes to
/// (`DadosBancariosRecebedor`); in an answer, the company (`cnpj`, `nome`) too. 2.7.0-RC1
/// named it `contaRecebedor`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContaRecebedor {
    /// At most 4 characters; optional in the standard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agencia: Option<String>,
    /// At most 20 characters.
    pub conta: String,
    pub tipo_conta: TipoConta,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnpj: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nome: Option<String>,
}

/// `devedor` of a recurring charge (`DadosDevedorRecorrencia`): the payer's contact and
/// address only (the document is the recurrence's). 2.7.0-RC1 named it `dadosDevedor`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DevedorCobr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logradouro: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cidade: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uf: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cep: Option<String>,
}

fn default_true() -> bool {
    true
}

/// The body of `PUT /cobr/{txid}` (`CobRSolicitada`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobrSolicitada {
    pub id_rec: String,
    /// At most 140 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info_adicional: Option<String>,
    pub calendario: CalendarioCobrSolicitado,
    pub valor: ValorCobr,
    /// Move a due date on a non-business day to the next business day (default true since
    /// 2.7.0).
    #[serde(default = "default_true")]
    pub ajuste_dia_util: bool,
    #[serde(
        default,
        alias = "dadosDevedor",
        skip_serializing_if = "Option::is_none"
    )]
    pub devedor: Option<DevedorCobr>,
    #[serde(alias = "contaRecebedor")]
    pub recebedor: ContaRecebedor,
}

/// One attempt to settle a recurring charge (`tentativas[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tentativa {
    /// The settlement date, `YYYY-MM-DD`, as written (the standard's own example has
    /// `2024-20-08`).
    pub data_liquidacao: String,
    /// `AGND` (scheduled with the charge), `NTAG` (a new attempt, asked with
    /// `/retentativa`), `RIFL` (retried the same day after a failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tipo: Option<String>,
    #[serde(default)]
    pub status: TentativaStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_to_end_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejeicao: Option<Rejeicao>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atualizacao: Vec<Atualizacao<TentativaStatus>>,
}

/// A recurring charge as the PSP keeps it: the answer of `PUT`, `GET` and `PATCH
/// /cobr/{txid}` (`CobRGerada`, `CobRCompleta`) and of `POST /cobr/{txid}/retentativa/{data}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobrCompleta {
    pub txid: String,
    pub id_rec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info_adicional: Option<String>,
    pub calendario: CalendarioCobr,
    pub valor: ValorCobr,
    pub status: CobrStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub politica_retentativa: Option<PoliticaRetentativa>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ajuste_dia_util: Option<bool>,
    #[serde(
        default,
        alias = "dadosDevedor",
        skip_serializing_if = "Option::is_none"
    )]
    pub devedor: Option<DevedorCobr>,
    #[serde(
        default,
        alias = "contaRecebedor",
        skip_serializing_if = "Option::is_none"
    )]
    pub recebedor: Option<ContaRecebedor>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tentativas: Vec<Tentativa>,
    /// The pix that paid it (the standard's `PixAutomatico`, read as any [`Pix`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pix: Vec<Pix>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encerramento: Option<Encerramento>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atualizacao: Vec<Atualizacao<CobrStatus>>,
}

/// The body of `PATCH /cobr/{txid}` (`CobRRevisada`): `{"status": "CANCELADA"}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CobrRevisada {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CobrStatus>,
}

impl CobrRevisada {
    pub fn cancelar() -> Self {
        Self {
            status: Some(CobrStatus::Cancelada),
        }
    }
}

// ---- Webhooks and callbacks -----------------------------------------------------------------

/// The answer of `GET /webhookrec` and `GET /webhookcobr` (`WebhookRecCompleto`,
/// `WebhookCobRCompleto`): one URL per receiver, not keyed by a pix key. Their `PUT` body is
/// [`super::WebhookSolicitado`]'s `{webhookUrl}`; this answer is not
/// [`super::WebhookCompleto`]: no `chave`, and `criacao` optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookRecCompleto {
    pub webhook_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criacao: Option<Timestamp>,
}

/// One recurrence in a callback (`RecNotification`). Only `idRec` is needed: the receiver
/// reads the recurrence again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecNotification {
    pub id_rec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<RecStatus>,
    #[serde(
        default,
        deserialize_with = "lenient_vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub atualizacao: Vec<Atualizacao<RecStatus>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encerramento: Option<Encerramento>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ativacao: Option<RecAtivacao>,
}

/// The body posted to `{webhookUrl}/rec`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecCallback {
    #[serde(default, deserialize_with = "lenient_vec")]
    pub recs: Vec<RecNotification>,
}

/// One recurring charge in a callback (`CobRNotification`). Only `txid` is needed: the
/// receiver reads the charge again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobrNotification {
    pub txid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_rec: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CobrStatus>,
    #[serde(
        default,
        deserialize_with = "lenient_vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub atualizacao: Vec<Atualizacao<CobrStatus>>,
    #[serde(
        default,
        deserialize_with = "lenient_vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub tentativas: Vec<Tentativa>,
    #[serde(
        default,
        deserialize_with = "lenient_vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub pix: Vec<Pix>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encerramento: Option<Encerramento>,
}

/// The body posted to `{webhookUrl}/cobr`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CobrCallback {
    #[serde(default, deserialize_with = "lenient_vec")]
    pub cobsr: Vec<CobrNotification>,
}

impl From<&RecCompleta> for RecNotification {
    fn from(rec: &RecCompleta) -> Self {
        Self {
            id_rec: rec.id_rec.clone(),
            status: Some(rec.status),
            atualizacao: rec.atualizacao.clone(),
            encerramento: rec.encerramento.clone(),
            ativacao: rec.ativacao.clone(),
        }
    }
}

impl From<&CobrCompleta> for CobrNotification {
    fn from(cobr: &CobrCompleta) -> Self {
        Self {
            txid: cobr.txid.clone(),
            id_rec: Some(cobr.id_rec.clone()),
            status: Some(cobr.status),
            atualizacao: cobr.atualizacao.clone(),
            tentativas: cobr.tentativas.clone(),
            pix: cobr.pix.clone(),
            encerramento: cobr.encerramento.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// API Pix 2.9.0 `recBody1` (journey 3) and `recBody2`, as written.
    #[test]
    fn the_standards_rec_requests_read_and_write_back_exactly() {
        let body1 = json!({
            "vinculo": {"contrato": "63100862", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"},
                        "objeto": "Serviço de Streamming de Música."},
            "calendario": {"dataFinal": "2025-04-01", "dataInicial": "2024-04-01", "periodicidade": "MENSAL"},
            "valor": {"valorRec": "35.00"},
            "politicaRetentativa": "NAO_PERMITE",
            "loc": 108,
            "ativacao": {"dadosJornada": {"txid": "33beb661beda44a8928fef47dbeb2dc5"}}
        });
        let rec: RecSolicitada = serde_json::from_value(body1.clone()).unwrap();
        assert_eq!(rec.loc.as_deref(), Some("108"));
        assert_eq!(rec.valor.valor_rec.unwrap().centavos(), 3500);
        assert_eq!(rec.politica_retentativa, PoliticaRetentativa::NaoPermite);
        assert_eq!(
            rec.ativacao.as_ref().unwrap().txid(),
            Some("33beb661beda44a8928fef47dbeb2dc5")
        );
        assert_eq!(
            rec.vinculo.devedor.documento,
            Documento::Cpf("45164632481".into())
        );
        assert_eq!(serde_json::to_value(&rec).unwrap(), body1);

        let body2 = json!({
            "vinculo": {"contrato": "998782003", "devedor": {"cpf": "02989131415", "nome": "Beltrano da Silva"},
                        "objeto": "Serviço de Plano de Saúde."},
            "calendario": {"dataInicial": "2024-10-10", "periodicidade": "ANUAL"},
            "valor": {"valorMinimoRecebedor": "5000.00"},
            "politicaRetentativa": "PERMITE_3R_7D"
        });
        let rec: RecSolicitada = serde_json::from_value(body2.clone()).unwrap();
        assert_eq!(rec.calendario.periodicidade, Periodicidade::Anual);
        assert_eq!(rec.loc, None);
        assert_eq!(serde_json::to_value(&rec).unwrap(), body2);
    }

    #[test]
    fn a_request_built_in_code_is_the_standards_json() {
        let rec = RecSolicitada {
            vinculo: Vinculo {
                objeto: Some("Plano mensal".into()),
                contrato: "contract-42".into(),
                devedor: Devedor {
                    documento: Documento::Cnpj("12ABC34501DE35".into()),
                    nome: "Empresa X".into(),
                },
            },
            calendario: CalendarioRec {
                data_inicial: "2026-01-10".into(),
                data_final: None,
                periodicidade: Periodicidade::Mensal,
            },
            valor: ValorRec {
                valor_rec: Amount::from_centavos(4990),
                valor_minimo_recebedor: None,
            },
            politica_retentativa: PoliticaRetentativa::Permite3R7D,
            loc: Some("17".into()),
            ativacao: None,
            recebedor: Some(RecRecebedor {
                convenio: Some("Master".into()),
                ..RecRecebedor::default()
            }),
        };
        assert_eq!(
            serde_json::to_value(&rec).unwrap(),
            json!({
                "vinculo": {"objeto": "Plano mensal", "contrato": "contract-42",
                            "devedor": {"cnpj": "12ABC34501DE35", "nome": "Empresa X"}},
                "calendario": {"dataInicial": "2026-01-10", "periodicidade": "MENSAL"},
                "valor": {"valorRec": "49.90"},
                "politicaRetentativa": "PERMITE_3R_7D",
                "loc": 17,
                "recebedor": {"convenio": "Master"}
            })
        );
        assert_eq!(
            serde_json::to_value(RecRevisada::cancelar()).unwrap(),
            json!({"status": "CANCELADA"})
        );
        assert_eq!(
            serde_json::to_value(CobrRevisada::cancelar()).unwrap(),
            json!({"status": "CANCELADA"})
        );
        assert_eq!(
            serde_json::to_value(SolicRecRevisada::cancelar()).unwrap(),
            json!({"status": "CANCELADA"})
        );
        assert_eq!(
            serde_json::to_value(LocRecSolicitada::default()).unwrap(),
            json!({"tipo": "rec"})
        );
    }

    /// `recResponse1` (its `atualizacao` says `nome` for `status`, and its `tipoJornada` sits
    /// inside `dadosJornada`), `recResponse3` (journey 2 with `dadosQR`, `pagador`) and
    /// `recResponse5` (cancelled by the receiver).
    #[test]
    fn the_standards_recurrences_read() {
        let response1 = json!({
            "idRec": "RN1234567820240115abcdefghijk",
            "vinculo": {"contrato": "63100862", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"},
                        "objeto": "Serviço de Streamming de Música."},
            "calendario": {"dataFinal": "2025-04-01", "dataInicial": "2024-04-01", "periodicidade": "MENSAL"},
            "politicaRetentativa": "NAO_PERMITE",
            "recebedor": {"cnpj": "01602606113708", "nome": "Empresa de Serviços SA"},
            "valor": {"valorRec": "35.00"},
            "status": "CRIADA",
            "loc": {"criacao": "2023-12-10T07:10:05.115Z", "id": 108,
                    "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002",
                    "idRec": "RN1234567820240115abcdefghijk"},
            "ativacao": {"dadosJornada": {"tipoJornada": "JORNADA_3", "txid": "33beb661beda44a8928fef47dbeb2dc5"}},
            "atualizacao": [{"data": "2023-12-19T12:28:05.230Z", "nome": "CRIADA"}]
        });
        let rec: RecCompleta = serde_json::from_value(response1).unwrap();
        assert_eq!(rec.status, RecStatus::Criada);
        assert_eq!(rec.loc.as_ref().unwrap().id, "108");
        assert_eq!(
            rec.ativacao.as_ref().unwrap().jornada(),
            Some(TipoJornada::Jornada3)
        );
        assert_eq!(rec.atualizacao[0].status, RecStatus::Criada);
        assert_eq!(rec.politica(), Some(PoliticaRetentativa::NaoPermite));

        let response3 = json!({
            "idRec": "RN1234567820240115abcdefghijk", "status": "APROVADA",
            "valor": {"valorRec": "300.00"},
            "vinculo": {"contrato": "98625023", "devedor": {"cpf": "87734514122", "nome": "Fulano de Tal"},
                        "objeto": "Serviços de Gestão de Imóveis"},
            "calendario": {"dataFinal": "2028-09-01", "dataInicial": "2024-02-01", "periodicidade": "MENSAL"},
            "politicaRetentativa": "NAO_PERMITE",
            "loc": {"criacao": "2023-12-19T12:28:05.230Z", "id": 5100,
                    "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002",
                    "idRec": "RN1234567820240115abcdefghijk"},
            "pagador": {"codMun": "2673833", "cpf": "75633122216", "ispbParticipante": "81102623"},
            "recebedor": {"cnpj": "92221288310574", "nome": "Imobiliária Bom Sucesso"},
            "atualizacao": [{"data": "2024-01-03T08:30:02.050Z", "nome": "CRIADA"},
                            {"data": "2024-01-04T09:40:42.210Z", "nome": "APROVADA"}],
            "dadosQR": {"jornada": "JORNADA_2",
                        "pixCopiaECola": "00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9"}
        });
        let rec: RecCompleta = serde_json::from_value(response3).unwrap();
        assert_eq!(
            rec.dados_qr.as_ref().unwrap().jornada,
            TipoJornada::Jornada2
        );
        assert_eq!(
            rec.pagador.as_ref().unwrap().ispb_participante.as_deref(),
            Some("81102623")
        );

        let response5 = json!({
            "idRec": "RR1026652320240821lab77511abf", "status": "CANCELADA",
            "valor": {"valorMinimoRecebedor": "800.00"},
            "vinculo": {"contrato": "298620560", "devedor": {"cpf": "12600511100", "nome": "Sebastião Silva"},
                        "objeto": "Faculdade de Engenharia"},
            "calendario": {"dataFinal": "2027-09-01", "dataInicial": "2024-10-01", "periodicidade": "MENSAL"},
            "politicaRetentativa": "PERMITE_3R_7D",
            "recebedor": {"cnpj": "61593007802371", "nome": "Universidade Brasileira"},
            "encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR",
                                              "descricao": "Cancelamento solicitado pelo usuário recebedor"}},
            "atualizacao": [{"data": "2024-08-03T08:30:02.050Z", "nome": "CRIADA"}],
            "ativacao": {"tipoJornada": "JORNADA_1"}
        });
        let rec: RecCompleta = serde_json::from_value(response5).unwrap();
        let cancelamento = rec.encerramento.unwrap().cancelamento.unwrap();
        assert_eq!(cancelamento.solicitante, Solicitante::UsuarioRecebedor);
        assert_eq!(cancelamento.codigo, "SLCR");
    }

    #[test]
    fn unknown_statuses_fields_and_old_names_do_not_fail_a_body() {
        let rec: RecCompleta = serde_json::from_value(json!({
            "idRec": "RRA1B2C3D420250901abcdefghijk",
            "vinculo": {"contrato": "1", "devedor": {"cnpj": "12ABC34501DE35", "nome": "X"}},
            "calendario": {"dataInicial": "2025-10-01", "periodicidade": "MENSAL"},
            "status": "SUSPENSA",
            "umCampoNovo": {"a": 1},
            "encerramento": {"cancelamento": {"solicitante": "CANCELADA_PELO_PSP_PAGADOR", "codigo": "FRUD"}},
            "ativacao": {"tipoJornada": "JORNADA_9"},
            "loc": {"id": "a1b2", "location": "psp.example.com/rec/1"}
        }))
        .unwrap();
        assert_eq!(rec.status, RecStatus::Unknown);
        assert_eq!(rec.politica(), Some(PoliticaRetentativa::Permite3R7D));
        assert_eq!(
            rec.encerramento.unwrap().cancelamento.unwrap().solicitante,
            Solicitante::PspPagador
        );
        assert_eq!(rec.ativacao.unwrap().jornada(), Some(TipoJornada::Unknown));
        let loc = rec.loc.unwrap();
        assert_eq!(loc.id, "a1b2");
        // A text id is written back as text, a numeric one as the standard's number.
        assert_eq!(serde_json::to_value(&loc).unwrap()["id"], json!("a1b2"));
        let numeric: LocRec = serde_json::from_value(
            json!({"id": "12069", "location": "pix.example.com/qr/v2/rec/1"}),
        )
        .unwrap();
        assert_eq!(serde_json::to_value(&numeric).unwrap()["id"], json!(12069));
        assert!(
            serde_json::from_value::<LocRec>(json!({"id": 1.5, "location": "x"})).is_err(),
            "a fractional id is no id"
        );

        // payloadLocationRecResponse1.
        let loc: LocRec = serde_json::from_value(json!({
            "id": 12069, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002",
            "criacao": "2023-12-20T12:38:28.774Z", "idRec": "RR123456782024011510056892226"
        }))
        .unwrap();
        assert_eq!(loc.id, "12069");
        assert_eq!(loc.id_rec.as_deref(), Some("RR123456782024011510056892226"));

        for status in ["PAUSADA", "CRIADA"] {
            let cobr: CobrStatus = serde_json::from_value(json!(status)).unwrap();
            assert_eq!(cobr == CobrStatus::Unknown, status == "PAUSADA");
        }
    }

    /// 2.7.0-RC1's recurring charge: `dataVencimento`, a bare `valor`, `dadosDevedor`,
    /// `contaRecebedor`, `dataCriacao`.
    #[test]
    fn a_recurring_charge_of_2_7_0_rc1_reads() {
        let cobr: CobrCompleta = serde_json::from_value(json!({
            "idRec": "RR1234567820240115abcdefghijk",
            "txid": "3136957d93134f2184b369e8f1c0729d",
            "calendario": {"dataCriacao": "2024-04-01", "dataVencimento": "2024-04-15"},
            "valor": "106.07",
            "status": "CRIADA",
            "ajusteDiaUtil": false,
            "dadosDevedor": {"cep": "89256140", "cidade": "Uberlândia"},
            "contaRecebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}
        }))
        .unwrap();
        assert_eq!(cobr.valor.original.centavos(), 10_607);
        assert_eq!(cobr.calendario.criacao.as_deref(), Some("2024-04-01"));
        assert_eq!(cobr.calendario.data_de_vencimento, "2024-04-15");
        assert_eq!(cobr.devedor.unwrap().cep.as_deref(), Some("89256140"));
        assert_eq!(cobr.recebedor.unwrap().tipo_conta, TipoConta::Corrente);
        let request: CobrSolicitada = serde_json::from_value(json!({
            "idRec": "RR1234567820240115abcdefghijk",
            "calendario": {"dataVencimento": "2024-04-15"},
            "valor": "106.07",
            "contaRecebedor": {"conta": "012682", "tipoConta": "PAGAMENTO"}
        }))
        .unwrap();
        assert!(request.ajuste_dia_util, "default true since 2.7.0");
        assert_eq!(request.valor.original.centavos(), 10_607);
    }

    /// `cobRBody1` reads and writes back exactly; `cobRResponse3` (a rejected-then-retried
    /// charge) and `cobRResponse4` (`tipoConta: POUPANÇA`) read.
    #[test]
    fn the_standards_recurring_charges_read() {
        let body1 = json!({
            "idRec": "RR1234567820240115abcdefghijk",
            "infoAdicional": "Serviços de Streamming de Música e Filmes.",
            "calendario": {"dataDeVencimento": "2024-04-15"},
            "valor": {"original": "106.07"},
            "ajusteDiaUtil": true,
            "devedor": {"cep": "89256-140", "cidade": "Uberlândia", "email": "sebastiao.tavares@mail.com",
                        "logradouro": "Alameda Franco 1056", "uf": "MG"},
            "recebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}
        });
        let request: CobrSolicitada = serde_json::from_value(body1.clone()).unwrap();
        assert_eq!(serde_json::to_value(&request).unwrap(), body1);

        let response3: CobrCompleta = serde_json::from_value(json!({
            "idRec": "RR123456782024061999000566354", "txid": "7f733863543b4a16b516d839bd4bc34e",
            "calendario": {"criacao": "2024-05-20", "dataDeVencimento": "2024-06-20"},
            "valor": {"original": "50.33"}, "status": "ATIVA", "politicaRetentativa": "PERMITE_3R_7D",
            "ajusteDiaUtil": true,
            "devedor": {"cep": "63259-740", "cidade": "Campinas", "email": "beltrano.silva@mail.com",
                        "logradouro": "Rua Gonçalves Dias 605", "uf": "SP"},
            "recebedor": {"cnpj": "58966551101210", "conta": "997182", "tipoConta": "CORRENTE"},
            "tentativas": [
                {"dataLiquidacao": "2024-06-22", "tipo": "AGND", "endToEndId": "E12345678202406201221abcdef12345", "status": "EXPIRADA"},
                {"dataLiquidacao": "2024-06-24", "tipo": "NTAG", "endToEndId": "E12345678202406201221abcdef12345", "status": "AGENDADA"}
            ],
            "atualizacao": [{"data": "2024-05-20T14:47:29.470Z", "status": "CRIADA"},
                            {"data": "2024-05-21T10:18:20.120Z", "status": "ATIVA"}]
        }))
        .unwrap();
        assert_eq!(response3.status, CobrStatus::Ativa);
        assert_eq!(response3.tentativas.len(), 2);
        assert_eq!(response3.tentativas[1].status, TentativaStatus::Agendada);
        assert_eq!(response3.tentativas[1].tipo.as_deref(), Some("NTAG"));
        assert!(response3.pix.is_empty());

        let response4: CobrCompleta = serde_json::from_value(json!({
            "idRec": "RN985156112024071999000566354", "txid": "517bd858b59d458a841280b0f0a60bfa",
            "calendario": {"criacao": "2024-05-20", "dataDeVencimento": "2024-06-20"},
            "valor": {"original": "210.00"}, "status": "CANCELADA", "politicaRetentativa": "NAO_PERMITE",
            "recebedor": {"cnpj": "31166575201770", "conta": "107262", "nome": "Empresa de Telecomunicações SA",
                          "tipoConta": "POUPANÇA"},
            "tentativas": [{"dataLiquidacao": "2024-06-20", "tipo": "AGND",
                            "endToEndId": "E12345678202406201221abcdef12345", "status": "CANCELADA"}],
            "encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR",
                                              "descricao": "Cancelamento de agendamento solicitado pelo usuário recebedor"}}
        }))
        .unwrap();
        assert_eq!(
            response4.recebedor.as_ref().unwrap().tipo_conta,
            TipoConta::Poupanca
        );
        assert_eq!(response4.status, CobrStatus::Cancelada);
    }

    /// `recWebhookNotification1` and `cobRWebhookNotification1` (with `dataLiquidacao:
    /// '2024-20-08'`); a notification missing what RecNotification's `required` lists
    /// (`atualizacao"` with its stray quote, `status`) reads with its id alone.
    #[test]
    fn callbacks_need_only_their_ids() {
        let recs: RecCallback = serde_json::from_value(json!({"recs": [{
            "idRec": "RR1026652320240821lab77511abf", "status": "APROVADA",
            "atualizacao": [{"status": "CRIADA", "data": "2024-08-20T10:12:07.567Z"},
                            {"status": "APROVADA", "data": "2024-08-22T12:43:53.337Z"}],
            "ativacao": {"tipoJornada": "JORNADA_3", "dadosJornada": {"txid": "r9eFIFmwcZ55Nm4RsKZAAtIvvCrlcNN6"}}
        }]}))
        .unwrap();
        assert_eq!(recs.recs[0].status, Some(RecStatus::Aprovada));
        assert_eq!(recs.recs[0].atualizacao.len(), 2);

        for body in [
            json!({"recs": [{"idRec": "RR1026652320240821lab77511abf"}]}),
            json!({"recs": [{"idRec": "RR1026652320240821lab77511abf", "atualizacao\"": []}]}),
            json!({"recs": [{"idRec": "RR1026652320240821lab77511abf", "status": "NOVA",
                             "atualizacao": [{"status": "CRIADA"}, "junk"]}]}),
        ] {
            let recs: RecCallback = serde_json::from_value(body.clone()).unwrap();
            assert_eq!(recs.recs.len(), 1, "{body}");
            assert_eq!(recs.recs[0].id_rec, "RR1026652320240821lab77511abf");
            assert!(recs.recs[0].atualizacao.is_empty());
        }

        let cobsr: CobrCallback = serde_json::from_value(json!({"cobsr": [{
            "idRec": "RR1234567820240115abcdefghijk", "txid": "3136957d93134f2184b369e8f1c0729d",
            "status": "ATIVA",
            "atualizacao": [{"status": "ATIVA", "data": "2024-08-20T12:34:21.300Z"}],
            "tentativas": [{"dataLiquidacao": "2024-20-08", "tipo": "AGND", "status": "SOLICITADA",
                            "endToEndId": "E12345678202406201221abcdef12345"}]
        }]}))
        .unwrap();
        let cobr = &cobsr.cobsr[0];
        assert_eq!(cobr.tentativas[0].data_liquidacao, "2024-20-08");
        assert_eq!(cobr.tentativas[0].status, TentativaStatus::Solicitada);
        let bare: CobrCallback = serde_json::from_value(
            json!({"cobsr": [{"txid": "3136957d93134f2184b369e8f1c0729d"}]}),
        )
        .unwrap();
        assert_eq!(bare.cobsr[0].status, None);
        assert!(serde_json::from_value::<CobrNotification>(json!({"status": "ATIVA"})).is_err());
    }

    #[test]
    fn solicitations_read_and_write_as_the_standard() {
        // solicRecBody1.
        let body = json!({
            "idRec": "RN123456782024011577825445612",
            "calendario": {"dataExpiracaoSolicitacao": "2023-12-20T12:17:11.926Z"},
            "destinatario": {"agencia": "2569", "conta": "550689", "cpf": "15231470190", "ispbParticipante": "91193552"}
        });
        let request: SolicRecSolicitada = serde_json::from_value(body.clone()).unwrap();
        assert_eq!(
            request.destinatario.documento,
            Documento::Cpf("15231470190".into())
        );
        assert_eq!(serde_json::to_value(&request).unwrap(), body);
        // solicRecResponse2, with its recPayload (not modelled) and a status history.
        let solic: SolicRec = serde_json::from_value(json!({
            "idSolicRec": "SC875116782024021577820565312", "idRec": "RR692350012024051502650081069",
            "calendario": {"dataExpiracaoSolicitacao": "2024-12-15T12:17:11.926Z"},
            "status": "REJEITADA",
            "destinatario": {"agencia": "1179", "conta": "73851", "cpf": "07031470825", "ispbParticipante": "91193552"},
            "atualizacao": [{"data": "2024-12-15T12:18:18.618Z", "status": "CRIADA"},
                            {"data": "2024-12-15T16:18:18.618Z", "status": "ENVIADA"},
                            {"data": "2024-12-16T08:50:18.268Z", "status": "REJEITADA"}],
            "recPayload": {"idRec": "RR692350012024051502650081069"}
        }))
        .unwrap();
        assert_eq!(solic.status, SolicRecStatus::Rejeitada);
        assert_eq!(solic.atualizacao[1].status, SolicRecStatus::Enviada);
        assert!(
            serde_json::from_value::<Destinatario>(json!({
                "conta": "1", "ispbParticipante": "91193552", "cpf": "15231470190", "cnpj": "12345678000195"
            }))
            .is_err()
        );
    }

    #[test]
    fn the_attempt_codes_that_end_a_charge() {
        for code in [
            "AC05", "AM09", "DENC", "DS27", "DTED", "MIDI", "MSUC", "NITX", "RC09",
        ] {
            assert!(attempt_rejection_ends_cobr(code), "{code}");
        }
        for code in ["AM04", "AB10", "AC06", "AM02", "DTNT", "UDEI", "ac05", ""] {
            assert!(!attempt_rejection_ends_cobr(code), "{code}");
        }
    }

    /// What the simulator writes reads back the same.
    #[test]
    fn a_recurring_charge_round_trips() {
        let cobr = CobrCompleta {
            txid: "a".repeat(32),
            id_rec: "RR8765432120260110AbCdEfGhIjK".into(),
            info_adicional: None,
            calendario: CalendarioCobr {
                criacao: Some("2026-01-05".into()),
                data_de_vencimento: "2026-01-10".into(),
            },
            valor: ValorCobr {
                original: Amount::from_centavos(4990).unwrap(),
            },
            status: CobrStatus::Concluida,
            politica_retentativa: Some(PoliticaRetentativa::Permite3R7D),
            ajuste_dia_util: Some(true),
            devedor: None,
            recebedor: Some(ContaRecebedor {
                agencia: Some("0001".into()),
                conta: "123456".into(),
                tipo_conta: TipoConta::Pagamento,
                cnpj: Some("11222333000181".into()),
                nome: Some("PSP SIM RECEBEDOR".into()),
            }),
            tentativas: vec![Tentativa {
                data_liquidacao: "2026-01-10".into(),
                tipo: Some("AGND".into()),
                status: TentativaStatus::Paga,
                end_to_end_id: Some("E12345678202601101200AbCdEfGhIjK".into()),
                rejeicao: None,
                atualizacao: vec![Atualizacao {
                    status: TentativaStatus::Agendada,
                    data: Timestamp::from_unix_ms(1_767_000_000_000),
                }],
            }],
            pix: vec![Pix {
                end_to_end_id: "E12345678202601101200AbCdEfGhIjK".into(),
                txid: Some("a".repeat(32)),
                valor: Amount::from_centavos(4990).unwrap(),
                chave: None,
                horario: Timestamp::from_unix_ms(1_767_000_000_000),
                info_pagador: None,
                componentes_valor: None,
                devolucoes: vec![],
            }],
            encerramento: None,
            atualizacao: vec![Atualizacao {
                status: CobrStatus::Ativa,
                data: Timestamp::from_unix_ms(1_767_000_000_000),
            }],
        };
        let value = serde_json::to_value(&cobr).unwrap();
        assert_eq!(value["valor"], json!({"original": "49.90"}));
        assert_eq!(value["recebedor"]["tipoConta"], json!("PAGAMENTO"));
        let again: CobrCompleta = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(again, cobr);
        let notification = CobrNotification::from(&cobr);
        let callback = serde_json::to_value(CobrCallback {
            cobsr: vec![notification.clone()],
        })
        .unwrap();
        let read: CobrCallback = serde_json::from_value(callback).unwrap();
        assert_eq!(read.cobsr[0], notification);
    }
}
