//! Interleaved A/B timing of two builds of a policy component on the sample input: on a
//! noisy shared machine, alternating rounds in one process is what makes a ratio meaningful.
//! `cargo run --release -p pixgate-sandbox --example step_ab -- a.wasm b.wasm`

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use pixgate_domain::Step;
use pixgate_policy_logic::PolicyInput;
use pixgate_sandbox::chain::ChainInput;
use pixgate_sandbox::{Limits, Sandbox};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../policies/samples/chain.json");
    let chain: ChainInput = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let input = PolicyInput {
        charge: chain.charge,
        store: chain.store,
        env: chain.env,
    };
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let components: Vec<_> = args
        .iter()
        .map(|p| {
            sandbox
                .load(Step::Policy, &std::fs::read(p).unwrap())
                .unwrap()
        })
        .collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); components.len()];
    for _round in 0..15 {
        for (i, c) in components.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..1000 {
                sandbox
                    .run::<pixgate_sandbox::worlds::Policy>(c, &input)
                    .unwrap();
            }
            samples[i].push(start.elapsed().as_secs_f64() * 1e6 / 1000.0);
        }
    }
    for (path, s) in args.iter().zip(&mut samples) {
        s.sort_by(f64::total_cmp);
        println!("{:>8.2} µs median per call  {path}", s[s.len() / 2]);
    }
}
