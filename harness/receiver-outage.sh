#!/usr/bin/env bash
# Receiver outage, long version: the merchant's receiver is down for a stretch of a shrunken
# retry schedule while events keep coming (tests/tests/e2e/harness_receiver_outage.rs; CI runs the
# same test small).
usage() {
  cat <<USAGE
usage: harness/receiver-outage.sh [options]
Size (environment): HARNESS_OUTAGE_SECONDS (default here 120), HARNESS_RETRY_SCHEDULE
(PIXGATE_WEBHOOK_RETRY_SCHEDULE for the run, default here 1s,5s,10s,20s,30s,60s,60s,60s,60s;
its waits must add up to more than the outage).
USAGE
  usage_common
}
source "$(dirname "$0")/lib.sh"
parse_common "$@"
export HARNESS_OUTAGE_SECONDS=${HARNESS_OUTAGE_SECONDS:-120}
export HARNESS_RETRY_SCHEDULE=${HARNESS_RETRY_SCHEDULE:-1s,5s,10s,20s,30s,60s,60s,60s,60s}
run_harness harness_receiver_outage both
