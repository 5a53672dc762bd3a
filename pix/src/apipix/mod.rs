//! The wire types of the Central Bank's API Pix (bacen/pix-api, v2.x), for the subset pixgate
//! relies on (DESIGN §10): OAuth2 token, immediate charges (`/cob/{txid}`), webhook
//! registration (`/webhook/{chave}`) and the callback it triggers.
//! Pix Automático (`rec.rs`): `/locrec`, `/rec`, `/solicrec`, `/cobr` and its retries, the
//! `/webhookrec` and `/webhookcobr` registrations and the callbacks they trigger.
//!
//! They live apart from the PSP client and the simulator so both speak exactly the same JSON:
//! field names are the standard's, and a difference between what pixgate sends and what the
//! simulator accepts would otherwise hide a bug from every test. Reading is lenient where real
//! PSPs differ (unknown fields are ignored, optional parts of the standard are optional here);
//! values that pixgate settles money on are strict: amounts are `"d.dd"` strings read into
//! integer centavos ([`Amount`]) and timestamps RFC 3339 read into Unix milliseconds
//! ([`Timestamp`]), so nothing downstream parses the wire again.

mod cobv;
mod rec;
mod txid;

use serde::{Deserialize, Serialize};

use crate::time::{iso8601, parse_iso8601};

pub use cobv::{
    CalendarioCobV, CalendarioCobVSolicitado, CobVCompleta, CobVSolicitada, CobVValor, Componente,
    ComponentesValor, DEFAULT_VALIDADE_APOS_VENCIMENTO, Desconto, DescontoDataFixa, DevedorCobV,
    LoteCobVConsultado, LoteCobVItem, LoteCobVItemStatus, LoteCobVSolicitado, LoteItemStatus,
    Modalidade, ValorNaData,
};
pub use rec::{
    Atualizacao, COBR_ENDING_REJECTIONS, CalendarioCobr, CalendarioCobrSolicitado, CalendarioRec,
    CalendarioRevisado, CalendarioSolicRec, Cancelamento, CobrCallback, CobrCompleta,
    CobrNotification, CobrRevisada, CobrSolicitada, CobrStatus, ContaRecebedor, DadosJornada,
    DadosQr, Destinatario, DevedorCobr, Encerramento, LocRec, LocRecSolicitada, NomeDevedor,
    Periodicidade, PoliticaRetentativa, RecAtivacao, RecCallback, RecCompleta, RecNotification,
    RecPagador, RecRecebedor, RecRevisada, RecSolicitada, RecStatus, Rejeicao, SolicRec,
    SolicRecRevisada, SolicRecSolicitada, SolicRecStatus, Solicitante, Tentativa, TentativaStatus,
    TipoConta, TipoJornada, ValorCobr, ValorRec, Vinculo, VinculoRevisado, WebhookRecCompleto,
    attempt_rejection_ends_cobr,
};
pub use txid::{Txid, devolucao_id_for, txid_for};

/// What a value of the API Pix can be wrong about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiPixError {
    #[error("txid must be 26 to 35 characters of a-z, A-Z, 0-9")]
    InvalidTxid,
    #[error("an amount must be 1 to 10 digits, a point and 2 digits (\"d.dd\")")]
    InvalidAmount,
    #[error("a timestamp must be an RFC 3339 date-time")]
    InvalidTimestamp,
    #[error("devedor needs exactly one of cpf and cnpj, and nome")]
    InvalidDevedor,
}

/// An amount in integer centavos; `"d.dd"` on the wire (`\d{1,10}\.\d{2}` in the standard).
///
/// Zero is representable because the standard allows it (Pix Saque); a charge's own rules
/// (at least R$ 0.01) are checked by whoever creates the charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Amount(u64);

impl Amount {
    /// The largest amount the wire format can carry: 9,999,999,999.99.
    pub const MAX_CENTAVOS: u64 = 999_999_999_999;

    pub fn from_centavos(centavos: u64) -> Option<Self> {
        (centavos <= Self::MAX_CENTAVOS).then_some(Self(centavos))
    }

    pub fn centavos(self) -> u64 {
        self.0
    }

    /// Reads `"d.dd"` exactly: no sign, no exponent, no other number of decimals, so an
    /// amount is never rounded on its way in.
    pub fn parse(text: &str) -> Result<Self, ApiPixError> {
        let (units, cents) = text.split_once('.').ok_or(ApiPixError::InvalidAmount)?;
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !(1..=10).contains(&units.len()) || cents.len() != 2 || !digits(units) || !digits(cents)
        {
            return Err(ApiPixError::InvalidAmount);
        }
        let units: u64 = units.parse().map_err(|_| ApiPixError::InvalidAmount)?;
        let cents: u64 = cents.parse().map_err(|_| ApiPixError::InvalidAmount)?;
        Ok(Self(units * 100 + cents))
    }
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A point in time, in Unix milliseconds; RFC 3339 on the wire. Written in UTC with
/// milliseconds; read with any offset and up to nanoseconds (kept to the millisecond), as PSPs
/// write them variously.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    pub fn from_unix_ms(ms: i64) -> Self {
        Self(ms)
    }

    pub fn unix_ms(self) -> i64 {
        self.0
    }
}

impl Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&iso8601(self.0))
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        // A bare date is no date-time; parse_iso8601 admits it for the admin API's filters.
        if !text.contains(['T', 't']) {
            return Err(serde::de::Error::custom(ApiPixError::InvalidTimestamp));
        }
        parse_iso8601(&text)
            .map(Self)
            .ok_or_else(|| serde::de::Error::custom(ApiPixError::InvalidTimestamp))
    }
}

/// `CobStatus` (`CobrancaStatus` in the standard): the state of the charge's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CobStatus {
    Ativa,
    Concluida,
    // The standard's own prose spells these `REMOVIDO_...` while its enum says `REMOVIDA_...`;
    // a PSP that copied the prose must still read as removed, not as an unknown status.
    #[serde(alias = "REMOVIDO_PELO_USUARIO_RECEBEDOR")]
    RemovidaPeloUsuarioRecebedor,
    #[serde(alias = "REMOVIDO_PELO_PSP")]
    RemovidaPeloPsp,
}

/// `calendario` of a request: the charge's lifetime in seconds from its creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarioSolicitado {
    /// The standard's default when absent is 86,400 s.
    #[serde(default = "default_expiracao")]
    pub expiracao: u32,
}

fn default_expiracao() -> u32 {
    86_400
}

/// `calendario` of a created charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calendario {
    pub criacao: Timestamp,
    #[serde(default = "default_expiracao")]
    pub expiracao: u32,
}

/// The payer a charge is addressed to: a CPF or a CNPJ, and a name. The standard forbids both
/// documents at once and a name without a document; a value of this type holds exactly one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "DevedorWire", into = "DevedorWire")]
pub struct Devedor {
    pub documento: Documento,
    pub nome: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Documento {
    /// 11 digits.
    Cpf(String),
    /// 14 characters (digits, or the alphanumeric CNPJ).
    Cnpj(String),
}

#[derive(Serialize, Deserialize)]
struct DevedorWire {
    #[serde(skip_serializing_if = "Option::is_none")]
    cpf: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cnpj: Option<String>,
    nome: String,
}

impl TryFrom<DevedorWire> for Devedor {
    type Error = ApiPixError;

    fn try_from(wire: DevedorWire) -> Result<Self, Self::Error> {
        let documento = match (wire.cpf, wire.cnpj) {
            (Some(cpf), None) => Documento::Cpf(cpf),
            (None, Some(cnpj)) => Documento::Cnpj(cnpj),
            _ => return Err(ApiPixError::InvalidDevedor),
        };
        Ok(Self {
            documento,
            nome: wire.nome,
        })
    }
}

impl From<Devedor> for DevedorWire {
    fn from(devedor: Devedor) -> Self {
        let (cpf, cnpj) = match devedor.documento {
            Documento::Cpf(cpf) => (Some(cpf), None),
            Documento::Cnpj(cnpj) => (None, Some(cnpj)),
        };
        Self {
            cpf,
            cnpj,
            nome: devedor.nome,
        }
    }
}

/// `valor` of an immediate charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobValor {
    pub original: Amount,
    /// 1 lets the payer change the amount; absent means 0 (fixed amount).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modalidade_alteracao: Option<u8>,
}

/// One of `infoAdicionais`: a name and a value shown to the payer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoAdicional {
    pub nome: String,
    pub valor: String,
}

/// The body of `PUT /cob/{txid}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobSolicitada {
    pub calendario: CalendarioSolicitado,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devedor: Option<Devedor>,
    pub valor: CobValor,
    /// The receiver's pix key at this PSP.
    pub chave: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solicitacao_pagador: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info_adicionais: Vec<InfoAdicional>,
}

/// The body of `PATCH /cob/{txid}`: the fields to change, or `status`
/// `REMOVIDA_PELO_USUARIO_RECEBEDOR` alone to remove the charge.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobRevisada {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendario: Option<CalendarioSolicitado>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devedor: Option<Devedor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valor: Option<CobValor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chave: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solicitacao_pagador: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CobStatus>,
}

/// `tipoCob` of a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TipoCob {
    Cob,
    Cobv,
}

/// `loc`: where the PSP serves the charge's payload (what a dynamic BR Code points at).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Loc {
    pub id: i64,
    /// Required by the standard, but some of its own examples leave these out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tipo_cob: Option<TipoCob>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criacao: Option<Timestamp>,
}

/// `GET /pix`'s answer (`PixConsultados`): a page of the pix received in a period. The
/// standard's schema requires `cobs` where it defines `pix` (a slip): read as `pix`, absent
/// meaning none; `parametros` absent reads as unknown paging.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixConsultados {
    #[serde(default)]
    pub parametros: ParametrosConsultaPix,
    #[serde(default)]
    pub pix: Vec<Pix>,
}

/// `parametros` of `GET /pix`'s answer: the period asked for and the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParametrosConsultaPix {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inicio: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fim: Option<Timestamp>,
    #[serde(default)]
    pub paginacao: Paginacao,
}

/// The standard's `Paginacao`: which page this is, its size, and how many there are. Each
/// count is optional on reading (a PSP that leaves one out is read by its pages' lengths).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Paginacao {
    #[serde(default)]
    pub pagina_atual: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub itens_por_pagina: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantidade_de_paginas: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantidade_total_de_itens: Option<u64>,
}

/// A pix received for a charge: an element of `pix[]` in a `CobCompleta` and in a callback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pix {
    /// `E` + the payer PSP's 8-digit ISPB + `yyyyMMddHHmm` + 11 characters: 32 in all.
    pub end_to_end_id: String,
    /// 1 to 35 characters here: a pix paid from a static code may carry a short txid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txid: Option<String>,
    pub valor: Amount,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chave: Option<String>,
    pub horario: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info_pagador: Option<String>,
    /// What `valor` is made of: the original amount and, for a `cobv`, its fine, interest,
    /// abatement and discount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub componentes_valor: Option<ComponentesValor>,
    /// The devoluções of this pix so far (refunds asked by the receiver, and the MED's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devolucoes: Vec<Devolucao>,
}

/// Why money of a pix goes back (`natureza`). Absent means [`Natureza::Original`].
///
/// Read leniently: a PSP on a newer version may send a nature this list does not know yet, and a
/// devolução is money that left the receiver's account whatever its nature, so it is kept as
/// [`Natureza::Other`] rather than refused.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Natureza {
    /// Asked by the receiver for a common pix (pacs.004 `MD06`): what a merchant's refund is.
    Original,
    /// A Pix Saque or Troco withdrawal (`SL02`).
    Retirada,
    /// The MED, for an operational failure (`BE08`).
    MedOperacional,
    /// The MED, for a well-founded suspicion of fraud (`FR01`).
    MedFraude,
    /// The MED of Pix Automático (`REFU`).
    MedPixAutomatico,
    Other(String),
}

impl Natureza {
    pub fn as_str(&self) -> &str {
        match self {
            Self::Original => "ORIGINAL",
            Self::Retirada => "RETIRADA",
            Self::MedOperacional => "MED_OPERACIONAL",
            Self::MedFraude => "MED_FRAUDE",
            Self::MedPixAutomatico => "MED_PIX_AUTOMATICO",
            Self::Other(other) => other,
        }
    }

    pub fn parse(text: &str) -> Self {
        match text {
            "ORIGINAL" => Self::Original,
            "RETIRADA" => Self::Retirada,
            "MED_OPERACIONAL" => Self::MedOperacional,
            "MED_FRAUDE" => Self::MedFraude,
            "MED_PIX_AUTOMATICO" => Self::MedPixAutomatico,
            other => Self::Other(other.to_owned()),
        }
    }
}

impl Serialize for Natureza {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Natureza {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self::parse(&String::deserialize(d)?))
    }
}

/// Where a devolução is (`status` of a `Devolucao`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DevolucaoStatus {
    /// Asked, not settled yet: read it again.
    EmProcessamento,
    /// The money went back to the payer.
    Devolvido,
    /// It did not happen; `motivo` says why.
    NaoRealizado,
}

/// The body of `PUT /pix/{e2eid}/devolucao/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DevolucaoSolicitada {
    pub valor: Amount,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natureza: Option<Natureza>,
    /// Shown to the payer (pacs.004 RemittanceInformation): at most 140 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descricao: Option<String>,
}

/// `horario` of a devolução: asked, and settled once it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DevolucaoHorario {
    pub solicitacao: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liquidacao: Option<Timestamp>,
}

/// A devolução as the PSP keeps it: the answer of `PUT` and `GET
/// /pix/{e2eid}/devolucao/{id}`, and an element of a pix's `devolucoes[]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Devolucao {
    /// The receiver's id for it: 1 to 35 of `[a-zA-Z0-9]` ([`devolucao_id_for`]).
    pub id: String,
    /// The SPI's ReturnIdentification (pacs.004): `D` + ISPB + `yyyyMMddHHmm` + 11 characters.
    pub rtr_id: String,
    pub valor: Amount,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natureza: Option<Natureza>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descricao: Option<String>,
    pub horario: DevolucaoHorario,
    pub status: DevolucaoStatus,
    /// Why it was `NAO_REALIZADO`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub motivo: Option<String>,
}

impl Devolucao {
    /// Its nature, `ORIGINAL` when the PSP left it out (as the standard says).
    pub fn natureza(&self) -> Natureza {
        self.natureza.clone().unwrap_or(Natureza::Original)
    }
}

/// Whether `id` may name a devolução: 1 to 35 characters of `[a-zA-Z0-9]`.
pub fn valid_devolucao_id(id: &str) -> bool {
    (1..=35).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A charge as the PSP keeps it: the answer of `GET /cob/{txid}` (`CobCompleta`), and of
/// `PUT`/`PATCH` (`CobGerada`, which is the same object without pix received).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobCompleta {
    pub calendario: Calendario,
    pub txid: Txid,
    pub revisao: u32,
    /// Required by the standard once created, but a PSP that answers before assigning a
    /// location leaves it out; pixgate then has no code to show and must not guess one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loc: Option<Loc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    pub status: CobStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devedor: Option<Devedor>,
    pub valor: CobValor,
    pub chave: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solicitacao_pagador: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info_adicionais: Vec<InfoAdicional>,
    /// The BR Code; versions before 2.x of the standard did not have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix_copia_e_cola: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pix: Vec<Pix>,
}

/// The answer of `PUT` and `PATCH /cob/{txid}`: a [`CobCompleta`] whose `pix[]` is empty
/// unless the charge was already paid.
pub type CobGerada = CobCompleta;

/// The body of `PUT /webhook/{chave}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookSolicitado {
    pub webhook_url: String,
}

/// The answer of `GET /webhook/{chave}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookCompleto {
    pub webhook_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chave: Option<String>,
    pub criacao: Timestamp,
}

/// The body the PSP posts to `{webhookUrl}/pix`: one or more pix received, possibly batched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixCallback {
    pub pix: Vec<Pix>,
}

/// The answer of the OAuth2 token endpoint (client credentials).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: String,
    /// Seconds from now.
    pub expires_in: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

/// The standard's error body (`application/problem+json`, RFC 7807), `Problema`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Problema {
    /// `https://pix.bcb.gov.br/api/v2/error/<Name>`, e.g. `CobNaoEncontrado`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violacoes: Vec<Violacao>,
}

/// One rule a request broke, in a [`Problema`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violacao {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub razao: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub propriedade: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valor: Option<String>,
}

/// The media type of [`Problema`] answers.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The `type` of a [`Problema`] named `name` in the standard.
pub fn problem_type(name: &str) -> String {
    format!("https://pix.bcb.gov.br/api/v2/error/{name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn amounts_are_exact_centavos() {
        assert_eq!(Amount::parse("37.00").unwrap().centavos(), 3700);
        assert_eq!(Amount::parse("0.01").unwrap().centavos(), 1);
        assert_eq!(Amount::parse("0.00").unwrap().centavos(), 0);
        assert_eq!(
            Amount::parse("9999999999.99").unwrap().centavos(),
            Amount::MAX_CENTAVOS
        );
        for bad in [
            "",
            "1",
            "1.0",
            "1.000",
            ".50",
            "-1.00",
            "+1.00",
            "1e2",
            "1,00",
            " 1.00",
            "12345678901.00",
            "1.0a",
        ] {
            assert_eq!(Amount::parse(bad), Err(ApiPixError::InvalidAmount), "{bad}");
        }
        assert_eq!(Amount::from_centavos(12_990).unwrap().to_string(), "129.90");
        assert_eq!(Amount::from_centavos(5).unwrap().to_string(), "0.05");
        assert!(Amount::from_centavos(Amount::MAX_CENTAVOS + 1).is_none());
        assert_eq!(
            serde_json::to_value(Amount::from_centavos(100).unwrap()).unwrap(),
            json!("1.00")
        );
        assert!(serde_json::from_value::<Amount>(json!(1.0)).is_err());
    }

    /// The standard's own example `cobResponse2` (a paid charge, with fields pixgate does not
    /// model: `devolucoes`, `modalidadeAlteracao`) reads, and reads back the same.
    #[test]
    fn the_standards_example_of_a_paid_charge_reads() {
        let body = json!({
            "calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600},
            "txid": "655dfdb1a4514b8fbb58254b958913fb",
            "revisao": 1,
            "loc": {"id": 567, "location": "pix.example.com/qr/1dd7f893a58e417287028dc33e21a403"},
            "location": "pix.example.com/qr/1dd7f893a58e417287028dc33e21a403",
            "status": "CONCLUIDA",
            "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"},
            "valor": {"original": "100.00", "modalidadeAlteracao": 0},
            "chave": "40a0932d-1918-4eee-845d-35a2da1690dc",
            "solicitacaoPagador": "Informar cartão fidelidade",
            "somethingANewVersionAdds": {"x": 1},
            "pix": [{
                "endToEndId": "E1234567820200909122120200808008",
                "txid": "655dfdb1a4514b8fbb58254b958913fb",
                "valor": "110.00",
                "horario": "2020-09-09T20:15:00.358Z",
                "infoPagador": "0123456789",
                "devolucoes": [{"id": "123ABC", "rtrId": "D1234567820200909122120200808006",
                                "valor": "10.00", "horario": {"solicitacao": "2020-09-09T20:15:00.358Z"},
                                "status": "EM_PROCESSAMENTO"}]
            }]
        });
        let cob: CobCompleta = serde_json::from_value(body).unwrap();
        assert_eq!(cob.status, CobStatus::Concluida);
        assert_eq!(cob.valor.original.centavos(), 10_000);
        assert_eq!(cob.pix[0].valor.centavos(), 11_000);
        assert_eq!(cob.calendario.criacao.unix_ms(), 1_599_682_500_358);
        assert_eq!(
            cob.devedor.as_ref().unwrap().documento,
            Documento::Cnpj("12345678000195".into())
        );
        assert_eq!(cob.loc.as_ref().unwrap().tipo_cob, None);
        let again: CobCompleta =
            serde_json::from_value(serde_json::to_value(&cob).unwrap()).unwrap();
        assert_eq!(again, cob);
    }

    #[test]
    fn a_request_is_written_with_the_standards_names() {
        let cob = CobSolicitada {
            calendario: CalendarioSolicitado { expiracao: 3600 },
            devedor: Some(Devedor {
                documento: Documento::Cpf("52998224725".into()),
                nome: "Ana Souza".into(),
            }),
            valor: CobValor {
                original: Amount::from_centavos(12_990).unwrap(),
                modalidade_alteracao: None,
            },
            chave: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906".into(),
            solicitacao_pagador: Some("order-10042".into()),
            info_adicionais: vec![],
        };
        assert_eq!(
            serde_json::to_value(&cob).unwrap(),
            json!({
                "calendario": {"expiracao": 3600},
                "devedor": {"cpf": "52998224725", "nome": "Ana Souza"},
                "valor": {"original": "129.90"},
                "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
                "solicitacaoPagador": "order-10042"
            })
        );
    }

    #[test]
    fn devedor_needs_exactly_one_document() {
        let read = |v| serde_json::from_value::<Devedor>(v);
        assert!(read(json!({"cpf": "52998224725", "nome": "A", "email": "a@b.c"})).is_ok());
        assert!(
            read(json!({"cpf": "52998224725", "cnpj": "12345678000195", "nome": "A"})).is_err()
        );
        assert!(read(json!({"nome": "A"})).is_err());
        assert!(read(json!({"cpf": "52998224725"})).is_err());
    }

    #[test]
    fn statuses_and_their_prose_spelling() {
        let read = |s: &str| serde_json::from_value::<CobStatus>(json!(s));
        assert_eq!(
            read("REMOVIDA_PELO_USUARIO_RECEBEDOR").unwrap(),
            CobStatus::RemovidaPeloUsuarioRecebedor
        );
        assert_eq!(
            read("REMOVIDO_PELO_PSP").unwrap(),
            CobStatus::RemovidaPeloPsp
        );
        assert!(read("PAGA").is_err());
        assert_eq!(
            serde_json::to_value(CobStatus::RemovidaPeloPsp).unwrap(),
            json!("REMOVIDA_PELO_PSP")
        );
    }

    #[test]
    fn timestamps_with_offsets_and_more_digits() {
        let read = |s: &str| serde_json::from_value::<Timestamp>(json!(s)).map(|t| t.unix_ms());
        assert_eq!(
            read("2020-09-09T17:15:00.358123-03:00").unwrap(),
            1_599_682_500_358
        );
        assert_eq!(read("2020-09-09T20:15:00Z").unwrap(), 1_599_682_500_000);
        assert!(read("2020-09-09").is_err());
        assert!(read("yesterday").is_err());
    }

    #[test]
    fn token_and_problem_bodies() {
        let token: TokenResponse = serde_json::from_value(json!({
            "access_token": "abc", "token_type": "Bearer", "expires_in": 3600,
            "refresh_expires_in": 0, "scope": "cob.write cob.read"
        }))
        .unwrap();
        assert_eq!(token.expires_in, 3600);
        let problem: Problema = serde_json::from_value(json!({
            "type": "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
            "title": "Cobrança inválida.", "status": 400,
            "detail": "A requisição que busca alterar ou criar uma cobrança não respeita o schema.",
            "violacoes": [{"razao": "O valor não pode ser 0.00", "propriedade": "cob.valor.original"}]
        }))
        .unwrap();
        assert_eq!(problem.kind, problem_type("CobOperacaoInvalida"));
        assert_eq!(problem.violacoes.len(), 1);
    }
}
