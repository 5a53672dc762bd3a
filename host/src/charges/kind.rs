//! What the chain (`pixgate:chain@1.1.0`) is told of a charge's kind: an immediate charge, or a
//! due-date charge with its terms, in the chain's units (centavos, hundredths of a percent,
//! API Pix's modalities in their order).

use pixgate_domain::charge::ChargeRequest;
use pixgate_domain::due::{self, DueTerms, RuleValue};
use pixgate_policy_logic as logic;

/// The chain's `charge-kind` of `request`.
pub(super) fn charge_kind(request: &ChargeRequest) -> logic::ChargeKind {
    match &request.due {
        None => logic::ChargeKind::Immediate,
        Some(terms) => logic::ChargeKind::DueDate(due_terms(terms)),
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
