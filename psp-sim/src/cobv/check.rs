//! Reading and checking `cobv` requests against the standard (v2.9.0's `CobVOperacaoInvalida`
//! violations), every violation reported with the property it names (`cobv.valor.multa`).
//! The rules of `valor` are [`super::terms`]'s, as the amount is computed from them.

use serde::Deserialize;

use super::terms::{self, Refusal};
use crate::api::{ApiError, STANDARD_FIELDS, check_standard_shape, from_value, violation};
use pixgate_domain::Money;
use pixgate_domain::due::{Date, DueTerms};
use pixgate_pix::apipix::{
    CalendarioCobVSolicitado, CobStatus, CobVSolicitada, CobVValor, DevedorCobV, Documento,
    InfoAdicional, Violacao,
};

/// The fields of a `cobv` body besides those of a `cob` (`STANDARD_FIELDS`): none may be
/// `null`.
const COBV_FIELDS: &[&str] = &[
    "dataDeVencimento",
    "validadeAposVencimento",
    "multa",
    "juros",
    "abatimento",
    "desconto",
    "modalidade",
    "valorPerc",
    "descontoDataFixa",
    "data",
    "email",
    "logradouro",
    "cidade",
    "uf",
    "cep",
    "loc",
    "txid",
];

/// Where a `cobv` body has objects (serde would also read one from an array).
const COBV_OBJECTS: &[&str] = &[
    "calendario",
    "devedor",
    "valor",
    "valor.multa",
    "valor.juros",
    "valor.abatimento",
    "valor.desconto",
    "valor.desconto.descontoDataFixa[]",
    "loc",
];

/// The body of `PATCH /cobv/{txid}` (`CobVRevisada`): what is sent is changed. `valor`, when
/// sent, is the whole of it (`original` included), as a `cob`'s is here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CobVRevisada {
    pub calendario: Option<CalendarioCobVSolicitado>,
    pub devedor: Option<DevedorCobV>,
    pub valor: Option<CobVValor>,
    pub chave: Option<String>,
    pub solicitacao_pagador: Option<String>,
    pub info_adicionais: Option<Vec<InfoAdicional>>,
    pub status: Option<CobStatus>,
}

fn fields() -> Vec<&'static str> {
    STANDARD_FIELDS.iter().chain(COBV_FIELDS).copied().collect()
}

/// A `cobv` body (of `PUT /cobv/{txid}`, or an item of a batch) read as `T`: shapes first
/// (no `null`, objects where the standard has them), then the type; `loc` is refused (the
/// simulator has no `/loc`, so no location it names exists).
pub(crate) fn parse<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, ApiError> {
    check_standard_shape(
        &value,
        "cobv",
        &fields(),
        COBV_OBJECTS,
        ApiError::invalid_cobv,
    )?;
    if value.get("loc").is_some() {
        return Err(ApiError::invalid_cobv(vec![violation(
            "cobv.loc.id",
            "O location referenciado por cobv.loc.id inexiste.",
        )]));
    }
    from_value(value, "cobv", ApiError::invalid_cobv)
}

fn refused(r: Refusal) -> Violacao {
    violation(&format!("cobv.{}", r.propriedade), r.razao)
}

/// Checks a whole `cobv` request as of its creation on `created_on` (Brasília): every
/// violation, or the amount and terms it is computed with. `devedor` is required (the
/// standard's schema).
pub(crate) fn check(
    request: &CobVSolicitada,
    created_on: Date,
) -> Result<(Money, DueTerms), Vec<Violacao>> {
    let mut out = Vec::new();
    let validade = terms::validade(&request.calendario);
    if validade > i32::MAX as u32 {
        out.push(violation(
            "cobv.calendario.validadeAposVencimento",
            "O campo cobv.calendario.validadeAposVencimento não respeita o schema (int32).",
        ));
    }
    if Date::parse(&request.calendario.data_de_vencimento).is_some_and(|d| d < created_on) {
        out.push(violation(
            "cobv.calendario.dataDeVencimento",
            "O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.",
        ));
    }
    match &request.devedor {
        None => out.push(violation(
            "cobv.devedor",
            "O objeto cobv.devedor é obrigatório (cpf ou cnpj, e nome).",
        )),
        Some(d) => check_devedor(d, &mut out),
    }
    let chars = |s: &str| s.chars().count();
    if request.chave.is_empty() || chars(&request.chave) > 77 {
        out.push(violation(
            "cobv.chave",
            "O campo cobv.chave não respeita o schema (1 a 77 caracteres).",
        ));
    }
    if request
        .solicitacao_pagador
        .as_deref()
        .is_some_and(|s| chars(s) > 140)
    {
        out.push(violation(
            "cobv.solicitacaoPagador",
            "O campo cobv.solicitacaoPagador tem mais de 140 caracteres.",
        ));
    }
    let info = &request.info_adicionais;
    if info.len() > 50
        || info
            .iter()
            .any(|i| chars(&i.nome) > 50 || chars(&i.valor) > 200)
    {
        out.push(violation(
            "cobv.infoAdicionais",
            "O objeto cobv.infoAdicionais não respeita o schema.",
        ));
    }
    let computed = terms::terms_from_wire(
        &request.calendario.data_de_vencimento,
        validade,
        &request.valor,
    );
    match computed {
        Ok(terms) if out.is_empty() => Ok(terms),
        Ok(_) => Err(out),
        Err(refusals) => {
            // The calendar's, then the rest in the body's order.
            let (calendar, rest): (Vec<_>, Vec<_>) = refusals
                .into_iter()
                .partition(|r| r.propriedade.starts_with("calendario."));
            let mut all: Vec<Violacao> = calendar.into_iter().map(refused).collect();
            all.append(&mut out);
            all.extend(rest.into_iter().map(refused));
            Err(all)
        }
    }
}

fn check_devedor(d: &DevedorCobV, out: &mut Vec<Violacao>) {
    let chars = |s: &str| s.chars().count();
    let document = match &d.pessoa.documento {
        Documento::Cpf(cpf) => cpf.len() == 11 && cpf.bytes().all(|b| b.is_ascii_digit()),
        Documento::Cnpj(cnpj) => {
            cnpj.len() == 14
                && cnpj
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
        }
    };
    if !document {
        out.push(violation(
            "cobv.devedor",
            "O objeto cobv.devedor não respeita o schema (cpf: 11 dígitos; cnpj: 14 de [0-9A-Z]).",
        ));
    }
    for (field, value, max) in [
        ("nome", Some(d.pessoa.nome.as_str()), 200),
        ("logradouro", d.logradouro.as_deref(), 200),
        ("cidade", d.cidade.as_deref(), 200),
        ("uf", d.uf.as_deref(), 2),
        ("cep", d.cep.as_deref(), 8),
    ] {
        if value.is_some_and(|v| chars(v) > max) {
            out.push(violation(
                &format!("cobv.devedor.{field}"),
                format!("O campo cobv.devedor.{field} tem mais de {max} caracteres."),
            ));
        }
    }
}

/// The request a `PUT` amounts to, its defaults filled in (`validadeAposVencimento` 30), so
/// that a retry compares equal to the charge it created.
pub(crate) fn normalised(mut request: CobVSolicitada) -> CobVSolicitada {
    request.calendario.validade_apos_vencimento = Some(terms::validade(&request.calendario));
    request
}

impl CobVRevisada {
    /// Whether it asks for a change besides `status`.
    pub fn changes_fields(&self) -> bool {
        Self {
            status: None,
            ..self.clone()
        } != Self::default()
    }

    /// `request` with this revision's fields in place of its own. A `calendario` without
    /// `validadeAposVencimento` keeps the one there was.
    pub fn apply(self, mut request: CobVSolicitada) -> CobVSolicitada {
        if let Some(mut c) = self.calendario {
            c.validade_apos_vencimento = c
                .validade_apos_vencimento
                .or(request.calendario.validade_apos_vencimento);
            request.calendario = c;
        }
        if let Some(d) = self.devedor {
            request.devedor = Some(d);
        }
        if let Some(v) = self.valor {
            request.valor = v;
        }
        if let Some(k) = self.chave {
            request.chave = k;
        }
        if let Some(s) = self.solicitacao_pagador {
            request.solicitacao_pagador = Some(s);
        }
        if let Some(i) = self.info_adicionais {
            request.info_adicionais = i;
        }
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body() -> serde_json::Value {
        json!({
            "calendario": {"dataDeVencimento": "2026-12-10", "validadeAposVencimento": 30},
            "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva", "cidade": "Uberlândia", "uf": "MG"},
            "valor": {"original": "567.89",
                      "multa": {"modalidade": 2, "valorPerc": "15.00"},
                      "juros": {"modalidade": 2, "valorPerc": "2.00"},
                      "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2026-11-30", "valorPerc": "30.00"}]}},
            "chave": "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
            "solicitacaoPagador": "Cobrança dos serviços prestados."
        })
    }

    fn on(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    /// The properties the violations of `body` name (parse errors included).
    fn violations(body: serde_json::Value, today: &str) -> Vec<String> {
        let names = |v: Vec<Violacao>| v.into_iter().filter_map(|v| v.propriedade).collect();
        match parse::<CobVSolicitada>(body) {
            Err(ApiError::Invalid { violacoes, .. }) => names(violacoes),
            Err(e) => panic!("{e:?}"),
            Ok(request) => match check(&request, on(today)) {
                Ok(_) => Vec::new(),
                Err(v) => names(v),
            },
        }
    }

    fn with(path: &[&str], value: serde_json::Value) -> serde_json::Value {
        let mut body = body();
        let mut at = &mut body;
        for key in &path[..path.len() - 1] {
            at = &mut at[*key];
        }
        at[path[path.len() - 1]] = value;
        body
    }

    #[test]
    fn the_standards_example_is_accepted() {
        assert!(violations(body(), "2026-11-01").is_empty());
        // The due date may be today, not before.
        assert!(violations(body(), "2026-12-10").is_empty());
        assert_eq!(
            violations(body(), "2026-12-11"),
            ["cobv.calendario.dataDeVencimento"]
        );
    }

    #[test]
    fn each_broken_rule_names_its_property() {
        let today = "2026-11-01";
        let cases: Vec<(serde_json::Value, &[&str])> = vec![
            (
                with(&["calendario", "dataDeVencimento"], json!("2026-11-31")),
                &["cobv.calendario.dataDeVencimento"],
            ),
            (
                with(&["calendario", "validadeAposVencimento"], json!(-1)),
                &["cobv.calendario.validadeAposVencimento"],
            ),
            (
                with(
                    &["calendario", "validadeAposVencimento"],
                    json!(2_147_483_648_u64),
                ),
                &["cobv.calendario.validadeAposVencimento"],
            ),
            (
                with(&["calendario"], json!({"validadeAposVencimento": 1})),
                &["cobv.calendario"],
            ),
            (
                with(
                    &["devedor"],
                    json!({"cpf": "12345678909", "cnpj": "12345678000195", "nome": "X"}),
                ),
                &["cobv.devedor"],
            ),
            (
                with(&["devedor"], json!({"cpf": "1234567890", "nome": "X"})),
                &["cobv.devedor"],
            ),
            (with(&["devedor"], json!({"nome": "X"})), &["cobv.devedor"]),
            (with(&["devedor", "uf"], json!("MGS")), &["cobv.devedor.uf"]),
            (
                with(&["devedor", "nome"], json!(null)),
                &["cobv.devedor.nome"],
            ),
            (
                with(&["valor", "original"], json!("0.00")),
                &["cobv.valor.original"],
            ),
            (
                with(&["valor", "original"], json!("1.0")),
                &["cobv.valor.original"],
            ),
            (
                with(&["valor", "multa"], json!([2, "1.00"])),
                &["cobv.valor.multa"],
            ),
            (
                with(&["valor", "multa", "modalidade"], json!(3)),
                &["cobv.valor.multa.modalidade"],
            ),
            (
                with(&["valor", "juros", "modalidade"], json!(0)),
                &["cobv.valor.juros.modalidade"],
            ),
            (
                with(
                    &["valor", "abatimento"],
                    json!({"modalidade": 1, "valorPerc": "567.89"}),
                ),
                &["cobv.valor.abatimento.valorPerc"],
            ),
            (
                with(&["valor", "desconto", "modalidade"], json!(3)),
                &[
                    "cobv.valor.desconto.descontoDataFixa",
                    "cobv.valor.desconto.valorPerc",
                ],
            ),
            (
                with(
                    &["valor", "desconto", "descontoDataFixa"],
                    json!([{"data": "2026-12-11", "valorPerc": "1.00"}]),
                ),
                &["cobv.valor.desconto.descontoDataFixa[0].data"],
            ),
            (
                with(&["valor", "desconto", "descontoDataFixa"], json!([])),
                &["cobv.valor.desconto.descontoDataFixa"],
            ),
            (
                with(
                    &["valor", "desconto", "descontoDataFixa"],
                    json!([{"data": "2026-12-01", "valorPerc": "1.00"}, {"data": "2026-12-02", "valorPerc": "1.00"},
                           {"data": "2026-12-03", "valorPerc": "1.00"}, {"data": "2026-12-04", "valorPerc": "1.00"}]),
                ),
                &["cobv.valor.desconto.descontoDataFixa"],
            ),
            (with(&["chave"], json!("")), &["cobv.chave"]),
            (
                with(&["solicitacaoPagador"], json!("x".repeat(141))),
                &["cobv.solicitacaoPagador"],
            ),
            (with(&["loc"], json!({"id": 1})), &["cobv.loc.id"]),
            (with(&["valor"], json!(null)), &["cobv.valor"]),
        ];
        for (body, expected) in cases {
            assert_eq!(violations(body.clone(), today), expected, "{body}");
        }
        // Several at once, all named.
        let mut several = with(&["valor", "original"], json!("0.00"));
        several["chave"] = json!("");
        several["devedor"] = json!({"cpf": "x", "nome": "y"});
        assert_eq!(
            violations(several, today),
            ["cobv.devedor", "cobv.chave", "cobv.valor.original"]
        );
        let mut without = body();
        without.as_object_mut().unwrap().remove("devedor");
        assert_eq!(violations(without, today), ["cobv.devedor"]);
    }

    #[test]
    fn a_revision_changes_what_it_sends() {
        let request = normalised(parse::<CobVSolicitada>(body()).unwrap());
        assert_eq!(request.calendario.validade_apos_vencimento, Some(30));
        let revision: CobVRevisada = serde_json::from_value(json!({
            "calendario": {"dataDeVencimento": "2026-12-20"},
            "solicitacaoPagador": "outra"
        }))
        .unwrap();
        assert!(revision.changes_fields());
        let revised = revision.apply(request.clone());
        assert_eq!(revised.calendario.data_de_vencimento, "2026-12-20");
        assert_eq!(revised.calendario.validade_apos_vencimento, Some(30));
        assert_eq!(revised.solicitacao_pagador.as_deref(), Some("outra"));
        assert_eq!(revised.valor, request.valor);
        let removal: CobVRevisada =
            serde_json::from_value(json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"})).unwrap();
        assert!(!removal.changes_fields());
    }
}
