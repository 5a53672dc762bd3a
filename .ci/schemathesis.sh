#!/usr/bin/env bash
# Fuzzes the running merchant API against its own OpenAPI document with schemathesis:
# no input may produce a 5xx, and every response must match the documented schema.
# Usage: .ci/schemathesis.sh <pixgate binary>
set -euo pipefail
bin=${1:?usage: $0 <pixgate binary>}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

PIXGATE_DATA_DIR="$work/data" PIXGATE_LISTEN=127.0.0.1:0 PIXGATE_ADMIN_LISTEN=127.0.0.1:0 \
PIXGATE_RATE_LIMIT_PER_SECOND=0 PIXGATE_LOG=warn PIXGATE_WEBHOOK_TIMEOUT=3s \
  "$bin" serve >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 1 600); do
  grep -q '^pixgate: ready' "$work/out" 2>/dev/null && break
  sleep 0.1
done
grep -q '^pixgate: ready' "$work/out" || { cat "$work/err"; echo "pixgate did not start"; exit 1; }
base=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
key=$(sed -n 's/^pixgate: demo merchant.*: //p' "$work/out")

status=0
schemathesis run "$base/openapi.json" \
  --url "$base" \
  --checks not_a_server_error,response_schema_conformance \
  --header "Authorization: Bearer $key" \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-60}" \
  --workers 2 \
  --no-color || status=$?
if grep -q 'internal error' "$work/err"; then
  echo "the server logged internal errors:"; grep 'internal error' "$work/err" | head -20
  status=1
fi
exit $status
