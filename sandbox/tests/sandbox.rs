//! The sandbox's limits and guarantees, proved against the real wasmtime with components
//! built from `policies/` (the bundled steps and the fixtures that misbehave on purpose).

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use pixgate_domain::Step;
use pixgate_policy_logic::{
    ChargeKind, DiscountDate, DiscountModality, DiscountRule, DueTerms, FixedOrPercent,
    FixedOrPercentRule, InterestModality, InterestRule, PolicyInput, ProviderInput,
};
use pixgate_sandbox::chain::{self, ChainError, ChainInput, Components};
use pixgate_sandbox::{
    Budget, ChainVersion, Limits, LoadedComponent, MemoryReset, Sandbox, SandboxError, bundled_wasm,
};

fn guest(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("PIXGATE_GUEST_DIR")).join(format!("{name}.wasm"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sample<T: serde::de::DeserializeOwned>(name: &str) -> T {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../policies/samples")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| Sandbox::new(Limits::default(), None).unwrap())
}

fn misbehaving() -> &'static LoadedComponent {
    static COMPONENT: OnceLock<LoadedComponent> = OnceLock::new();
    COMPONENT.get_or_init(|| {
        sandbox()
            .load(Step::Policy, &guest("pixgate_fixture_misbehave"))
            .unwrap()
    })
}

/// The policy input with the fixture's behaviour named in the reference.
fn acting(reference: &str) -> PolicyInput {
    let mut input: PolicyInput = sample("policy");
    input.charge.reference = reference.into();
    input
}

fn fixture_error(sandbox: &Sandbox, reference: &str) -> SandboxError {
    let component = if std::ptr::eq(sandbox, self::sandbox()) {
        misbehaving()
    } else {
        &sandbox
            .load(Step::Policy, &guest("pixgate_fixture_misbehave"))
            .unwrap()
    };
    match sandbox.run::<pixgate_sandbox::worlds::Policy>(component, &acting(reference)) {
        Err(e) => e,
        Ok(run) => panic!("`{reference}` should have failed, got {run:?}"),
    }
}

#[test]
fn bundled_chain_routes_the_sample_charge() {
    let components = Components::bundled(sandbox()).unwrap();
    let input: ChainInput = sample("chain");
    let resolution = chain::resolve(sandbox(), &components, &input).unwrap();
    // R$ 129.90 is below the auto threshold: d0-first, and sandbox-b-d0 is the cheaper D0.
    assert_eq!(resolution.policy.output.policy, "d0-first");
    let primary = resolution.primary();
    assert_eq!(primary.gateway.gateway_alias, "sandbox-b-d0");
    assert_eq!(primary.quote.fee_centavos, 165); // 1.19 % of 12990 = 154.6 -> 155, + 10
    assert_eq!(primary.quote.net_centavos, 12_990 - 165);
    assert_eq!(primary.quote.settlement_date, "2026-11-19");
    let aliases: Vec<_> = resolution
        .routes
        .iter()
        .map(|r| r.gateway.gateway_alias.as_str())
        .collect();
    assert_eq!(aliases, ["sandbox-b-d0", "sandbox-a-d0", "sandbox-a-d1"]);
    // The D1 route settles after the Black Consciousness Day holiday and the weekend.
    assert_eq!(resolution.routes[2].quote.settlement_date, "2026-11-23");
    for fuel in [
        resolution.policy.fuel_used,
        resolution.provider.fuel_used,
        resolution.economics.fuel_used,
    ] {
        assert!(fuel > 0 && fuel < Limits::default().fuel, "{fuel}");
    }
}

#[test]
fn the_wasm_chain_decides_exactly_like_the_native_logic() {
    let components = Components::bundled(sandbox()).unwrap();
    let input: ChainInput = sample("chain");
    let resolution = chain::resolve(sandbox(), &components, &input).unwrap();
    let policy = pixgate_policy_logic::policy::decide(&resolution.policy.input).unwrap();
    assert_eq!(policy, resolution.policy.output);
    let ranking = pixgate_policy_logic::provider::rank(&resolution.provider.input).unwrap();
    assert_eq!(ranking, resolution.provider.output);
    let quotes = pixgate_policy_logic::economics::evaluate(&resolution.economics.input).unwrap();
    assert_eq!(quotes, resolution.economics.output);
}

/// The sample charge as a due-date charge (chain 1.1.0's `due-date` kind).
fn due_date_sample() -> ChainInput {
    let mut input: ChainInput = sample("chain");
    input.charge.kind = ChargeKind::DueDate(DueTerms {
        due_date: "2026-12-10".into(),
        days_after_due: 30,
        fine: Some(FixedOrPercentRule {
            kind: FixedOrPercent::Percent,
            value: 200,
        }),
        interest: Some(InterestRule {
            modality: InterestModality::PercentPerCalendarMonth,
            value: 100,
        }),
        abatement: None,
        discount: Some(DiscountRule {
            modality: DiscountModality::FixedUntilDates,
            value: 0,
            dates: vec![DiscountDate {
                date: "2026-12-01".into(),
                value: 500,
            }],
        }),
    });
    input
}

#[test]
fn a_due_date_charge_reaches_the_bundled_steps_with_its_terms() {
    let components = Components::bundled(sandbox()).unwrap();
    for step in Step::ALL {
        assert_eq!(components.get(step).chain_version(), ChainVersion::V1_1);
    }
    let input = due_date_sample();
    let resolution = chain::resolve(sandbox(), &components, &input).unwrap();
    // The policy component saw the kind: due-date charges have a policy of their own.
    assert_eq!(resolution.policy.output.policy, "due-date");
    assert_eq!(resolution.policy.input.charge.kind, input.charge.kind);
    // And decided as the native logic does on the same input, terms included.
    let policy = pixgate_policy_logic::policy::decide(&resolution.policy.input).unwrap();
    assert_eq!(policy, resolution.policy.output);
    let ranking = pixgate_policy_logic::provider::rank(&resolution.provider.input).unwrap();
    assert_eq!(ranking, resolution.provider.output);
}

#[test]
fn a_1_0_0_component_runs_beside_1_1_0_ones_without_the_kind() {
    let costliest = sandbox()
        .load(Step::Provider, &guest("pixgate_fixture_costliest_first"))
        .unwrap();
    assert_eq!(costliest.chain_version(), ChainVersion::V1_0);
    let mut components = Components::bundled(sandbox()).unwrap();
    components.set(Step::Provider, std::sync::Arc::new(costliest));
    let input = due_date_sample();
    let resolution = chain::resolve(sandbox(), &components, &input).unwrap();
    assert_eq!(resolution.policy.output.policy, "due-date");
    // The 1.0.0 step ranked (most expensive first, its own rule) ...
    let fees: Vec<_> = resolution
        .routes
        .iter()
        .map(|r| r.quote.fee_centavos)
        .collect();
    assert!(fees.windows(2).all(|w| w[0] >= w[1]), "{fees:?}");
    // ... and the trace records the input whole, kind included, for replay.
    assert_eq!(resolution.provider.input.charge.kind, input.charge.kind);
    assert_eq!(resolution.chain_input(), input);
}

#[test]
fn a_pinned_charge_is_only_confirmed_or_refused_by_either_version() {
    let mut input: ChainInput = sample("chain");
    input.pinned_gateway = Some("sandbox-a-d1".into());
    let bundled = Components::bundled(sandbox()).unwrap();
    let mut old = Components::bundled(sandbox()).unwrap();
    old.set(
        Step::Provider,
        std::sync::Arc::new(
            sandbox()
                .load(Step::Provider, &guest("pixgate_fixture_costliest_first"))
                .unwrap(),
        ),
    );
    for components in [&bundled, &old] {
        let resolution = chain::resolve(sandbox(), components, &input).unwrap();
        let aliases: Vec<_> = resolution
            .routes
            .iter()
            .map(|r| r.gateway.gateway_alias.as_str())
            .collect();
        assert_eq!(aliases, ["sandbox-a-d1"]);
        assert_eq!(
            resolution.chain_input().pinned_gateway,
            input.pinned_gateway
        );
    }
    // The 1.0.0 step, which cannot read the pin, was offered the pinned gateway alone.
    let resolution = chain::resolve(sandbox(), &old, &input).unwrap();
    assert_eq!(resolution.provider.input.gateways.len(), 1);
    // Pinned to a gateway the store does not have: the bundled step refuses the charge.
    input.pinned_gateway = Some("elsewhere".into());
    let failure = chain::resolve(sandbox(), &bundled, &input).unwrap_err();
    assert!(
        failure.to_string().contains("pinned_gateway_unknown"),
        "{failure}"
    );
}

#[test]
fn same_input_gives_the_same_output_and_fuel_twice() {
    let components = Components::bundled(sandbox()).unwrap();
    let input: ChainInput = sample("chain");
    let a = chain::resolve(sandbox(), &components, &input).unwrap();
    let b = chain::resolve(sandbox(), &components, &input).unwrap();
    assert_eq!(a.routes, b.routes);
    assert_eq!(a.economics.output, b.economics.output);
    assert_eq!(
        (
            a.policy.fuel_used,
            a.provider.fuel_used,
            a.economics.fuel_used
        ),
        (
            b.policy.fuel_used,
            b.provider.fuel_used,
            b.economics.fuel_used
        )
    );
}

/// A version stored before sealing existed imports files and sockets, linked inert
/// ([`misbehaving`] loads it that way); a new upload must be sealed, and the sealed component
/// sees the same nothing through the deny adapter inside it.
#[test]
fn a_sealed_component_finds_no_files_and_no_network_and_an_unsealed_one_is_not_admitted() {
    let unsealed = guest("pixgate_fixture_misbehave");
    let err = sandbox().load_new(Step::Policy, &unsealed).unwrap_err();
    assert_eq!(err.code(), "invalid_component", "{err}");
    assert!(err.to_string().contains("`wasi:filesystem/"), "{err}");
    assert!(err.to_string().contains("pixgate policy seal"), "{err}");

    let sealed = pixgate_sandbox::seal(&unsealed).unwrap();
    assert_eq!(
        sealed.sealed_imports,
        [
            "wasi:filesystem/types@0.2.6",
            "wasi:filesystem/preopens@0.2.6",
            "wasi:sockets/network@0.2.6",
            "wasi:sockets/instance-network@0.2.6",
            "wasi:sockets/udp@0.2.6",
            "wasi:sockets/udp-create-socket@0.2.6",
            "wasi:sockets/tcp@0.2.6",
            "wasi:sockets/tcp-create-socket@0.2.6",
            "wasi:sockets/ip-name-lookup@0.2.6",
        ]
    );
    let component = sandbox().load_new(Step::Policy, &sealed.bytes).unwrap();
    assert!(
        component
            .imports()
            .iter()
            .all(|name| !name.starts_with("wasi:filesystem/") && !name.starts_with("wasi:sockets/")),
        "{:?}",
        component.imports()
    );
    let input = acting("world");
    let run = sandbox()
        .run::<pixgate_sandbox::worlds::Policy>(&component, &input)
        .unwrap();
    let seen = run.output.unwrap().policy;
    assert!(
        seen.contains("elapsed=0 env=0 args=0 file=false dir=false net=false"),
        "{seen}"
    );
    // The same decision as the unsealed build's: sealing changes what is behind the imports,
    // not the step.
    let stored = sandbox()
        .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &input)
        .unwrap();
    assert_eq!(seen, stored.output.unwrap().policy);

    // Sealed already, or importing neither: nothing to do.
    let again = pixgate_sandbox::seal(&sealed.bytes).unwrap();
    assert!(again.sealed_imports.is_empty());
    assert_eq!(again.bytes, sealed.bytes);
    let bundled = pixgate_sandbox::seal(bundled_wasm(Step::Policy)).unwrap();
    assert!(bundled.sealed_imports.is_empty());

    let err = pixgate_sandbox::seal(b"not wasm").unwrap_err();
    assert_eq!(err.code(), "invalid_component", "{err}");
}

#[test]
fn a_step_sees_only_the_clock_and_randomness_of_its_input() {
    let input = acting("world");
    let first = sandbox()
        .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &input)
        .unwrap();
    let again = sandbox()
        .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &input)
        .unwrap();
    let seen = first.output.clone().unwrap().policy;
    assert_eq!(first.output, again.output, "same input, same observations");
    assert!(
        seen.starts_with(&format!("now={} ", input.env.now_ms)),
        "wall clock must be the input's now: {seen}"
    );
    assert!(
        seen.contains("elapsed=0 env=0 args=0 file=false dir=false net=false"),
        "{seen}"
    );
    assert_eq!(first.log, "info: looked around\nto stderr\n");

    let mut reseeded = input.clone();
    reseeded.env.seed += 1;
    let other = sandbox()
        .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &reseeded)
        .unwrap();
    let random = |s: &str| s.split(' ').nth(1).unwrap().to_owned();
    assert_ne!(
        random(&seen),
        random(&other.output.unwrap().policy),
        "randomness follows the seed"
    );
}

#[test]
fn an_infinite_loop_runs_out_of_fuel() {
    assert_eq!(
        fixture_error(sandbox(), "loop"),
        SandboxError::FuelExhausted { budget: 11_000_000 }
    );
}

#[test]
fn the_wall_clock_backstop_stops_a_loop_with_unlimited_fuel() {
    let limits = Limits {
        fuel: u64::MAX / 2,
        wall_clock: Duration::from_millis(50),
        ..Limits::default()
    };
    let sandbox = Sandbox::new(limits, None).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(
        fixture_error(&sandbox, "loop"),
        SandboxError::DeadlineExceeded {
            limit: Duration::from_millis(50)
        }
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_memory_bomb_hits_the_memory_limit() {
    assert_eq!(
        fixture_error(sandbox(), "memory-bomb"),
        SandboxError::MemoryLimitExceeded {
            limit_bytes: 16 << 20
        }
    );
}

#[test]
fn deep_recursion_exhausts_the_stack() {
    assert_eq!(
        fixture_error(sandbox(), "recursion"),
        SandboxError::StackExhausted
    );
}

#[test]
fn oversized_output_is_refused() {
    match fixture_error(sandbox(), "oversized") {
        SandboxError::OutputTooLarge { size, limit } => {
            assert_eq!(limit, 20 << 10);
            assert!(size > limit, "{size}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_panic_is_a_trap_with_its_message() {
    match fixture_error(sandbox(), "panic") {
        SandboxError::Trapped { message } => {
            assert!(message.contains("fixture panicked on purpose"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn flooding_the_log_is_refused() {
    assert_eq!(
        fixture_error(sandbox(), "log-flood"),
        SandboxError::LogLimitExceeded { limit: 1024 }
    );
}

#[test]
fn sleeping_is_refused_at_once() {
    let started = std::time::Instant::now();
    assert!(matches!(
        fixture_error(sandbox(), "sleep"),
        SandboxError::BlockingForbidden(_)
    ));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn input_over_the_limit_is_refused_before_the_call() {
    let mut input = acting("echo");
    input.charge.metadata_json = format!("{{\"pad\":\"{}\"}}", "x".repeat(130 << 10));
    assert!(matches!(
        sandbox().run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &input),
        Err(SandboxError::InputTooLarge { limit: 131_072, .. })
    ));
}

#[test]
fn an_output_that_does_not_add_up_is_invalid() {
    match chain::run_step::<pixgate_sandbox::worlds::Policy>(
        sandbox(),
        misbehaving(),
        acting("invalid-output"),
    ) {
        Err(ChainError::Sandbox {
            step: Step::Policy,
            error: SandboxError::InvalidOutput(detail),
        }) => assert!(detail.contains("policy name"), "{detail}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_step_error_is_a_refusal_not_a_failure() {
    let run = sandbox()
        .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &acting("step-error"))
        .unwrap();
    assert_eq!(run.output.unwrap_err().code, "fixture_refused");
}

#[test]
fn a_component_of_another_world_is_refused_at_load() {
    match sandbox().load(Step::Policy, &guest("pixgate_fixture_wrong_world")) {
        Err(SandboxError::WrongWorld { step, detail }) => {
            assert_eq!(step, Step::Policy);
            assert!(detail.contains("pixgate:chain/policy@1.1.0"), "{detail}");
            assert!(
                detail.contains("pixgate-fixtures:greeter/greet"),
                "{detail}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A real step of the wrong kind is refused the same way.
    assert!(matches!(
        sandbox().load(Step::Policy, bundled_wasm(Step::Provider)),
        Err(SandboxError::WrongWorld { .. })
    ));
}

#[test]
fn bytes_that_are_not_a_component_are_refused() {
    assert!(matches!(
        sandbox().load(Step::Policy, b"\0asm not really"),
        Err(SandboxError::InvalidComponent(_))
    ));
}

#[test]
fn a_component_runs_only_as_its_own_step() {
    let provider = sandbox().load_bundled(Step::Provider).unwrap();
    assert_eq!(
        sandbox().run::<pixgate_sandbox::worlds::Policy>(&provider, &sample("policy")),
        Err(SandboxError::StepMismatch {
            expected: Step::Policy,
            found: Step::Provider
        })
    );
}

#[test]
fn the_host_keeps_working_after_every_failure() {
    for reference in ["loop", "memory-bomb", "recursion", "panic", "log-flood"] {
        fixture_error(sandbox(), reference);
        let run = sandbox()
            .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &acting("fine"))
            .unwrap();
        assert_eq!(run.output.unwrap().policy, "echo:fine");
    }
    let provider = sandbox().load_bundled(Step::Provider).unwrap();
    let input: ProviderInput = sample("provider");
    assert!(
        sandbox()
            .run::<pixgate_sandbox::worlds::Provider>(&provider, &input)
            .unwrap()
            .output
            .is_ok()
    );
}

#[test]
fn the_bundled_components_import_no_wasi_and_the_fixtures_do() {
    for step in Step::ALL {
        let component = sandbox().load_bundled(step).unwrap();
        assert!(
            !component.imports_wasi(),
            "{step}: {:?}",
            component.imports()
        );
        assert!(
            component
                .imports()
                .iter()
                .all(|name| name.starts_with("pixgate:chain/")),
            "{step}: {:?}",
            component.imports()
        );
        assert!(
            component
                .imports()
                .contains(&"pixgate:chain/host-log@1.1.0".to_owned()),
            "{step}: {:?}",
            component.imports()
        );
    }
    // The fixtures are std components for wasm32-wasip2, like an author's: WASI-linked.
    assert!(
        misbehaving().imports_wasi(),
        "{:?}",
        misbehaving().imports()
    );
}

/// Where the kernel offers `PAGEMAP_SCAN` and no swap is on, the engine resets only the pages
/// a call dirtied; it is configured with `Enabled::Yes` then, so it cannot silently differ.
#[test]
fn the_engine_resets_memory_with_pagemap_scan_where_the_host_supports_it() {
    let swap_on = std::fs::read_to_string("/proc/swaps")
        .map(|s| s.lines().skip(1).any(|l| !l.trim().is_empty()))
        .unwrap_or(true);
    let expected = if wasmtime::PoolingAllocationConfig::is_pagemap_scan_available() && !swap_on {
        MemoryReset::PagemapScan
    } else {
        MemoryReset::Memset
    };
    assert_eq!(MemoryReset::for_this_host(), expected);
    assert_eq!(sandbox().memory_reset(), expected);
    // The fallback is always available.
    let fallback =
        Sandbox::with_memory_reset(Limits::default(), None, MemoryReset::Memset).unwrap();
    assert_eq!(fallback.memory_reset(), MemoryReset::Memset);
}

/// A call must never see what an earlier call left in its pool slot: statics, and pages grown
/// past the image, many separate runs of them, beyond what the pool resets in place. Checked
/// with each way of resetting memory this host supports.
#[test]
fn a_fresh_instance_never_sees_what_an_earlier_call_left() {
    let mut modes = vec![MemoryReset::Memset];
    if MemoryReset::for_this_host() == MemoryReset::PagemapScan {
        modes.push(MemoryReset::PagemapScan);
    }
    for mode in modes {
        let sandbox = Sandbox::with_memory_reset(Limits::default(), None, mode).unwrap();
        let component = sandbox
            .load(Step::Policy, &guest("pixgate_fixture_misbehave"))
            .unwrap();
        for round in 0..20 {
            let run = sandbox
                .run::<pixgate_sandbox::worlds::Policy>(&component, &acting("leftover"))
                .unwrap();
            assert_eq!(
                run.output.unwrap().policy,
                "static=0 stale-pages=0",
                "{mode:?}, round {round}"
            );
            if round % 5 == 4 {
                // Another call in between, and a failed one.
                fixture_error(&sandbox, "memory-bomb");
            }
        }
    }
}

#[test]
fn compiled_components_are_cached_on_disk_and_damage_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = bundled_wasm(Step::Economics);
    {
        let sandbox = Sandbox::new(Limits::default(), Some(dir.path().to_owned())).unwrap();
        sandbox.load(Step::Economics, wasm).unwrap();
    }
    let entries = || {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let names = entries();
    assert_eq!(names.len(), 2, "{names:?}");
    let sha = pixgate_domain::sha256_hex(wasm);
    assert!(names[0].starts_with(&sha) && names[0].ends_with(".cwasm"));

    // Damage the compiled file: the next load notices, recompiles and rewrites it.
    let compiled = dir.path().join(&names[0]);
    std::fs::write(&compiled, b"garbage").unwrap();
    let sandbox = Sandbox::new(Limits::default(), Some(dir.path().to_owned())).unwrap();
    let component = sandbox.load(Step::Economics, wasm).unwrap();
    assert_ne!(std::fs::read(&compiled).unwrap(), b"garbage");
    let input = sample("economics");
    assert!(
        sandbox
            .run::<pixgate_sandbox::worlds::Economics>(&component, &input)
            .unwrap()
            .output
            .is_ok()
    );
}

/// The server runs the chain on a tokio worker inside `block_in_place`; a guest writing to
/// stderr (a Rust panic message) goes through wasmtime-wasi's `Handle::block_on`, which must
/// not panic there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_panic_on_a_runtime_worker_is_a_trap_not_a_host_panic() {
    let error = tokio::task::block_in_place(|| {
        sandbox()
            .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &acting("panic"))
            .unwrap_err()
    });
    match error {
        SandboxError::Trapped { message } => {
            assert!(message.contains("fixture panicked on purpose"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let seen = tokio::task::block_in_place(|| {
        sandbox()
            .run::<pixgate_sandbox::worlds::Policy>(misbehaving(), &acting("world"))
            .unwrap()
    });
    assert!(seen.log.contains("to stderr"));
}

#[test]
fn the_cache_keeps_accepted_components_only_within_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let names = || {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .map(|d| {
                d.map(|e| e.unwrap().file_name().into_string().unwrap())
                    .filter(|n| n.ends_with(".cwasm"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let sha = pixgate_domain::sha256_hex;
    let (policy, economics) = (bundled_wasm(Step::Policy), bundled_wasm(Step::Economics));
    // A bound smaller than one compiled component: only the newest stays.
    let sandbox = Sandbox::new(Limits::default(), Some(dir.path().to_owned()))
        .unwrap()
        .with_cache_limit(1);
    // Refused (another step's world): nothing is written.
    assert!(sandbox.load(Step::Provider, economics).is_err());
    assert!(names().is_empty(), "{:?}", names());
    sandbox.load(Step::Policy, policy).unwrap();
    assert!(names()[0].starts_with(&sha(policy)), "{:?}", names());
    // Used again, it is not compiled again; a newer one pushes it out.
    std::thread::sleep(Duration::from_millis(20));
    sandbox.load(Step::Economics, economics).unwrap();
    let kept = names();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].starts_with(&sha(economics)), "{kept:?}");
    // A deleted version's compiled form goes.
    sandbox.forget(&sha(economics));
    assert!(names().is_empty(), "{:?}", names());
}

/// The calls of one session (the chain's one store per charge) are as separate as calls in
/// stores of their own: each on a fresh instance that sees nothing an earlier one left, with
/// the clock and randomness of its own input, its own log, fuel and memory; a call that failed
/// on its budget leaves the next one its whole budget.
#[test]
fn the_calls_of_one_session_share_nothing_but_the_store() {
    use pixgate_sandbox::worlds::Policy;
    let component = misbehaving();
    let alone = sandbox()
        .run::<Policy>(component, &acting("world"))
        .unwrap();
    let mut session = sandbox().session();
    for round in 0..3 {
        let leftover = session
            .run::<Policy>(component, &acting("leftover"))
            .unwrap();
        assert_eq!(
            leftover.output.unwrap().policy,
            "static=0 stale-pages=0",
            "round {round}"
        );
        assert_eq!(
            session
                .run::<Policy>(component, &acting("loop"))
                .unwrap_err(),
            SandboxError::FuelExhausted { budget: 11_000_000 }
        );
        let world = session.run::<Policy>(component, &acting("world")).unwrap();
        // The same observations, fuel and log as in a store of its own: nothing of the
        // calls before it (their log, their WASI context) carries over.
        assert_eq!(
            (&world.output, world.fuel_used, &world.log, world.budget),
            (&alone.output, alone.fuel_used, &alone.log, alone.budget),
            "round {round}"
        );
        let mut reseeded = acting("world");
        reseeded.env.seed += 1;
        let other = session.run::<Policy>(component, &reseeded).unwrap();
        assert_ne!(
            other.output, world.output,
            "randomness follows this call's seed"
        );
        assert_eq!(
            session
                .run::<Policy>(component, &acting("memory-bomb"))
                .unwrap_err(),
            SandboxError::MemoryLimitExceeded {
                limit_bytes: 16 << 20
            }
        );
    }
}

/// A version's own budget replaces the defaults for its calls only, with the same named
/// errors; a budget is never more than the sandbox's pool was sized for.
#[test]
fn a_versions_budget_applies_to_its_calls_with_the_same_named_errors() {
    use pixgate_sandbox::worlds::Policy;
    let limits = Limits {
        max_memory_bytes: 48 << 20,
        ..Limits::default()
    };
    let sandbox = Sandbox::new(limits, None).unwrap();
    let default = sandbox
        .load(Step::Policy, &guest("pixgate_fixture_misbehave"))
        .unwrap();
    assert_eq!(default.budget(), None);
    let fine = sandbox.run::<Policy>(&default, &acting("world")).unwrap();
    assert_eq!(
        fine.budget,
        Budget {
            fuel: 11_000_000,
            memory_bytes: 16 << 20
        }
    );

    let small = default.with_budget(Some(Budget {
        fuel: 1_000_000,
        memory_bytes: 16 << 20,
    }));
    assert_eq!(
        sandbox.run::<Policy>(&small, &acting("loop")).unwrap_err(),
        SandboxError::FuelExhausted { budget: 1_000_000 }
    );
    // Just the fuel a call needs is enough; half of it is not (wasmtime checks fuel at
    // block boundaries, so the unit it runs out at is not exact).
    let exact = default.with_budget(Some(Budget {
        fuel: fine.fuel_used,
        memory_bytes: 16 << 20,
    }));
    let run = sandbox.run::<Policy>(&exact, &acting("world")).unwrap();
    assert_eq!((run.output, run.fuel_used), (fine.output, fine.fuel_used));
    let short = default.with_budget(Some(Budget {
        fuel: fine.fuel_used / 2,
        memory_bytes: 16 << 20,
    }));
    assert_eq!(
        sandbox.run::<Policy>(&short, &acting("world")).unwrap_err(),
        SandboxError::FuelExhausted {
            budget: fine.fuel_used / 2
        }
    );
    // The loaded version itself keeps the defaults.
    assert_eq!(
        sandbox
            .run::<Policy>(&default, &acting("loop"))
            .unwrap_err(),
        SandboxError::FuelExhausted { budget: 11_000_000 }
    );

    // The memory bomb grows until the limiter stops it, at the version's budget: more
    // than the default, within what the pool allows.
    let roomy = default.with_budget(Some(Budget {
        fuel: 11_000_000,
        memory_bytes: 40 << 20,
    }));
    assert_eq!(
        sandbox
            .run::<Policy>(&roomy, &acting("memory-bomb"))
            .unwrap_err(),
        SandboxError::MemoryLimitExceeded {
            limit_bytes: 40 << 20
        }
    );
    // Past the pool's size: held to the most the sandbox allows.
    let huge = default.with_budget(Some(Budget {
        fuel: 11_000_000,
        memory_bytes: 1 << 30,
    }));
    assert_eq!(
        sandbox.budget_of(&huge).memory_bytes,
        48 << 20,
        "held to Limits::max_memory_bytes"
    );
    assert_eq!(
        sandbox
            .run::<Policy>(&huge, &acting("memory-bomb"))
            .unwrap_err(),
        SandboxError::MemoryLimitExceeded {
            limit_bytes: 48 << 20
        }
    );
    let tight = default.with_budget(Some(Budget {
        fuel: 11_000_000,
        memory_bytes: 64 << 10,
    }));
    assert_eq!(
        sandbox.run::<Policy>(&tight, &acting("world")).unwrap_err(),
        SandboxError::MemoryLimitExceeded {
            limit_bytes: 64 << 10
        }
    );
}
