//! libFuzzer's entry for the `webhook_signature` checks. They live in `fuzz/checks/webhook_signature.rs`, which the
//! workspace's test `fuzz_corpus` also runs on this target's committed corpus.
#![no_main]

#[path = "../checks/webhook_signature.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
