//! libFuzzer's entry for the `component_loader` checks. They live in `fuzz/checks/component_loader.rs`, which the
//! workspace's test `fuzz_corpus` also runs on this target's committed corpus.
#![no_main]

#[path = "../checks/component_loader.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
