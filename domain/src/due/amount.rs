//! The amount due on a date, and whether a paid amount is the one due.

use serde::Serialize;
use utoipa::ToSchema;

use super::DueTerms;
use super::calendar::{business_days_between, previous_business_day_before};
use super::date::Date;
use super::rules::{Abatement, Discount, Fine};
use crate::Money;

/// What a due-date charge costs when paid on `date` (`GET /payments/{id}/amount-due`): every
/// component in centavos, serialised as JSON numbers in reais. `total = original + fine +
/// interest - abatement - discount`, at least 1 centavo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({
    "date": "2026-12-12", "original": 100.0, "fine": 3.0, "interest": 2.0, "abatement": 0.0,
    "discount": 0.0, "total": 105.0, "payable": true
}))]
pub struct AmountDue {
    /// The payment date the amount is for (`YYYY-MM-DD`).
    #[schema(value_type = String, format = Date)]
    pub date: Date,
    /// The charge's amount.
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub original: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub fine: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub interest: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub abatement: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub discount: u64,
    /// What the payer pays on `date`.
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub total: u64,
    /// False after the last payable day (the moved due date plus `daysAfterDue`, moved to a
    /// business day).
    pub payable: bool,
}

/// The parts of a paid amount (the intent's `amountComponents`), as API Pix's
/// `componentesValor` names them: `original`, `multa`, `juros`, `abatimento`, `desconto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AmountComponents {
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub original: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub fine: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub interest: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub abatement: u64,
    #[serde(serialize_with = "as_brl")]
    #[schema(value_type = f64)]
    pub discount: u64,
}

impl AmountDue {
    pub fn components(&self) -> AmountComponents {
        AmountComponents {
            original: self.original,
            fine: self.fine,
            interest: self.interest,
            abatement: self.abatement,
            discount: self.discount,
        }
    }
}

fn as_brl<S: serde::Serializer>(centavos: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(crate::money::brl(*centavos))
}

/// `numerator / denominator` rounded half up (both non-negative, the denominator positive).
fn round_half_up(numerator: i128, denominator: i128) -> i128 {
    (2 * numerator + denominator) / (2 * denominator)
}

/// `base × hundredths-of-a-percent × days / period`, in centavos, rounded once.
fn percent_of(base: i128, hundredths: u64, days: i128, period: u32) -> i128 {
    round_half_up(
        base * i128::from(hundredths) * days,
        10_000 * i128::from(period),
    )
}

/// The amount due for a charge of `original` under `terms` when paid on `payment_date`. See
/// the module's documentation for every rule and the choices made where the contract is
/// silent.
pub fn amount_due(original: Money, terms: &DueTerms, payment_date: Date) -> AmountDue {
    let original_c = i128::from(original.centavos());
    let moved = terms.moved_due_date();

    // Granted on any date; of the original; never the whole of it.
    let abatement = match terms.abatement {
        None => 0,
        Some(Abatement::Fixed(m)) => i128::from(m.centavos()),
        Some(Abatement::Percent(p)) => percent_of(original_c, u64::from(p.hundredths()), 1, 1),
    }
    .min(original_c - 1);
    let base = original_c - abatement;

    let late = payment_date > moved;
    let fine = match terms.fine {
        Some(Fine::Fixed(m)) if late => i128::from(m.centavos()),
        Some(Fine::Percent(p)) if late => percent_of(base, u64::from(p.hundredths()), 1, 1),
        _ => 0,
    };
    let interest = match terms.interest {
        Some(interest) if late => {
            let days = if interest.modality.counts_business_days() {
                // Business days d with moved < d <= payment date.
                business_days_between(moved.add_days(1), payment_date.add_days(1)) as i128
            } else {
                i128::from(moved.days_until(payment_date))
            };
            let value = interest.value.hundredths();
            if interest.modality.is_percent() {
                percent_of(base, value, days, interest.modality.days_per_period())
            } else {
                i128::from(value) * days
            }
        }
        _ => 0,
    };

    let discount = match &terms.discount {
        None => 0,
        Some(Discount::UntilDates { percent, dates }) => dates
            .iter()
            .filter(|(date, _)| payment_date <= *date)
            .min_by_key(|(date, _)| *date)
            .map_or(0, |(_, value)| {
                if *percent {
                    percent_of(base, value.hundredths(), 1, 1)
                } else {
                    i128::from(value.hundredths())
                }
            }),
        Some(Discount::Early { modality, value }) => {
            let days = if payment_date >= moved {
                0
            } else if modality.counts_business_days() {
                // Business days d with payment date <= d < moved.
                business_days_between(payment_date, moved) as i128
            } else {
                i128::from(payment_date.days_until(moved))
            };
            if modality.is_percent() {
                percent_of(base, value.hundredths(), days, 1)
            } else {
                i128::from(value.hundredths()) * days
            }
        }
    };
    // The total never drops below 1 centavo.
    let discount = discount.min(base + fine + interest - 1);
    let total = base + fine + interest - discount;

    let c = |v: i128| u64::try_from(v).unwrap_or(u64::MAX);
    AmountDue {
        date: payment_date,
        original: original.centavos(),
        fine: c(fine),
        interest: c(interest),
        abatement: c(abatement),
        discount: c(discount),
        total: c(total),
        payable: terms.is_payable_on(payment_date),
    }
}

/// Whether a pix of `valor` paid on `paid_on` pays the charge: `valor` is the amount due on
/// `paid_on`, or on the business day before it (DESIGN.md section 16's tolerance for the
/// payer's municipal holidays, which move the due date for the payer's PSP but are not in
/// pixgate's national calendar). Amounts only: see the module's documentation.
pub fn matches_paid(original: Money, terms: &DueTerms, paid_on: Date, valor: Money) -> bool {
    let valor = valor.centavos();
    amount_due(original, terms, paid_on).total == valor
        || amount_due(original, terms, previous_business_day_before(paid_on)).total == valor
}
