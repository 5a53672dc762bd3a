//! The adjustment rules of a due-date charge as typed values, with their API Pix
//! `modalidade` codes and the names pixgate's API gives them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::date::Date;
use super::percent::Percent;
use crate::Money;

/// A rule's value: an amount of money or a percentage. Both are hundredths (centavos, or
/// hundredths of a percent); the rule's modality says which one it must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleValue {
    Amount(Money),
    Percent(Percent),
}

impl RuleValue {
    /// Centavos for an amount, hundredths of a percent for a percentage.
    pub fn hundredths(self) -> u64 {
        match self {
            RuleValue::Amount(m) => m.centavos(),
            RuleValue::Percent(p) => u64::from(p.hundredths()),
        }
    }

    pub fn is_percent(self) -> bool {
        matches!(self, RuleValue::Percent(_))
    }

    /// As a JSON number: reais for an amount (129.9), percent for a percentage (2.5).
    pub fn as_f64(self) -> f64 {
        match self {
            RuleValue::Amount(m) => m.brl(),
            RuleValue::Percent(p) => p.as_f64(),
        }
    }

    /// As API Pix's `valorPerc`: `12.00` for R$ 12 or 12 %.
    pub fn to_valor_perc(self) -> String {
        let h = self.hundredths();
        format!("{}.{:02}", h / 100, h % 100)
    }
}

/// The `type` of a fine or an abatement: a fixed amount or a percentage of the charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FixedOrPercent {
    /// API Pix modalidade 1: valor fixo.
    Fixed,
    /// API Pix modalidade 2: percentual.
    Percent,
}

impl FixedOrPercent {
    pub const ALL: [FixedOrPercent; 2] = [FixedOrPercent::Fixed, FixedOrPercent::Percent];

    pub fn as_str(self) -> &'static str {
        match self {
            FixedOrPercent::Fixed => "FIXED",
            FixedOrPercent::Percent => "PERCENT",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// API Pix `multa.modalidade` / `abatimento.modalidade`: 1 fixed, 2 percent.
    pub fn api_pix_modality(self) -> u8 {
        match self {
            FixedOrPercent::Fixed => 1,
            FixedOrPercent::Percent => 2,
        }
    }

    pub fn from_api_pix_modality(code: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.api_pix_modality() == code)
    }
}

/// The fine (API Pix `multa`), charged once when the charge is paid after its (moved) due date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fine {
    Fixed(Money),
    /// Of `original - abatement`.
    Percent(Percent),
}

/// The abatement (API Pix `abatimento`): a deduction granted whatever the payment date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Abatement {
    Fixed(Money),
    /// Of `original`.
    Percent(Percent),
}

macro_rules! fixed_or_percent_rule {
    ($rule:ident) => {
        impl $rule {
            pub fn kind(self) -> FixedOrPercent {
                match self {
                    $rule::Fixed(_) => FixedOrPercent::Fixed,
                    $rule::Percent(_) => FixedOrPercent::Percent,
                }
            }

            /// `FIXED` or `PERCENT`.
            pub fn as_str(self) -> &'static str {
                self.kind().as_str()
            }

            /// API Pix `modalidade`: 1 fixed, 2 percent.
            pub fn api_pix_modality(self) -> u8 {
                self.kind().api_pix_modality()
            }

            pub fn value(self) -> RuleValue {
                match self {
                    $rule::Fixed(m) => RuleValue::Amount(m),
                    $rule::Percent(p) => RuleValue::Percent(p),
                }
            }

            /// The rule of API Pix `modalidade` `code` with `value`, when the value is of
            /// the modality's kind.
            pub fn from_api_pix(code: u8, value: RuleValue) -> Option<Self> {
                match (FixedOrPercent::from_api_pix_modality(code)?, value) {
                    (FixedOrPercent::Fixed, RuleValue::Amount(m)) => Some($rule::Fixed(m)),
                    (FixedOrPercent::Percent, RuleValue::Percent(p)) => Some($rule::Percent(p)),
                    _ => None,
                }
            }
        }
    };
}

fixed_or_percent_rule!(Fine);
fixed_or_percent_rule!(Abatement);

/// How interest (API Pix `juros`) accrues: API Pix modalidade 1 to 8, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum InterestModality {
    /// 1: an amount per calendar day late.
    AmountPerCalendarDay,
    /// 2: a percentage per calendar day late.
    PercentPerCalendarDay,
    /// 3: a percentage per month, 1/30 of it per calendar day late.
    PercentPerCalendarMonth,
    /// 4: a percentage per year, 1/365 of it per calendar day late.
    PercentPerCalendarYear,
    /// 5: an amount per business day late.
    AmountPerBusinessDay,
    /// 6: a percentage per business day late.
    PercentPerBusinessDay,
    /// 7: a percentage per month, 1/21 of it per business day late.
    PercentPerBusinessMonth,
    /// 8: a percentage per year, 1/252 of it per business day late.
    PercentPerBusinessYear,
}

impl InterestModality {
    /// In API Pix order (modalidade 1 to 8).
    pub const ALL: [InterestModality; 8] = [
        InterestModality::AmountPerCalendarDay,
        InterestModality::PercentPerCalendarDay,
        InterestModality::PercentPerCalendarMonth,
        InterestModality::PercentPerCalendarYear,
        InterestModality::AmountPerBusinessDay,
        InterestModality::PercentPerBusinessDay,
        InterestModality::PercentPerBusinessMonth,
        InterestModality::PercentPerBusinessYear,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            InterestModality::AmountPerCalendarDay => "AMOUNT_PER_CALENDAR_DAY",
            InterestModality::PercentPerCalendarDay => "PERCENT_PER_CALENDAR_DAY",
            InterestModality::PercentPerCalendarMonth => "PERCENT_PER_CALENDAR_MONTH",
            InterestModality::PercentPerCalendarYear => "PERCENT_PER_CALENDAR_YEAR",
            InterestModality::AmountPerBusinessDay => "AMOUNT_PER_BUSINESS_DAY",
            InterestModality::PercentPerBusinessDay => "PERCENT_PER_BUSINESS_DAY",
            InterestModality::PercentPerBusinessMonth => "PERCENT_PER_BUSINESS_MONTH",
            InterestModality::PercentPerBusinessYear => "PERCENT_PER_BUSINESS_YEAR",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// API Pix `juros.modalidade`, 1 to 8.
    pub fn api_pix_modality(self) -> u8 {
        match self {
            InterestModality::AmountPerCalendarDay => 1,
            InterestModality::PercentPerCalendarDay => 2,
            InterestModality::PercentPerCalendarMonth => 3,
            InterestModality::PercentPerCalendarYear => 4,
            InterestModality::AmountPerBusinessDay => 5,
            InterestModality::PercentPerBusinessDay => 6,
            InterestModality::PercentPerBusinessMonth => 7,
            InterestModality::PercentPerBusinessYear => 8,
        }
    }

    pub fn from_api_pix_modality(code: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.api_pix_modality() == code)
    }

    /// Whether the value is a percentage (else an amount).
    pub fn is_percent(self) -> bool {
        !matches!(
            self,
            InterestModality::AmountPerCalendarDay | InterestModality::AmountPerBusinessDay
        )
    }

    /// Whether days late are business days (else calendar days).
    pub fn counts_business_days(self) -> bool {
        self.api_pix_modality() >= 5
    }

    /// The days the rate is spread over: 1 for a daily rate, 30 or 21 for a monthly one, 365
    /// or 252 for a yearly one (calendar or business days).
    pub fn days_per_period(self) -> u32 {
        match self {
            InterestModality::AmountPerCalendarDay
            | InterestModality::PercentPerCalendarDay
            | InterestModality::AmountPerBusinessDay
            | InterestModality::PercentPerBusinessDay => 1,
            InterestModality::PercentPerCalendarMonth => 30,
            InterestModality::PercentPerCalendarYear => 365,
            InterestModality::PercentPerBusinessMonth => 21,
            InterestModality::PercentPerBusinessYear => 252,
        }
    }
}

/// Interest (API Pix `juros`): simple, from the day after the moved due date. `value` is an
/// amount for the `AMOUNT_PER_...` modalities and a percentage of `original - abatement` for
/// the others; [`Interest::new`] refuses a value of the other kind, and the calculation reads
/// `value`'s hundredths as the modality says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interest {
    pub modality: InterestModality,
    pub value: RuleValue,
}

impl Interest {
    pub fn new(modality: InterestModality, value: RuleValue) -> Option<Self> {
        (modality.is_percent() == value.is_percent()).then_some(Self { modality, value })
    }

    pub fn as_str(self) -> &'static str {
        self.modality.as_str()
    }

    pub fn api_pix_modality(self) -> u8 {
        self.modality.api_pix_modality()
    }
}

/// A discount's `type`: API Pix `desconto.modalidade` 1 to 6, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DiscountModality {
    /// 1: a fixed amount until each of up to three dates.
    FixedUntilDates,
    /// 2: a percentage until each of up to three dates.
    PercentUntilDates,
    /// 3: an amount per calendar day paid before the due date.
    AmountPerCalendarDayEarly,
    /// 4: an amount per business day paid before the due date.
    AmountPerBusinessDayEarly,
    /// 5: a percentage per calendar day paid before the due date.
    PercentPerCalendarDayEarly,
    /// 6: a percentage per business day paid before the due date.
    PercentPerBusinessDayEarly,
}

impl DiscountModality {
    /// In API Pix order (modalidade 1 to 6).
    pub const ALL: [DiscountModality; 6] = [
        DiscountModality::FixedUntilDates,
        DiscountModality::PercentUntilDates,
        DiscountModality::AmountPerCalendarDayEarly,
        DiscountModality::AmountPerBusinessDayEarly,
        DiscountModality::PercentPerCalendarDayEarly,
        DiscountModality::PercentPerBusinessDayEarly,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DiscountModality::FixedUntilDates => "FIXED_UNTIL_DATES",
            DiscountModality::PercentUntilDates => "PERCENT_UNTIL_DATES",
            DiscountModality::AmountPerCalendarDayEarly => "AMOUNT_PER_CALENDAR_DAY_EARLY",
            DiscountModality::AmountPerBusinessDayEarly => "AMOUNT_PER_BUSINESS_DAY_EARLY",
            DiscountModality::PercentPerCalendarDayEarly => "PERCENT_PER_CALENDAR_DAY_EARLY",
            DiscountModality::PercentPerBusinessDayEarly => "PERCENT_PER_BUSINESS_DAY_EARLY",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// API Pix `desconto.modalidade`, 1 to 6.
    pub fn api_pix_modality(self) -> u8 {
        match self {
            DiscountModality::FixedUntilDates => 1,
            DiscountModality::PercentUntilDates => 2,
            DiscountModality::AmountPerCalendarDayEarly => 3,
            DiscountModality::AmountPerBusinessDayEarly => 4,
            DiscountModality::PercentPerCalendarDayEarly => 5,
            DiscountModality::PercentPerBusinessDayEarly => 6,
        }
    }

    pub fn from_api_pix_modality(code: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.api_pix_modality() == code)
    }

    /// Whether the value is a percentage (else an amount).
    pub fn is_percent(self) -> bool {
        matches!(
            self,
            DiscountModality::PercentUntilDates
                | DiscountModality::PercentPerCalendarDayEarly
                | DiscountModality::PercentPerBusinessDayEarly
        )
    }

    /// The early-payment modality, for 3 to 6.
    pub fn early(self) -> Option<EarlyDiscountModality> {
        EarlyDiscountModality::ALL
            .into_iter()
            .find(|e| e.modality() == self)
    }
}

/// A discount per day paid before the moved due date: API Pix `desconto.modalidade` 3 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EarlyDiscountModality {
    /// 3: an amount per calendar day.
    AmountPerCalendarDayEarly,
    /// 4: an amount per business day.
    AmountPerBusinessDayEarly,
    /// 5: a percentage of `original - abatement` per calendar day.
    PercentPerCalendarDayEarly,
    /// 6: a percentage of `original - abatement` per business day.
    PercentPerBusinessDayEarly,
}

impl EarlyDiscountModality {
    pub const ALL: [EarlyDiscountModality; 4] = [
        EarlyDiscountModality::AmountPerCalendarDayEarly,
        EarlyDiscountModality::AmountPerBusinessDayEarly,
        EarlyDiscountModality::PercentPerCalendarDayEarly,
        EarlyDiscountModality::PercentPerBusinessDayEarly,
    ];

    pub fn modality(self) -> DiscountModality {
        match self {
            EarlyDiscountModality::AmountPerCalendarDayEarly => {
                DiscountModality::AmountPerCalendarDayEarly
            }
            EarlyDiscountModality::AmountPerBusinessDayEarly => {
                DiscountModality::AmountPerBusinessDayEarly
            }
            EarlyDiscountModality::PercentPerCalendarDayEarly => {
                DiscountModality::PercentPerCalendarDayEarly
            }
            EarlyDiscountModality::PercentPerBusinessDayEarly => {
                DiscountModality::PercentPerBusinessDayEarly
            }
        }
    }

    pub fn as_str(self) -> &'static str {
        self.modality().as_str()
    }

    pub fn parse(name: &str) -> Option<Self> {
        DiscountModality::parse(name)?.early()
    }

    /// API Pix `desconto.modalidade`, 3 to 6.
    pub fn api_pix_modality(self) -> u8 {
        self.modality().api_pix_modality()
    }

    pub fn from_api_pix_modality(code: u8) -> Option<Self> {
        DiscountModality::from_api_pix_modality(code)?.early()
    }

    pub fn is_percent(self) -> bool {
        self.modality().is_percent()
    }

    /// Whether days early are business days (else calendar days).
    pub fn counts_business_days(self) -> bool {
        matches!(
            self,
            EarlyDiscountModality::AmountPerBusinessDayEarly
                | EarlyDiscountModality::PercentPerBusinessDayEarly
        )
    }
}

/// The discount (API Pix `desconto`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Discount {
    /// Modalidade 1 (`percent` false: amounts) or 2 (`percent` true: percentages of
    /// `original - abatement`): each `(date, value)` applies to a payment on or before its
    /// date; of several, the one with the earliest date not before the payment date. The dates
    /// do not move with the due date. [`super::DueTerms::from_body`] admits 1 to 3 dates,
    /// strictly increasing, none after the due date.
    UntilDates {
        percent: bool,
        dates: Vec<(Date, RuleValue)>,
    },
    /// Modalidade 3 to 6: `value` per day from the payment date to the moved due date.
    Early {
        modality: EarlyDiscountModality,
        value: RuleValue,
    },
}

impl Discount {
    pub fn modality(&self) -> DiscountModality {
        match self {
            Discount::UntilDates { percent: false, .. } => DiscountModality::FixedUntilDates,
            Discount::UntilDates { percent: true, .. } => DiscountModality::PercentUntilDates,
            Discount::Early { modality, .. } => modality.modality(),
        }
    }

    pub fn as_str(&self) -> &'static str {
        self.modality().as_str()
    }

    pub fn api_pix_modality(&self) -> u8 {
        self.modality().api_pix_modality()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_pix_codes_and_names_round_trip() {
        for (i, m) in InterestModality::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(m.api_pix_modality()), i + 1);
            assert_eq!(
                InterestModality::from_api_pix_modality(m.api_pix_modality()),
                Some(m)
            );
            assert_eq!(InterestModality::parse(m.as_str()), Some(m));
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                serde_json::json!(m.as_str())
            );
        }
        for (i, m) in DiscountModality::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(m.api_pix_modality()), i + 1);
            assert_eq!(
                DiscountModality::from_api_pix_modality(m.api_pix_modality()),
                Some(m)
            );
            assert_eq!(DiscountModality::parse(m.as_str()), Some(m));
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                serde_json::json!(m.as_str())
            );
            assert_eq!(m.early().is_some(), i >= 2);
        }
        for e in EarlyDiscountModality::ALL {
            assert_eq!(EarlyDiscountModality::parse(e.as_str()), Some(e));
            assert_eq!(
                EarlyDiscountModality::from_api_pix_modality(e.api_pix_modality()),
                Some(e)
            );
        }
        for k in FixedOrPercent::ALL {
            assert_eq!(FixedOrPercent::parse(k.as_str()), Some(k));
            assert_eq!(
                FixedOrPercent::from_api_pix_modality(k.api_pix_modality()),
                Some(k)
            );
            assert_eq!(
                serde_json::to_value(k).unwrap(),
                serde_json::json!(k.as_str())
            );
        }
        for bad in [0, 9, 255] {
            assert_eq!(InterestModality::from_api_pix_modality(bad), None);
        }
        assert_eq!(DiscountModality::from_api_pix_modality(7), None);
        assert_eq!(EarlyDiscountModality::from_api_pix_modality(2), None);
        assert_eq!(FixedOrPercent::from_api_pix_modality(3), None);
        assert_eq!(InterestModality::parse("amount_per_calendar_day"), None);
        // The names and codes of the contract and of API Pix, side by side.
        let names: Vec<(&str, u8)> = InterestModality::ALL
            .iter()
            .map(|m| (m.as_str(), m.api_pix_modality()))
            .collect();
        assert_eq!(
            names,
            [
                ("AMOUNT_PER_CALENDAR_DAY", 1),
                ("PERCENT_PER_CALENDAR_DAY", 2),
                ("PERCENT_PER_CALENDAR_MONTH", 3),
                ("PERCENT_PER_CALENDAR_YEAR", 4),
                ("AMOUNT_PER_BUSINESS_DAY", 5),
                ("PERCENT_PER_BUSINESS_DAY", 6),
                ("PERCENT_PER_BUSINESS_MONTH", 7),
                ("PERCENT_PER_BUSINESS_YEAR", 8),
            ]
        );
        let names: Vec<(&str, u8)> = DiscountModality::ALL
            .iter()
            .map(|m| (m.as_str(), m.api_pix_modality()))
            .collect();
        assert_eq!(
            names,
            [
                ("FIXED_UNTIL_DATES", 1),
                ("PERCENT_UNTIL_DATES", 2),
                ("AMOUNT_PER_CALENDAR_DAY_EARLY", 3),
                ("AMOUNT_PER_BUSINESS_DAY_EARLY", 4),
                ("PERCENT_PER_CALENDAR_DAY_EARLY", 5),
                ("PERCENT_PER_BUSINESS_DAY_EARLY", 6),
            ]
        );
    }

    #[test]
    fn rules_know_their_kind() {
        let ten = Money::from_centavos(1_000).unwrap();
        let two = Percent::from_hundredths(200).unwrap();
        assert_eq!(Fine::Fixed(ten).api_pix_modality(), 1);
        assert_eq!(Fine::Percent(two).as_str(), "PERCENT");
        assert_eq!(Abatement::Fixed(ten).value(), RuleValue::Amount(ten));
        assert_eq!(
            Fine::from_api_pix(2, RuleValue::Percent(two)),
            Some(Fine::Percent(two))
        );
        assert_eq!(Fine::from_api_pix(2, RuleValue::Amount(ten)), None);
        assert_eq!(
            Abatement::from_api_pix(1, RuleValue::Amount(ten)),
            Some(Abatement::Fixed(ten))
        );
        assert!(
            Interest::new(
                InterestModality::AmountPerBusinessDay,
                RuleValue::Amount(ten)
            )
            .is_some()
        );
        assert!(
            Interest::new(
                InterestModality::AmountPerBusinessDay,
                RuleValue::Percent(two)
            )
            .is_none()
        );
        assert!(
            Interest::new(
                InterestModality::PercentPerCalendarYear,
                RuleValue::Amount(ten)
            )
            .is_none()
        );
        assert_eq!(RuleValue::Amount(ten).to_valor_perc(), "10.00");
        assert_eq!(RuleValue::Percent(two).to_valor_perc(), "2.00");
        let d = Discount::Early {
            modality: EarlyDiscountModality::PercentPerBusinessDayEarly,
            value: RuleValue::Percent(two),
        };
        assert_eq!(
            (d.as_str(), d.api_pix_modality()),
            ("PERCENT_PER_BUSINESS_DAY_EARLY", 6)
        );
        let d = Discount::UntilDates {
            percent: true,
            dates: vec![],
        };
        assert_eq!(d.api_pix_modality(), 2);
    }
}
