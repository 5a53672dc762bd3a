//! `cobv`, the charge with a due date (API Pix 2.1.0 on, unchanged in substance since 2.6.3),
//! and `lotecobv`, its batches: the wire types of `PUT|GET|PATCH /cobv/{txid}`,
//! `PUT|GET /lotecobv/{id}`, and the payer PSP's `GET /cobv/{pixUrlAccessToken}`.
//!
//! Read leniently as [`super::CobCompleta`] is: fields the standard requires but that PSPs are
//! known to leave out (`loc`, `location`, `recebedor`) are optional here, and the ones pixgate
//! never reads (`recebedor`) are kept as JSON.

use serde::{Deserialize, Serialize};

use super::{Amount, CobStatus, Devedor, InfoAdicional, Loc, Pix, Problema, Timestamp, Txid};

/// `validadeAposVencimento` when absent: 30 days (API Pix 2.2.0 on).
pub const DEFAULT_VALIDADE_APOS_VENCIMENTO: u32 = 30;

fn default_validade() -> u32 {
    DEFAULT_VALIDADE_APOS_VENCIMENTO
}

/// `calendario` of a `cobv` request (`CobDataDeVencimento`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioCobVSolicitado {
    /// `YYYY-MM-DD`.
    pub data_de_vencimento: String,
    /// Calendar days after the due date in which the charge may still be paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validade_apos_vencimento: Option<u32>,
}

/// `calendario` of a created `cobv`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioCobV {
    pub criacao: Timestamp,
    /// `YYYY-MM-DD`.
    pub data_de_vencimento: String,
    #[serde(default = "default_validade")]
    pub validade_apos_vencimento: u32,
}

/// `devedor` of a `cobv` (`DadosDevedor`): the payer's document and name, with the optional
/// e-mail and address (`DadosComplementaresPessoa`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DevedorCobV {
    #[serde(flatten)]
    pub pessoa: Devedor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// At most 200 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logradouro: Option<String>,
    /// At most 200 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cidade: Option<String>,
    /// Two letters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uf: Option<String>,
    /// Eight digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cep: Option<String>,
}

/// A rule of `valor` (`multa`, `juros`, `abatimento`): its `modalidade` in the standard's
/// table and `valorPerc`, an amount or a percentage with two decimals as the modality says
/// (`"2.50"` is R$ 2.50 or 2.50 %, both carried as 250 hundredths).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Modalidade {
    pub modalidade: u8,
    pub valor_perc: Amount,
}

/// One of `desconto.descontoDataFixa`: a discount granted up to `data` (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DescontoDataFixa {
    pub data: String,
    pub valor_perc: Amount,
}

/// `valor.desconto`: modalities 1 and 2 carry `descontoDataFixa` (1 to 3 dates), 3 to 6 a
/// `valorPerc` per day early.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Desconto {
    pub modalidade: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub desconto_data_fixa: Vec<DescontoDataFixa>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valor_perc: Option<Amount>,
}

/// `valor` of a `cobv` (`CobVValor`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobVValor {
    pub original: Amount,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multa: Option<Modalidade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub juros: Option<Modalidade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abatimento: Option<Modalidade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desconto: Option<Desconto>,
}

/// The body of `PUT /cobv/{txid}` (`CobVSolicitada`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobVSolicitada {
    pub calendario: CalendarioCobVSolicitado,
    /// Required by the standard's schema for a request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devedor: Option<DevedorCobV>,
    pub valor: CobVValor,
    /// The receiver's pix key at this PSP.
    pub chave: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solicitacao_pagador: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info_adicionais: Vec<InfoAdicional>,
}

/// A `cobv` as the PSP keeps it: the answer of `GET /cobv/{txid}` (`CobVCompleta`), and of
/// `PUT`/`PATCH` (`CobVGerada`, the same object without pix received).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CobVCompleta {
    pub calendario: CalendarioCobV,
    pub txid: Txid,
    pub revisao: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loc: Option<Loc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    pub status: CobStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devedor: Option<DevedorCobV>,
    /// The receiver (`DadosRecebedor`), which pixgate does not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recebedor: Option<serde_json::Value>,
    pub valor: CobVValor,
    pub chave: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solicitacao_pagador: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info_adicionais: Vec<InfoAdicional>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix_copia_e_cola: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pix: Vec<Pix>,
}

/// One `cobv` of a batch request: its txid and its request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoteCobVItem {
    pub txid: Txid,
    #[serde(flatten)]
    pub cobv: CobVSolicitada,
}

/// The body of `PUT /lotecobv/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoteCobVSolicitado {
    pub descricao: String,
    pub cobsv: Vec<LoteCobVItem>,
}

/// How far the PSP got with one `cobv` of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LoteItemStatus {
    EmProcessamento,
    Criada,
    Negada,
}

/// One `cobv` of a batch as `GET /lotecobv/{id}` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoteCobVItemStatus {
    pub txid: Txid,
    pub status: LoteItemStatus,
    /// Why it was denied (`NEGADA`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problema: Option<Problema>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criacao: Option<Timestamp>,
}

/// The answer of `GET /lotecobv/{id}` (`LoteCobVConsultado`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoteCobVConsultado {
    pub id: i64,
    pub descricao: String,
    pub criacao: Timestamp,
    pub cobsv: Vec<LoteCobVItemStatus>,
}

/// A part of a pix's `valor` (`componentesValor.original`, `.multa`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Componente {
    pub valor: Amount,
}

/// `componentesValor` of a pix: what its `valor` is made of (`original + multa + juros -
/// abatimento - desconto`, over the parts present, for a `cobv`). `saque` and `troco` (Pix
/// Saque and Pix Troco) are kept for the sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ComponentesValor {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<Componente>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saque: Option<Componente>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub troco: Option<Componente>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multa: Option<Componente>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub juros: Option<Componente>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abatimento: Option<Componente>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desconto: Option<Componente>,
}

impl ComponentesValor {
    /// The `valor` the parts add up to, in centavos; `None` below zero.
    pub fn sum_centavos(&self) -> Option<u64> {
        let part = |c: Option<Componente>| c.map_or(0, |c| i128::from(c.valor.centavos()));
        let sum = part(self.original)
            + part(self.saque)
            + part(self.troco)
            + part(self.multa)
            + part(self.juros)
            - part(self.abatimento)
            - part(self.desconto);
        u64::try_from(sum).ok()
    }
}

/// `valor` of the payer PSP's view of a `cobv` on a date (`GET /cobv/{pixUrlAccessToken}`):
/// the amounts for that date, `final` the one to pay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValorNaData {
    pub original: Amount,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multa: Option<Amount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub juros: Option<Amount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abatimento: Option<Amount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desconto: Option<Amount>,
    #[serde(rename = "final")]
    pub final_: Amount,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_cobv_reads_and_writes_as_the_standard_shows_it() {
        // API Pix 2.9.0, `cobvPayload1`-like: a due date, a fine, interest and a discount.
        let body = json!({
            "calendario": {"criacao": "2020-09-09T20:15:00.358Z", "dataDeVencimento": "2020-12-31",
                           "validadeAposVencimento": 30},
            "txid": "7978c0c97ea847e78e8849634473c1f1",
            "revisao": 0,
            "loc": {"id": 789, "location": "pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25", "tipoCob": "cobv"},
            "status": "ATIVA",
            "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva", "logradouro": "Rua 15, Numero 1",
                        "cidade": "Uberlândia", "uf": "MG", "cep": "99000750"},
            "recebedor": {"cnpj": "56989000019533", "nome": "Empresa X", "logradouro": "Rua 1", "cidade": "Uberlândia", "uf": "MG", "cep": "38400000"},
            "valor": {"original": "567.89",
                      "multa": {"modalidade": 2, "valorPerc": "15.00"},
                      "juros": {"modalidade": 2, "valorPerc": "2.00"},
                      "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2020-11-30", "valorPerc": "30.00"}]}},
            "chave": "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
            "solicitacaoPagador": "Cobrança dos serviços prestados."
        });
        let cobv: CobVCompleta = serde_json::from_value(body.clone()).unwrap();
        assert_eq!(cobv.calendario.data_de_vencimento, "2020-12-31");
        assert_eq!(cobv.valor.multa.unwrap().valor_perc.centavos(), 1500);
        assert_eq!(
            cobv.valor
                .desconto
                .as_ref()
                .unwrap()
                .desconto_data_fixa
                .len(),
            1
        );
        let devedor = cobv.devedor.as_ref().unwrap();
        assert_eq!(devedor.pessoa.nome, "Francisco da Silva");
        assert_eq!(devedor.uf.as_deref(), Some("MG"));
        assert_eq!(serde_json::to_value(&cobv).unwrap(), body);
    }

    #[test]
    fn validity_defaults_to_thirty_days() {
        let calendario: CalendarioCobV = serde_json::from_value(
            json!({"criacao": "2020-09-09T20:15:00Z", "dataDeVencimento": "2020-12-31"}),
        )
        .unwrap();
        assert_eq!(calendario.validade_apos_vencimento, 30);
    }

    #[test]
    fn the_components_add_up_as_the_standard_says() {
        // API Pix 2.9.0 `componentesValor`: R$ 100 two days late, a 3 % fine, 1 % a day.
        let parts: ComponentesValor = serde_json::from_value(json!({
            "original": {"valor": "100.00"}, "multa": {"valor": "3.00"}, "juros": {"valor": "2.00"}
        }))
        .unwrap();
        assert_eq!(parts.sum_centavos(), Some(10_500));
        let saque: ComponentesValor = serde_json::from_value(json!({
            "saque": {"valor": "100.00", "modalidadeAgente": "AGPSS", "prestadorDeServicoDeSaque": "12345678"}
        }))
        .unwrap();
        assert_eq!(saque.sum_centavos(), Some(10_000));
        let negative: ComponentesValor = serde_json::from_value(json!({
            "original": {"valor": "1.00"}, "desconto": {"valor": "2.00"}
        }))
        .unwrap();
        assert_eq!(negative.sum_centavos(), None);
    }

    #[test]
    fn a_batch_reads_per_item() {
        let lote: LoteCobVConsultado = serde_json::from_value(json!({
            "id": 1234, "descricao": "Cobranças dos alunos", "criacao": "2020-11-01T20:15:00.358Z",
            "cobsv": [
                {"txid": "fb2761260e554ad593c7226beb5cb650", "status": "CRIADA", "criacao": "2020-11-01T20:15:00.358Z"},
                {"txid": "7978c0c97ea847e78e8849634473c1f1", "status": "NEGADA",
                 "problema": {"type": "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida",
                              "title": "Cobrança inválida.", "status": 400,
                              "detail": "A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o schema ou está semanticamente errada.",
                              "violacoes": [{"razao": "O objeto cobv.devedor não respeita o schema.", "propriedade": "cobv.devedor"}]}}
            ]
        }))
        .unwrap();
        assert_eq!(lote.id, 1234);
        assert_eq!(lote.cobsv[1].status, LoteItemStatus::Negada);
        assert!(lote.cobsv[1].problema.is_some());
    }
}
