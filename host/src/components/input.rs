//! What the chain (`pixgate:chain@1.1.0`) is told of a charge: the charge without PII and with
//! its kind (an immediate charge, a recurring charge with its mandate and cycle, or a due-date charge with its terms in the chain's units:
//! centavos, hundredths of a percent, API Pix's modalities in their order), the store and its
//! configuration, its gateways with their health, and the step environment. Built the same for
//! a charge ([`crate::routing`]) and for an operator's evaluation ([`super::evaluate`]).

use std::collections::BTreeMap;

use pixgate_domain::charge::ChargeRequest;
use pixgate_domain::due::{self, DueTerms, RuleValue};
use pixgate_domain::mandate::Frequency;
use pixgate_domain::{StoreMode, TaxIdKind};
use pixgate_policy_logic as logic;
use pixgate_sandbox::chain::ChainInput;

use crate::db::catalog;

/// What the chain sees of a charge: the charge without PII, the store and its
/// configuration, its gateways with their providers' recent health (`health`, measured from
/// real PSP calls), and the step environment (the charge's time and a seed derived from
/// `seed_source`). The health is an input like any other: the trace records it, so replay
/// stays exact.
#[allow(clippy::too_many_arguments)]
pub fn chain_input(
    health: impl Fn(&str) -> logic::GatewayHealth,
    store: &catalog::Store,
    gateways: &[catalog::Gateway],
    merchant: &str,
    request: &ChargeRequest,
    seed_source: &str,
    now: i64,
) -> ChainInput {
    let config: BTreeMap<String, String> = store.config_map();
    let seed = u64::from_le_bytes(
        pixgate_domain::sha256_hex(seed_source).as_bytes()[..8]
            .try_into()
            .unwrap_or_default(),
    );
    ChainInput {
        charge: logic::Charge {
            amount_centavos: request.amount.centavos(),
            currency: "BRL".into(),
            reference: request.reference.clone(),
            payer_kind: match request.payer.kind() {
                TaxIdKind::Cpf => logic::PayerKind::Cpf,
                TaxIdKind::Cnpj => logic::PayerKind::Cnpj,
            },
            metadata_json: request.metadata.clone(),
            created_at_ms: now,
            kind: charge_kind(request),
        },
        store: logic::StoreContext {
            code: store.code.clone(),
            merchant: merchant.to_owned(),
            mode: match store.mode {
                StoreMode::Live => logic::StoreMode::Live,
                StoreMode::Shadow => logic::StoreMode::Shadow,
            },
            config: config
                .into_iter()
                .map(|(key, value)| logic::ConfigEntry { key, value })
                .collect(),
        },
        gateways: gateways
            .iter()
            .map(|g| to_logic_gateway(g, health(&g.provider_code)))
            .collect(),
        env: logic::StepEnv { now_ms: now, seed },
        pinned_gateway: request.pinned_gateway.clone(),
    }
}

fn to_logic_gateway(g: &catalog::Gateway, health: logic::GatewayHealth) -> logic::Gateway {
    logic::Gateway {
        provider_code: g.provider_code.clone(),
        gateway_alias: g.alias.clone(),
        release_class: g.release_class.clone(),
        fee_terms: logic::FeeTerms {
            mdr_bps: g.mdr_bps as u32,
            fixed_centavos: g.fixed_centavos as u64,
            min_fee_centavos: g.min_fee_centavos as u64,
            max_fee_centavos: g.max_fee_centavos.map(|m| m as u64),
        },
        health,
    }
}

/// The chain's `charge-kind` of `request`.
fn charge_kind(request: &ChargeRequest) -> logic::ChargeKind {
    if let Some(terms) = &request.recurring {
        return logic::ChargeKind::Recurring(logic::MandateTerms {
            mandate_id: terms.mandate_id.clone(),
            frequency: frequency(terms.frequency),
            cycle: terms.cycle,
            due_date: terms.due_date.to_string(),
        });
    }
    match &request.due {
        None => logic::ChargeKind::Immediate,
        Some(terms) => logic::ChargeKind::DueDate(due_terms(terms)),
    }
}

fn frequency(f: Frequency) -> logic::MandateFrequency {
    match f {
        Frequency::Weekly => logic::MandateFrequency::Weekly,
        Frequency::Monthly => logic::MandateFrequency::Monthly,
        Frequency::Quarterly => logic::MandateFrequency::Quarterly,
        Frequency::Semiannual => logic::MandateFrequency::Semiannual,
        Frequency::Annual => logic::MandateFrequency::Annual,
    }
}

fn due_terms(terms: &DueTerms) -> logic::DueTerms {
    logic::DueTerms {
        due_date: terms.due_date.to_string(),
        days_after_due: u32::from(terms.days_after_due),
        fine: terms.fine.map(|f| fixed_or_percent(f.kind(), f.value())),
        interest: terms.interest.map(|i| logic::InterestRule {
            modality: interest_modality(i.api_pix_modality()),
            value: i.value.hundredths(),
        }),
        abatement: terms
            .abatement
            .map(|a| fixed_or_percent(a.kind(), a.value())),
        discount: terms.discount.as_ref().map(discount),
    }
}

fn fixed_or_percent(kind: due::FixedOrPercent, value: RuleValue) -> logic::FixedOrPercentRule {
    logic::FixedOrPercentRule {
        kind: match kind {
            due::FixedOrPercent::Fixed => logic::FixedOrPercent::Fixed,
            due::FixedOrPercent::Percent => logic::FixedOrPercent::Percent,
        },
        value: value.hundredths(),
    }
}

/// API Pix `juros` modality 1 to 8, which the chain's enum lists in order.
fn interest_modality(code: u8) -> logic::InterestModality {
    use logic::InterestModality::*;
    match code {
        1 => AmountPerCalendarDay,
        2 => PercentPerCalendarDay,
        3 => PercentPerCalendarMonth,
        4 => PercentPerCalendarYear,
        5 => AmountPerBusinessDay,
        6 => PercentPerBusinessDay,
        7 => PercentPerBusinessMonth,
        _ => PercentPerBusinessYear,
    }
}

fn discount(d: &due::Discount) -> logic::DiscountRule {
    use logic::DiscountModality::*;
    let modality = match d.api_pix_modality() {
        1 => FixedUntilDates,
        2 => PercentUntilDates,
        3 => AmountPerCalendarDayEarly,
        4 => AmountPerBusinessDayEarly,
        5 => PercentPerCalendarDayEarly,
        _ => PercentPerBusinessDayEarly,
    };
    match d {
        due::Discount::UntilDates { dates, .. } => logic::DiscountRule {
            modality,
            value: 0,
            dates: dates
                .iter()
                .map(|(date, value)| logic::DiscountDate {
                    date: date.to_string(),
                    value: value.hundredths(),
                })
                .collect(),
        },
        due::Discount::Early { value, .. } => logic::DiscountRule {
            modality,
            value: value.hundredths(),
            dates: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_domain::due::{Date, DiscountModality, InterestModality};

    /// Every modality reaches the chain as the enum case of the same API Pix number: the
    /// chain's enums list them in API Pix's order.
    #[test]
    fn modalities_keep_their_api_pix_order() {
        for m in InterestModality::ALL {
            let chain = interest_modality(m.api_pix_modality());
            let name = serde_json::to_value(chain).unwrap();
            assert_eq!(name, serde_json::json!(m.as_str()), "{m:?}");
        }
        for m in DiscountModality::ALL {
            let d = match m.early() {
                Some(early) => due::Discount::Early {
                    modality: early,
                    value: RuleValue::Amount(pixgate_domain::Money::from_centavos(5).unwrap()),
                },
                None => due::Discount::UntilDates {
                    percent: m == DiscountModality::PercentUntilDates,
                    dates: vec![(
                        Date::parse("2027-03-01").unwrap(),
                        RuleValue::Amount(pixgate_domain::Money::from_centavos(5).unwrap()),
                    )],
                },
            };
            let name = serde_json::to_value(discount(&d).modality).unwrap();
            assert_eq!(name, serde_json::json!(m.as_str()), "{m:?}");
        }
    }
}
