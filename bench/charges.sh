#!/usr/bin/env bash
# Load benchmark of SHADOW charges and idempotent replays on SQLite and PostgreSQL:
# wrk with 32 connections beside a release pixgate on this machine, with the health route as
# the reference and the server's peak RSS afterwards. Prints requests/s, p50, p99 and non-2xx
# of each run. (bench/run runs the same, among everything else, and writes the figures.)
# Usage: bench/charges.sh [seconds per run, default 20] [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-20}
backends=${2:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
trap stop_pixgate EXIT

for backend in $backends; do
  start_pixgate "$backend"
  charge_runs "$backend" "$duration"
  stop_pixgate
done
