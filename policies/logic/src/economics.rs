//! The bundled economics/release step: fee, net amount, release class and settlement date
//! for each ranked candidate.
//!
//! Fee: MDR (basis points of the amount, rounded half up to the centavo) plus the fixed fee,
//! raised to the minimum fee and capped at the maximum fee of the gateway's terms. A candidate
//! is rejected when its release class is not `D<n>` or when the fee is above the store's
//! `economics.max-fee-bps` share of the amount. The fee never exceeds the amount: a charge
//! below a gateway's minimum fee nets zero.
//! Settlement: the first business day on or after the charge's Brasília date, plus `n`
//! business days; weekends and the holidays the host supplies are not business days.

use alloc::format;
use alloc::vec::Vec;

use crate::calendar::{Day, settlement_day};
use crate::config::{opt_u64, release_days};
use crate::{
    CandidateEconomics, CandidateOutcome, EconomicsInput, EconomicsQuote, FeeTerms, StepError,
};

/// The fee for `amount` centavos under `terms`, in centavos.
pub fn fee_for(amount: u64, terms: &FeeTerms) -> u64 {
    let mdr = (u128::from(amount) * u128::from(terms.mdr_bps) + 5_000) / 10_000;
    let total = mdr.saturating_add(u128::from(terms.fixed_centavos));
    let total = u64::try_from(total).unwrap_or(u64::MAX);
    let total = total.max(terms.min_fee_centavos);
    match terms.max_fee_centavos {
        Some(max) => total.min(max),
        None => total,
    }
}

pub fn evaluate(input: &EconomicsInput) -> Result<Vec<CandidateEconomics>, StepError> {
    let mut holidays = Vec::with_capacity(input.holidays.len());
    for h in &input.holidays {
        holidays.push(Day::parse(h).ok_or_else(|| {
            StepError::new(
                "invalid_input",
                format!("holiday `{h}` is not a YYYY-MM-DD date"),
            )
        })?);
    }
    if !holidays.is_sorted() {
        holidays.sort();
    }
    let max_fee_bps = opt_u64(&input.store, "economics.max-fee-bps")?;
    let amount = input.charge.amount_centavos;

    Ok(input
        .candidates
        .iter()
        .map(|g| {
            // A fee never exceeds the charge: a charge below a gateway's minimum fee costs the
            // whole amount and nets zero, rather than being refused or leaving the merchant
            // owing money on it.
            let fee = fee_for(amount, &g.fee_terms).min(amount);
            let outcome = match release_days(&g.release_class) {
                None => {
                    CandidateOutcome::Rejected(format!("unknown release class {}", g.release_class))
                }
                Some(_)
                    if max_fee_bps.is_some_and(|bps| {
                        u128::from(fee) * 10_000 > u128::from(amount) * u128::from(bps)
                    }) =>
                {
                    CandidateOutcome::Rejected(format!(
                        "fee of {fee} centavos is above the store's maximum of {} bps",
                        max_fee_bps.unwrap_or_default()
                    ))
                }
                Some(days) => CandidateOutcome::Accepted(EconomicsQuote {
                    fee_centavos: fee,
                    net_centavos: amount - fee,
                    release_class: g.release_class.clone(),
                    settlement_date: settlement_day(input.charge.created_at_ms, days, &holidays)
                        .iso(),
                }),
            };
            CandidateEconomics {
                gateway_alias: g.gateway_alias.clone(),
                outcome,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{charge, gateway, store};
    use crate::{PolicyDecision, StepEnv};

    fn terms(mdr_bps: u32, fixed: u64, min: u64, max: Option<u64>) -> FeeTerms {
        FeeTerms {
            mdr_bps,
            fixed_centavos: fixed,
            min_fee_centavos: min,
            max_fee_centavos: max,
        }
    }

    #[test]
    fn fee_is_mdr_plus_fixed_rounded_half_up_within_bounds() {
        assert_eq!(fee_for(10_000, &terms(99, 0, 0, None)), 99);
        assert_eq!(fee_for(50, &terms(100, 0, 0, None)), 1); // 0.5 rounds up
        assert_eq!(fee_for(49, &terms(100, 0, 0, None)), 0);
        assert_eq!(fee_for(10_000, &terms(150, 20, 0, None)), 170);
        assert_eq!(fee_for(100, &terms(150, 0, 35, None)), 35);
        assert_eq!(fee_for(10_000_000, &terms(150, 0, 0, Some(1_000))), 1_000);
        assert_eq!(
            fee_for(u64::MAX, &terms(10_000, u64::MAX, 0, None)),
            u64::MAX
        );
    }

    fn input(amount: u64, created_at_ms: i64, candidates: Vec<crate::Gateway>) -> EconomicsInput {
        let mut charge = charge(amount);
        charge.created_at_ms = created_at_ms;
        EconomicsInput {
            charge,
            store: store(&[]),
            policy: PolicyDecision {
                policy: "lowest-cost".into(),
                eligible_release_classes: vec![],
                cross_release_class_failover: true,
                max_attempts: 3,
            },
            candidates,
            holidays: vec!["2026-11-20".into()],
            env: StepEnv { now_ms: 0, seed: 0 },
        }
    }

    #[test]
    fn quotes_each_candidate_in_order() {
        // Thursday 2026-11-19, 12:00 in Brasília.
        let at = Day::from_ymd(2026, 11, 19).0 * 86_400_000 + 15 * 3_600_000;
        let out = evaluate(&input(
            10_000,
            at,
            vec![gateway("a", "D0", 150, 0), gateway("b", "D1", 90, 0)],
        ))
        .unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(
            out[0].outcome,
            CandidateOutcome::Accepted(EconomicsQuote {
                fee_centavos: 150,
                net_centavos: 9_850,
                release_class: "D0".into(),
                settlement_date: "2026-11-19".into(),
            })
        );
        let CandidateOutcome::Accepted(q) = &out[1].outcome else {
            panic!("rejected")
        };
        // Friday the 20th is a holiday: D1 lands on Monday.
        assert_eq!(q.settlement_date, "2026-11-23");
    }

    #[test]
    fn caps_the_fee_at_the_amount_and_rejects_unknown_classes() {
        let mut pricey = gateway("a", "D0", 0, 0);
        pricey.fee_terms.min_fee_centavos = 100;
        let out = evaluate(&input(1, 0, vec![pricey, gateway("b", "T+1", 0, 0)])).unwrap();
        let CandidateOutcome::Accepted(q) = &out[0].outcome else {
            panic!("a charge below the minimum fee is accepted: {:?}", out[0]);
        };
        assert_eq!((q.fee_centavos, q.net_centavos), (1, 0));
        assert!(matches!(&out[1].outcome, CandidateOutcome::Rejected(r) if r.contains("T+1")));
    }

    #[test]
    fn store_fee_cap_rejects_expensive_candidates() {
        let mut i = input(
            10_000,
            0,
            vec![gateway("a", "D0", 250, 0), gateway("b", "D1", 100, 0)],
        );
        i.store = store(&[("economics.max-fee-bps", "200")]);
        let out = evaluate(&i).unwrap();
        assert!(matches!(out[0].outcome, CandidateOutcome::Rejected(_)));
        assert!(matches!(out[1].outcome, CandidateOutcome::Accepted(_)));
    }

    #[test]
    fn malformed_holidays_are_an_input_error() {
        let mut i = input(10_000, 0, vec![]);
        i.holidays = vec!["20/11/2026".into()];
        assert_eq!(evaluate(&i).unwrap_err().code, "invalid_input");
    }
}
