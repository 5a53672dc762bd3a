#!/usr/bin/env bash
# Crash safety, long version: SHADOW and LIVE charges and refunds of the paid ones at load
# while `pixgate serve` is killed with SIGKILL at random moments and restarted on the same data
# dir and database (tests/tests/e2e/harness_crash.rs; CI runs the same test small).
usage() {
  cat <<USAGE
usage: harness/crash.sh [options]
Size (environment): HARNESS_KILLS (default here 40), HARNESS_CLIENTS (16),
HARNESS_REFUND_CLIENTS (6), HARNESS_UPTIME_MS (the longest run between two kills, 3000),
HARNESS_MANDATES (Pix Automatico mandates charging themselves across the kills, 120).
USAGE
  usage_common
}
source "$(dirname "$0")/lib.sh"
parse_common "$@"
export HARNESS_KILLS=${HARNESS_KILLS:-40}
export HARNESS_CLIENTS=${HARNESS_CLIENTS:-16}
export HARNESS_REFUND_CLIENTS=${HARNESS_REFUND_CLIENTS:-6}
export HARNESS_UPTIME_MS=${HARNESS_UPTIME_MS:-3000}
export HARNESS_MANDATES=${HARNESS_MANDATES:-120}
run_harness harness_crash both
