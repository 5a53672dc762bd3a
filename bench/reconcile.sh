#!/usr/bin/env bash
# The ledger sweep (issue 34), on SQLite and PostgreSQL: a day of N pix at one provider, every
# one a charge pixgate holds paid, swept page by page (`GET /pix`, 1,000 a page) and matched.
# Target: N = 200,000 swept in at most 60 s, memory bounded (a page at a time).
#
# Setup (not measured): one LIVE charge made through the merchant API, paid at
# `pixgate psp-sim --plain-http` and settled by pixgate; then the simulator copies its pix N-1
# times (POST /_sim/pix/{e2eid}/copies: the txid and endToEndId end in the copy's number) and,
# pixgate stopped, the database gets N-1 copies of the intent's row with the same txids and
# endToEndIds (SQL copies of the row pixgate wrote, so every column is one pixgate writes).
# Measured: from `POST /admin/v1/reconciliations` for today to the run `DONE`, and pixgate's
# peak RSS. Then: the run counts N matched and nothing else.
#
# Usage: bench/reconcile.sh [pix, default 200000] [backends, default "sqlite postgres"]
# Environment: PIXGATE_BENCH_BIN (an already built binary: no build step), PIXGATE_BENCH_PG.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200000}
backends=${2:-sqlite postgres}
[[ $count =~ ^[1-9][0-9]*$ ]] && [ "$count" -ge 2 ] ||
  { echo "bench/reconcile.sh: pix must be a whole number of at least 2" >&2; exit 2; }
source bench/lib.sh
build_pixgate
trap stop_all EXIT

# No daily run of its own, and the reconciler's re-reads far off: the sweep is all that runs.
server_env=(PIXGATE_RECONCILE_DAILY_AT=off PIXGATE_RECONCILE_INTERVAL=1h)
for backend in $backends; do
  start_sim
  start_pixgate "$backend"
  json='Content-Type: application/json'
  admin_call POST /providers -H "$json" -d "{\"code\": \"sandbox-a\", \"name\": \"Sandbox A (psp-sim)\",
    \"apiBaseUrl\": \"$sim/api/v2\", \"tokenUrl\": \"$sim/oauth/token\", \"clientId\": \"psp-sim-client\",
    \"clientSecret\": \"psp-sim-secret\", \"pixKey\": \"7d9f0335-8dcc-4054-9bf9-0dbd61d36906\"}" >/dev/null
  admin_call POST /merchants -H "$json" -d '{"code": "bench", "name": "Bench"}' >/dev/null
  admin_call POST /stores -H "$json" -d '{"code": "bench-live", "name": "Bench LIVE", "merchant": "bench",
    "mode": "LIVE", "liveEnabled": true}' >/dev/null
  admin_call PUT /stores/bench-live/gateways -H "$json" -d '{"gateways": ["sandbox-a-d0"]}' >/dev/null
  live_key=$(admin_call POST /api-keys -H "$json" -d '{"merchant": "bench", "stores": ["bench-live"],
    "scopes": ["payments:create"]}' | field data.apiKey)

  # The one charge made through the API, paid at the simulator and settled by pixgate.
  made=$(curl -sS --fail-with-body "$origin/api/v1/payments/charge" -H "Authorization: Bearer $live_key" \
    -H "$json" -H 'Idempotency-Key: bench-charge-0' \
    -d '{"store": "bench-live", "amount": 39.90, "reference": "bench-0",
         "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}}')
  template=$(field data.paymentIntentId <<<"$made")
  txid=$(field data.pix.txid <<<"$made")
  curl -sS --fail-with-body -X POST "$sim/_sim/cob/$txid/pay" -H "$json" -d '{}' >/dev/null
  for _ in $(seq 1 120); do
    [ "$(sql "$backend" "select status from payment_intents where id = '$template'")" = SUCCEEDED ] && break
    sleep 0.5
  done
  e2eid=$(sql "$backend" "select provider_payment_id from payment_intents where id = '$template' and status = 'SUCCEEDED'")
  [ -n "$e2eid" ] || bench_fail "$backend: the first charge was not settled"

  # Its copies: at the simulator, and in the database while pixgate is stopped (its data kept).
  kill "$pid"; wait "$pid" 2>/dev/null || true
  copies=$((count - 1))
  curl -sS --fail-with-body -X POST "$sim/_sim/pix/$e2eid/copies" -H "$json" \
    -d "{\"count\": $copies}" >/dev/null
  copy_row "$backend" payment_intents "$template" "$copies" \
    "id='00000000-0000-4000-8000-' || {i:12}" "reference='bench-' || i" \
    "idempotency_key='bench-charge-' || i" "txid=substr(txid, 1, length(txid) - 10) || {i:10}" \
    "provider_payment_id=substr(provider_payment_id, 1, 21) || {i:11}"
  # A day of charges written one by one would have had autovacuum's ANALYZE meanwhile; one
  # statement has not, and PostgreSQL would plan for the one row it last saw.
  [ "$backend" = sqlite ] || sql "$backend" "analyze payment_intents" >/dev/null
  [ "$(sql "$backend" "select count(*) from payment_intents where status = 'SUCCEEDED'")" = "$count" ] ||
    bench_fail "$backend: the copies were not written"
  echo "$backend: $count paid charges, and $count pix at the simulator"

  # Measured: the day swept to its end.
  restart_pixgate "$backend"
  today=$(TZ=America/Sao_Paulo date +%F)
  started=$(date +%s.%N)
  run=$(admin_call POST /reconciliations -H "$json" -d "{\"provider\": \"sandbox-a\", \"date\": \"$today\"}" |
    field data.reconciliationId)
  deadline=$(( $(date +%s) + 1800 ))
  while :; do
    status=$(admin_call GET "/reconciliations/$run" | field data.status)
    [ "$status" != RUNNING ] && break
    [ "$(date +%s)" -lt "$deadline" ] || bench_fail "$backend: the run still RUNNING after 30 minutes"
    sleep 0.2
  done
  done_at=$(date +%s.%N)
  rss=$(peak_rss_kib)
  view=$(admin_call GET "/reconciliations/$run")
  [ "$status" = DONE ] || bench_fail "$backend: the run ended $status: $view"
  counts=$(field data.counts <<<"$view")
  [ "$counts" = "{'matched': $count}" ] || bench_fail "$backend: counts $counts, not $count matched"
  pages=$(field data.pages <<<"$view")
  python3 -c 'import sys
n, started, done, rss, pages, backend = sys.argv[1:]
took = float(done) - float(started)
print(f"### {backend}: a day of {int(n)} pix swept and matched in {took:.1f} s "
      f"({int(n) / took:.0f} pix/s, {pages} pages); pixgate peak RSS {int(rss) / 1024:.0f} MiB; "
      f"every pix matched, no other finding")' \
    "$count" "$started" "$done_at" "$rss" "$pages" "$backend"
  stop_all
done
