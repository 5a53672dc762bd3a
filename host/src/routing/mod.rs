//! Routing: the handle between a charge and the policy components. It resolves a charge through
//! the chain with the versions its store runs (taken once, so an activation never changes a
//! charge in flight) or a running canary's version where the charge's key falls in the
//! canary's share, within the merchant's share of the sandbox ([`slots`]); counts every call
//! for the kill switch and the canaries; and after the charge's commit records the step
//! metrics and offers the charge to the shadow candidates. The charge services (single
//! charges, LIVE charges, batches) call it; what the chain is told of a charge is
//! [`crate::components::input`].

pub mod slots;

use std::sync::Arc;

use crate::access::Principal;
use crate::components::canary::{self, Arm, CanaryArm};
use crate::components::{ComponentService, Registry, input, shadow};
use crate::db::Db;
use crate::db::catalog::Store;
use crate::db::components::{BUNDLED, StoreStep};
use crate::db::store_cache::StoreRoute;
use crate::internal::Internal;
use crate::metrics::Metrics;
use crate::psp::providers::Providers;
use pixgate_domain::charge::ChargeRequest;
use pixgate_domain::{IdempotencyKey, Step};
use pixgate_sandbox::Sandbox;
use pixgate_sandbox::chain::{self, ChainError, ChainInput, Components, DecisionTrace};
use serde_json::Value;
use slots::MerchantSlots;

/// Why a charge could not be routed.
#[derive(Debug, thiserror::Error)]
pub enum RoutingError {
    /// A step refused the charge (a business rule); `code` is one of the stable codes.
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    /// A step's component could not load or failed; nothing was decided.
    #[error("routing failed in the {0} step")]
    Unavailable(Step),
    /// The provider step found no eligible gateway while one of the store's was left out for
    /// its health (its PSP's breaker tripped, or its success rate under the floor): a
    /// temporary state of the PSPs, not a fault of the request, so the caller is told to retry
    /// (503 `psp_unavailable`) rather than to fix the request (400).
    #[error("{0}")]
    GatewaysDown(String),
}

/// What routing uses.
#[derive(Debug)]
pub struct RoutingDeps {
    pub db: Db,
    pub registry: Arc<Registry>,
    pub sandbox: Arc<Sandbox>,
    /// Each merchant's share of concurrent chain runs.
    pub slots: Arc<MerchantSlots>,
    /// The providers' recent health, an input of the chain.
    pub providers: Arc<Providers>,
    /// Fires the kill switch and ends failing canaries.
    pub components: ComponentService,
    pub metrics: Arc<Metrics>,
}

/// The routing handle. Built once by the composition root; cheap to clone.
#[derive(Debug, Clone)]
pub struct Routing {
    deps: Arc<RoutingDeps>,
}

impl Routing {
    pub fn new(deps: RoutingDeps) -> Self {
        Self {
            deps: Arc::new(deps),
        }
    }

    /// Runs the chain for a charge with the versions the store runs (taken once, so an
    /// activation never changes a charge in flight), or a running canary's version where the
    /// charge's key falls in the canary's share, and counts it for the kill switch or the
    /// canary.
    pub async fn resolve(
        &self,
        route: &StoreRoute,
        principal: &Principal,
        key: &IdempotencyKey,
        request: &ChargeRequest,
        intent_id: &str,
        now: i64,
    ) -> Result<Resolved, RoutingError> {
        let store = &route.store;
        let mut components = self
        .deps.registry
        .for_store(&self.deps.db, &self.deps.sandbox, &route.steps)
        .await
        .map_err(|e| {
            tracing::error!(store = %store.code, error = %e, "the store's components did not load");
            RoutingError::Unavailable(Step::Policy)
        })?;
        let canaries = canary::arms(&route.canaries, &store.id, key.as_str());
        for arm in canaries.iter().filter(|a| a.arm == Arm::Canary) {
            match self
                .deps
                .registry
                .load(&self.deps.db, &self.deps.sandbox, arm.step, &arm.version)
                .await
            {
                Ok(loaded) => components.set(arm.step, loaded),
                Err(e) => {
                    tracing::error!(store = %store.code, step = %arm.step, error = %e,
                        "the canary's version did not load");
                    self.canary_failed(route, arm, "component_unavailable");
                    return Err(RoutingError::Unavailable(arm.step));
                }
            }
        }
        let input = input::chain_input(
            |provider| self.deps.providers.health(provider),
            store,
            &route.gateways,
            &principal.merchant_code,
            request,
            intent_id,
            now,
        );
        // On the request's own thread, told to tokio as blocking: the chain is ~0.1 ms of CPU
        // with the bundled components, and the blocking pool's hand-off cost two thread switches
        // per charge, which the load profile showed dominating. `block_in_place` (not a plain
        // call) because wasmtime-wasi's synchronous streams (a guest's stderr, where a Rust
        // panic message goes) call `Handle::block_on`, which panics on a runtime worker.
        let slot = self.deps.slots.acquire(&principal.merchant_id).await;
        let result =
            tokio::task::block_in_place(|| chain::resolve(&self.deps.sandbox, &components, &input));
        drop(slot);
        self.observe_kill_switch(route, &result, &canaries, now);
        if let Err(ChainError::Sandbox { step, error }) = &result
            && error.is_guest_fault()
            && let Some(arm) = canaries
                .iter()
                .find(|a| a.step == *step && a.arm == Arm::Canary)
        {
            self.canary_failed(route, arm, error.code());
        }
        let trace = result.map_err(|e| chain_error(store, &input, e))?;
        Ok(Resolved {
            components,
            trace,
            canaries,
        })
    }

    /// Counts a canary charge whose step failed against its canary (off the request path).
    fn canary_failed(&self, route: &StoreRoute, arm: &CanaryArm, code: &str) {
        if let Some(c) = route.canaries.iter().find(|c| c.id == arm.canary_id) {
            self.deps.components.canary_failed(c.clone(), code);
        }
    }

    /// After a charge's commit: the step metrics and the shadow candidates' comparison.
    pub fn after_commit(
        &self,
        route: &StoreRoute,
        intent_id: &str,
        trace: DecisionTrace,
        components: Components,
        canaries: &[CanaryArm],
    ) {
        for (step, took, fuel) in [
            (Step::Policy, trace.policy.duration, trace.policy.fuel_used),
            (
                Step::Provider,
                trace.provider.duration,
                trace.provider.fuel_used,
            ),
            (
                Step::Economics,
                trace.economics.duration,
                trace.economics.fuel_used,
            ),
        ] {
            self.deps
                .metrics
                .observe_step(step.as_str(), took.as_secs_f64(), fuel);
        }
        // A canary charge is compared with the active version, not with a shadow candidate
        // (a candidate is measured against what the store runs).
        let canaries: Vec<_> = canaries
            .iter()
            .filter(|a| a.arm == Arm::Canary)
            .filter_map(|a| {
                let c = route.canaries.iter().find(|c| c.id == a.canary_id)?;
                Some((c.clone(), active_version(&route.steps, a.step).0.to_owned()))
            })
            .collect();
        let candidates = if canaries.is_empty() {
            shadow::candidates(&route.steps)
        } else {
            Vec::new()
        };
        if !candidates.is_empty() || !canaries.is_empty() {
            let offered = self.deps.registry.shadow.offer(shadow::Job {
                store_id: route.store.id.clone(),
                payment_intent_id: intent_id.to_owned(),
                trace: Arc::new(trace),
                active: components,
                candidates,
                canaries,
            });
            if !offered {
                self.deps.metrics.observe_shadow("all", "skipped");
            }
        }
    }

    /// Counts this charge's calls of each step for the kill switch, and fires it when a
    /// version's failures reach the store's threshold.
    fn observe_kill_switch(
        &self,
        route: &StoreRoute,
        result: &Result<DecisionTrace, ChainError>,
        canaries: &[CanaryArm],
        now: i64,
    ) {
        let (last, failed) = match result {
            Ok(_) | Err(ChainError::NoAcceptableGateway) => (Some(Step::Economics), false),
            Err(ChainError::Refused { step, .. }) => (Some(*step), false),
            // Only what the component is to blame for: a full instance pool or a backstop hit on
            // a saturated machine says nothing about the version.
            Err(ChainError::Sandbox { step, error }) if !error.is_guest_fault() => {
                (step.previous(), false)
            }
            Err(ChainError::Sandbox { step, .. }) => (Some(*step), true),
        };
        let Some(last) = last else { return };
        for step in Step::ALL.into_iter().filter(|s| *s <= last) {
            // A canary's call is judged by the canary's thresholds, not the active version's.
            if canaries
                .iter()
                .any(|a| a.step == step && a.arm == Arm::Canary)
            {
                continue;
            }
            let (version, activated_at) = active_version(&route.steps, step);
            let this_failed = failed && step == last;
            let Some(verdict) = self.deps.registry.kill_switch.observe(
                &route.store.id,
                step,
                version,
                activated_at,
                this_failed,
                &route.kill_switch,
                now,
            ) else {
                continue;
            };
            self.deps
                .components
                .fire_kill_switch(&route.store, step, version, verdict.reason);
        }
    }
}

/// A charge's decision: the versions that made it, its trace, and its canary arms.
pub struct Resolved {
    pub components: Components,
    pub trace: DecisionTrace,
    pub canaries: Vec<CanaryArm>,
}

/// The trace as recorded: the chain's trace, with the charge's canary arms when its store
/// runs a canary (replay reads the chain's fields and re-runs the versions the trace names).
pub fn recorded_trace(trace: &DecisionTrace, canaries: &[CanaryArm]) -> Result<String, Internal> {
    let internal = |e: serde_json::Error| Internal::caused("trace", e);
    if canaries.is_empty() {
        return serde_json::to_string(trace).map_err(internal);
    }
    let mut value = serde_json::to_value(trace).map_err(internal)?;
    if let Value::Object(map) = &mut value {
        map.insert(
            "canaries".to_owned(),
            serde_json::to_value(canaries).map_err(internal)?,
        );
    }
    Ok(value.to_string())
}

/// The version a store runs for `step` and when it was activated.
fn active_version(steps: &[StoreStep], step: Step) -> (&str, Option<i64>) {
    steps
        .iter()
        .find(|s| s.step == step)
        .map_or((BUNDLED, None), |s| {
            (s.active_version.as_str(), s.activated_at)
        })
}

fn chain_error(store: &Store, input: &ChainInput, e: ChainError) -> RoutingError {
    match e {
        ChainError::Refused { error, .. } if error.code == "no_eligible_gateway" => {
            let failing = failing_gateways(store, input);
            if failing.is_empty() {
                RoutingError::Refused {
                    code: "no_eligible_gateway",
                    message: error.message,
                }
            } else {
                RoutingError::GatewaysDown(format!(
                    "no gateway of this store can take the charge now: {} failing at its PSP; \
                     retry with the same Idempotency-Key",
                    failing.join(", ")
                ))
            }
        }
        ChainError::Refused { error, .. } => RoutingError::Refused {
            code: refusal_code(&error.code),
            message: error.message,
        },
        ChainError::NoAcceptableGateway => RoutingError::Refused {
            code: "no_acceptable_gateway",
            message: "no gateway of this store accepts the charge".into(),
        },
        ChainError::Sandbox { step, error } => {
            tracing::error!(store = %store.code, %step, code = error.code(), error = %error,
                "routing component failed");
            RoutingError::Unavailable(step)
        }
    }
}

/// The store's gateways the bundled provider step leaves out for their health, by the same
/// rule and store settings (`routing.min-success-rate-bps`, `routing.min-health-samples`): its
/// PSP unavailable (breaker tripped), or enough recent calls with a success rate under the
/// floor.
fn failing_gateways<'a>(store: &Store, input: &'a ChainInput) -> Vec<&'a str> {
    let config = store.config_map();
    let setting = |name: &str, default: u64| {
        config
            .get(name)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let floor = setting("routing.min-success-rate-bps", 8_000);
    let min_samples = setting("routing.min-health-samples", 20);
    input
        .gateways
        .iter()
        .filter(|g| {
            !g.health.available
                || (u64::from(g.health.samples) >= min_samples
                    && u64::from(g.health.success_rate_bps) < floor)
        })
        .map(|g| g.gateway_alias.as_str())
        .collect()
}

/// A step's refusal code, when it is one of the known stable codes; `charge_refused` otherwise
/// (a custom component's code is still in the message and the trace).
fn refusal_code(code: &str) -> &'static str {
    match code {
        "amount_above_store_limit" => "amount_above_store_limit",
        "amount_below_store_limit" => "amount_below_store_limit",
        "unsupported_currency" => "unsupported_currency",
        "no_eligible_gateway" => "no_eligible_gateway",
        "invalid_store_config" => "invalid_store_config",
        _ => "charge_refused",
    }
}
