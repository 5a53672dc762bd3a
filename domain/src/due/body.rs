//! The due-date fields of a charge body and `payer.address`, as the API receives them, and
//! their checks ([`DueTerms::from_body`], [`Address::validate`]).
//!
//! # Refusals (HTTP 400)
//!
//! Each names the field at fault as a path from the body (`fine.value`,
//! `discount.dates[1].date`, `payer.address.state`; `charge.` in front on the admin evaluate
//! route) and carries one of these codes:
//!
//! | code | when |
//! |---|---|
//! | `missing_field` | `dueDate` absent (or `null`) while another due-date field is present; a rule without its `type` or `value`; `discount.dates` absent with a `..._UNTIL_DATES` type |
//! | `unknown_field` | a member a rule does not have (`fine.percent`, `discount.dates[0].amount`) |
//! | `invalid_due_date` | `dueDate` not a string `YYYY-MM-DD` naming a real day, or before today in Brasília |
//! | `invalid_days_after_due` | `daysAfterDue` not a whole number from 0 to 3650 |
//! | `invalid_fine` | `fine` not an object; `fine.type` not `FIXED` or `PERCENT`; `fine.value` not a number, with more than two decimals, an amount outside 0.01 to 100000000.00 or a percentage outside 0.01 to 100.00 |
//! | `invalid_interest` | `interest` not an object; `interest.type` not one of the eight modalities; `interest.value` as for a fine (an amount per day, or a percentage from 0.01 to 100.00 per day, month or year) |
//! | `invalid_abatement` | `abatement` not an object; `abatement.type` not `FIXED` or `PERCENT`; `abatement.value` a fixed amount at or above the charge's `amount`, or a percentage outside 0.01 to 99.99 |
//! | `invalid_discount` | `discount` not an object; `discount.type` not one of the six modalities; `discount.value` given with a `..._UNTIL_DATES` type or `discount.dates` with a `..._EARLY` one; `discount.dates` not 1 to 3 entries; a `discount.dates[i].date` not a real day, after `dueDate`, or not after the one before it (dates strictly increasing); a value (`discount.value`, `discount.dates[i].value`) as for a fine, and a fixed one at or above the charge's `amount` or a percentage outside 0.01 to 99.99 |
//! | `invalid_address` | `payer.address` not an object, or one of its members wrong: `street` or `city` not 1 to 200 characters with one not blank and none a control character; `state` not one of the 27 UFs; `postalCode` not 8 digits (`-` allowed after the fifth) |
//!
//! Checks run in the order of the table's rules: `dueDate`, `daysAfterDue`, `fine`, `interest`,
//! `abatement`, `discount`; the first refusal is the answer.
//!
//! # Flattening
//!
//! [`DueDateFields`] can be `#[serde(flatten)]`ed into a body that denies unknown fields, or its
//! fields copied into one. Its members are JSON values for serde, read and checked by
//! [`DueTerms::from_body`]: a flattened struct loses serde_path_to_error's path (an error inside
//! it would name no field), so nothing inside one may fail while the body is parsed. The rule
//! objects' types ([`FineBody`], ...) document the members and are what `from_body` reads each
//! object into, with the path kept.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::DueTerms;
use super::date::Date;
use super::percent::{Percent, PercentError};
use super::rules::{
    Abatement, Discount, DiscountModality, Fine, FixedOrPercent, Interest, InterestModality,
    RuleValue,
};
use crate::Money;
use crate::json::{Integer, Invalid, bounded, from_json};
use crate::money::MoneyError;

/// A rule's `value` as the body carries it: a JSON number (an amount in reais or a
/// percentage), with at most two decimals. A type of its own so that another type is refused
/// in the merchant's terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JsonNumber(pub f64);

impl<'de> Deserialize<'de> for JsonNumber {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl serde::de::Visitor<'_> for Visitor {
            type Value = JsonNumber;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON number with at most two decimals, such as 2.5")
            }

            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<JsonNumber, E> {
                Ok(JsonNumber(v))
            }

            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<JsonNumber, E> {
                Ok(JsonNumber(v as f64))
            }

            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<JsonNumber, E> {
                Ok(JsonNumber(v as f64))
            }
        }

        deserializer.deserialize_f64(Visitor)
    }
}

impl Serialize for JsonNumber {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.0)
    }
}

/// The due-date fields of `POST /payments/charge` (DESIGN.md section 16). `dueDate` present
/// makes the charge a due-date charge; the other fields need it. `null` is the same as absent.
/// Refusals: see [`DueTerms::from_body`].
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DueDateFields {
    /// The due date, `YYYY-MM-DD`, not before today in Brasília (API Pix
    /// `calendario.dataDeVencimento`). The charge is payable until the end of that day at the
    /// original amount; a due date on a weekend or national holiday moves to the next business
    /// day, and so do validity, fine, interest and early-payment discounts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", example = "2030-12-10")]
    pub due_date: Option<Value>,
    /// Calendar days after the (moved) due date during which the charge can still be paid,
    /// with the last one moved to a business day: 0 to 3650, default 30 (API Pix
    /// `calendario.validadeAposVencimento`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 3650, default = 30, example = 30)]
    pub days_after_due: Option<Value>,
    /// Charged once on a payment after the (moved) due date (API Pix `multa`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<FineBody>)]
    pub fine: Option<Value>,
    /// Simple interest per day late after the (moved) due date (API Pix `juros`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<InterestBody>)]
    pub interest: Option<Value>,
    /// A deduction granted on any payment date (API Pix `abatimento`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<AbatementBody>)]
    pub abatement: Option<Value>,
    /// A discount for paying by set dates or early (API Pix `desconto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<DiscountBody>)]
    pub discount: Option<Value>,
}

impl DueDateFields {
    /// Whether no due-date field is present (absent or `null`): an immediate charge.
    pub fn is_empty(&self) -> bool {
        self.present().next().is_none()
    }

    /// The names of the fields present, in the body's terms.
    fn present(&self) -> impl Iterator<Item = &'static str> + '_ {
        [
            ("dueDate", &self.due_date),
            ("daysAfterDue", &self.days_after_due),
            ("fine", &self.fine),
            ("interest", &self.interest),
            ("abatement", &self.abatement),
            ("discount", &self.discount),
        ]
        .into_iter()
        .filter(|(_, v)| v.as_ref().is_some_and(|v| !v.is_null()))
        .map(|(name, _)| name)
    }
}

/// `fine`: `{type: FIXED | PERCENT, value}`. A fixed fine is an amount in reais (0.01 to
/// 100000000.00, two decimals at most); a percentage (0.01 to 100.00, two decimals at most) is
/// of `amount - abatement`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"type": "PERCENT", "value": 2.0}))]
pub struct FineBody {
    #[serde(rename = "type")]
    pub kind: FixedOrPercent,
    #[schema(value_type = f64, minimum = 0.01, multiple_of = 0.01, example = 2.0)]
    pub value: JsonNumber,
}

/// `interest`: `{type, value}`. `AMOUNT_PER_...` types take an amount in reais per day late
/// (0.01 to 100000000.00); the others a percentage of `amount - abatement` (0.01 to 100.00)
/// per day, per month (1/30 of it per calendar day, 1/21 per business day) or per year (1/365,
/// 1/252). Two decimals at most.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1.0}))]
pub struct InterestBody {
    #[serde(rename = "type")]
    pub kind: InterestModality,
    #[schema(value_type = f64, minimum = 0.01, multiple_of = 0.01, example = 1.0)]
    pub value: JsonNumber,
}

/// `abatement`: `{type: FIXED | PERCENT, value}`, granted on any payment date. A fixed
/// abatement is an amount in reais below the charge's `amount`; a percentage (0.01 to 99.99)
/// is of `amount`. Two decimals at most.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"type": "FIXED", "value": 10.0}))]
pub struct AbatementBody {
    #[serde(rename = "type")]
    pub kind: FixedOrPercent,
    #[schema(value_type = f64, minimum = 0.01, multiple_of = 0.01, example = 10.0)]
    pub value: JsonNumber,
}

/// `discount`: either `{type: FIXED_UNTIL_DATES | PERCENT_UNTIL_DATES, dates: [{date, value}]}`
/// (1 to 3 dates, strictly increasing, none after `dueDate`; a payment on or before a date
/// earns the value of the earliest such date; the dates do not move) or `{type:
/// AMOUNT_PER_CALENDAR_DAY_EARLY | AMOUNT_PER_BUSINESS_DAY_EARLY |
/// PERCENT_PER_CALENDAR_DAY_EARLY | PERCENT_PER_BUSINESS_DAY_EARLY, value}` (per day from the
/// payment date to the moved due date). Amounts are in reais, below the charge's `amount`;
/// percentages (0.01 to 99.99) are of `amount - abatement`. Two decimals at most. The discount
/// granted never brings the total below 0.01.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"type": "FIXED_UNTIL_DATES", "dates": [
    {"date": "2026-12-01", "value": 10.0}, {"date": "2026-12-05", "value": 5.0}
]}))]
pub struct DiscountBody {
    #[serde(rename = "type")]
    pub kind: DiscountModality,
    /// The value per day early, for the `..._EARLY` types only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>, minimum = 0.01, multiple_of = 0.01, example = 0.5)]
    pub value: Option<JsonNumber>,
    /// For the `..._UNTIL_DATES` types only: 1 to 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(min_items = 1, max_items = 3)]
    pub dates: Option<Vec<DiscountDateBody>>,
}

/// One date of a discount until dates: the value applies to payments on or before `date`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiscountDateBody {
    /// `YYYY-MM-DD`, not after `dueDate`.
    #[schema(value_type = String, format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", example = "2030-12-01")]
    pub date: Date,
    #[schema(value_type = f64, minimum = 0.01, multiple_of = 0.01, example = 10.0)]
    pub value: JsonNumber,
}

/// The path of `name` under `prefix`.
fn at(prefix: &str, name: &str) -> String {
    format!("{prefix}{name}")
}

/// What an amount breaks, as the merchant is told.
fn money_rule(path: &str, e: MoneyError) -> String {
    match e {
        MoneyError::NotFinite => format!("`{path}` is not a usable number"),
        MoneyError::TooManyDecimals => format!("`{path}` must have at most two decimals"),
        MoneyError::BelowMinimum => format!("`{path}` must be at least 0.01"),
        MoneyError::AboveMaximum => format!("`{path}` must be at most 100000000.00"),
    }
}

/// An amount of a rule: the amount's rules (0.01 to 100000000.00, two decimals at most), and
/// below the charge's amount when `below` is given.
fn amount_value(
    value: f64,
    path: &str,
    code: &'static str,
    below: Option<Money>,
) -> Result<Money, Invalid> {
    let money =
        Money::from_brl(value).map_err(|e| Invalid::new(code, path, money_rule(path, e)))?;
    if let Some(amount) = below
        && money >= amount
    {
        return Err(Invalid::new(
            code,
            path,
            format!(
                "`{path}` ({:.2}) must be less than the charge's `amount` ({:.2})",
                money.brl(),
                amount.brl()
            ),
        ));
    }
    Ok(money)
}

/// A percentage of a rule: two decimals at most, from 0.01 to 100.00, or to 99.99 when
/// `below_100`.
fn percent_value(
    value: f64,
    path: &str,
    code: &'static str,
    below_100: bool,
) -> Result<Percent, Invalid> {
    let range = if below_100 {
        "0.01 to 99.99"
    } else {
        "0.01 to 100.00"
    };
    let out_of_range = || {
        Invalid::new(
            code,
            path,
            format!("`{path}` must be a percentage from {range}"),
        )
    };
    let percent = Percent::from_f64(value).map_err(|e| match e {
        PercentError::TooManyDecimals => Invalid::new(
            code,
            path,
            format!("`{path}` must have at most two decimals"),
        ),
        PercentError::NotFinite => {
            Invalid::new(code, path, format!("`{path}` is not a usable number"))
        }
        PercentError::BelowMinimum | PercentError::AboveMaximum => out_of_range(),
    })?;
    if below_100 && percent == Percent::MAX {
        return Err(out_of_range());
    }
    Ok(percent)
}

/// Reads the rule object at `path` into `T`, naming a member at fault by its full path.
/// Type errors get `code`; `missing_field` and `unknown_field` keep theirs.
fn rule_object<T: serde::de::DeserializeOwned>(
    value: &Value,
    path: &str,
    code: &'static str,
) -> Result<T, Invalid> {
    if !value.is_object() {
        return Err(Invalid::new(
            code,
            path,
            format!("`{path}` must be an object"),
        ));
    }
    from_json::<T>(value.clone(), &[]).map_err(|e| {
        let relative = e.field.clone().unwrap_or_default();
        if relative.is_empty() {
            return Invalid::new(code, path, format!("`{path}` is not valid: {}", e.message));
        }
        let full = if relative.starts_with('[') {
            format!("{path}{relative}")
        } else {
            format!("{path}.{relative}")
        };
        let message = e
            .message
            .replacen(&format!("`{relative}`"), &format!("`{full}`"), 1);
        let code = match e.code {
            "missing_field" | "unknown_field" => e.code,
            _ => code,
        };
        Invalid {
            code,
            field: Some(full),
            message,
        }
    })
}

impl DueTerms {
    /// The due-date terms of a charge of `amount` created on `today` (Brasília), from the
    /// body's due-date fields; `None` when none is present (an immediate charge). Field paths
    /// are as in the body; [`DueTerms::from_body_at`] puts a prefix before them.
    ///
    /// Refusals, each naming the field ([`Invalid::field`]) with a stable code:
    ///
    /// - `missing_field`: `dueDate` absent while another due-date field is present; a rule's
    ///   `type` or `value` absent; `discount.dates` absent with a `..._UNTIL_DATES` type.
    /// - `unknown_field`: a member a rule object does not have.
    /// - `invalid_due_date`: `dueDate` not a `YYYY-MM-DD` string of a real day (years 1900 to
    ///   9999), or before `today`.
    /// - `invalid_days_after_due`: `daysAfterDue` not a whole number from 0 to 3650.
    /// - `invalid_fine`: `fine`, `fine.type` or `fine.value` wrong: not an object, a type other
    ///   than `FIXED`/`PERCENT`, a value that is not a number, has more than two decimals, or is
    ///   outside 0.01 to 100000000.00 (fixed) or 0.01 to 100.00 (percent).
    /// - `invalid_interest`: likewise for `interest` with its eight types (amounts per day as a
    ///   fixed fine, percentages 0.01 to 100.00 per day, month or year).
    /// - `invalid_abatement`: likewise for `abatement`; a fixed value at or above `amount`, a
    ///   percentage of 100.00 (0.01 to 99.99).
    /// - `invalid_discount`: likewise for `discount` with its six types; `discount.value` with
    ///   an `..._UNTIL_DATES` type, `discount.dates` with an `..._EARLY` one; `discount.dates`
    ///   not 1 to 3 entries; `discount.dates[i].date` not a real day, after `dueDate`, or not
    ///   after `discount.dates[i-1].date`; a fixed value (per date, or per day early) at or
    ///   above `amount`; a percentage of 100.00.
    ///
    /// The checks run in that order of fields (`dueDate`, `daysAfterDue`, `fine`, `interest`,
    /// `abatement`, `discount`); the first refusal is returned. A number's literal (more than
    /// two decimals hidden by a double's rounding, `1e400`) is judged before the body is parsed
    /// by [`check_due_literals`].
    pub fn from_body(
        fields: &DueDateFields,
        amount: Money,
        today: Date,
    ) -> Result<Option<DueTerms>, Invalid> {
        Self::from_body_at(fields, amount, today, "")
    }

    /// [`DueTerms::from_body`] with `prefix` before every field path (`charge.` for the admin
    /// evaluate route).
    pub fn from_body_at(
        fields: &DueDateFields,
        amount: Money,
        today: Date,
        prefix: &str,
    ) -> Result<Option<DueTerms>, Invalid> {
        let Some(first) = fields.present().next() else {
            return Ok(None);
        };
        let given = |v: &Option<Value>| v.clone().filter(|v| !v.is_null());

        // dueDate
        let path = at(prefix, "dueDate");
        let Some(due) = given(&fields.due_date) else {
            return Err(Invalid::new(
                "missing_field",
                &path,
                format!("`{path}` is required with `{}`", at(prefix, first)),
            ));
        };
        let due_date = due.as_str().and_then(Date::parse).ok_or_else(|| {
            Invalid::new(
                "invalid_due_date",
                &path,
                format!("`{path}` must be a date as YYYY-MM-DD, such as \"2026-12-10\""),
            )
        })?;
        if due_date < today {
            return Err(Invalid::new(
                "invalid_due_date",
                &path,
                format!("`{path}` ({due_date}) must not be before today ({today}, in Brasília)"),
            ));
        }

        // daysAfterDue
        let path = at(prefix, "daysAfterDue");
        let days_after_due = match given(&fields.days_after_due) {
            None => DueTerms::DEFAULT_DAYS_AFTER_DUE,
            Some(v) => serde_json::from_value::<Integer>(v)
                .ok()
                .and_then(|Integer(n)| u16::try_from(n).ok())
                .filter(|n| *n <= DueTerms::MAX_DAYS_AFTER_DUE)
                .ok_or_else(|| {
                    Invalid::new(
                        "invalid_days_after_due",
                        &path,
                        format!("`{path}` must be a whole number from 0 to 3650"),
                    )
                })?,
        };

        // fine
        let fine = match given(&fields.fine) {
            None => None,
            Some(v) => {
                let (path, code) = (at(prefix, "fine"), "invalid_fine");
                let body: FineBody = rule_object(&v, &path, code)?;
                let value_path = format!("{path}.value");
                Some(match body.kind {
                    FixedOrPercent::Fixed => {
                        Fine::Fixed(amount_value(body.value.0, &value_path, code, None)?)
                    }
                    FixedOrPercent::Percent => {
                        Fine::Percent(percent_value(body.value.0, &value_path, code, false)?)
                    }
                })
            }
        };

        // interest
        let interest = match given(&fields.interest) {
            None => None,
            Some(v) => {
                let (path, code) = (at(prefix, "interest"), "invalid_interest");
                let body: InterestBody = rule_object(&v, &path, code)?;
                let value_path = format!("{path}.value");
                let value = if body.kind.is_percent() {
                    RuleValue::Percent(percent_value(body.value.0, &value_path, code, false)?)
                } else {
                    RuleValue::Amount(amount_value(body.value.0, &value_path, code, None)?)
                };
                Some(Interest {
                    modality: body.kind,
                    value,
                })
            }
        };

        // abatement
        let abatement = match given(&fields.abatement) {
            None => None,
            Some(v) => {
                let (path, code) = (at(prefix, "abatement"), "invalid_abatement");
                let body: AbatementBody = rule_object(&v, &path, code)?;
                let value_path = format!("{path}.value");
                Some(match body.kind {
                    FixedOrPercent::Fixed => Abatement::Fixed(amount_value(
                        body.value.0,
                        &value_path,
                        code,
                        Some(amount),
                    )?),
                    FixedOrPercent::Percent => {
                        Abatement::Percent(percent_value(body.value.0, &value_path, code, true)?)
                    }
                })
            }
        };

        // discount
        let discount = match given(&fields.discount) {
            None => None,
            Some(v) => Some(discount(&v, prefix, amount, due_date)?),
        };

        Ok(Some(DueTerms {
            due_date,
            days_after_due,
            fine,
            interest,
            abatement,
            discount,
        }))
    }
}

/// The discount object at `{prefix}discount`.
fn discount(v: &Value, prefix: &str, amount: Money, due_date: Date) -> Result<Discount, Invalid> {
    let (path, code) = (at(prefix, "discount"), "invalid_discount");
    let body: DiscountBody = rule_object(v, &path, code)?;
    let kind = body.kind;
    let value_of = |value: f64, value_path: &str| {
        if kind.is_percent() {
            percent_value(value, value_path, code, true).map(RuleValue::Percent)
        } else {
            amount_value(value, value_path, code, Some(amount)).map(RuleValue::Amount)
        }
    };
    match kind.early() {
        Some(modality) => {
            if body.dates.is_some() {
                let dates_path = format!("{path}.dates");
                return Err(Invalid::new(
                    code,
                    &dates_path,
                    format!(
                        "`{dates_path}` is only for the FIXED_UNTIL_DATES and \
                         PERCENT_UNTIL_DATES types; `{}` takes `{path}.value` per day early",
                        kind.as_str()
                    ),
                ));
            }
            let value_path = format!("{path}.value");
            let Some(value) = body.value else {
                return Err(Invalid::new(
                    "missing_field",
                    &value_path,
                    format!("`{value_path}` is required with type `{}`", kind.as_str()),
                ));
            };
            Ok(Discount::Early {
                modality,
                value: value_of(value.0, &value_path)?,
            })
        }
        None => {
            if body.value.is_some() {
                let value_path = format!("{path}.value");
                return Err(Invalid::new(
                    code,
                    &value_path,
                    format!(
                        "`{value_path}` is only for the `..._EARLY` types; `{}` takes a \
                         value per date in `{path}.dates`",
                        kind.as_str()
                    ),
                ));
            }
            let dates_path = format!("{path}.dates");
            let Some(dates) = body.dates else {
                return Err(Invalid::new(
                    "missing_field",
                    &dates_path,
                    format!("`{dates_path}` is required with type `{}`", kind.as_str()),
                ));
            };
            if !(1..=3).contains(&dates.len()) {
                return Err(Invalid::new(
                    code,
                    &dates_path,
                    format!("`{dates_path}` must have 1 to 3 entries"),
                ));
            }
            let mut checked: Vec<(Date, RuleValue)> = Vec::with_capacity(dates.len());
            for (i, entry) in dates.iter().enumerate() {
                let date_path = format!("{dates_path}[{i}].date");
                if entry.date > due_date {
                    return Err(Invalid::new(
                        code,
                        &date_path,
                        format!(
                            "`{date_path}` ({}) must not be after `{}` ({due_date})",
                            entry.date,
                            at(prefix, "dueDate")
                        ),
                    ));
                }
                if let Some((before, _)) = checked.last()
                    && entry.date <= *before
                {
                    return Err(Invalid::new(
                        code,
                        &date_path,
                        format!(
                            "`{date_path}` ({}) must be after `{dates_path}[{}].date` \
                             ({before}): the dates are distinct and in increasing order",
                            entry.date,
                            i - 1
                        ),
                    ));
                }
                let value = value_of(entry.value.0, &format!("{dates_path}[{i}].value"))?;
                checked.push((entry.date, value));
            }
            Ok(Discount::UntilDates {
                percent: kind.is_percent(),
                dates: checked,
            })
        }
    }
}

impl DueTerms {
    /// The terms in the body's shape (`dueDate`, `daysAfterDue` and each rule present), as the
    /// intent shows them and [`DueTerms::from_body`] reads them back: amounts in reais and
    /// percentages as JSON numbers.
    pub fn to_json(&self) -> Value {
        let rule = |kind: &str, value: RuleValue| serde_json::json!({"type": kind, "value": value.as_f64()});
        let mut out = serde_json::Map::new();
        out.insert("dueDate".into(), Value::String(self.due_date.to_string()));
        out.insert("daysAfterDue".into(), Value::from(self.days_after_due));
        if let Some(fine) = self.fine {
            out.insert("fine".into(), rule(fine.as_str(), fine.value()));
        }
        if let Some(interest) = self.interest {
            out.insert("interest".into(), rule(interest.as_str(), interest.value));
        }
        if let Some(abatement) = self.abatement {
            out.insert(
                "abatement".into(),
                rule(abatement.as_str(), abatement.value()),
            );
        }
        if let Some(discount) = &self.discount {
            let value = match discount {
                Discount::Early { value, .. } => rule(discount.as_str(), *value),
                Discount::UntilDates { dates, .. } => serde_json::json!({
                    "type": discount.as_str(),
                    "dates": dates
                        .iter()
                        .map(|(date, value)| serde_json::json!({
                            "date": date.to_string(),
                            "value": value.as_f64(),
                        }))
                        .collect::<Vec<_>>(),
                }),
            };
            out.insert("discount".into(), value);
        }
        Value::Object(out)
    }

    /// The terms as body fields ([`DueTerms::to_json`]'s members).
    pub fn to_fields(&self) -> DueDateFields {
        let json = self.to_json();
        let member = |name: &str| json.get(name).cloned();
        DueDateFields {
            due_date: member("dueDate"),
            days_after_due: member("daysAfterDue"),
            fine: member("fine"),
            interest: member("interest"),
            abatement: member("abatement"),
            discount: member("discount"),
        }
    }
}

/// Judges the due-date numbers of a charge body as written (the top level's, or `charge`'s
/// when `nested`), before the body is parsed into doubles, which would round them: each rule's
/// `value` (and each `discount.dates[i].value`) must have at most two decimals even when its
/// nearest double has two (`2.349999999999999999`), and a number beyond any double (`1e400`,
/// which would fail the whole body's parse) is refused with the rule's code; so is a
/// `daysAfterDue` beyond any double. Anything else (another type, a body that is not an
/// object) is left to the parse and to [`DueTerms::from_body`]. Call it beside
/// [`crate::charge::check_literals`].
pub fn check_due_literals(body: &[u8], nested: bool) -> Result<(), Invalid> {
    fn members(bytes: &[u8]) -> Option<BTreeMap<String, &RawValue>> {
        serde_json::from_slice(bytes).ok()
    }
    let mut object = members(body);
    if nested {
        object = object
            .and_then(|o| o.get("charge").copied())
            .and_then(|charge| members(charge.get().as_bytes()));
    }
    let Some(object) = object else {
        return Ok(());
    };
    let prefix = if nested { "charge." } else { "" };
    if let Some(days) = object.get("daysAfterDue") {
        let literal = days.get();
        if is_number(literal) && !literal.parse::<f64>().is_ok_and(f64::is_finite) {
            let path = at(prefix, "daysAfterDue");
            return Err(Invalid::new(
                "invalid_days_after_due",
                &path,
                format!("`{path}` must be a whole number from 0 to 3650"),
            ));
        }
    }
    for (name, code) in [
        ("fine", "invalid_fine"),
        ("interest", "invalid_interest"),
        ("abatement", "invalid_abatement"),
        ("discount", "invalid_discount"),
    ] {
        let Some(rule) = object.get(name).and_then(|r| members(r.get().as_bytes())) else {
            continue;
        };
        let path = at(prefix, name);
        if let Some(value) = rule.get("value") {
            judge_literal(value.get(), &format!("{path}.value"), code)?;
        }
        if let Some(dates) = rule.get("dates") {
            let items: Vec<&RawValue> = serde_json::from_str(dates.get()).unwrap_or_default();
            for (i, item) in items.into_iter().enumerate() {
                if let Some(value) =
                    members(item.get().as_bytes()).and_then(|m| m.get("value").copied())
                {
                    judge_literal(value.get(), &format!("{path}.dates[{i}].value"), code)?;
                }
            }
        }
    }
    Ok(())
}

fn is_number(literal: &str) -> bool {
    literal.starts_with(|c: char| c == '-' || c.is_ascii_digit())
}

/// A rule value's literal: finite as a double, at most two decimals by its digits.
fn judge_literal(literal: &str, path: &str, code: &'static str) -> Result<(), Invalid> {
    if !is_number(literal) {
        return Ok(());
    }
    if !literal.parse::<f64>().is_ok_and(f64::is_finite) {
        return Err(Invalid::new(
            code,
            path,
            format!("`{path}` is {literal}, beyond the range of a usable number"),
        ));
    }
    // The digits' verdict on decimals, whatever the sign or size.
    let unsigned = literal.strip_prefix('-').unwrap_or(literal);
    if Money::from_brl_literal(unsigned) == Err(MoneyError::TooManyDecimals) {
        return Err(Invalid::new(
            code,
            path,
            format!("`{path}` must have at most two decimals"),
        ));
    }
    Ok(())
}

/// The 27 federative units (UFs): 26 states and the Federal District.
pub const UFS: [&str; 27] = [
    "AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE",
    "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO",
];

/// The shape of a date the API reads (`dueDate`, a discount's `date`, the amount-due route's
/// `date`): `YYYY-MM-DD` from 1900, which [`Date::parse`] also wants to be a real day.
pub const DATE_PATTERN: &str =
    "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";

/// `payer.address.state` as the document states it: one of the 27 UFs in either case, as
/// [`Address::validate`] reads it (a test derives it from [`UFS`]).
pub const UF_PATTERN: &str = "^([Aa][Cc]|[Aa][Ll]|[Aa][Mm]|[Aa][Pp]|[Bb][Aa]|[Cc][Ee]|[Dd][Ff]|[Ee][Ss]|[Gg][Oo]|[Mm][Aa]|[Mm][Gg]|[Mm][Ss]|[Mm][Tt]|[Pp][Aa]|[Pp][Bb]|[Pp][Ee]|[Pp][Ii]|[Pp][Rr]|[Rr][Jj]|[Rr][Nn]|[Rr][Oo]|[Rr][Rr]|[Rr][Ss]|[Ss][Cc]|[Ss][Ee]|[Ss][Pp]|[Tt][Oo])$";
/// The shape of `payer.address.postalCode`, which [`Address::validate`] enforces.
pub const POSTAL_CODE_PATTERN: &str = "^[0-9]{5}-?[0-9]{3}$";

/// `payer.address`, every member optional (API Pix `devedor.logradouro`, `cidade`, `uf`,
/// `cep`). `null` is the same as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"street": "Av. Paulista, 1000", "city": "São Paulo", "state": "SP", "postalCode": "01310-100"}))]
pub struct Address {
    /// Street and number: 1 to 200 characters, not all blank, no control characters.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub street: Option<String>,
    /// 1 to 200 characters, not all blank, no control characters.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub city: Option<String>,
    /// One of the 27 UFs (`SP`, `DF`, ...), in either case; kept in capitals.
    #[schema(
        pattern = "^([Aa][Cc]|[Aa][Ll]|[Aa][Mm]|[Aa][Pp]|[Bb][Aa]|[Cc][Ee]|[Dd][Ff]|[Ee][Ss]|[Gg][Oo]|[Mm][Aa]|[Mm][Gg]|[Mm][Ss]|[Mm][Tt]|[Pp][Aa]|[Pp][Bb]|[Pp][Ee]|[Pp][Ii]|[Pp][Rr]|[Rr][Jj]|[Rr][Nn]|[Rr][Oo]|[Rr][Rr]|[Rr][Ss]|[Ss][Cc]|[Ss][Ee]|[Ss][Pp]|[Tt][Oo])$",
        example = "SP"
    )]
    pub state: Option<String>,
    /// CEP: 8 digits, with or without a `-` after the fifth; kept as 8 digits.
    #[schema(pattern = "^[0-9]{5}-?[0-9]{3}$", example = "01310-100")]
    pub postal_code: Option<String>,
}

/// The codes of type errors in `payer.address` (for [`crate::json::from_json`]'s table), on
/// the charge route and the evaluate route (`charge.`).
pub const ADDRESS_FIELD_CODES: &[(&str, &str)] = &[
    ("payer.address", "invalid_address"),
    ("payer.address.street", "invalid_address"),
    ("payer.address.city", "invalid_address"),
    ("payer.address.state", "invalid_address"),
    ("payer.address.postalCode", "invalid_address"),
    ("charge.payer.address", "invalid_address"),
    ("charge.payer.address.street", "invalid_address"),
    ("charge.payer.address.city", "invalid_address"),
    ("charge.payer.address.state", "invalid_address"),
    ("charge.payer.address.postalCode", "invalid_address"),
];

/// A payer's address after validation: `state` in capitals, `postal_code` 8 digits.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ValidAddress {
    pub street: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub postal_code: Option<String>,
}

impl ValidAddress {
    /// As JSON, with normalised values (what is sealed with the payer).
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "street": self.street,
            "city": self.city,
            "state": self.state,
            "postalCode": self.postal_code,
        })
    }
}

impl Address {
    /// Checks every member; `path` is the address's own (`payer.address`, or
    /// `charge.payer.address`). Refusals are `invalid_address` naming the member.
    pub fn validate(&self, path: &str) -> Result<ValidAddress, Invalid> {
        const CODE: &str = "invalid_address";
        let text = |value: &Option<String>, name: &str| -> Result<Option<String>, Invalid> {
            let Some(value) = value else {
                return Ok(None);
            };
            let field = format!("{path}.{name}");
            let value = bounded(value, &field, CODE, 1, 200)?;
            if value
                .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
                .is_empty()
            {
                return Err(Invalid::new(
                    CODE,
                    &field,
                    format!("`{field}` must not be blank"),
                ));
            }
            Ok(Some(value))
        };
        let street = text(&self.street, "street")?;
        let city = text(&self.city, "city")?;
        let state = match &self.state {
            None => None,
            Some(state) => {
                let upper = state.to_ascii_uppercase();
                if !UFS.contains(&upper.as_str()) {
                    let field = format!("{path}.state");
                    return Err(Invalid::new(
                        CODE,
                        &field,
                        format!("`{field}` must be one of the 27 UFs ({})", UFS.join(", ")),
                    ));
                }
                Some(upper)
            }
        };
        let postal_code = match &self.postal_code {
            None => None,
            Some(code) => {
                let b = code.as_bytes();
                let digits: Option<String> = match b.len() {
                    8 => Some(code.clone()),
                    9 if b[5] == b'-' => Some(format!("{}{}", &code[..5], &code[6..])),
                    _ => None,
                };
                match digits.filter(|d| d.len() == 8 && d.bytes().all(|c| c.is_ascii_digit())) {
                    Some(d) => Some(d),
                    None => {
                        let field = format!("{path}.postalCode");
                        return Err(Invalid::new(
                            CODE,
                            &field,
                            format!(
                                "`{field}` must be a CEP of 8 digits, with or without a `-` \
                                 after the fifth (01310-100)"
                            ),
                        ));
                    }
                }
            }
        };
        Ok(ValidAddress {
            street,
            city,
            state,
            postal_code,
        })
    }
}
