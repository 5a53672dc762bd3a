//! Interleaved A/B timing of builds of a step's component on the step's sample input: on a
//! noisy shared machine, alternating rounds in one process is what makes a ratio meaningful.
//! `cargo run --release -p pixgate-sandbox --example step_ab -- [--step provider] a.wasm b.wasm ...`
//! (the policy step when `--step` is left out). Components are loaded as stored versions are,
//! so an unsealed build can be set against its sealed one.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::time::Instant;

use pixgate_domain::Step;
use pixgate_policy_logic::{PolicyInput, ProviderInput};
use pixgate_sandbox::chain::ChainInput;
use pixgate_sandbox::{Limits, LoadedComponent, Sandbox, worlds};

/// Rounds per component, and calls per round.
const ROUNDS: usize = 15;
const CALLS: usize = 1000;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let step = match args.iter().position(|a| a == "--step") {
        Some(i) => {
            let step: Step = args[i + 1].parse().expect("--step policy|provider");
            args.drain(i..=i + 1);
            step
        }
        None => Step::Policy,
    };
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../policies/samples");
    let read = |name: &str| std::fs::read_to_string(samples.join(name)).unwrap();
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let components: Vec<LoadedComponent> = args
        .iter()
        .map(|p| sandbox.load(step, &std::fs::read(p).unwrap()).unwrap())
        .collect();
    let call: Box<dyn Fn(&LoadedComponent)> = match step {
        Step::Policy => {
            let chain: ChainInput = serde_json::from_str(&read("chain.json")).unwrap();
            let input = PolicyInput {
                charge: chain.charge,
                store: chain.store,
                env: chain.env,
            };
            Box::new(move |c| {
                sandbox.run::<worlds::Policy>(c, &input).unwrap();
            })
        }
        Step::Provider => {
            let input: ProviderInput = serde_json::from_str(&read("provider.json")).unwrap();
            Box::new(move |c| {
                sandbox.run::<worlds::Provider>(c, &input).unwrap();
            })
        }
        Step::Economics => panic!("--step policy|provider"),
    };
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); components.len()];
    for _round in 0..ROUNDS {
        for (i, c) in components.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..CALLS {
                call(c);
            }
            samples[i].push(start.elapsed().as_secs_f64() * 1e6 / CALLS as f64);
        }
    }
    for (path, s) in args.iter().zip(&mut samples) {
        s.sort_by(f64::total_cmp);
        println!("{:>8.2} µs median per call  {path}", s[s.len() / 2]);
    }
}
