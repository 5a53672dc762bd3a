//! Every fuzz target's checks (`fuzz/checks/`, the code libFuzzer runs through
//! `fuzz/fuzz_targets/`) run here as ordinary tests on the target's committed corpus
//! (`fuzz/corpus/<target>/`): the seeds and every input a fuzzing run kept because it reached
//! new code. CI runs these with the other tests, in the build it has; the instrumented build
//! and the runs that search for new inputs are `fuzz/run.sh`'s (fuzz/README.md).

use pixgate_e2e::repo_file;

#[path = "../../../fuzz/checks/brcode.rs"]
mod brcode;
#[path = "../../../fuzz/checks/charge_body.rs"]
mod charge_body;
#[path = "../../../fuzz/checks/component_loader.rs"]
mod component_loader;
#[path = "../../../fuzz/checks/tax_id.rs"]
mod tax_id;
#[path = "../../../fuzz/checks/webhook_signature.rs"]
mod webhook_signature;

/// Runs `check` on every file of `fuzz/corpus/<target>/`, naming the file that fails.
fn every_input_of(target: &str, check: fn(&[u8])) {
    let dir = repo_file(&format!("fuzz/corpus/{target}"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| check(&bytes)) {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            panic!(
                "the {target} checks fail on {}: {why}\nreplay it with fuzz/run.sh's binary: \
                 fuzz/target/x86_64-unknown-linux-gnu/release/{target} {}",
                file.display(),
                file.display()
            );
        }
    }
}

#[test]
fn the_tax_id_checks_hold_on_their_corpus() {
    every_input_of("tax_id", tax_id::check);
}

#[test]
fn the_brcode_checks_hold_on_their_corpus() {
    every_input_of("brcode", brcode::check);
}

#[test]
fn the_webhook_signature_checks_hold_on_their_corpus() {
    every_input_of("webhook_signature", webhook_signature::check);
}

#[test]
fn the_charge_body_checks_hold_on_their_corpus() {
    every_input_of("charge_body", charge_body::check);
}

#[test]
fn the_component_loader_checks_hold_on_their_corpus() {
    every_input_of("component_loader", component_loader::check);
}
