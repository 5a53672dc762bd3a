#!/usr/bin/env bash
# Replay throughput (issue 8, DESIGN.md section 9): records at least N SHADOW charges with wrk
# against a release `pixgate serve`, then replays them through POST /admin/v1/replays, five
# times with the recorded versions and five times with a candidate provider component (the
# `costliest-first` fixture), and prints each run's charges/s and the medians.
# Usage: bench/replay.sh [charges, default 20000] [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
charges=${1:-20000}
backends=${2:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
need_fixture
trap stop_pixgate EXIT

for backend in $backends; do
  start_pixgate "$backend"
  replay_runs "$backend" "$charges"
  stop_pixgate
done
