//! libFuzzer's entry for the `charge_body` checks. They live in `fuzz/checks/charge_body.rs`, which the
//! workspace's test `fuzz_corpus` also runs on this target's committed corpus.
#![no_main]

#[path = "../checks/charge_body.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
