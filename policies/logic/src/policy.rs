//! The bundled policy step: chooses between `d0-first`, `lowest-cost` and `due-date` routing.
//!
//! Store configuration read (all optional):
//! - `routing.policy`: `auto` (default), `d0-first` or `lowest-cost`.
//! - `routing.lowest-cost-from-centavos` (default 50000, i.e. R$ 500.00): under `auto`, immediate
//!   charges from this amount use `lowest-cost`, smaller ones `d0-first`. On a small ticket the
//!   fee difference between release classes is a few centavos and getting the money today is
//!   worth more; on a large ticket the fee difference is real money.
//! - Under `auto`, a charge with a due date (chain 1.1.0's `due-date` kind) uses `due-date`: the
//!   merchant waits for the due date anyway, so a release a day or a month after payment costs
//!   little and the fee decides, as under `lowest-cost`, among the classes in
//!   `routing.due-date.release-classes` (default: every class). A recurring charge's gateway
//!   is pinned by its mandate: the policy is `d0-first`'s or `lowest-cost`'s as for an
//!   immediate charge and the provider step only confirms the pinned gateway.
//! - `routing.release-classes`: comma-separated classes allowed, most preferred first.
//!   Default for `d0-first`: D0,D1,D2; for `lowest-cost`: every class (empty list).
//! - `routing.cross-class-failover` (default true): may a LIVE charge fail over to a gateway
//!   of another release class than the primary's.
//! - `routing.max-attempts` (default 3, 1 to 10): gateways tried for a LIVE charge.
//! - `limits.min-amount-centavos`, `limits.max-amount-centavos`: the store's amount bounds.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use crate::config::{bool_or, invalid, opt_u64, release_classes, u64_or};
use crate::{ChargeKind, PolicyDecision, PolicyInput, StepError};

pub const D0_FIRST: &str = "d0-first";
pub const LOWEST_COST: &str = "lowest-cost";
pub const DUE_DATE: &str = "due-date";
const DEFAULT_LOWEST_COST_FROM: u64 = 50_000;

pub fn decide(input: &PolicyInput) -> Result<PolicyDecision, StepError> {
    let charge = &input.charge;
    let store = &input.store;
    if charge.currency != "BRL" {
        return Err(StepError::new(
            "unsupported_currency",
            format!("currency {} is not supported; only BRL", charge.currency),
        ));
    }
    if let Some(min) = opt_u64(store, "limits.min-amount-centavos")?
        && charge.amount_centavos < min
    {
        return Err(StepError::new(
            "amount_below_store_limit",
            format!("amount is below the store's minimum of {min} centavos"),
        ));
    }
    if let Some(max) = opt_u64(store, "limits.max-amount-centavos")?
        && charge.amount_centavos > max
    {
        return Err(StepError::new(
            "amount_above_store_limit",
            format!("amount is above the store's maximum of {max} centavos"),
        ));
    }

    let policy = match store.config("routing.policy").map(str::trim) {
        None | Some("auto") if matches!(charge.kind, ChargeKind::DueDate(_)) => DUE_DATE,
        None | Some("auto") => {
            let from = u64_or(
                store,
                "routing.lowest-cost-from-centavos",
                DEFAULT_LOWEST_COST_FROM,
            )?;
            if charge.amount_centavos >= from {
                LOWEST_COST
            } else {
                D0_FIRST
            }
        }
        Some(D0_FIRST) => D0_FIRST,
        Some(LOWEST_COST) => LOWEST_COST,
        Some(other) => {
            return Err(invalid(
                "routing.policy",
                other,
                "auto, d0-first or lowest-cost",
            ));
        }
    };

    let classes_key = if policy == DUE_DATE {
        "routing.due-date.release-classes"
    } else {
        "routing.release-classes"
    };
    let eligible = match release_classes(store, classes_key)? {
        Some(classes) => classes,
        None if policy == D0_FIRST => vec!["D0".into(), "D1".into(), "D2".into()],
        None => Vec::new(),
    };
    let max_attempts = u64_or(store, "routing.max-attempts", 3)?;
    if !(1..=10).contains(&max_attempts) {
        return Err(invalid(
            "routing.max-attempts",
            &max_attempts.to_string(),
            "a number from 1 to 10",
        ));
    }
    Ok(PolicyDecision {
        policy: policy.to_owned(),
        eligible_release_classes: eligible,
        cross_release_class_failover: bool_or(store, "routing.cross-class-failover", true)?,
        max_attempts: max_attempts as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{charge, store};

    fn run(amount: u64, config: &[(&str, &str)]) -> Result<PolicyDecision, StepError> {
        decide(&PolicyInput {
            charge: charge(amount),
            store: store(config),
            env: crate::StepEnv { now_ms: 0, seed: 0 },
        })
    }

    #[test]
    fn auto_prefers_d0_for_small_tickets_and_cost_for_large_ones() {
        let small = run(4_999, &[]).unwrap();
        assert_eq!(small.policy, D0_FIRST);
        assert_eq!(small.eligible_release_classes, ["D0", "D1", "D2"]);
        let large = run(50_000, &[]).unwrap();
        assert_eq!(large.policy, LOWEST_COST);
        assert!(large.eligible_release_classes.is_empty());
        assert!(large.cross_release_class_failover);
        assert_eq!(large.max_attempts, 3);
    }

    #[test]
    fn threshold_and_policy_come_from_the_store() {
        let cfg = [("routing.lowest-cost-from-centavos", "100")];
        assert_eq!(run(100, &cfg).unwrap().policy, LOWEST_COST);
        assert_eq!(run(99, &cfg).unwrap().policy, D0_FIRST);
        let forced = [("routing.policy", "d0-first")];
        assert_eq!(run(10_000_000, &forced).unwrap().policy, D0_FIRST);
    }

    #[test]
    fn constraints_come_from_the_store() {
        let d = run(
            100,
            &[
                ("routing.release-classes", "d1, D30"),
                ("routing.cross-class-failover", "false"),
                ("routing.max-attempts", "5"),
            ],
        )
        .unwrap();
        assert_eq!(d.eligible_release_classes, ["D1", "D30"]);
        assert!(!d.cross_release_class_failover);
        assert_eq!(d.max_attempts, 5);
    }

    #[test]
    fn limits_reject_the_charge() {
        let cfg = [
            ("limits.min-amount-centavos", "100"),
            ("limits.max-amount-centavos", "1000"),
        ];
        assert_eq!(run(99, &cfg).unwrap_err().code, "amount_below_store_limit");
        assert_eq!(
            run(1001, &cfg).unwrap_err().code,
            "amount_above_store_limit"
        );
        assert!(run(1000, &cfg).is_ok());
    }

    #[test]
    fn malformed_configuration_is_an_error_not_a_default() {
        for cfg in [
            ("routing.policy", "fastest"),
            ("routing.max-attempts", "0"),
            ("routing.max-attempts", "many"),
            ("routing.cross-class-failover", "yes"),
            ("routing.release-classes", "D0,T+1"),
            ("routing.lowest-cost-from-centavos", "-1"),
        ] {
            assert_eq!(
                run(100, &[cfg]).unwrap_err().code,
                "invalid_store_config",
                "{cfg:?}"
            );
        }
    }

    fn due_date_charge(amount: u64) -> crate::Charge {
        crate::Charge {
            kind: ChargeKind::DueDate(crate::DueTerms {
                due_date: "2027-03-10".into(),
                days_after_due: 30,
                fine: None,
                interest: None,
                abatement: None,
                discount: None,
            }),
            ..charge(amount)
        }
    }

    #[test]
    fn due_date_charges_have_a_policy_of_their_own_under_auto() {
        let input = |config: &[(&str, &str)]| PolicyInput {
            charge: due_date_charge(100),
            store: store(config),
            env: crate::StepEnv { now_ms: 0, seed: 0 },
        };
        let d = decide(&input(&[])).unwrap();
        assert_eq!(d.policy, DUE_DATE);
        assert!(
            d.eligible_release_classes.is_empty(),
            "every class, cheapest first"
        );
        let d = decide(&input(&[
            ("routing.due-date.release-classes", "D1,D30"),
            ("routing.release-classes", "D0"),
        ]))
        .unwrap();
        assert_eq!(d.eligible_release_classes, ["D1", "D30"]);
        // A policy the store names applies to every kind.
        let d = decide(&input(&[("routing.policy", "d0-first")])).unwrap();
        assert_eq!(d.policy, D0_FIRST);
        assert_eq!(d.eligible_release_classes, ["D0", "D1", "D2"]);
        assert_eq!(
            decide(&input(&[("routing.due-date.release-classes", "T+1")]))
                .unwrap_err()
                .code,
            "invalid_store_config"
        );
    }

    #[test]
    fn other_currencies_are_refused() {
        let mut input = PolicyInput {
            charge: charge(100),
            store: store(&[]),
            env: crate::StepEnv { now_ms: 0, seed: 0 },
        };
        input.charge.currency = "USD".into();
        assert_eq!(decide(&input).unwrap_err().code, "unsupported_currency");
    }
}
