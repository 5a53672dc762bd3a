//! libFuzzer's entry for the `tax_id` checks. They live in `fuzz/checks/tax_id.rs`, which the
//! workspace's test `fuzz_corpus` also runs on this target's committed corpus.
#![no_main]

#[path = "../checks/tax_id.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
