//! Due-date charges (API Pix `cobv`, DESIGN.md section 16): the terms a merchant sets — a due
//! date, days of validity after it, a fine, interest, an abatement and a discount — and the
//! amount due on any date, one pure function shared by pixgate and its PSP simulator.
//!
//! "Today" is always a parameter ([`Date::from_unix_seconds_brasilia`] turns a clock reading
//! into Brasília's date); nothing here reads a clock.
//!
//! # The amount due on a date ([`amount_due`])
//!
//! `total = original + fine + interest - abatement - discount`, all in integer centavos. Each
//! component is computed as an exact rational (`i128`) and rounded once, half up, to the
//! centavo; no floating point takes part.
//!
//! - **Moved due date** ([`DueTerms::moved_due_date`]): the due date, or the next business day
//!   when it falls on a Saturday, a Sunday or a national holiday ([`calendar`]). Validity,
//!   fine, interest and the early-payment discounts follow the moved date.
//! - **Last payable day** ([`DueTerms::last_payable_day`]): the moved due date plus
//!   `daysAfterDue` calendar days, itself moved to the next business day (API Pix's validity
//!   examples A-G). `payable` is false after it.
//! - **Abatement**: granted on every date. A percentage is of `original`.
//! - **Percentages** of the fine, the interest and the discounts are of `original - abatement`
//!   (the Manual de Padrões' formula).
//! - **Fine**: charged once, in full, on any payment after the moved due date.
//! - **Interest**: simple, on payments after the moved due date, `value × days late` (the
//!   `AMOUNT_...` modalities) or `(original - abatement) × rate × days late / period`, where the
//!   period is 1 for a daily rate, 30 (calendar) or 21 (business days) for a monthly one, 365
//!   or 252 for a yearly one.
//! - **Discount until dates** (`FIXED_UNTIL_DATES`, `PERCENT_UNTIL_DATES`): of the dates not
//!   before the payment date, the earliest one's value applies; none when every date is past.
//!   The dates do not move.
//! - **Early-payment discount** (`..._DAY_EARLY`): `value × days early` (or the percentage of
//!   `original - abatement` × days early), days counted from the payment date to the moved due
//!   date.
//!
//! # Choices where the contract is silent
//!
//! - **Calendar days late** are `moved due date → payment date` (paid the day after: 1).
//!   **Business days late** are the business days `d` with `moved due date < d <= payment
//!   date`: the payment day counts when it is a business day, so a payment on the Saturday
//!   after a Friday due date is 0 business days late (yet pays the fine, charged from the day
//!   after, which the contract states in calendar terms).
//! - **Calendar days early** are `payment date → moved due date`. **Business days early** are
//!   the business days `d` with `payment date <= d < moved due date`: the mirror of the days
//!   late (the payment day counts when it is a business day, the due date does not), so paying
//!   on the Saturday before a Monday due date is 0 business days early, and Friday is 1.
//! - **When discounts stop**: a discount until a date applies on that date too (API Pix: "até
//!   aquela data"; since API Pix 2.6.3 a date may equal the due date, which only means anything
//!   if the due date itself earns it). An early-payment discount is zero on the moved due date
//!   (0 days early) and after it. Because the dates do not move, a discount dated a due date
//!   that falls on a weekend is not granted on the business day the due date moves to (nor is
//!   any fixed-date discount after its date). API Pix says every field referring to the due
//!   date, `desconto` among them, assumes the move; DESIGN.md keeps the dates fixed, and the
//!   early-payment discounts are what follows the moved date.
//! - **Never below 1 centavo**: the abatement is capped at `original - 0.01` (a 99.99 %
//!   abatement of R$ 0.01 would round to R$ 0.01), and the discount at
//!   `original + fine + interest - abatement - 0.01`. [`DueTerms::from_body`] already refuses a
//!   fixed abatement or discount at or above the amount and percentages of 100 % or more; the
//!   cap covers what stays possible: an abatement and a discount that together reach the
//!   amount, and early-payment discounts accrued over many days. The capped value is what
//!   `discount` shows, so the components always add up to `total`.
//! - **Bounds of the values** ([`DueTerms::from_body`]): a percentage of a fine or of interest
//!   is 0.01 to 100.00 (per day, month or year alike); of an abatement or a discount 0.01 to
//!   99.99 (API Pix refuses 100 % or more). Amounts follow the charge amount's rules; a fixed
//!   abatement, a discount's value per date and an early discount's value per day must be
//!   below the charge's amount (API Pix refuses "algum elemento de desconto ... maior ou igual
//!   ao valor da cobrança original"); a fixed fine and interest per day are not bounded by it.
//!   A discount date may be before today: it never applies.
//! - **After the last payable day** the amount is still computed (fine and interest keep
//!   accruing); only `payable` says no.
//! - **Holidays**: national only (see [`calendar`]); 20 November counts from 2024, when it
//!   became national.
//! - **Brasília's date**: UTC-3 at every instant, also during the summer times before 2019.
//! - **The tolerance of [`matches_paid`]** compares amounts only; whether the PSP should have
//!   taken a payment after the last payable day is not its question (a municipal holiday on
//!   that day moves it for the payer).

pub mod calendar;
mod date;
mod percent;
mod rules;

mod amount;
mod body;

#[cfg(test)]
mod tests;

pub use amount::{AmountComponents, AmountDue, amount_due, matches_paid};
pub use body::{
    ADDRESS_FIELD_CODES, AbatementBody, Address, DATE_PATTERN, DiscountBody, DiscountDateBody,
    DueDateFields, FineBody, InterestBody, JsonNumber, POSTAL_CODE_PATTERN, UF_PATTERN, UFS,
    ValidAddress, check_due_literals,
};
pub use date::{Date, Weekday, days_in_month};
pub use percent::{Percent, PercentError};
pub use rules::{
    Abatement, Discount, DiscountModality, EarlyDiscountModality, Fine, FixedOrPercent, Interest,
    InterestModality, RuleValue,
};

/// The terms of a due-date charge: its due date, how long after it the charge stays payable,
/// and its adjustment rules. Built from a request by [`DueTerms::from_body`], which checks every
/// rule of the contract; [`amount_due`] is total for any value (see its caps).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DueTerms {
    /// `dueDate` (API Pix `calendario.dataDeVencimento`), as given: not moved.
    pub due_date: Date,
    /// `daysAfterDue` (API Pix `calendario.validadeAposVencimento`): 0 to 3,650, default 30.
    pub days_after_due: u16,
    pub fine: Option<Fine>,
    pub interest: Option<Interest>,
    pub abatement: Option<Abatement>,
    pub discount: Option<Discount>,
}

impl DueTerms {
    /// `daysAfterDue` when absent (API Pix's default).
    pub const DEFAULT_DAYS_AFTER_DUE: u16 = 30;
    /// The largest `daysAfterDue` (about ten years).
    pub const MAX_DAYS_AFTER_DUE: u16 = 3_650;

    /// Due on `due_date`, payable 30 days after it, without adjustment rules.
    pub fn new(due_date: Date) -> Self {
        Self {
            due_date,
            days_after_due: Self::DEFAULT_DAYS_AFTER_DUE,
            fine: None,
            interest: None,
            abatement: None,
            discount: None,
        }
    }

    /// The due date, or the next business day when it is not one.
    pub fn moved_due_date(&self) -> Date {
        calendar::next_business_day_from(self.due_date)
    }

    /// The moved due date plus `days_after_due` calendar days, moved to the next business day
    /// when it is not one.
    pub fn last_payable_day(&self) -> Date {
        calendar::next_business_day_from(
            self.moved_due_date()
                .add_days(i64::from(self.days_after_due)),
        )
    }

    /// Whether a payment on `date` is within validity (not after the last payable day).
    pub fn is_payable_on(&self, date: Date) -> bool {
        date <= self.last_payable_day()
    }
}
