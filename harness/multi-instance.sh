#!/usr/bin/env bash
# Multi-instance, long version: three `pixgate serve` on one PostgreSQL with requests spread
# across them (tests/tests/e2e/harness_multi_instance.rs; CI runs the same test small).
usage() {
  cat <<USAGE
usage: harness/multi-instance.sh [options]
Size (environment): HARNESS_SECONDS (how long the load runs, default here 180),
HARNESS_CLIENTS (16).
USAGE
  usage_common
}
source "$(dirname "$0")/lib.sh"
parse_common "$@"
export HARNESS_SECONDS=${HARNESS_SECONDS:-180}
export HARNESS_CLIENTS=${HARNESS_CLIENTS:-16}
[ "$BACKEND" = both ] && BACKEND=postgres
run_harness harness_multi_instance postgres
