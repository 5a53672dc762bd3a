#!/usr/bin/env bash
# Webhook delivery benchmark: deliveries/s and commit-to-receipt latency to a local HTTPS
# receiver, on SQLite and (when PIXGATE_TEST_DATABASE_URL is set) PostgreSQL.
# Usage: bench/webhooks.sh [seconds] [rate]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rate=${2:-1000}
backends=sqlite
[ -n "${PIXGATE_TEST_DATABASE_URL:-}" ] && backends="sqlite postgres"
cargo bench -p pixgate-e2e --bench webhook_delivery --no-run
for backend in $backends; do
  echo "== $backend: open loop at $rate events/s for $seconds s"
  cargo bench -q -p pixgate-e2e --bench webhook_delivery -- --backend "$backend" --rate "$rate" --seconds "$seconds"
  echo "== $backend: a backlog of 10000 events"
  cargo bench -q -p pixgate-e2e --bench webhook_delivery -- --backend "$backend" --rate 0 --events 10000
done
