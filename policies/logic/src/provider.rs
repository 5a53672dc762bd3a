//! The bundled provider-selection step: eligible gateways ranked by health, then cost.
//!
//! A gateway is left out when the host reports it unavailable, when its release class is
//! not eligible under the policy, or when its success rate is below the floor
//! (`routing.min-success-rate-bps`, default 8000) over at least `routing.min-health-samples`
//! attempts (default 20). The rest is ordered by health tier (healthy: at least 95 % success
//! or too few samples to say; degraded otherwise), then, under `d0-first`, by the policy's
//! release-class preference, then by the fee for this amount, then by median latency, then
//! by alias so that the order is total. Without cross-release-class failover only the
//! primary's release class stays in the failover order.
//!
//! A charge with a `pinned-gateway` (a recurring charge, which must go to the PSP that holds
//! its mandate) is only confirmed or refused: the pinned gateway is ranked alone unless the
//! host reports it unavailable (`pinned_gateway_unavailable`) or it is not among the store's
//! gateways (`pinned_gateway_unknown`); the release-class and health rules do not apply, since
//! no other gateway could take the charge.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::vec::Vec;

use crate::config::u64_or;
use crate::economics::fee_for;
use crate::policy::D0_FIRST;
use crate::{ExcludedGateway, Gateway, ProviderDecision, ProviderInput, RankedGateway, StepError};

const HEALTHY_BPS: u32 = 9_500;

/// Health tier, release-class preference, fee for this amount, median latency.
type SortKey = (u8, usize, u64, u32);

pub fn rank(input: &ProviderInput) -> Result<ProviderDecision, StepError> {
    if let Some(pinned) = &input.pinned_gateway {
        return confirm_pinned(input, pinned);
    }
    let store = &input.store;
    let policy = &input.policy;
    let floor = u64_or(store, "routing.min-success-rate-bps", 8_000)?;
    let min_samples = u64_or(store, "routing.min-health-samples", 20)?;
    let amount = input.charge.amount_centavos;

    let mut excluded = Vec::new();
    let mut eligible: Vec<(&Gateway, SortKey, &'static str)> = Vec::new();
    for g in &input.gateways {
        let class_pref = policy
            .eligible_release_classes
            .iter()
            .position(|c| *c == g.release_class);
        let enough_samples = u64::from(g.health.samples) >= min_samples;
        let exclusion = if !g.health.available {
            Some("gateway unavailable".to_owned())
        } else if !policy.eligible_release_classes.is_empty() && class_pref.is_none() {
            Some(format!(
                "release class {} not eligible under {}",
                g.release_class, policy.policy
            ))
        } else if enough_samples && u64::from(g.health.success_rate_bps) < floor {
            Some(format!(
                "success rate {} bps below the floor of {floor} bps",
                g.health.success_rate_bps
            ))
        } else {
            None
        };
        if let Some(reason) = exclusion {
            excluded.push(ExcludedGateway {
                gateway_alias: g.gateway_alias.clone(),
                reason,
            });
            continue;
        }
        let healthy = !enough_samples || g.health.success_rate_bps >= HEALTHY_BPS;
        let tier = u8::from(!healthy);
        let pref = if policy.policy == D0_FIRST {
            class_pref.unwrap_or(usize::MAX)
        } else {
            0
        };
        let key = (
            tier,
            pref,
            fee_for(amount, &g.fee_terms),
            g.health.latency_p50_ms,
        );
        eligible.push((g, key, if healthy { "healthy" } else { "degraded" }));
    }
    eligible.sort_by(|a, b| {
        a.1.cmp(&b.1)
            .then_with(|| a.0.gateway_alias.cmp(&b.0.gateway_alias))
    });

    let Some(primary_class) = eligible.first().map(|(g, _, _)| g.release_class.clone()) else {
        return Err(StepError::new(
            "no_eligible_gateway",
            format!(
                "none of the {} gateways is eligible under {}",
                input.gateways.len(),
                policy.policy
            ),
        ));
    };
    let mut ranking = Vec::new();
    for (g, (_, _, fee, _), health) in eligible {
        if !policy.cross_release_class_failover && g.release_class != primary_class {
            excluded.push(ExcludedGateway {
                gateway_alias: g.gateway_alias.clone(),
                reason: format!(
                    "cross-release-class failover not allowed (primary is {primary_class})"
                ),
            });
            continue;
        }
        ranking.push(RankedGateway {
            gateway_alias: g.gateway_alias.clone(),
            provider_code: g.provider_code.clone(),
            release_class: g.release_class.clone(),
            reason: format!("{health}, fee {fee} centavos"),
        });
    }
    Ok(ProviderDecision { ranking, excluded })
}

fn confirm_pinned(input: &ProviderInput, pinned: &str) -> Result<ProviderDecision, StepError> {
    let Some(g) = input.gateways.iter().find(|g| g.gateway_alias == pinned) else {
        return Err(StepError::new(
            "pinned_gateway_unknown",
            format!("the charge is pinned to {pinned}, which is not among the store's gateways"),
        ));
    };
    if !g.health.available {
        return Err(StepError::new(
            "pinned_gateway_unavailable",
            format!("the charge is pinned to {pinned}, which is unavailable"),
        ));
    }
    let excluded = input
        .gateways
        .iter()
        .filter(|o| o.gateway_alias != pinned)
        .map(|o| ExcludedGateway {
            gateway_alias: o.gateway_alias.clone(),
            reason: format!("the charge is pinned to {pinned}"),
        })
        .collect();
    Ok(ProviderDecision {
        ranking: alloc::vec![RankedGateway {
            gateway_alias: g.gateway_alias.clone(),
            provider_code: g.provider_code.clone(),
            release_class: g.release_class.clone(),
            reason: "pinned".to_owned(),
        }],
        excluded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{charge, gateway, store};
    use crate::{PolicyDecision, StepEnv};

    fn policy(name: &str, classes: &[&str], failover: bool) -> PolicyDecision {
        PolicyDecision {
            policy: name.into(),
            eligible_release_classes: classes.iter().map(|c| c.to_string()).collect(),
            cross_release_class_failover: failover,
            max_attempts: 3,
        }
    }

    fn aliases(d: &ProviderDecision) -> Vec<&str> {
        d.ranking.iter().map(|r| r.gateway_alias.as_str()).collect()
    }

    fn run(policy: PolicyDecision, gateways: Vec<Gateway>) -> Result<ProviderDecision, StepError> {
        rank(&ProviderInput {
            charge: charge(10_000),
            store: store(&[]),
            policy,
            gateways,
            env: StepEnv { now_ms: 0, seed: 0 },
            pinned_gateway: None,
        })
    }

    fn run_pinned(pinned: &str, gateways: Vec<Gateway>) -> Result<ProviderDecision, StepError> {
        rank(&ProviderInput {
            charge: charge(10_000),
            store: store(&[]),
            policy: policy("d0-first", &["D0"], true),
            gateways,
            env: StepEnv { now_ms: 0, seed: 0 },
            pinned_gateway: Some(pinned.into()),
        })
    }

    #[test]
    fn a_pinned_gateway_is_confirmed_alone_whatever_its_class_or_cost() {
        let gws = vec![
            gateway("a-d0", "D0", 10, 0),
            gateway("b-d30", "D30", 900, 0),
        ];
        let d = run_pinned("b-d30", gws).unwrap();
        assert_eq!(aliases(&d), ["b-d30"]);
        assert_eq!(d.ranking[0].reason, "pinned");
        assert_eq!(d.excluded.len(), 1);
        assert_eq!(d.excluded[0].reason, "the charge is pinned to b-d30");
    }

    #[test]
    fn a_pinned_gateway_that_is_down_or_unknown_refuses_the_charge() {
        let mut down = gateway("a-d0", "D0", 10, 0);
        down.health.available = false;
        let healthy = gateway("b-d0", "D0", 10, 0);
        assert_eq!(
            run_pinned("a-d0", vec![down, healthy.clone()])
                .unwrap_err()
                .code,
            "pinned_gateway_unavailable"
        );
        assert_eq!(
            run_pinned("z", vec![healthy]).unwrap_err().code,
            "pinned_gateway_unknown"
        );
    }

    #[test]
    fn lowest_cost_orders_by_fee() {
        let gws = vec![
            gateway("a-d0", "D0", 150, 0),
            gateway("b-d1", "D1", 90, 0),
            gateway("c-d30", "D30", 50, 0),
        ];
        let d = run(policy("lowest-cost", &[], true), gws).unwrap();
        assert_eq!(aliases(&d), ["c-d30", "b-d1", "a-d0"]);
        assert_eq!(d.ranking[0].reason, "healthy, fee 50 centavos");
    }

    #[test]
    fn d0_first_orders_by_class_preference_then_fee() {
        let gws = vec![
            gateway("b-d1", "D1", 90, 0),
            gateway("a-d0", "D0", 150, 0),
            gateway("c-d0", "D0", 120, 0),
            gateway("z-d30", "D30", 10, 0),
        ];
        let d = run(policy("d0-first", &["D0", "D1", "D2"], true), gws).unwrap();
        assert_eq!(aliases(&d), ["c-d0", "a-d0", "b-d1"]);
        assert_eq!(d.excluded.len(), 1);
        assert_eq!(d.excluded[0].gateway_alias, "z-d30");
    }

    #[test]
    fn health_comes_before_cost_and_class() {
        let mut degraded = gateway("a-d0", "D0", 10, 0);
        degraded.health.samples = 100;
        degraded.health.success_rate_bps = 9_000;
        let mut down = gateway("b-d0", "D0", 10, 0);
        down.health.available = false;
        let mut failing = gateway("c-d0", "D0", 10, 0);
        failing.health.samples = 100;
        failing.health.success_rate_bps = 7_999;
        let healthy_d1 = gateway("d-d1", "D1", 500, 0);
        let d = run(
            policy("d0-first", &["D0", "D1"], true),
            vec![degraded, down, failing, healthy_d1],
        )
        .unwrap();
        assert_eq!(aliases(&d), ["d-d1", "a-d0"]);
        assert_eq!(d.ranking[1].reason, "degraded, fee 10 centavos");
        let reasons: Vec<_> = d.excluded.iter().map(|e| e.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "gateway unavailable",
                "success rate 7999 bps below the floor of 8000 bps"
            ]
        );
    }

    #[test]
    fn few_samples_do_not_condemn_a_gateway() {
        let mut new = gateway("a-d0", "D0", 10, 0);
        new.health.samples = 3;
        new.health.success_rate_bps = 0;
        let d = run(policy("lowest-cost", &[], true), vec![new]).unwrap();
        assert_eq!(aliases(&d), ["a-d0"]);
    }

    #[test]
    fn without_cross_class_failover_only_the_primary_class_remains() {
        let gws = vec![
            gateway("a-d0", "D0", 150, 0),
            gateway("b-d0", "D0", 160, 0),
            gateway("c-d1", "D1", 50, 0),
        ];
        let d = run(policy("d0-first", &["D0", "D1"], false), gws).unwrap();
        assert_eq!(aliases(&d), ["a-d0", "b-d0"]);
        assert!(d.excluded[0].reason.contains("cross-release-class"));
    }

    #[test]
    fn ties_break_on_latency_then_alias() {
        let gws = vec![
            gateway("b", "D1", 100, 30),
            gateway("c", "D1", 100, 20),
            gateway("a", "D1", 100, 30),
        ];
        let d = run(policy("lowest-cost", &[], true), gws).unwrap();
        assert_eq!(aliases(&d), ["c", "a", "b"]);
    }

    #[test]
    fn nothing_eligible_is_a_step_error() {
        let d = run(
            policy("d0-first", &["D0"], true),
            vec![gateway("a-d1", "D1", 1, 0)],
        );
        assert_eq!(d.unwrap_err().code, "no_eligible_gateway");
        assert_eq!(
            run(policy("lowest-cost", &[], true), vec![])
                .unwrap_err()
                .code,
            "no_eligible_gateway"
        );
    }
}
