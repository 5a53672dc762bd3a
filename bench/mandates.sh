#!/usr/bin/env bash
# Pix Automático cycle creation (issue 33), on SQLite and PostgreSQL: N mandates of a fixed
# amount that charge themselves, all due the same day, at a LIVE store whose provider is
# `pixgate psp-sim --plain-http` on loopback. Target: every cycle's charge PENDING at the
# simulator within 10 minutes, none twice.
#
# Setup (not measured): one mandate made through the merchant API, approved at the simulator
# and charged by pixgate (its first cycle, due in 3 days, within PIXGATE_MANDATE_LEAD_DAYS);
# then, pixgate stopped, the simulator copies its recurrence N-1 times (POST
# /_sim/rec/{idRec}/copies) and the database gets N-1 copies of the mandate's row, each with
# its copy's recurrence id and its first cycle still to charge (SQL copies of the row pixgate
# wrote, so every column is one pixgate writes). Measured: from `pixgate serve` ready again to
# the simulator having created all N cobrs, and to pixgate holding N PENDING recurring
# intents. Then, a few charger passes later: the simulator created exactly N cobrs and pixgate
# holds one intent per mandate.
#
# Usage: bench/mandates.sh [mandates, default 100000] [backends, default "sqlite postgres"]
# Environment: PIXGATE_BENCH_BIN (an already built binary: no build step), PIXGATE_BENCH_PG.
set -euo pipefail
cd "$(dirname "$0")/.."
mandates=${1:-100000}
backends=${2:-sqlite postgres}
[[ $mandates =~ ^[1-9][0-9]*$ ]] && [ "$mandates" -ge 2 ] ||
  { echo "bench/mandates.sh: mandates must be a whole number of at least 2" >&2; exit 2; }
source bench/lib.sh
build_pixgate
trap stop_all EXIT

cobrs_created() { curl -sS "$sim/_sim/stats" | field cobrsCreated; }
pending_recurring() {
  sql "$1" "select count(*) from payment_intents where kind = 'RECURRING' and status = 'PENDING'"
}

# The defaults: the charger's first pass runs at start and goes on while passes are full; a
# shorter reconcile interval would have the reconciler re-read the pending charges meanwhile.
server_env=()
for backend in $backends; do
  start_sim
  start_pixgate "$backend"
  json='Content-Type: application/json'
  admin_call POST /providers -H "$json" -d "{\"code\": \"sandbox-a\", \"name\": \"Sandbox A (psp-sim)\",
    \"apiBaseUrl\": \"$sim/api/v2\", \"tokenUrl\": \"$sim/oauth/token\", \"clientId\": \"psp-sim-client\",
    \"clientSecret\": \"psp-sim-secret\", \"pixKey\": \"7d9f0335-8dcc-4054-9bf9-0dbd61d36906\",
    \"account\": {\"branch\": \"0001\", \"number\": \"1234567-8\", \"type\": \"CORRENTE\"}}" >/dev/null
  admin_call POST /merchants -H "$json" -d '{"code": "bench", "name": "Bench"}' >/dev/null
  admin_call POST /stores -H "$json" -d '{"code": "bench-live", "name": "Bench LIVE", "merchant": "bench",
    "mode": "LIVE", "liveEnabled": true}' >/dev/null
  admin_call PUT /stores/bench-live/gateways -H "$json" -d '{"gateways": ["sandbox-a-d0"]}' >/dev/null
  mandate_key=$(admin_call POST /api-keys -H "$json" -d '{"merchant": "bench", "stores": ["bench-live"],
    "scopes": ["mandates:manage", "payments:read"]}' | field data.apiKey)

  # The one mandate made through the API, approved by its payer and charged by pixgate.
  start=$(TZ=America/Sao_Paulo date -d '+3 days' +%F)
  made=$(curl -sS --fail-with-body "$origin/api/v1/mandates" -H "Authorization: Bearer $mandate_key" \
    -H "$json" -H 'Idempotency-Key: bench-mandate-0' \
    -d "{\"store\": \"bench-live\", \"reference\": \"bench-0\", \"payer\": {\"name\": \"Ana Souza\",
         \"taxId\": \"529.982.247-25\"}, \"frequency\": \"MONTHLY\", \"startDate\": \"$start\",
         \"amount\": 39.90, \"retryPolicy\": \"NONE\", \"journey\": \"QR\"}")
  template=$(field data.mandateId <<<"$made")
  id_rec=$(field data.provider.recurrenceId <<<"$made")
  curl -sS --fail-with-body -X POST "$sim/_sim/rec/$id_rec/approve" -H "$json" -d '{}' >/dev/null
  for _ in $(seq 1 120); do
    [ "$(pending_recurring "$backend")" = 1 ] && break
    sleep 0.5
  done
  [ "$(pending_recurring "$backend")" = 1 ] || bench_fail "$backend: the first mandate was not charged"

  # Its copies: at the simulator, and in the database while pixgate is stopped.
  kill "$pid"; wait "$pid" 2>/dev/null || true
  copies=$((mandates - 1))
  curl -sS --fail-with-body -X POST "$sim/_sim/rec/$id_rec/copies" -H "$json" \
    -d "{\"count\": $copies}" >/dev/null
  copy_row "$backend" mandates "$template" "$copies" \
    "id='00000000-0000-4000-8000-' || {i:12}" "reference='bench-' || i" \
    "idempotency_key='bench-mandate-' || i" "recurrence_id=substr(recurrence_id, 1, 18) || {i:11}" \
    "next_cycle=1" "next_charge_at=0"
  [ "$(sql "$backend" "select count(*) from mandates where status = 'ACTIVE'")" = "$mandates" ] ||
    bench_fail "$backend: the copies were not written"
  echo "$backend: $mandates ACTIVE mandates, each with its first cycle due $start; $((mandates - 1)) to charge"

  # Measured: pixgate charges every cycle due.
  launch_started=$(date +%s.%N)
  restart_pixgate "$backend"
  ready=$(date +%s.%N)
  at_sim="" all_pending=""
  deadline=$(( $(date +%s) + 1800 ))
  while [ -z "$all_pending" ]; do
    now=$(date +%s.%N)
    if [ -z "$at_sim" ] && [ "$(cobrs_created)" -ge "$mandates" ]; then at_sim=$now; fi
    if [ -n "$at_sim" ] && [ "$(pending_recurring "$backend")" -ge "$mandates" ]; then all_pending=$now; fi
    [ "$(date +%s)" -lt "$deadline" ] || bench_fail "$backend: $(cobrs_created) cobrs after 30 minutes"
    sleep 1
  done
  rss=$(peak_rss_kib)
  sleep 5   # a few charger passes more: nothing else is charged
  created=$(cobrs_created)
  intents=$(sql "$backend" "select count(*) || '|' || count(distinct mandate_id) from payment_intents
    where kind = 'RECURRING'")
  [ "$created" = "$mandates" ] || bench_fail "$backend: the simulator created $created cobrs for $mandates cycles"
  [ "$intents" = "$mandates|$mandates" ] || bench_fail "$backend: intents, mandates: $intents"
  python3 -c 'import sys
n, ready, started, sim, pending, rss, backend = sys.argv[1:]
n = int(n)
took_sim = float(sim) - float(ready)
took = float(pending) - float(ready)
print(f"### {backend}: {n} cycles due, {n - 1} charged after the restart: all at the simulator "
      f"{took_sim:.1f} s after ready ({(n - 1) / took_sim:.0f} cobrs/s), all PENDING in pixgate "
      f"after {took:.1f} s; "
      f"start to ready {float(ready) - float(started):.1f} s; pixgate peak RSS {int(rss) / 1024:.0f} MiB; "
      f"no duplicate ({n} cobrs, one intent per mandate)")' \
    "$mandates" "$ready" "$launch_started" "$at_sim" "$all_pending" "$rss" "$backend"
  stop_all
done
