//! A `cobv`'s wire terms (API Pix `calendario` and `valor`) as pixgate's [`DueTerms`], and
//! back, and the amount due on a date ([`pixgate_domain::due::amount_due`], the one function
//! pixgate uses too) as the wire's `componentesValor` and payload `valor`. Pure: no clock, no
//! state.
//!
//! # From the wire ([`terms_from_wire`])
//!
//! | wire | [`DueTerms`] |
//! |---|---|
//! | `calendario.dataDeVencimento` | `due_date` |
//! | `calendario.validadeAposVencimento` (default 30) | `days_after_due` (capped at 65,535 days, beyond any date a payment can have) |
//! | `valor.original` | the `original` [`Money`] |
//! | `multa {1, v}` / `{2, p}` | [`Fine::Fixed`] / [`Fine::Percent`] |
//! | `juros {1..8, v}` | [`Interest`] of [`InterestModality`] 1 to 8; `valorPerc` an amount for 1 and 5, a percentage otherwise |
//! | `abatimento {1, v}` / `{2, p}` | [`Abatement::Fixed`] / [`Abatement::Percent`] |
//! | `desconto {1 or 2, descontoDataFixa [{data, valorPerc}]}` | [`Discount::UntilDates`] (`percent` for 2), the dates as given |
//! | `desconto {3..6, valorPerc}` | [`Discount::Early`] of [`EarlyDiscountModality`] 3 to 6 |
//!
//! A `valorPerc` of `0.00` in `multa`, `juros`, `abatimento` or an early `desconto` is that
//! rule absent (a rule of zero adds or takes nothing, on every date); in a `descontoDataFixa`
//! item it is refused, as a zero among other dates would change which date applies and
//! [`DueTerms`] has no zero. Refused, naming the property, as the standard refuses them: a zero
//! `original`, a modality out of its table, an abatement or a discount at or above `original`
//! or 100 %, a `descontoDataFixa` date after the due date, `descontoDataFixa` absent (or empty,
//! or more than 3 items, or repeated items) with modality 1 or 2 or present with 3 to 6,
//! `valorPerc` absent with 3 to 6 or present with 1 or 2. Refused as well, where the standard
//! sets no bound but pixgate's calculation has one ([`Money`] and [`Percent`]): an `original`,
//! a fixed fine or an interest amount above R$ 100,000,000.00, a fine or interest percentage
//! above 100.00.
//!
//! # Back to the wire ([`wire_from_terms`])
//!
//! The reverse of the table, for the body pixgate sends (`validadeAposVencimento` always
//! written).

use pixgate_domain::Money;
use pixgate_domain::due::{
    Abatement, AmountDue, Date, Discount, DueTerms, EarlyDiscountModality, Fine, FixedOrPercent,
    Interest, InterestModality, Percent, RuleValue,
};
use pixgate_pix::apipix::{
    Amount, CalendarioCobVSolicitado, CobVValor, Componente, ComponentesValor,
    DEFAULT_VALIDADE_APOS_VENCIMENTO, Desconto, DescontoDataFixa, Modalidade, ValorNaData,
};

/// A rule of the wire the terms cannot hold: the property (from the cobv's root, without the
/// `cobv.` prefix: `valor.multa.modalidade`) and why, in the standard's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub propriedade: String,
    pub razao: String,
}

fn refusal(propriedade: impl Into<String>, razao: impl Into<String>) -> Refusal {
    Refusal {
        propriedade: propriedade.into(),
        razao: razao.into(),
    }
}

const ABOVE_MONEY: &str =
    "acima de 100000000.00, o maior valor que o simulador calcula (o de pixgate)";
const ABOVE_PERCENT: &str = "acima de 100.00%, o maior percentual que o simulador calcula";

/// A fixed amount of a rule: `None` for zero (no rule).
fn amount_rule(v: Amount, at: &str, out: &mut Vec<Refusal>) -> Option<RuleValue> {
    match v.centavos() {
        0 => None,
        c => match Money::from_centavos(c) {
            Some(m) => Some(RuleValue::Amount(m)),
            None => {
                out.push(refusal(at, ABOVE_MONEY));
                None
            }
        },
    }
}

/// A percentage of a rule, at most `max` hundredths: `None` for zero (no rule).
fn percent_rule(
    v: Amount,
    at: &str,
    max: u64,
    why: &str,
    out: &mut Vec<Refusal>,
) -> Option<RuleValue> {
    match v.centavos() {
        0 => None,
        h if h > max => {
            out.push(refusal(at, why));
            None
        }
        h => u32::try_from(h)
            .ok()
            .and_then(Percent::from_hundredths)
            .map(RuleValue::Percent),
    }
}

/// An abatement's or a discount's value: below `original` when fixed, below 100 % as a
/// percentage (the standard's rule); `None` for zero.
fn deduction(
    v: Amount,
    percent: bool,
    original: u64,
    at: &str,
    what: &str,
    out: &mut Vec<Refusal>,
) -> Option<RuleValue> {
    if percent {
        percent_rule(
            v,
            at,
            9_999,
            &format!("{what} representa um percentual maior ou igual a 100%"),
            out,
        )
    } else if original > 0 && v.centavos() > 0 && v.centavos() >= original {
        // (A zero original is refused on its own: nothing to compare with.)
        out.push(refusal(
            at,
            format!("{what} representa um valor maior ou igual ao valor original da cobrança"),
        ));
        None
    } else {
        amount_rule(v, at, out)
    }
}

/// The terms of a `cobv` from its wire `calendario` and `valor`, with every refusal (see the
/// module's documentation).
pub fn terms_from_wire(
    data_de_vencimento: &str,
    validade_apos_vencimento: u32,
    valor: &CobVValor,
) -> Result<(Money, DueTerms), Vec<Refusal>> {
    let mut out = Vec::new();
    let due_date = Date::parse(data_de_vencimento);
    if due_date.is_none() {
        out.push(refusal(
            "calendario.dataDeVencimento",
            "não é uma data existente no formato YYYY-MM-DD",
        ));
    }
    let original_c = valor.original.centavos();
    let original = match Money::from_centavos(original_c) {
        Some(m) => Some(m),
        None if original_c == 0 => {
            out.push(refusal("valor.original", "apresenta o valor zero"));
            None
        }
        None => {
            out.push(refusal("valor.original", ABOVE_MONEY));
            None
        }
    };

    let fine = valor.multa.and_then(|m| {
        let at = "valor.multa.valorPerc";
        match FixedOrPercent::from_api_pix_modality(m.modalidade) {
            None => {
                out.push(refusal("valor.multa.modalidade", "deve ser 1 ou 2"));
                None
            }
            Some(FixedOrPercent::Fixed) => {
                amount_rule(m.valor_perc, at, &mut out).and_then(|v| Fine::from_api_pix(1, v))
            }
            Some(FixedOrPercent::Percent) => {
                percent_rule(m.valor_perc, at, 10_000, ABOVE_PERCENT, &mut out)
                    .and_then(|v| Fine::from_api_pix(2, v))
            }
        }
    });

    let interest = valor.juros.and_then(|j| {
        let at = "valor.juros.valorPerc";
        let Some(modality) = InterestModality::from_api_pix_modality(j.modalidade) else {
            out.push(refusal("valor.juros.modalidade", "deve ser de 1 a 8"));
            return None;
        };
        let value = if modality.is_percent() {
            percent_rule(j.valor_perc, at, 10_000, ABOVE_PERCENT, &mut out)
        } else {
            amount_rule(j.valor_perc, at, &mut out)
        };
        value.and_then(|v| Interest::new(modality, v))
    });

    let abatement = valor.abatimento.and_then(|a| {
        let at = "valor.abatimento.valorPerc";
        let what = "O objeto cobv.valor.abatimento";
        match FixedOrPercent::from_api_pix_modality(a.modalidade) {
            None => {
                out.push(refusal("valor.abatimento.modalidade", "deve ser 1 ou 2"));
                None
            }
            Some(kind) => deduction(
                a.valor_perc,
                kind == FixedOrPercent::Percent,
                original_c,
                at,
                what,
                &mut out,
            )
            .and_then(|v| Abatement::from_api_pix(a.modalidade, v)),
        }
    });

    let discount = valor
        .desconto
        .as_ref()
        .and_then(|d| discount(d, due_date, original_c, &mut out));

    match (due_date, original) {
        (Some(due_date), Some(original)) if out.is_empty() => Ok((
            original,
            DueTerms {
                due_date,
                days_after_due: u16::try_from(validade_apos_vencimento).unwrap_or(u16::MAX),
                fine,
                interest,
                abatement,
                discount,
            },
        )),
        _ => Err(out),
    }
}

fn discount(
    d: &Desconto,
    due_date: Option<Date>,
    original: u64,
    out: &mut Vec<Refusal>,
) -> Option<Discount> {
    let what = "O objeto cobv.valor.desconto";
    if !(1..=6).contains(&d.modalidade) {
        out.push(refusal("valor.desconto.modalidade", "deve ser de 1 a 6"));
        return None;
    }
    if d.modalidade <= 2 {
        let percent = d.modalidade == 2;
        if d.valor_perc.is_some() {
            out.push(refusal(
                "valor.desconto.valorPerc",
                "a modalidade é 1 ou 2, porém valorPerc encontra-se preenchido",
            ));
        }
        let items = &d.desconto_data_fixa;
        if items.is_empty() || items.len() > 3 {
            out.push(refusal(
                "valor.desconto.descontoDataFixa",
                "a modalidade é 1 ou 2, porém descontoDataFixa está vazio ou tem mais de 3 elementos",
            ));
            return None;
        }
        if items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].contains(a))
        {
            out.push(refusal(
                "valor.desconto.descontoDataFixa",
                "apresenta elementos repetidos",
            ));
        }
        let mut dates = Vec::with_capacity(items.len());
        for (i, DescontoDataFixa { data, valor_perc }) in items.iter().enumerate() {
            let at = format!("valor.desconto.descontoDataFixa[{i}]");
            let date = Date::parse(data);
            match (date, due_date) {
                (None, _) => out.push(refusal(
                    format!("{at}.data"),
                    "não é uma data existente no formato YYYY-MM-DD",
                )),
                (Some(date), Some(due)) if date > due => out.push(refusal(
                    format!("{at}.data"),
                    "é posterior à data de vencimento (calendario.dataDeVencimento)",
                )),
                _ => {}
            }
            let value_at = format!("{at}.valorPerc");
            if valor_perc.centavos() == 0 {
                out.push(refusal(
                    &value_at,
                    "é zero: o simulador não calcula um desconto de zero entre outras datas \
                     (envie só as datas com desconto)",
                ));
                continue;
            }
            let value = deduction(*valor_perc, percent, original, &value_at, what, out);
            if let (Some(date), Some(value)) = (date, value) {
                dates.push((date, value));
            }
        }
        (dates.len() == items.len()).then_some(Discount::UntilDates { percent, dates })
    } else {
        let modality = EarlyDiscountModality::from_api_pix_modality(d.modalidade)?;
        if !d.desconto_data_fixa.is_empty() {
            out.push(refusal(
                "valor.desconto.descontoDataFixa",
                "a modalidade é de 3 a 6, porém descontoDataFixa encontra-se preenchido",
            ));
        }
        let Some(v) = d.valor_perc else {
            out.push(refusal(
                "valor.desconto.valorPerc",
                "a modalidade é de 3 a 6, porém valorPerc não está preenchido",
            ));
            return None;
        };
        deduction(
            v,
            modality.is_percent(),
            original,
            "valor.desconto.valorPerc",
            what,
            out,
        )
        .map(|value| Discount::Early { modality, value })
    }
}

fn rule_amount(value: RuleValue) -> Amount {
    fits(value.hundredths())
}

/// Money and percentages (hundredths below 10^10) on the wire, whose bound is 10^12 - 1.
fn fits(hundredths: u64) -> Amount {
    Amount::from_centavos(hundredths).expect("Money and Percent fit the wire's amounts")
}

/// The wire `calendario` and `valor` of `terms` (the reverse of [`terms_from_wire`]).
pub fn wire_from_terms(original: Money, terms: &DueTerms) -> (CalendarioCobVSolicitado, CobVValor) {
    let modalidade = |modalidade: u8, value: RuleValue| Modalidade {
        modalidade,
        valor_perc: rule_amount(value),
    };
    let calendario = CalendarioCobVSolicitado {
        data_de_vencimento: terms.due_date.to_string(),
        validade_apos_vencimento: Some(u32::from(terms.days_after_due)),
    };
    let desconto = terms.discount.as_ref().map(|d| match d {
        Discount::UntilDates { dates, .. } => Desconto {
            modalidade: d.api_pix_modality(),
            desconto_data_fixa: dates
                .iter()
                .map(|(date, value)| DescontoDataFixa {
                    data: date.to_string(),
                    valor_perc: rule_amount(*value),
                })
                .collect(),
            valor_perc: None,
        },
        Discount::Early { value, .. } => Desconto {
            modalidade: d.api_pix_modality(),
            desconto_data_fixa: Vec::new(),
            valor_perc: Some(rule_amount(*value)),
        },
    });
    let valor = CobVValor {
        original: fits(original.centavos()),
        multa: terms
            .fine
            .map(|f| modalidade(f.api_pix_modality(), f.value())),
        juros: terms
            .interest
            .map(|i| modalidade(i.api_pix_modality(), i.value)),
        abatimento: terms
            .abatement
            .map(|a| modalidade(a.api_pix_modality(), a.value())),
        desconto,
    };
    (calendario, valor)
}

/// `validadeAposVencimento` of a request, its default filled in.
pub fn validade(calendario: &CalendarioCobVSolicitado) -> u32 {
    calendario
        .validade_apos_vencimento
        .unwrap_or(DEFAULT_VALIDADE_APOS_VENCIMENTO)
}

/// An amount of the calculation on the wire; `None` above what the wire carries
/// (9,999,999,999.99: interest of a large amount over many days late).
fn wire(centavos: u64) -> Option<Amount> {
    Amount::from_centavos(centavos)
}

/// `componentesValor` of a pix paying `amount`: `original` always, the others when not zero.
pub fn componentes(amount: &AmountDue) -> Option<ComponentesValor> {
    let part = |c: u64| -> Option<Option<Componente>> {
        if c == 0 {
            Some(None)
        } else {
            wire(c).map(|valor| Some(Componente { valor }))
        }
    };
    Some(ComponentesValor {
        original: Some(Componente {
            valor: wire(amount.original)?,
        }),
        multa: part(amount.fine)?,
        juros: part(amount.interest)?,
        abatimento: part(amount.abatement)?,
        desconto: part(amount.discount)?,
        ..ComponentesValor::default()
    })
}

/// The payload's `valor` for `amount`: `original` and `final`, and the others when not zero.
pub fn valor_na_data(amount: &AmountDue) -> Option<ValorNaData> {
    let part = |c: u64| -> Option<Option<Amount>> {
        if c == 0 {
            Some(None)
        } else {
            wire(c).map(Some)
        }
    };
    Some(ValorNaData {
        original: wire(amount.original)?,
        multa: part(amount.fine)?,
        juros: part(amount.interest)?,
        abatimento: part(amount.abatement)?,
        desconto: part(amount.discount)?,
        final_: wire(amount.total)?,
    })
}

/// `total` on the wire.
pub fn total(amount: &AmountDue) -> Option<Amount> {
    wire(amount.total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_domain::due::amount_due;
    use serde_json::json;

    fn valor(v: serde_json::Value) -> CobVValor {
        serde_json::from_value(v).unwrap()
    }

    fn refusals(due: &str, v: serde_json::Value) -> Vec<String> {
        match terms_from_wire(due, 30, &valor(v)) {
            Ok(terms) => panic!("accepted: {terms:?}"),
            Err(out) => out.into_iter().map(|r| r.propriedade).collect(),
        }
    }

    fn d(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn every_modality_maps_to_its_rule() {
        let (original, terms) = terms_from_wire(
            "2026-12-10",
            5,
            &valor(json!({
                "original": "100.00",
                "multa": {"modalidade": 2, "valorPerc": "2.00"},
                "juros": {"modalidade": 3, "valorPerc": "1.50"},
                "abatimento": {"modalidade": 1, "valorPerc": "10.00"},
                "desconto": {"modalidade": 1, "descontoDataFixa": [
                    {"data": "2026-12-01", "valorPerc": "5.00"},
                    {"data": "2026-11-20", "valorPerc": "8.00"}]}
            })),
        )
        .unwrap();
        assert_eq!(original.centavos(), 10_000);
        assert_eq!(terms.due_date, d("2026-12-10"));
        assert_eq!(terms.days_after_due, 5);
        assert_eq!(
            terms.fine,
            Some(Fine::Percent(Percent::from_hundredths(200).unwrap()))
        );
        let interest = terms.interest.unwrap();
        assert_eq!(interest.modality, InterestModality::PercentPerCalendarMonth);
        assert_eq!(interest.value.hundredths(), 150);
        assert_eq!(
            terms.abatement,
            Some(Abatement::Fixed(Money::from_centavos(1_000).unwrap()))
        );
        let Some(Discount::UntilDates { percent, dates }) = &terms.discount else {
            panic!("{:?}", terms.discount)
        };
        assert!(!percent);
        assert_eq!(dates.len(), 2);
        assert_eq!(
            dates[1],
            (
                d("2026-11-20"),
                RuleValue::Amount(Money::from_centavos(800).unwrap())
            )
        );

        for (code, modality, is_percent) in [
            (1, InterestModality::AmountPerCalendarDay, false),
            (2, InterestModality::PercentPerCalendarDay, true),
            (4, InterestModality::PercentPerCalendarYear, true),
            (5, InterestModality::AmountPerBusinessDay, false),
            (6, InterestModality::PercentPerBusinessDay, true),
            (7, InterestModality::PercentPerBusinessMonth, true),
            (8, InterestModality::PercentPerBusinessYear, true),
        ] {
            let (_, terms) = terms_from_wire(
                "2026-12-10",
                30,
                &valor(json!({"original": "100.00", "juros": {"modalidade": code, "valorPerc": "1.00"}})),
            )
            .unwrap();
            let i = terms.interest.unwrap();
            assert_eq!((i.modality, i.value.is_percent()), (modality, is_percent));
        }
        for (code, modality) in [
            (3, EarlyDiscountModality::AmountPerCalendarDayEarly),
            (4, EarlyDiscountModality::AmountPerBusinessDayEarly),
            (5, EarlyDiscountModality::PercentPerCalendarDayEarly),
            (6, EarlyDiscountModality::PercentPerBusinessDayEarly),
        ] {
            let (_, terms) = terms_from_wire(
                "2026-12-10",
                30,
                &valor(json!({"original": "100.00", "desconto": {"modalidade": code, "valorPerc": "0.50"}})),
            )
            .unwrap();
            assert_eq!(
                terms.discount,
                Some(Discount::Early {
                    modality,
                    value: if modality.is_percent() {
                        RuleValue::Percent(Percent::from_hundredths(50).unwrap())
                    } else {
                        RuleValue::Amount(Money::from_centavos(50).unwrap())
                    }
                })
            );
        }
        let (_, terms) = terms_from_wire(
            "2026-12-10",
            u32::MAX,
            &valor(
                json!({"original": "1.00", "multa": {"modalidade": 1, "valorPerc": "0.00"},
                          "abatimento": {"modalidade": 2, "valorPerc": "0.00"},
                          "desconto": {"modalidade": 3, "valorPerc": "0.00"}}),
            ),
        )
        .unwrap();
        assert_eq!(terms.days_after_due, u16::MAX);
        assert_eq!(
            (terms.fine, terms.abatement, terms.discount),
            (None, None, None),
            "a rule of zero is no rule"
        );
    }

    #[test]
    fn what_the_standard_refuses_names_the_property() {
        let due = "2026-12-10";
        assert_eq!(
            refusals("2026-02-30", json!({"original": "0.00"})),
            ["calendario.dataDeVencimento", "valor.original"]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "1.00", "multa": {"modalidade": 3, "valorPerc": "1.00"},
                                 "juros": {"modalidade": 9, "valorPerc": "1.00"},
                                 "abatimento": {"modalidade": 0, "valorPerc": "1.00"},
                                 "desconto": {"modalidade": 7, "valorPerc": "1.00"}})
            ),
            [
                "valor.multa.modalidade",
                "valor.juros.modalidade",
                "valor.abatimento.modalidade",
                "valor.desconto.modalidade"
            ]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "abatimento": {"modalidade": 1, "valorPerc": "10.00"}})
            ),
            ["valor.abatimento.valorPerc"]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "abatimento": {"modalidade": 2, "valorPerc": "100.00"}})
            ),
            ["valor.abatimento.valorPerc"]
        );
        assert!(
            terms_from_wire(
                due,
                30,
                &valor(json!({"original": "10.00",
                "abatimento": {"modalidade": 2, "valorPerc": "99.99"}}))
            )
            .is_ok()
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "desconto": {"modalidade": 1, "valorPerc": "1.00"}})
            ),
            [
                "valor.desconto.valorPerc",
                "valor.desconto.descontoDataFixa"
            ]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "desconto": {"modalidade": 2, "descontoDataFixa": [
                {"data": "2026-12-11", "valorPerc": "1.00"},
                {"data": "2026-12-01", "valorPerc": "100.00"},
                {"data": "2026-13-01", "valorPerc": "0.00"}]}})
            ),
            [
                "valor.desconto.descontoDataFixa[0].data",
                "valor.desconto.descontoDataFixa[1].valorPerc",
                "valor.desconto.descontoDataFixa[2].data",
                "valor.desconto.descontoDataFixa[2].valorPerc"
            ]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "desconto": {"modalidade": 1, "descontoDataFixa": [
                {"data": "2026-12-01", "valorPerc": "1.00"}, {"data": "2026-12-01", "valorPerc": "1.00"}]}})
            ),
            ["valor.desconto.descontoDataFixa"]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "desconto": {"modalidade": 1, "descontoDataFixa": [
                {"data": "2026-12-01", "valorPerc": "10.00"}]}})
            ),
            ["valor.desconto.descontoDataFixa[0].valorPerc"]
        );
        // A date on the due date is fine (API Pix 2.6.3 on).
        assert!(
            terms_from_wire(
                due,
                30,
                &valor(json!({"original": "10.00", "desconto": {"modalidade": 1,
                "descontoDataFixa": [{"data": "2026-12-10", "valorPerc": "9.99"}]}}))
            )
            .is_ok()
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "desconto": {"modalidade": 4,
                "descontoDataFixa": [{"data": "2026-12-01", "valorPerc": "1.00"}]}})
            ),
            [
                "valor.desconto.descontoDataFixa",
                "valor.desconto.valorPerc"
            ]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "10.00", "desconto": {"modalidade": 5, "valorPerc": "100.00"}})
            ),
            ["valor.desconto.valorPerc"]
        );
        // Beyond what pixgate's calculation holds.
        assert_eq!(
            refusals(due, json!({"original": "100000000.01"})),
            ["valor.original"]
        );
        assert_eq!(
            refusals(
                due,
                json!({"original": "1.00", "multa": {"modalidade": 2, "valorPerc": "100.01"},
                                 "juros": {"modalidade": 1, "valorPerc": "100000000.01"}})
            ),
            ["valor.multa.valorPerc", "valor.juros.valorPerc"]
        );
    }

    #[test]
    fn terms_go_back_to_the_wire_as_they_came() {
        for v in [
            json!({"original": "567.89",
                   "multa": {"modalidade": 2, "valorPerc": "15.00"},
                   "juros": {"modalidade": 2, "valorPerc": "2.00"},
                   "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2020-11-30", "valorPerc": "30.00"}]}}),
            json!({"original": "100.00",
                   "multa": {"modalidade": 1, "valorPerc": "3.00"},
                   "juros": {"modalidade": 5, "valorPerc": "0.10"},
                   "abatimento": {"modalidade": 2, "valorPerc": "12.50"},
                   "desconto": {"modalidade": 6, "valorPerc": "0.25"}}),
            json!({"original": "0.01"}),
        ] {
            let wire = valor(v);
            let (original, terms) = terms_from_wire("2020-12-31", 7, &wire).unwrap();
            let (calendario, back) = wire_from_terms(original, &terms);
            assert_eq!(back, wire);
            assert_eq!(calendario.data_de_vencimento, "2020-12-31");
            assert_eq!(calendario.validade_apos_vencimento, Some(7));
            assert_eq!(
                terms_from_wire("2020-12-31", 7, &back).unwrap(),
                (original, terms)
            );
        }
    }

    #[test]
    fn the_amount_goes_to_the_wire_with_its_parts() {
        // R$ 100.00 due Thursday 2026-12-10, 3 % fine, 1 % a calendar day: two days late.
        let (original, terms) = terms_from_wire(
            "2026-12-10",
            30,
            &valor(json!({"original": "100.00",
                          "multa": {"modalidade": 2, "valorPerc": "3.00"},
                          "juros": {"modalidade": 2, "valorPerc": "1.00"}})),
        )
        .unwrap();
        let amount = amount_due(original, &terms, d("2026-12-12"));
        let parts = componentes(&amount).unwrap();
        assert_eq!(
            serde_json::to_value(parts).unwrap(),
            json!({"original": {"valor": "100.00"}, "multa": {"valor": "3.00"}, "juros": {"valor": "2.00"}})
        );
        assert_eq!(parts.sum_centavos(), Some(10_500));
        assert_eq!(total(&amount).unwrap().centavos(), 10_500);
        assert_eq!(
            serde_json::to_value(valor_na_data(&amount).unwrap()).unwrap(),
            json!({"original": "100.00", "multa": "3.00", "juros": "2.00", "final": "105.00"})
        );
        // On the due date: the original alone.
        let amount = amount_due(original, &terms, d("2026-12-10"));
        assert_eq!(
            serde_json::to_value(componentes(&amount).unwrap()).unwrap(),
            json!({"original": {"valor": "100.00"}})
        );
    }
}
