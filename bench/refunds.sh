#!/usr/bin/env bash
# Refund creation against the PSP simulator (issue 19), on SQLite and PostgreSQL: a LIVE store
# whose provider is `pixgate psp-sim --plain-http` on loopback, N charges created and paid
# there, then new partial refunds (R$ 0.50 each, a new Idempotency-Key each, spread over the
# paid payments) from wrk with a fixed number of connections. Each refund is one
# `PUT /pix/{e2eid}/devolucao/{id}` at the simulator, which settles it at once (DEVOLVIDO), so
# every answer is SUCCEEDED. Prints refunds/s, p50, p99 and the CPU time pixgate and the
# simulator spent per refund of each run, then the medians, and checks that the simulator made
# one devolução per answered refund (plus at most the requests wrk abandons when a run stops).
# Usage: bench/refunds.sh [seconds per run, default 10] [runs, default 3] [backends, default
# "sqlite postgres"]
# Environment: PIXGATE_BENCH_BIN (an already built binary: no build step), REFUND_CHARGES
# (paid charges, default 200), REFUND_CONNECTIONS (wrk connections, default 8).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
runs=${2:-3}
backends=${3:-sqlite postgres}
charges=${REFUND_CHARGES:-200}
connections=${REFUND_CONNECTIONS:-8}
threads=$((connections < 2 ? connections : 2))   # wrk wants a connection per thread at least
source bench/lib.sh
ensure_wrk
build_pixgate
trap stop_all EXIT

# merchant_call METHOD PATH [curl args...]: the merchant API with the bench key; prints the body.
merchant_call() {
  local method=$1 path=$2
  shift 2
  curl -sS --fail-with-body -X "$method" "$origin/api/v1$path" -H "Authorization: Bearer $refund_key" "$@"
}

# setup_live_store: provider sandbox-a at the simulator, merchant `bench` with the LIVE store
# `bench-live` on gateway sandbox-a-d0 only, a key with payments:create and payments:refund
# (refund_key); then CHARGES charges created, paid at the simulator and settled; their ids go
# to $work/intents.
setup_live_store() {
  local json='Content-Type: application/json'
  admin_call POST /providers -H "$json" -d "{\"code\": \"sandbox-a\", \"name\": \"Sandbox A (psp-sim)\",
    \"apiBaseUrl\": \"$sim/api/v2\", \"tokenUrl\": \"$sim/oauth/token\", \"clientId\": \"psp-sim-client\",
    \"clientSecret\": \"psp-sim-secret\", \"pixKey\": \"7d9f0335-8dcc-4054-9bf9-0dbd61d36906\"}" >/dev/null
  admin_call POST /merchants -H "$json" -d '{"code": "bench", "name": "Bench"}' >/dev/null
  admin_call POST /stores -H "$json" -d '{"code": "bench-live", "name": "Bench LIVE", "merchant": "bench",
    "mode": "LIVE", "liveEnabled": true}' >/dev/null
  admin_call PUT /stores/bench-live/gateways -H "$json" -d '{"gateways": ["sandbox-a-d0"]}' >/dev/null
  refund_key=$(admin_call POST /api-keys -H "$json" -d '{"merchant": "bench", "stores": ["bench-live"],
    "scopes": ["payments:create", "payments:refund"]}' | sed -n 's/.*"apiKey":"\([^"]*\)".*/\1/p')
  [ -n "$refund_key" ] || bench_fail "no API key"
  : >"$work/intents"
  local n answer id txid
  for n in $(seq 1 "$charges"); do
    answer=$(merchant_call POST /payments/charge -H "$json" -H "Idempotency-Key: bench-charge-$n" \
      -d "{\"store\": \"bench-live\", \"amount\": 129.9, \"reference\": \"order-$n\",
           \"payer\": {\"name\": \"Ana Souza\", \"taxId\": \"529.982.247-25\"}}")
    id=$(sed -n 's/.*"paymentIntentId":"\([^"]*\)".*/\1/p' <<<"$answer")
    txid=$(sed -n 's/.*"txid":"\([^"]*\)".*/\1/p' <<<"$answer")
    [ -n "$id" ] && [ -n "$txid" ] || bench_fail "charge $n was not created at the simulator: $answer"
    curl -sS --fail-with-body -X POST "$sim/_sim/cob/$txid/pay" -H "$json" -d '{}' >/dev/null
    echo "$id" >>"$work/intents"
  done
  # The reconciler (1 s) reads them, whether or not a callback came.
  local settled=0
  for _ in $(seq 1 120); do
    settled=0
    while read -r id; do
      merchant_call GET "/payments/$id" | grep -q '"status":"SUCCEEDED"' && settled=$((settled + 1))
    done <"$work/intents"
    [ "$settled" -eq "$charges" ] && return 0
    sleep 1
  done
  bench_fail "$settled of $charges paid charges settled"
}

# cpu_ms PID: the CPU time (user and system) the process has used so far, in ms.
cpu_ms() {
  awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$1/stat"
}

# cpu_per MS REQUESTS: MS / REQUESTS with two decimals.
cpu_per() { awk -v ms="$1" -v n="$2" 'BEGIN {printf "%.2f", n ? ms / n : 0}'; }

# wrk_refunds SECONDS: refunds with $connections connections; prints wrk's output.
wrk_refunds() {
  PIXGATE_BENCH_KEY=$refund_key PIXGATE_BENCH_INTENTS=$work/intents \
    wrk -t"$threads" -c"$connections" -d"$1s" --latency -s bench/refund.lua "$origin"
}

server_env=(PIXGATE_RECONCILE_INTERVAL=1s)
for backend in $backends; do
  start_sim
  start_pixgate "$backend"
  setup_live_store
  echo "$backend: $charges charges paid at the simulator and settled"
  answered=0
  out=$(wrk_refunds 3)   # warm-up: connections, the OAuth2 token, caches
  read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") || bench_fail "wrk gave no figures: $out"
  answered=$((answered + requests - non2xx))
  rates=() p50s=() p99s=()
  for run in $(seq 1 "$runs"); do
    server_cpu=$(cpu_ms "$pid") sim_cpu=$(cpu_ms "$sim_pid")
    out=$(wrk_refunds "$duration")
    server_cpu=$(($(cpu_ms "$pid") - server_cpu)) sim_cpu=$(($(cpu_ms "$sim_pid") - sim_cpu))
    read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
      bench_fail "wrk gave no figures for $backend run $run: $out"
    answered=$((answered + requests - non2xx))
    wrong=$(sed -n 's/^answers not SUCCEEDED: //p' <<<"$out")
    echo "$backend run $run (wrk -t$threads -c$connections -d${duration}s): $rate refunds/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, answers not SUCCEEDED $wrong, socket errors $errors, $requests requests; CPU per refund: pixgate $(cpu_per "$server_cpu" "$requests") ms, simulator $(cpu_per "$sim_cpu" "$requests") ms"
    [ "$wrong" = 0 ] || echo "bench: WARNING: $wrong answers not SUCCEEDED in $backend run $run" >&2
    rates+=("$rate") p50s+=("$p50") p99s+=("$p99")
  done
  mrate=$(printf '%s\n' "${rates[@]}" | median)
  mp50=$(printf '%s\n' "${p50s[@]}" | median)
  mp99=$(printf '%s\n' "${p99s[@]}" | median)
  echo "### $backend: median of $runs runs: $mrate refunds/s, p50 $mp50 ms, p99 $mp99 ms"
  emit "refunds.$backend" median_refunds_per_s="$mrate" median_p50_ms="$mp50" median_p99_ms="$mp99" \
    runs_refunds_per_s="[$(IFS=,; echo "${rates[*]}")]" connections="$connections" seconds="$duration"
  # One devolução at the PSP per refund answered 2xx; wrk's stop at the end of each run leaves
  # up to one request per connection unanswered, whose refund may still have been made.
  made=$(curl -sS "$sim/_sim/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["devolucoesCreated"])')
  echo "$backend: $answered refunds answered 2xx, $made devoluções made at the simulator"
  [ "$made" -ge "$answered" ] && [ "$made" -le $((answered + connections * (runs + 1))) ] ||
    bench_fail "$made devoluções for $answered answered refunds"
  stop_all
done
