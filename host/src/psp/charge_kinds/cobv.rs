//! `cobv`: the charge with a due date (API Pix `/cobv/{txid}`, DESIGN.md section 16), payable
//! until its last payable day for the amount due on the payment date: the original amount
//! with a fine and interest after the (moved) due date, an abatement, and a discount before
//! it, all by [`pixgate_domain::due`]'s one calculation.
//!
//! API Pix keeps an unpaid `cobv` `ATIVA` forever; its [`ChargeRecord::expires_at`] is the end
//! of the last payable day in Brasília, after which settlement removes it at the PSP.

use pixgate_domain::TaxIdKind;
use pixgate_domain::due::{self, Date, Discount, DueTerms, RuleValue, calendar};
use pixgate_pix::apipix::{
    Amount, CalendarioCobVSolicitado, CobVCompleta, CobVSolicitada, CobVValor, Componente,
    Desconto, DescontoDataFixa, Devedor, DevedorCobV, Documento, Modalidade, Pix,
};

use super::{ChargeRecord, ChargeResource, NewCharge, Operations};
use crate::db::intents::{Intent, PaidComponents};
use crate::db::psp_calls::CallOperation;
use crate::webhooks::outbox::Paid;

/// `solicitacaoPagador` is at most 140 characters in the standard.
const SOLICITACAO_MAX: usize = 140;
/// `devedor.nome` is at most 200 characters in the standard (the contract's payer name too).
const NOME_MAX: usize = 200;
/// Brasília is UTC-3 (no daylight saving since 2019).
const BRASILIA_OFFSET_MS: i64 = 3 * 3_600_000;

pub(super) struct Cobv;

impl ChargeResource for Cobv {
    fn path(&self) -> &'static str {
        "cobv"
    }

    fn operations(&self) -> Operations {
        Operations {
            put: CallOperation::PutCobv,
            get: CallOperation::GetCobv,
            patch: CallOperation::PatchCobv,
        }
    }

    fn request(&self, charge: &NewCharge<'_>) -> Result<serde_json::Value, String> {
        let body = cobv_request(charge)?;
        serde_json::to_value(body).map_err(|e| format!("the charge does not serialise: {e}"))
    }

    fn read(&self, answer: &[u8]) -> Result<ChargeRecord, String> {
        let cobv: CobVCompleta = super::decode(answer)?;
        let due_date = Date::parse(&cobv.calendario.data_de_vencimento)
            .ok_or("unreadable answer at `calendario.dataDeVencimento`")?;
        let mut terms = DueTerms::new(due_date);
        terms.days_after_due =
            u16::try_from(cobv.calendario.validade_apos_vencimento).unwrap_or(u16::MAX);
        Ok(ChargeRecord {
            txid: cobv.txid,
            status: cobv.status,
            original: cobv.valor.original,
            location: cobv.location.or_else(|| cobv.loc.and_then(|l| l.location)),
            pix_copia_e_cola: cobv.pix_copia_e_cola,
            chave: cobv.chave,
            pix: cobv.pix,
            expires_at: end_of_day_brasilia(terms.last_payable_day()),
        })
    }

    /// The pix's `valor` is what its `componentesValor` add up to (when it has them), and the
    /// amount due on its payment date by pixgate's own calculation, or on the business day
    /// before it (a municipal holiday of the payer's moves the date for the payer's PSP).
    fn pays(&self, intent: &Intent, pix: &Pix) -> bool {
        let Ok(Some(terms)) = intent.due() else {
            return false;
        };
        let Some(original) = pixgate_domain::Money::from_centavos(intent.amount_centavos as u64)
        else {
            return false;
        };
        let valor = pix.valor.centavos();
        if let Some(parts) = &pix.componentes_valor
            && parts.sum_centavos() != Some(valor)
        {
            return false;
        }
        let Some(valor) = pixgate_domain::Money::from_centavos(valor) else {
            return false;
        };
        let paid_on = Date::from_unix_seconds_brasilia(pix.horario.unix_ms().div_euclid(1000));
        due::matches_paid(original, &terms, paid_on, valor)
    }

    fn removes_on_expiry(&self) -> bool {
        true
    }

    /// The pix's `valor` and its parts: the PSP's `componentesValor` when it sent them, else
    /// pixgate's calculation for the day that matched.
    fn paid(&self, intent: &Intent, pix: &Pix) -> Option<Paid> {
        let parts = match &pix.componentes_valor {
            Some(c) => {
                let v = |p: Option<Componente>| p.map_or(0, |p| p.valor.centavos());
                PaidComponents {
                    original: v(c.original),
                    fine: v(c.multa),
                    interest: v(c.juros),
                    abatement: v(c.abatimento),
                    discount: v(c.desconto),
                }
            }
            None => {
                let terms = intent.due().ok()??;
                let original =
                    pixgate_domain::Money::from_centavos(intent.amount_centavos.max(0) as u64)?;
                let paid_on =
                    Date::from_unix_seconds_brasilia(pix.horario.unix_ms().div_euclid(1000));
                let valor = pix.valor.centavos();
                let due_on = |day: Date| due::amount_due(original, &terms, day);
                let due = [paid_on, calendar::previous_business_day_before(paid_on)]
                    .into_iter()
                    .map(due_on)
                    .find(|d| d.total == valor)?;
                PaidComponents {
                    original: due.original,
                    fine: due.fine,
                    interest: due.interest,
                    abatement: due.abatement,
                    discount: due.discount,
                }
            }
        };
        Some(Paid {
            amount_centavos: i64::try_from(pix.valor.centavos()).ok()?,
            components: serde_json::to_string(&parts).ok()?,
        })
    }
}

/// The Unix ms at which `day` ends in Brasília.
fn end_of_day_brasilia(day: Date) -> i64 {
    day.add_days(1).days_since_unix_epoch() * 86_400_000 + BRASILIA_OFFSET_MS
}

/// The `PUT /cobv/{txid}` body of a due-date charge (an item of a lote too).
pub(super) fn cobv_request(charge: &NewCharge<'_>) -> Result<CobVSolicitada, String> {
    let request = charge.request;
    let terms = request
        .due
        .as_ref()
        .ok_or("a cobv needs the charge's due-date terms")?;
    let documento = match request.payer.kind() {
        TaxIdKind::Cpf => Documento::Cpf(request.payer.tax_id.as_str().to_owned()),
        TaxIdKind::Cnpj => Documento::Cnpj(request.payer.tax_id.as_str().to_owned()),
    };
    let address = request.payer.address.clone().unwrap_or_default();
    let solicitacao = request
        .description
        .as_deref()
        .unwrap_or(&request.reference)
        .chars()
        .take(SOLICITACAO_MAX)
        .collect::<String>();
    Ok(CobVSolicitada {
        calendario: CalendarioCobVSolicitado {
            data_de_vencimento: terms.due_date.to_string(),
            validade_apos_vencimento: Some(u32::from(terms.days_after_due)),
        },
        devedor: Some(DevedorCobV {
            pessoa: Devedor {
                documento,
                nome: request.payer.name.chars().take(NOME_MAX).collect(),
            },
            email: request.payer.email.as_ref().map(|e| e.as_str().to_owned()),
            logradouro: address.street,
            cidade: address.city,
            uf: address.state,
            cep: address.postal_code,
        }),
        valor: valor(request.amount.centavos(), terms)?,
        chave: charge.chave.to_owned(),
        solicitacao_pagador: (!solicitacao.trim().is_empty()).then_some(solicitacao),
        info_adicionais: Vec::new(),
    })
}

/// `valor` of the terms: each rule's `modalidade` and `valorPerc`.
fn valor(original: u64, terms: &DueTerms) -> Result<CobVValor, String> {
    let amount = |value: RuleValue| {
        Amount::from_centavos(value.hundredths()).ok_or("a value exceeds API Pix".to_owned())
    };
    let rule = |modalidade: u8, value: RuleValue| -> Result<Modalidade, String> {
        Ok(Modalidade {
            modalidade,
            valor_perc: amount(value)?,
        })
    };
    Ok(CobVValor {
        original: Amount::from_centavos(original).ok_or("the amount exceeds API Pix")?,
        multa: terms
            .fine
            .map(|f| rule(f.api_pix_modality(), f.value()))
            .transpose()?,
        juros: terms
            .interest
            .map(|i| rule(i.api_pix_modality(), i.value))
            .transpose()?,
        abatimento: terms
            .abatement
            .map(|a| rule(a.api_pix_modality(), a.value()))
            .transpose()?,
        desconto: terms
            .discount
            .as_ref()
            .map(|d| -> Result<Desconto, String> {
                Ok(match d {
                    Discount::UntilDates { dates, .. } => Desconto {
                        modalidade: d.api_pix_modality(),
                        desconto_data_fixa: dates
                            .iter()
                            .map(|(date, value)| {
                                Ok(DescontoDataFixa {
                                    data: date.to_string(),
                                    valor_perc: amount(*value)?,
                                })
                            })
                            .collect::<Result<_, String>>()?,
                        valor_perc: None,
                    },
                    Discount::Early { value, .. } => Desconto {
                        modalidade: d.api_pix_modality(),
                        desconto_data_fixa: Vec::new(),
                        valor_perc: Some(amount(*value)?),
                    },
                })
            })
            .transpose()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_domain::charge::CreatePaymentRequest;
    use serde_json::json;

    /// A due-date charge as the merchant API takes it, validated on 2026-11-27.
    fn invoice(extra: serde_json::Value) -> pixgate_domain::charge::ChargeRequest {
        let mut body = json!({
            "store": "shop", "amount": 100.0, "reference": "rent-1",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25", "email": "ana@example.com",
                      "address": {"street": "Av. Paulista, 1000", "city": "São Paulo",
                                  "state": "sp", "postalCode": "01310-100"}},
            "dueDate": "2027-03-10",
        });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (store, charge) = CreatePaymentRequest::from_json(body).unwrap().split();
        charge
            .validate(store, "", Date::parse("2026-11-27").unwrap())
            .unwrap()
    }

    fn request(charge: &pixgate_domain::charge::ChargeRequest) -> serde_json::Value {
        let new = NewCharge {
            request: charge,
            expiry_seconds: 3600,
            chave: "pix@psp.test",
        };
        Cobv.request(&new).unwrap()
    }

    #[test]
    fn the_terms_reach_the_psp_as_api_pix_modalities() {
        let charge = invoice(json!({
            "daysAfterDue": 15,
            "fine": {"type": "PERCENT", "value": 2},
            "interest": {"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1},
            "abatement": {"type": "FIXED", "value": 5},
            "discount": {"type": "FIXED_UNTIL_DATES",
                         "dates": [{"date": "2027-03-01", "value": 10},
                                   {"date": "2027-03-05", "value": 5}]},
        }));
        let body = request(&charge);
        assert_eq!(
            body["calendario"],
            json!({"dataDeVencimento": "2027-03-10", "validadeAposVencimento": 15})
        );
        assert_eq!(
            body["valor"],
            json!({
                "original": "100.00",
                "multa": {"modalidade": 2, "valorPerc": "2.00"},
                "juros": {"modalidade": 3, "valorPerc": "1.00"},
                "abatimento": {"modalidade": 1, "valorPerc": "5.00"},
                "desconto": {"modalidade": 1, "descontoDataFixa": [
                    {"data": "2027-03-01", "valorPerc": "10.00"},
                    {"data": "2027-03-05", "valorPerc": "5.00"}]},
            })
        );
        assert_eq!(
            body["devedor"],
            json!({"cpf": "52998224725", "nome": "Ana Souza", "email": "ana@example.com",
                   "logradouro": "Av. Paulista, 1000", "cidade": "São Paulo", "uf": "SP",
                   "cep": "01310100"})
        );
        assert_eq!(body["chave"], "pix@psp.test");
        // What the simulator (and any PSP) reads back is the standard's own type.
        serde_json::from_value::<CobVSolicitada>(body).unwrap();
    }

    #[test]
    fn an_early_payment_discount_is_one_value_per_day() {
        let charge = invoice(json!({
            "discount": {"type": "PERCENT_PER_BUSINESS_DAY_EARLY", "value": 0.5},
            "interest": {"type": "AMOUNT_PER_BUSINESS_DAY", "value": 0.25},
        }));
        let body = request(&charge);
        assert_eq!(
            body["valor"]["desconto"],
            json!({"modalidade": 6, "valorPerc": "0.50"})
        );
        assert_eq!(
            body["valor"]["juros"],
            json!({"modalidade": 5, "valorPerc": "0.25"})
        );
        // The default validity is written out.
        assert_eq!(body["calendario"]["validadeAposVencimento"], 30);
    }

    #[test]
    fn a_day_ends_at_three_utc_the_next_morning() {
        let day = Date::parse("2026-12-10").unwrap();
        // 2026-12-11T03:00:00Z
        assert_eq!(end_of_day_brasilia(day), 1_796_958_000_000);
    }
}
