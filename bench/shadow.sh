#!/usr/bin/env bash
# The shadow candidate's effect on charge latency (issue 8): new SHADOW charges with wrk
# (32 connections) against a release `pixgate serve`, alternating rounds without and with a
# candidate provider component attached to the store (the `costliest-first` fixture, which
# decides otherwise on every charge), so both see the same machine. Prints each round's
# requests/s and p99, the medians per variant, and how many comparisons were recorded and
# skipped (a full shadow queue skips comparisons, never delays charges).
# Usage: bench/shadow.sh [seconds per round, default 10] [rounds, default 3] [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
backends=${3:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
need_fixture
trap stop_pixgate EXIT

for backend in $backends; do
  start_pixgate "$backend"
  shadow_runs "$backend" "$seconds" "$rounds"
  stop_pixgate
done
