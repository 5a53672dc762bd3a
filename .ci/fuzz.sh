#!/usr/bin/env bash
# CI's fast part of the fuzzing harness (issue 11): a cold build of fuzz/ and every cargo-fuzz
# target for FUZZ_SECONDS seconds (default 20). Non-zero on any crash; the input is left in
# fuzz/artifacts/. Longer runs: fuzz/run.sh SECONDS (see fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec fuzz/run.sh "${FUZZ_SECONDS:-20}"
