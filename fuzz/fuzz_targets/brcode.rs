//! libFuzzer's entry for the `brcode` checks. They live in `fuzz/checks/brcode.rs`, which the
//! workspace's test `fuzz_corpus` also runs on this target's committed corpus.
#![no_main]

#[path = "../checks/brcode.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
