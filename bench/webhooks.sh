#!/usr/bin/env bash
# Webhook delivery benchmark: deliveries/s and commit-to-receipt latency to a local HTTPS
# receiver, on SQLite and (when PIXGATE_TEST_DATABASE_URL is set) PostgreSQL: an open-loop run
# at the given rate, then a backlog of 10,000 events.
# Usage: bench/webhooks.sh [seconds] [rate]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rate=${2:-1000}
backends=sqlite
[ -n "${PIXGATE_TEST_DATABASE_URL:-}" ] && backends="sqlite postgres"
source bench/lib.sh
cargo bench -p pixgate-e2e --bench webhook_delivery --no-run
if [ -n "${PIXGATE_TEST_DATABASE_URL:-}" ]; then
  before=$(psql "$PIXGATE_TEST_DATABASE_URL" -Atc "select datname from pg_database where datname like 'pixgate_test_%'")
  trap 'drop_new_test_databases "$before"' EXIT
fi
for backend in $backends; do webhook_runs "$backend" "$seconds" "$rate"; done
