#!/usr/bin/env bash
# Fuzzes the running merchant and admin APIs against their own OpenAPI documents with every
# schemathesis check (none excluded): no 5xx; every answer documented, of the documented
# content type and schema; schema-valid requests accepted and schema-invalid ones refused;
# authentication enforced; undocumented methods refused with 405; created resources readable.
# The allowances, each for a rule no schema can state (check digits, a rule between two
# fields, a component's bytes, a resource that must exist), are explained in
# schemathesis-merchant.toml and schemathesis-admin.toml; on the charge and operator routes
# checks of schemathesis_hooks.py (registered there, so part of `--checks all`) hold a
# schema-valid request's 400s to those rules. Any finding fails the run (and .ci/run).
# Usage: .ci/schemathesis.sh <pixgate binary>
# SCHEMATHESIS_MAX_EXAMPLES (default 60) bounds the test cases per operation and phase; the
# default run takes about a minute and a half.
set -euo pipefail
bin=${1:?usage: $0 <pixgate binary>}
here=$(cd "$(dirname "$0")" && pwd)
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
merchant=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
key=$(sed -n 's/^pixgate: demo merchant.*: //p' "$work/out")
admin=$(sed -n 's/^pixgate: admin API on //p' "$work/out")
token=$(sed -n 's/^pixgate: admin token.*: //p' "$work/out")

# A charge, so the admin run has a decision trace to read.
PIXGATE_PAYMENT_INTENT_ID=$(curl -sS "$merchant/payments/charge" \
  -H "Authorization: Bearer $key" -H "Idempotency-Key: schemathesis" \
  -H "Content-Type: application/json" \
  -d '{"amount": 129.9, "currency": "BRL", "reference": "schemathesis", "store": "demo-store",
       "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}}' |
  sed -n 's/.*"paymentIntentId":"\([^"]*\)".*/\1/p')
[ -n "$PIXGATE_PAYMENT_INTENT_ID" ] || { echo "the demo charge failed"; exit 1; }
export PIXGATE_PAYMENT_INTENT_ID

# The merchant run uses a key with every scope (the demo key has the default ones, without
# payments:refund), so the refund routes are fuzzed past their scope check.
key=$(curl -sS "$admin/api-keys" -H "Authorization: Bearer $token" \
  -H "Content-Type: application/json" \
  -d '{"merchant": "demo", "stores": ["demo-store"],
       "scopes": ["payments:create", "payments:read", "payments:refund", "webhooks:manage", "mandates:manage"]}' |
  sed -n 's/.*"apiKey":"\([^"]*\)".*/\1/p')
[ -n "$key" ] || { echo "the fuzzing key was not issued"; exit 1; }

# Generated webhook endpoint URLs are pointed at 127.0.0.1 before each call (see the hooks):
# the test route and the sender then reach nothing but pixgate's own egress refusal, and no
# request of this script leaves the machine.
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks

# One worker: schemathesis' coverage phase describes hypothesis strategies by parsing their
# source with `ast` from several threads at once, which CPython 3.11 can fail on ("AST
# constructor recursion depth mismatch"), an error of the tool that fails the run.
fuzz() {
  local base=$1 secret=$2 config=$3
  shift 3
  # From the scratch directory: schemathesis keeps its crash cache in the working directory.
  (cd "$work" && schemathesis --config-file "$config" run "$base/openapi.json" \
    --url "$base" \
    --checks all \
    --header "Authorization: Bearer $secret" \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-60}" \
    --workers 1 \
    --no-color "$@")
}

status=0
# The merchant document first: the admin run may revoke the demo key.
echo "== merchant API ($merchant)"
fuzz "$merchant" "$key" "$here/schemathesis-merchant.toml" || status=1
echo "== admin API ($admin)"
# The operator name's pattern (every Unicode format and control character refused, DESIGN.md
# section 13) is one hypothesis draws slowly from: its health check would fail the run on how
# long generating takes, which says nothing of the API. Every check still runs on what it draws.
fuzz "$admin" "$token" "$here/schemathesis-admin.toml" --suppress-health-check=too_slow || status=1

if grep -q 'internal error' "$work/err"; then
  echo "the server logged internal errors:"; grep 'internal error' "$work/err" | head -20
  status=1
fi
exit $status
