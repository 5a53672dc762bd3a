//! The whole chain through the bundled components against the same logic compiled natively,
//! on the same inputs (`policies/samples/chain.json`). `cargo bench -p pixgate-sandbox --bench chain`.
//!
//! `PIXGATE_BENCH_COMPONENTS=provider-js=/path/a.wasm,provider-python=/path/b.wasm` adds the
//! given component files (each label starts with its step) to the `component` group: for each,
//! and for the bundled component of the same step, what an instance costs alone (a fresh store
//! and instance, not called) and what a whole call costs on the sample's input for that step.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use pixgate_domain::Step;
use pixgate_policy_logic::{
    CandidateOutcome, EconomicsInput, PolicyInput, ProviderInput, economics, policy, provider,
};
use pixgate_sandbox::chain::{self, ChainInput, Components};
use pixgate_sandbox::{Limits, LoadedComponent, MemoryReset, Sandbox, worlds};

fn sample() -> ChainInput {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../policies/samples/chain.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The native chain does the same work as `chain::resolve`: build each step's input, decide,
/// and pick the routes.
fn native_chain(input: &ChainInput) -> usize {
    let policy_input = PolicyInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        env: input.env.clone(),
    };
    let decision = policy::decide(&policy_input).unwrap();
    let provider_input = ProviderInput {
        charge: input.charge.clone(),
        store: input.store.clone(),
        policy: decision.clone(),
        gateways: input.gateways.clone(),
        env: input.env.clone(),
        pinned_gateway: None,
    };
    let ranking = provider::rank(&provider_input).unwrap();
    let candidates: Vec<_> = ranking
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
        policy: decision.clone(),
        holidays: chain::holidays_for(input.charge.created_at_ms, &candidates),
        candidates,
        env: input.env.clone(),
    };
    let verdicts = economics::evaluate(&economics_input).unwrap();
    verdicts
        .iter()
        .filter(|v| matches!(v.outcome, CandidateOutcome::Accepted(_)))
        .take(decision.max_attempts as usize)
        .count()
}

/// `chain::resolve` as it was before one store served a charge's three steps: each step in a
/// store of its own (`chain::run_step`), everything else the same. The A/B of that lever in
/// one run.
fn store_per_step_chain(sandbox: &Sandbox, components: &Components, input: &ChainInput) -> usize {
    let policy = chain::run_step::<worlds::Policy>(
        sandbox,
        &components.policy,
        PolicyInput {
            charge: input.charge.clone(),
            store: input.store.clone(),
            env: input.env.clone(),
        },
    )
    .unwrap();
    let provider = chain::run_step::<worlds::Provider>(
        sandbox,
        &components.provider,
        ProviderInput {
            charge: input.charge.clone(),
            store: input.store.clone(),
            policy: policy.output.clone(),
            gateways: input.gateways.clone(),
            env: input.env.clone(),
            pinned_gateway: None,
        },
    )
    .unwrap();
    let candidates: Vec<_> = provider
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
    let economics = chain::run_step::<worlds::Economics>(
        sandbox,
        &components.economics,
        EconomicsInput {
            charge: input.charge.clone(),
            store: input.store.clone(),
            policy: policy.output.clone(),
            holidays: chain::holidays_for(input.charge.created_at_ms, &candidates),
            candidates,
            env: input.env.clone(),
        },
    )
    .unwrap();
    economics
        .output
        .iter()
        .filter(|v| matches!(v.outcome, CandidateOutcome::Accepted(_)))
        .take(policy.output.max_attempts as usize)
        .count()
}

fn benches(c: &mut Criterion) {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let components = Components::bundled(&sandbox).unwrap();
    let input = sample();
    assert_eq!(
        native_chain(&input),
        chain::resolve(&sandbox, &components, &input)
            .unwrap()
            .routes
            .len()
    );

    let mut group = c.benchmark_group("chain");
    group.bench_function("wasm (3 fresh instances and calls)", |b| {
        b.iter(|| chain::resolve(&sandbox, &components, black_box(&input)).unwrap())
    });
    group.bench_function("wasm, a store per step", |b| {
        b.iter(|| store_per_step_chain(&sandbox, &components, black_box(&input)))
    });
    group.bench_function("native", |b| b.iter(|| native_chain(black_box(&input))));
    // The same chain where the kernel lacks PAGEMAP_SCAN (or swap is on): memory is reset
    // with memset and madvise instead of page by dirtied page.
    if sandbox.memory_reset() == MemoryReset::PagemapScan {
        let fallback =
            Sandbox::with_memory_reset(Limits::default(), None, MemoryReset::Memset).unwrap();
        let fallback_components = Components::bundled(&fallback).unwrap();
        group.bench_function("wasm, memset reset (no PAGEMAP_SCAN)", |b| {
            b.iter(|| chain::resolve(&fallback, &fallback_components, black_box(&input)).unwrap())
        });
    }
    group.finish();

    let resolution = chain::resolve(&sandbox, &components, &input).unwrap();
    let mut steps = c.benchmark_group("step");
    steps.bench_function("policy", |b| {
        b.iter(|| {
            sandbox.run::<pixgate_sandbox::worlds::Policy>(
                &components.policy,
                black_box(&resolution.policy.input),
            )
        })
    });
    steps.bench_function("provider", |b| {
        b.iter(|| {
            sandbox.run::<pixgate_sandbox::worlds::Provider>(
                &components.provider,
                black_box(&resolution.provider.input),
            )
        })
    });
    steps.bench_function("economics", |b| {
        b.iter(|| {
            sandbox.run::<pixgate_sandbox::worlds::Economics>(
                &components.economics,
                black_box(&resolution.economics.input),
            )
        })
    });
    // The same call on a component that does almost nothing: what a call costs whatever the
    // logic (fresh store, instantiation, lowering and lifting) for a std component built for
    // wasm32-wasip2, which imports WASI (it gets no WASI context unless it makes a WASI call).
    let echo = sandbox
        .load(
            pixgate_domain::Step::Policy,
            &std::fs::read(
                PathBuf::from(env!("PIXGATE_GUEST_DIR")).join("pixgate_fixture_misbehave.wasm"),
            )
            .unwrap(),
        )
        .unwrap();
    let mut echo_input = resolution.policy.input.clone();
    echo_input.charge.reference = "fine".into();
    steps.bench_function("fixed cost (echo component)", |b| {
        b.iter(|| sandbox.run::<pixgate_sandbox::worlds::Policy>(&echo, black_box(&echo_input)))
    });
    steps.finish();

    per_component(c, &sandbox, &components, &resolution);
}

/// Instantiation and call cost of the bundled components and of those named by
/// `PIXGATE_BENCH_COMPONENTS`, side by side.
fn per_component(
    c: &mut Criterion,
    sandbox: &Sandbox,
    bundled: &Components,
    resolution: &chain::DecisionTrace,
) {
    let mut measured: Vec<(String, LoadedComponent)> = Vec::new();
    for step in Step::ALL {
        measured.push((
            format!("{step}-bundled"),
            bundled.get(step).with_budget(None),
        ));
    }
    for entry in std::env::var("PIXGATE_BENCH_COMPONENTS")
        .unwrap_or_default()
        .split(',')
        .filter(|e| !e.trim().is_empty())
    {
        let (label, path) = entry
            .split_once('=')
            .expect("PIXGATE_BENCH_COMPONENTS entries are label=path");
        let step: Step = label
            .split('-')
            .next()
            .unwrap_or_default()
            .parse()
            .unwrap_or_else(|e| panic!("{label}: the label starts with its step: {e}"));
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let started = std::time::Instant::now();
        let loaded = sandbox
            .load(step, &bytes)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        eprintln!(
            "{label}: {} bytes, compiled in {:.1} s, imports WASI: {}",
            bytes.len(),
            started.elapsed().as_secs_f64(),
            loaded.imports_wasi()
        );
        measured.push((label.to_owned(), loaded));
    }

    let mut group = c.benchmark_group("component");
    for (label, component) in &measured {
        // What one call of it costs on the sample, and its fuel, printed once.
        let call = |sandbox: &Sandbox| match component.step() {
            Step::Policy => sandbox
                .run::<worlds::Policy>(component, &resolution.policy.input)
                .map(|r| (r.fuel_used, r.output.is_ok())),
            Step::Provider => sandbox
                .run::<worlds::Provider>(component, &resolution.provider.input)
                .map(|r| (r.fuel_used, r.output.is_ok())),
            Step::Economics => sandbox
                .run::<worlds::Economics>(component, &resolution.economics.input)
                .map(|r| (r.fuel_used, r.output.is_ok())),
        };
        match call(sandbox) {
            Ok((fuel, decided)) => eprintln!("{label}: {fuel} fuel a call, decided: {decided}"),
            Err(e) => {
                eprintln!("{label}: its call fails ({e}); measuring instantiation only");
            }
        }
        group.bench_function(format!("{label}/instantiate"), |b| {
            b.iter(|| sandbox.session().instantiate(black_box(component)).unwrap())
        });
        if call(sandbox).is_ok() {
            group.bench_function(format!("{label}/call"), |b| {
                b.iter(|| call(black_box(sandbox)).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(chain_benches, benches);
criterion_main!(chain_benches);
