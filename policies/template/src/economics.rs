//! A pixgate economics/release step: for each gateway the provider step ranked, the fee, the
//! net amount, the release class and the settlement date, or a rejection. pixgate routes the
//! charge to the first accepted candidate.
//!
//! This example prices like pixgate's bundled step (the fee of the gateway's terms; the money
//! is released `n` business days after the charge for release class `D<n>`) and adds one rule
//! of the store's: a candidate whose fee is above `economics.max-fee-centavos` is rejected.
//!
//! pixgate checks every quote: fee plus net must equal the amount, a quote keeps its
//! gateway's release class, and a settlement date may not precede the charge.
//!
//! The rules every component lives by: the same input must give the same output, so there is
//! no clock (use `input.env.now_ms`), no randomness (derive it from `input.env.seed`), no
//! network, files or environment. Money is integer centavos.

wit_bindgen::generate!({ path: "wit", world: "economics-step" });

use exports::pixgate::chain::economics::{EconomicsInput, Guest};
use pixgate::chain::host_log::{Level, log};
use pixgate::chain::types::{
    CandidateEconomics, CandidateOutcome, EconomicsQuote, FeeTerms, StepError, StoreContext,
};

/// The store configuration key this component reads (set it with the admin API's store
/// `config`). Pick keys of your own for your own settings.
const MAX_FEE_KEY: &str = "economics.max-fee-centavos";

/// Brasília has been UTC-3 all year since 2019; settlement follows its calendar.
const BRASILIA_OFFSET_MS: i64 = -3 * 3_600_000;
const DAY_MS: i64 = 86_400_000;

struct Component;

impl Guest for Component {
    fn evaluate(input: EconomicsInput) -> Result<Vec<CandidateEconomics>, StepError> {
        let amount = input.charge.amount_centavos;
        // A malformed setting refuses the charge with a clear code rather than guessing.
        let max_fee = config_u64(&input.store, MAX_FEE_KEY)?;
        let charge_day = (input.charge.created_at_ms + BRASILIA_OFFSET_MS).div_euclid(DAY_MS);

        let verdicts: Vec<CandidateEconomics> = input
            .candidates
            .into_iter()
            .map(|gateway| {
                let fee = fee_for(amount, &gateway.fee_terms);
                let outcome = match release_days(&gateway.release_class) {
                    None => CandidateOutcome::Rejected(format!(
                        "unknown release class {}",
                        gateway.release_class
                    )),
                    Some(_) if fee >= amount => CandidateOutcome::Rejected(format!(
                        "fee of {fee} centavos would take the whole amount"
                    )),
                    Some(_) if max_fee.is_some_and(|max| fee > max) => CandidateOutcome::Rejected(
                        format!("fee of {fee} centavos is above {MAX_FEE_KEY}"),
                    ),
                    Some(days) => CandidateOutcome::Accepted(EconomicsQuote {
                        fee_centavos: fee,
                        net_centavos: amount - fee,
                        release_class: gateway.release_class,
                        settlement_date: settlement_date(charge_day, days, &input.holidays),
                    }),
                };
                CandidateEconomics {
                    gateway_alias: gateway.gateway_alias,
                    outcome,
                }
            })
            .collect();
        let accepted = verdicts
            .iter()
            .filter(|v| matches!(v.outcome, CandidateOutcome::Accepted(_)))
            .count();
        // Log lines are kept with the decision trace (1 KB per call in all): keep them short.
        log(
            Level::Info,
            &format!("{accepted} of {} candidates accepted", verdicts.len()),
        );
        Ok(verdicts)
    }
}

/// The fee a gateway charges for `amount`: the MDR (basis points, rounded half up to the
/// centavo) plus the fixed fee, raised to the minimum and capped at the maximum.
fn fee_for(amount: u64, terms: &FeeTerms) -> u64 {
    let mdr = (u128::from(amount) * u128::from(terms.mdr_bps) + 5_000) / 10_000;
    let fee = u64::try_from(mdr)
        .unwrap_or(u64::MAX)
        .saturating_add(terms.fixed_centavos)
        .max(terms.min_fee_centavos);
    match terms.max_fee_centavos {
        Some(max) => fee.min(max),
        None => fee,
    }
}

/// `D<n>` releases the money `n` business days after the charge.
fn release_days(class: &str) -> Option<u32> {
    let digits = class.strip_prefix('D')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|n| *n <= 365)
}

/// The first business day on or after the charge's day, then `days` business days more, as
/// `YYYY-MM-DD`. Weekends and the holidays pixgate supplies (ascending `YYYY-MM-DD`) are not
/// business days.
fn settlement_date(charge_day: i64, days: u32, holidays: &[String]) -> String {
    let is_business = |day: i64| {
        // 1970-01-01 (day 0) was a Thursday: 3 and 4 are Saturday and Sunday.
        let weekend = matches!(day.rem_euclid(7), 2 | 3);
        !weekend && holidays.binary_search(&iso_date(day)).is_err()
    };
    let mut day = charge_day;
    while !is_business(day) {
        day += 1;
    }
    for _ in 0..days {
        day += 1;
        while !is_business(day) {
            day += 1;
        }
    }
    iso_date(day)
}

/// Days since 1970-01-01 as `YYYY-MM-DD` (Howard Hinnant's `civil_from_days`).
fn iso_date(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A whole number from the store's configuration; `None` when the store does not set it.
fn config_u64(store: &StoreContext, key: &str) -> Result<Option<u64>, StepError> {
    let Some(entry) = store.config.iter().find(|e| e.key == key) else {
        return Ok(None);
    };
    entry.value.trim().parse().map(Some).map_err(|_| StepError {
        code: "invalid_store_config".to_string(),
        message: format!("{key} must be a whole number, not `{}`", entry.value),
    })
}

export!(Component);
