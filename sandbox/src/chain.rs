//! The resolution chain for one charge: policy, then provider selection, then economics.
//!
//! Each step runs in the [`Sandbox`]; its output is checked against its input here (a
//! ranking may only name gateways it was given, a quote must add up), so a buggy component
//! yields `invalid_output` instead of a wrong charge.

use std::sync::Arc;
use std::time::Duration;

use pixgate_domain::{Outcome, Step};
use pixgate_policy_logic::{
    self as logic, CandidateEconomics, CandidateOutcome, Charge, EconomicsInput, EconomicsQuote,
    Gateway, PolicyDecision, PolicyInput, ProviderDecision, ProviderInput, RankedGateway, StepEnv,
    StepError, StoreContext, calendar,
};
use serde::{Deserialize, Serialize};

use crate::worlds::{Economics, Policy, Provider};
use crate::{Budget, ChainVersion, LoadedComponent, Sandbox, SandboxError, Session, World};

/// The component each step runs for one charge.
#[derive(Debug, Clone)]
pub struct Components {
    pub policy: Arc<LoadedComponent>,
    pub provider: Arc<LoadedComponent>,
    pub economics: Arc<LoadedComponent>,
}

impl Components {
    /// The components compiled into the binary.
    pub fn bundled(sandbox: &Sandbox) -> Result<Self, SandboxError> {
        Ok(Self {
            policy: Arc::new(sandbox.load_bundled(Step::Policy)?),
            provider: Arc::new(sandbox.load_bundled(Step::Provider)?),
            economics: Arc::new(sandbox.load_bundled(Step::Economics)?),
        })
    }

    pub fn get(&self, step: Step) -> &Arc<LoadedComponent> {
        match step {
            Step::Policy => &self.policy,
            Step::Provider => &self.provider,
            Step::Economics => &self.economics,
        }
    }

    pub fn set(&mut self, step: Step, component: Arc<LoadedComponent>) {
        match step {
            Step::Policy => self.policy = component,
            Step::Provider => self.provider = component,
            Step::Economics => self.economics = component,
        }
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
    /// The only gateway the charge may go to (a recurring charge's mandate holder), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned_gateway: Option<String>,
}

/// One step as it ran: exactly what went in and came out, with its cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord<I, O> {
    pub step: Step,
    /// sha256 of the component that ran.
    pub component: String,
    pub input: I,
    pub output: O,
    pub fuel_used: u64,
    /// The budget the step ran with; absent in traces written before budgets were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    #[serde(rename = "durationUs", with = "micros")]
    pub duration: Duration,
    pub log: String,
}

mod micros {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_micros)
    }
}

/// The gateway the charge goes to, with its economics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    pub gateway: RankedGateway,
    pub quote: EconomicsQuote,
}

/// The version of [`DecisionTrace`] this build writes. A change to the trace's shape bumps
/// it, and replay keeps reading every older version.
pub const TRACE_VERSION: u32 = 1;

fn trace_version_1() -> u32 {
    1
}

/// A resolved charge, as recorded: each step's exact input and output, the versions that
/// ran and their fuel, and the routes in the order a LIVE charge tries them. This is what
/// is stored with every charge and what replay reads back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionTrace {
    /// Traces written before the field existed are version 1.
    #[serde(default = "trace_version_1")]
    pub version: u32,
    pub policy: StepRecord<PolicyInput, PolicyDecision>,
    pub provider: StepRecord<ProviderInput, ProviderDecision>,
    pub economics: StepRecord<EconomicsInput, Vec<CandidateEconomics>>,
    /// Ranked gateways whose economics were accepted, primary first, at most
    /// `max_attempts` of them.
    pub routes: Vec<Route>,
}

impl DecisionTrace {
    /// The primary route.
    pub fn primary(&self) -> &Route {
        &self.routes[0]
    }

    /// The chain's input, read back from the steps' recorded inputs: what a replay re-runs.
    pub fn chain_input(&self) -> ChainInput {
        let policy = &self.policy.input;
        ChainInput {
            charge: policy.charge.clone(),
            store: policy.store.clone(),
            gateways: self.provider.input.gateways.clone(),
            env: policy.env.clone(),
            pinned_gateway: self.provider.input.pinned_gateway.clone(),
        }
    }

    /// The component version each step ran.
    pub fn version(&self, step: Step) -> &str {
        match step {
            Step::Policy => &self.policy.component,
            Step::Provider => &self.provider.component,
            Step::Economics => &self.economics.component,
        }
    }

    /// Fuel of the three steps together.
    pub fn fuel_used(&self) -> u64 {
        self.policy.fuel_used + self.provider.fuel_used + self.economics.fuel_used
    }

    /// What was decided, for comparisons.
    pub fn outcome(&self) -> Outcome {
        let primary = self.primary();
        Outcome::Resolved {
            policy: self.policy.output.policy.clone(),
            provider_code: primary.gateway.provider_code.clone(),
            gateway_alias: primary.gateway.gateway_alias.clone(),
            release_class: primary.quote.release_class.clone(),
            fee_centavos: primary.quote.fee_centavos,
            net_centavos: primary.quote.net_centavos,
            settlement_date: primary.quote.settlement_date.clone(),
        }
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

    /// The step that gave no route.
    pub fn step(&self) -> Step {
        match self {
            Self::Sandbox { step, .. } | Self::Refused { step, .. } => *step,
            Self::NoAcceptableGateway => Step::Economics,
        }
    }

    /// The error as an outcome: a failure in the sandbox, or a refusal.
    pub fn outcome(&self) -> Outcome {
        let (step, code) = (self.step(), self.code());
        match self {
            Self::Sandbox { error, .. } => Outcome::Failed {
                step,
                code,
                message: error.to_string(),
            },
            Self::Refused { error, .. } => Outcome::Refused {
                step,
                code,
                message: error.message.clone(),
            },
            Self::NoAcceptableGateway => Outcome::Refused {
                step,
                code,
                message: self.to_string(),
            },
        }
    }
}

/// The outcome of a chain run, whichever way it went.
pub fn outcome_of(result: &Result<DecisionTrace, ChainError>) -> Outcome {
    match result {
        Ok(trace) => trace.outcome(),
        Err(e) => e.outcome(),
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
) -> Result<DecisionTrace, ChainError> {
    resolve_traced(sandbox, components, input).map_err(|failure| failure.error)
}

/// Where the chain stopped without a route, and what it had done until then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainFailure {
    #[serde(skip)]
    pub error: ChainError,
    #[serde(flatten)]
    pub partial: PartialTrace,
}

/// The steps that ran before the chain stopped, recorded as in a [`DecisionTrace`], and the
/// step that gave no decision: what `/evaluate` shows an author of a failing component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartialTrace {
    pub version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<StepRecord<PolicyInput, PolicyDecision>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<StepRecord<ProviderInput, ProviderDecision>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub economics: Option<StepRecord<EconomicsInput, Vec<CandidateEconomics>>>,
    pub stopped: StoppedStep,
}

/// The step that refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoppedStep {
    pub step: Step,
    /// sha256 of the component that ran.
    pub component: String,
    /// Its exact input; absent when the step itself ran (its record above has it) and the
    /// chain stopped on what it decided (no acceptable gateway).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,
    pub code: String,
    pub message: String,
}

/// [`resolve`], keeping on failure what ran and the input of the step that stopped.
pub fn resolve_traced(
    sandbox: &Sandbox,
    components: &Components,
    input: &ChainInput,
) -> Result<DecisionTrace, Box<ChainFailure>> {
    let mut partial = PartialTrace {
        version: TRACE_VERSION,
        policy: None,
        provider: None,
        economics: None,
        stopped: StoppedStep {
            step: Step::Policy,
            component: String::new(),
            input: None,
            code: String::new(),
            message: String::new(),
        },
    };
    // The input of a step that stopped is serialised only then: the path that resolves pays
    // nothing for it.
    fn stop<I: Serialize>(
        mut partial: PartialTrace,
        component: &LoadedComponent,
        (error, input): (ChainError, Option<I>),
    ) -> Box<ChainFailure> {
        partial.stopped = StoppedStep {
            step: error.step(),
            component: component.sha256().to_owned(),
            input: input.and_then(|i| serde_json::to_value(i).ok()),
            code: error.code(),
            message: error.to_string(),
        };
        Box::new(ChainFailure { error, partial })
    }

    let policy_input = PolicyInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        env: input.env.clone(),
    };
    // One store for the three steps (each still on a fresh instance with its own budget).
    let session = &mut sandbox.session();
    let policy = run_step_keeping::<Policy>(session, &components.policy, policy_input)
        .map_err(|(e, i)| stop(partial.clone(), &components.policy, (e, Some(i))))?;

    // A 1.0.0 provider step cannot see a pin: it is offered the pinned gateway alone, so it
    // can only confirm or refuse it, as a 1.1.0 step must.
    let gateways = match &input.pinned_gateway {
        Some(pinned) if components.provider.chain_version() == ChainVersion::V1_0 => input
            .gateways
            .iter()
            .filter(|g| &g.gateway_alias == pinned)
            .cloned()
            .collect(),
        _ => input.gateways.clone(),
    };
    let provider_input = ProviderInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        policy: policy.output.clone(),
        gateways,
        env: input.env.clone(),
        pinned_gateway: input.pinned_gateway.clone(),
    };
    let provider = match run_step_keeping::<Provider>(session, &components.provider, provider_input)
    {
        Ok(r) => r,
        Err((e, i)) => {
            partial.policy = Some(policy);
            return Err(stop(partial, &components.provider, (e, Some(i))));
        }
    };

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
    let economics =
        match run_step_keeping::<Economics>(session, &components.economics, economics_input) {
            Ok(r) => r,
            Err((e, i)) => {
                partial.policy = Some(policy);
                partial.provider = Some(provider);
                return Err(stop(partial, &components.economics, (e, Some(i))));
            }
        };

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
        partial.policy = Some(policy);
        partial.provider = Some(provider);
        partial.economics = Some(economics);
        return Err(stop::<()>(
            partial,
            &components.economics,
            (ChainError::NoAcceptableGateway, None),
        ));
    }
    Ok(DecisionTrace {
        version: TRACE_VERSION,
        policy,
        provider,
        economics,
        routes,
    })
}

/// A step of the chain: its world, plus the checks of its output against its input that
/// keep a buggy component from producing a wrong charge.
pub trait ChainStep: World {
    fn validate(input: &Self::Input, output: &Self::Output) -> Result<(), String>;
}

impl ChainStep for Policy {
    fn validate(_: &PolicyInput, output: &PolicyDecision) -> Result<(), String> {
        validate_policy(output)
    }
}

impl ChainStep for Provider {
    fn validate(input: &ProviderInput, output: &ProviderDecision) -> Result<(), String> {
        validate_provider(input, output)
    }
}

impl ChainStep for Economics {
    fn validate(input: &EconomicsInput, output: &Vec<CandidateEconomics>) -> Result<(), String> {
        validate_economics(input, output)
    }
}

/// Runs one step in the sandbox and records it; a refusal, a sandbox failure or an output
/// that breaks the step's rules is a [`ChainError`].
pub fn run_step<W: ChainStep>(
    sandbox: &Sandbox,
    component: &LoadedComponent,
    input: W::Input,
) -> Result<StepRecord<W::Input, W::Output>, ChainError> {
    run_step_keeping::<W>(&mut sandbox.session(), component, input).map_err(|(error, _)| error)
}

/// A step's record, or why it gave no decision with the input handed back.
type StepResult<W> = Result<
    StepRecord<<W as World>::Input, <W as World>::Output>,
    (ChainError, <W as World>::Input),
>;

/// [`run_step`], handing the input back when the step gives no decision.
fn run_step_keeping<W: ChainStep>(
    session: &mut Session<'_>,
    component: &LoadedComponent,
    input: W::Input,
) -> StepResult<W> {
    let step = W::STEP;
    // One span per step for the operator's tracing: the component that ran (its sha256 is
    // its version), the fuel it used and how it ended. At debug, which the trace exporter
    // takes for this module and the log lines do not by default: with traces off, a charge
    // and every replayed one pay nothing for it.
    let span = tracing::debug_span!(
        "chain step",
        otel.name = %format_args!("chain {step}"),
        %step,
        version = component.sha256(),
        fuel_used = tracing::field::Empty,
        outcome = tracing::field::Empty,
    );
    let _entered = span.enter();
    let (input, run) = session.run_owned::<W>(component, input);
    let run = match run {
        Ok(run) => run,
        Err(error) => {
            span.record("outcome", "failed");
            return Err((ChainError::Sandbox { step, error }, input));
        }
    };
    span.record("fuel_used", run.fuel_used);
    let output = match run.output {
        Ok(output) => output,
        Err(error) => {
            span.record("outcome", "refused");
            return Err((ChainError::Refused { step, error }, input));
        }
    };
    if let Err(detail) = W::validate(&input, &output) {
        span.record("outcome", "failed");
        let error = ChainError::Sandbox {
            step,
            error: SandboxError::InvalidOutput(detail),
        };
        return Err((error, input));
    }
    span.record("outcome", "decided");
    Ok(StepRecord {
        step,
        component: component.sha256().to_owned(),
        input,
        output,
        fuel_used: run.fuel_used,
        budget: Some(run.budget),
        duration: run.duration,
        log: run.log,
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
    if let Some(pinned) = &input.pinned_gateway
        && (d.ranking.len() != 1 || &d.ranking[0].gateway_alias != pinned)
    {
        return Err(format!(
            "the charge is pinned to `{pinned}`: the ranking may hold it alone, or the step \
             must return an error"
        ));
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
