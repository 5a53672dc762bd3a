//! The resolution chain for one charge: policy, then provider selection, then economics.
//!
//! Each step runs in the [`Sandbox`]; its output is checked against its input here (a
//! ranking may only name gateways it was given, a quote must add up), so a buggy component
//! yields `invalid_output` instead of a wrong charge.

use std::time::Duration;

use pixgate_policy_logic::{
    self as logic, CandidateEconomics, CandidateOutcome, Charge, EconomicsInput, EconomicsQuote,
    Gateway, PolicyDecision, PolicyInput, ProviderDecision, ProviderInput, RankedGateway, StepEnv,
    StepError, StoreContext, calendar,
};
use serde::{Deserialize, Serialize};

use crate::sandbox::{LoadedComponent, Sandbox, SandboxError, Step, StepRun};

/// The active component of each step for one store.
#[derive(Debug)]
pub struct Components {
    pub policy: LoadedComponent,
    pub provider: LoadedComponent,
    pub economics: LoadedComponent,
}

impl Components {
    /// The components compiled into the binary.
    pub fn bundled(sandbox: &Sandbox) -> Result<Self, SandboxError> {
        Ok(Self {
            policy: sandbox.load_bundled(Step::Policy)?,
            provider: sandbox.load_bundled(Step::Provider)?,
            economics: sandbox.load_bundled(Step::Economics)?,
        })
    }
}

/// Everything the chain needs for one charge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChainInput {
    pub charge: Charge,
    pub store: StoreContext,
    /// The active gateways the store may use, with their health.
    pub gateways: Vec<Gateway>,
    pub env: StepEnv,
}

/// One step as it ran: exactly what went in and came out, with its cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord<I, O> {
    pub step: Step,
    /// sha256 of the component that ran.
    pub component: String,
    pub input: I,
    pub output: O,
    pub fuel_used: u64,
    #[serde(rename = "durationUs", serialize_with = "micros")]
    pub duration: Duration,
    pub log: String,
}

fn micros<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// The gateway the charge goes to, with its economics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    pub gateway: RankedGateway,
    pub quote: EconomicsQuote,
}

/// A resolved charge: the decision trace and the routes in the order to try them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resolution {
    pub policy: StepRecord<PolicyInput, PolicyDecision>,
    pub provider: StepRecord<ProviderInput, ProviderDecision>,
    pub economics: StepRecord<EconomicsInput, Vec<CandidateEconomics>>,
    /// Ranked gateways whose economics were accepted, primary first, at most
    /// `max_attempts` of them.
    pub routes: Vec<Route>,
}

impl Resolution {
    /// The primary route.
    pub fn primary(&self) -> &Route {
        &self.routes[0]
    }
}

/// Why the chain gave no route.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    #[error("{step} step failed: {error}")]
    Sandbox { step: Step, error: SandboxError },
    #[error("{step} step refused the charge: {} ({})", .error.message, .error.code)]
    Refused { step: Step, error: StepError },
    #[error("no ranked gateway was accepted by the economics step")]
    NoAcceptableGateway,
}

impl ChainError {
    /// Stable snake_case code.
    pub fn code(&self) -> String {
        match self {
            Self::Sandbox { error, .. } => error.code().to_owned(),
            Self::Refused { error, .. } => error.code.clone(),
            Self::NoAcceptableGateway => "no_acceptable_gateway".to_owned(),
        }
    }
}

/// Holidays the economics step is given: Brazil's bank holidays from the charge's Brasília
/// date to the farthest settlement date the candidates' release classes can reach (Dn is at
/// most n business days, and a year has fewer than 20 bank holidays on weekdays).
pub fn holidays_for(created_at_ms: i64, candidates: &[Gateway]) -> Vec<String> {
    let start = calendar::Day::brasilia(created_at_ms);
    let max_days = candidates
        .iter()
        .filter_map(|g| logic::release_days(&g.release_class))
        .max()
        .unwrap_or(0);
    let horizon = calendar::Day(start.0 + i64::from(max_days) * 7 / 5 + 30);
    let (first, last) = (start.ymd().0, horizon.ymd().0);
    (first..=last)
        .flat_map(calendar::br_bank_holidays)
        .filter(|d| *d >= start && *d <= horizon)
        .map(calendar::Day::iso)
        .collect()
}

/// Runs the three steps for one charge.
pub fn resolve(
    sandbox: &Sandbox,
    components: &Components,
    input: &ChainInput,
) -> Result<Resolution, ChainError> {
    let policy_input = PolicyInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        env: input.env.clone(),
    };
    let policy = run_policy(sandbox, &components.policy, policy_input)?;

    let provider_input = ProviderInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        policy: policy.output.clone(),
        gateways: input.gateways.clone(),
        env: input.env.clone(),
    };
    let provider = run_provider(sandbox, &components.provider, provider_input)?;

    let candidates: Vec<Gateway> = provider
        .output
        .ranking
        .iter()
        .filter_map(|r| {
            input
                .gateways
                .iter()
                .find(|g| g.gateway_alias == r.gateway_alias)
        })
        .cloned()
        .collect();
    let economics_input = EconomicsInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        policy: policy.output.clone(),
        holidays: holidays_for(input.charge.created_at_ms, &candidates),
        candidates,
        env: input.env.clone(),
    };
    let economics = run_economics(sandbox, &components.economics, economics_input)?;

    let routes: Vec<Route> = provider
        .output
        .ranking
        .iter()
        .zip(&economics.output)
        .filter_map(|(gateway, verdict)| match &verdict.outcome {
            CandidateOutcome::Accepted(quote) => Some(Route {
                gateway: gateway.clone(),
                quote: quote.clone(),
            }),
            CandidateOutcome::Rejected(_) => None,
        })
        .take(policy.output.max_attempts as usize)
        .collect();
    if routes.is_empty() {
        return Err(ChainError::NoAcceptableGateway);
    }
    Ok(Resolution {
        policy,
        provider,
        economics,
        routes,
    })
}

fn record<I, O>(
    step: Step,
    component: &LoadedComponent,
    input: I,
    run: Result<StepRun<O>, SandboxError>,
    validate: impl FnOnce(&I, &O) -> Result<(), String>,
) -> Result<StepRecord<I, O>, ChainError> {
    let run = run.map_err(|error| ChainError::Sandbox { step, error })?;
    let output = run
        .output
        .map_err(|error| ChainError::Refused { step, error })?;
    validate(&input, &output).map_err(|detail| ChainError::Sandbox {
        step,
        error: SandboxError::InvalidOutput(detail),
    })?;
    Ok(StepRecord {
        step,
        component: component.sha256().to_owned(),
        input,
        output,
        fuel_used: run.fuel_used,
        duration: run.duration,
        log: run.log,
    })
}

pub fn run_policy(
    sandbox: &Sandbox,
    component: &LoadedComponent,
    input: PolicyInput,
) -> Result<StepRecord<PolicyInput, PolicyDecision>, ChainError> {
    let run = sandbox.run_policy(component, &input);
    record(Step::Policy, component, input, run, |_, d| {
        validate_policy(d)
    })
}

pub fn run_provider(
    sandbox: &Sandbox,
    component: &LoadedComponent,
    input: ProviderInput,
) -> Result<StepRecord<ProviderInput, ProviderDecision>, ChainError> {
    let run = sandbox.run_provider(component, &input);
    record(Step::Provider, component, input, run, validate_provider)
}

pub fn run_economics(
    sandbox: &Sandbox,
    component: &LoadedComponent,
    input: EconomicsInput,
) -> Result<StepRecord<EconomicsInput, Vec<CandidateEconomics>>, ChainError> {
    let run = sandbox.run_economics(component, &input);
    record(Step::Economics, component, input, run, |i, v| {
        validate_economics(i, v)
    })
}

fn validate_policy(d: &PolicyDecision) -> Result<(), String> {
    let name_ok = !d.policy.is_empty()
        && d.policy.len() <= 64
        && d.policy
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b));
    if !name_ok {
        return Err(format!(
            "policy name `{}` must be 1 to 64 characters of a-z, 0-9, '-', '_' or '.'",
            d.policy.chars().take(80).collect::<String>()
        ));
    }
    if !(1..=10).contains(&d.max_attempts) {
        return Err(format!(
            "max-attempts {} is not within 1 to 10",
            d.max_attempts
        ));
    }
    if let Some(bad) = d
        .eligible_release_classes
        .iter()
        .find(|c| logic::release_days(c).is_none())
    {
        return Err(format!("`{bad}` is not a release class like D0 or D30"));
    }
    Ok(())
}

fn validate_provider(input: &ProviderInput, d: &ProviderDecision) -> Result<(), String> {
    if d.ranking.is_empty() {
        return Err("the ranking is empty; a step with no gateway must return an error".into());
    }
    let mut seen = std::collections::HashSet::new();
    for r in &d.ranking {
        let Some(g) = input
            .gateways
            .iter()
            .find(|g| g.gateway_alias == r.gateway_alias)
        else {
            return Err(format!(
                "ranking names unknown gateway `{}`",
                r.gateway_alias
            ));
        };
        if g.provider_code != r.provider_code || g.release_class != r.release_class {
            return Err(format!(
                "ranking changes the provider or release class of `{}`",
                r.gateway_alias
            ));
        }
        if !seen.insert(&r.gateway_alias) {
            return Err(format!("ranking names `{}` twice", r.gateway_alias));
        }
    }
    Ok(())
}

fn validate_economics(input: &EconomicsInput, v: &[CandidateEconomics]) -> Result<(), String> {
    if v.len() != input.candidates.len() {
        return Err(format!(
            "{} verdicts for {} candidates",
            v.len(),
            input.candidates.len()
        ));
    }
    let amount = input.charge.amount_centavos;
    let charge_day = calendar::Day::brasilia(input.charge.created_at_ms);
    for (verdict, candidate) in v.iter().zip(&input.candidates) {
        if verdict.gateway_alias != candidate.gateway_alias {
            return Err(format!(
                "verdict for `{}` where `{}` was expected",
                verdict.gateway_alias, candidate.gateway_alias
            ));
        }
        if let CandidateOutcome::Accepted(q) = &verdict.outcome {
            if q.fee_centavos.checked_add(q.net_centavos) != Some(amount) {
                return Err(format!(
                    "fee {} plus net {} is not the amount {amount}",
                    q.fee_centavos, q.net_centavos
                ));
            }
            if q.release_class != candidate.release_class {
                return Err(format!(
                    "quote for `{}` says release class {} but the gateway is {}",
                    candidate.gateway_alias, q.release_class, candidate.release_class
                ));
            }
            match calendar::Day::parse(&q.settlement_date) {
                Some(day) if day >= charge_day => {}
                _ => {
                    return Err(format!(
                        "settlement date `{}` is not a date on or after the charge",
                        q.settlement_date
                    ));
                }
            }
        }
    }
    Ok(())
}
