#!/usr/bin/env bash
# Hostile policy components against another store's latency (issue 11, security): a release
# `pixgate serve` with the normal demo-store (bundled components) and several stores whose
# active policy component is the misbehave fixture (policies/fixtures/misbehave: the charge
# reference picks an endless loop, memory growth, deep recursion, an oversized output, a panic,
# a log flood, an invalid output, a blocking sleep), their kill switch off so the hostile
# version stays active. Normal SHADOW charges go to demo-store at a fixed rate (wrk, one
# Idempotency-Key per request, 32 connections each waiting a jittered 32/rate s before its next
# request, so the offered rate barely depends on the latency); in alternating rounds the
# hostile stores are charged at the same time by a closed loop of connections, each request
# failing in the sandbox. Prints each round and, per backend, the medians of the normal
# store's p99 without and with the hostile load and their ratio.
#
# Usage: bench/hostile.sh [seconds per round, default 15] [rounds, default 3] [backends, default "sqlite postgres"]
# Environment:
#   HOSTILE_RATE         normal charges/s offered to demo-store (default 200)
#   HOSTILE_STORES       how many hostile stores (default 3)
#   HOSTILE_CONNECTIONS  concurrent hostile charges (closed loop, default 4)
#   HOSTILE_REFERENCES   comma-separated misbehave references cycled through
#                        (default loop,memory-bomb,recursion,oversized,panic,log-flood,invalid-output,sleep)
#   HOSTILE_KEY_RATE     per-key rate limit of the server (PIXGATE_RATE_LIMIT_PER_SECOND and
#                        _BURST; default 0, off): the production default is 100/s per key
#   PIXGATE_BENCH_BIN    an already built binary (no build step); CARGO_TARGET_DIR as for bench/lib.sh
#   PIXGATE_BENCH_HOSTILE_FIXTURE  the misbehave component (default: the one the release build made)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
rounds=${2:-3}
backends=${3:-sqlite postgres}
rate=${HOSTILE_RATE:-200}
stores=${HOSTILE_STORES:-3}
hostile_connections=${HOSTILE_CONNECTIONS:-4}
references=${HOSTILE_REFERENCES:-loop,memory-bomb,recursion,oversized,panic,log-flood,invalid-output,sleep}
normal_connections=32
source bench/lib.sh
if [[ ${HOSTILE_KEY_RATE:-0} != 0 ]]; then
  server_env+=("PIXGATE_RATE_LIMIT_PER_SECOND=$HOSTILE_KEY_RATE" "PIXGATE_RATE_LIMIT_BURST=$HOSTILE_KEY_RATE")
fi
misbehave=${PIXGATE_BENCH_HOSTILE_FIXTURE:-$target_dir/wasm-guests/wasm32-wasip2/guest/pixgate_fixture_misbehave.wasm}
ensure_wrk
build_pixgate
[ -f "$misbehave" ] || bench_fail "no misbehave fixture at $misbehave (a release build of pixgate in this target dir builds it; or set PIXGATE_BENCH_HOSTILE_FIXTURE)"

scripts=$(mktemp -d)
trap 'stop_pixgate; rm -rf "$scripts"' EXIT

# Normal charges at a fixed rate: each of the connections waits a jittered interval (mean
# connections / rate) before its next request; wrk's latency is from the request's send.
cat >"$scripts/normal.lua" <<'EOF'
local next_id = 1
function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
end
function init(args)
  interval = tonumber(args[1])
  counter = 0
  math.randomseed(os.time() * 1000 + tid)
  prefix = string.format("normal-%d-%d-", tid, math.random(1, 1000000000))
  headers = {
    ["Authorization"] = "Bearer " .. os.getenv("PIXGATE_BENCH_KEY"),
    ["Content-Type"] = "application/json",
  }
  body = '{"store":"demo-store","amount":129.9,"currency":"BRL","reference":"order-10042",' ..
    '"payer":{"name":"Ana Souza","taxId":"529.982.247-25","email":"ana@example.com"},' ..
    '"metadata":{"orderId":"10042","attribution":{"utm_source":"newsletter"}}}'
end
function delay()
  return math.floor(interval * (0.5 + math.random()))
end
function request()
  counter = counter + 1
  headers["Idempotency-Key"] = prefix .. counter
  return wrk.format("POST", "/api/v1/payments/charge", headers, body)
end
function response(status, headers, body)
  if status ~= 200 then
    errors = (errors or 0) + 1
    if errors <= 3 then io.stderr:write("normal: unexpected status " .. status .. ": " .. body .. "\n") end
  end
end
EOF

# Hostile charges, as fast as they come back: store hostile-1..N in turn, each reference in turn.
cat >"$scripts/hostile.lua" <<'EOF'
local next_id = 1
function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
end
function init(args)
  stores = tonumber(args[1])
  refs = {}
  for r in string.gmatch(args[2], "[^,]+") do table.insert(refs, r) end
  counter = 0
  math.randomseed(os.time() * 1000 + tid)
  prefix = string.format("hostile-%d-%d-", tid, math.random(1, 1000000000))
  headers = {
    ["Authorization"] = "Bearer " .. os.getenv("PIXGATE_BENCH_HOSTILE_KEY"),
    ["Content-Type"] = "application/json",
  }
end
function request()
  counter = counter + 1
  local store = "hostile-" .. ((counter % stores) + 1)
  local ref = refs[(math.floor(counter / stores) % #refs) + 1]
  headers["Idempotency-Key"] = prefix .. counter
  local body = '{"store":"' .. store .. '","amount":10.0,"currency":"BRL","reference":"' .. ref .. '",' ..
    '"payer":{"name":"Ana Souza","taxId":"529.982.247-25","email":"ana@example.com"}}'
  return wrk.format("POST", "/api/v1/payments/charge", headers, body)
end
EOF

cpu_seconds() {   # the server's user + system CPU so far
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$pid/stat"
}

# setup_hostile: a merchant with the hostile stores, one key for them all, the misbehave
# component active on each with its kill switch off; prints what each reference answers.
setup_hostile() {
  local version store_list="" i
  admin_call POST /merchants -H 'Content-Type: application/json' -d '{"code": "hostile", "name": "Hostile"}' >/dev/null
  version=$(admin_call POST /components/policy -H 'Content-Type: application/wasm' --data-binary "@$misbehave" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["version"])')
  for i in $(seq 1 "$stores"); do
    admin_call POST /stores -H 'Content-Type: application/json' \
      -d "{\"code\": \"hostile-$i\", \"name\": \"Hostile $i\", \"merchant\": \"hostile\", \"mode\": \"SHADOW\"}" >/dev/null
    admin_call PUT "/stores/hostile-$i/components/policy" -H 'Content-Type: application/json' \
      -d "{\"version\": \"$version\"}" >/dev/null
    admin_call PUT "/stores/hostile-$i/kill-switch" -H 'Content-Type: application/json' \
      -d '{"enabled": false}' >/dev/null
    store_list+="${store_list:+, }\"hostile-$i\""
  done
  hostile_key=$(admin_call POST /api-keys -H 'Content-Type: application/json' \
    -d "{\"merchant\": \"hostile\", \"stores\": [$store_list]}" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["apiKey"])')
  local ref answers="" n=0
  for ref in ${references//,/ }; do
    n=$((n + 1))
    answers+=" $ref=$(curl -s -o /dev/null -w '%{http_code}' "$origin/api/v1/payments/charge" \
      -H "Authorization: Bearer $hostile_key" -H 'Content-Type: application/json' \
      -H "Idempotency-Key: probe-$n" \
      -d "{\"store\": \"hostile-1\", \"amount\": 10.0, \"reference\": \"$ref\", \"payer\": {\"name\": \"A\", \"taxId\": \"529.982.247-25\"}}")"
  done
  echo "hostile component $version on $stores stores, kill switch off; one charge each:$answers"
}

normal_run() {   # normal_run SECONDS: the fixed-rate normal load; prints wrk's output
  local interval=$((normal_connections * 1000 / rate))
  PIXGATE_BENCH_KEY=$key wrk -t2 -c"$normal_connections" -d"$1s" --latency -s "$scripts/normal.lua" \
    "$origin" -- "$interval"
}

hostile_run() {   # hostile_run SECONDS: the hostile closed loop; prints wrk's output
  PIXGATE_BENCH_HOSTILE_KEY=$hostile_key wrk -t2 -c"$hostile_connections" -d"$1s" --latency \
    -s "$scripts/hostile.lua" "$origin" -- "$stores" "$references"
}

for backend in $backends; do
  start_pixgate "$backend"
  setup_hostile
  normal_run 3 >/dev/null 2>&1   # warm-up
  hostile_run 3 >/dev/null 2>&1
  declare -A p99s=() rates=()
  for round in $(seq 1 "$rounds"); do
    for variant in without with; do
      hostile_out="$scripts/hostile.out"
      : >"$hostile_out"
      cpu_before=$(cpu_seconds)
      if [ "$variant" = with ]; then
        # The hostile load starts first and outlasts the measured window.
        hostile_run $((seconds + 2)) >"$hostile_out" 2>&1 &
        hostile_pid=$!
        sleep 1
      fi
      out=$(normal_run "$seconds" 2>&1)
      if [ "$variant" = with ]; then wait "$hostile_pid"; fi
      cpu=$(awk -v a="$cpu_before" -v b="$(cpu_seconds)" 'BEGIN {printf "%.1f", b - a}')
      read -r nrate np50 np99 nnon2xx nrequests nerrors < <(wrk_stats <<<"$out") ||
        bench_fail "wrk gave no figures for $backend round $round ($variant): $out"
      line="$backend round $round, $variant hostile load: normal ${nrate} charges/s, p50 ${np50} ms, p99 ${np99} ms, non-2xx ${nnon2xx}, socket errors ${nerrors}; server CPU ${cpu} s"
      if [ "$variant" = with ]; then
        read -r hrate _ hp99 hnon2xx hrequests _ < <(wrk_stats <"$hostile_out") ||
          bench_fail "wrk gave no figures for the hostile load: $(cat "$hostile_out")"
        line+="; hostile ${hrate} charges/s (${hnon2xx} of ${hrequests} refused, p99 ${hp99} ms)"
      fi
      echo "$line"
      [ "$nnon2xx" -eq 0 ] || echo "bench: WARNING: $nnon2xx non-2xx normal charges in $backend round $round ($variant)" >&2
      p99s[$variant]+="$np99 "
      rates[$variant]+="$nrate "
    done
  done
  without=$(tr ' ' '\n' <<<"${p99s[without]}" | grep . | median)
  with=$(tr ' ' '\n' <<<"${p99s[with]}" | grep . | median)
  ratio=$(awk -v a="$with" -v b="$without" 'BEGIN {printf "%.2f", a / b}')
  echo "### $backend: normal store p99 at $rate charges/s, median of $rounds rounds of ${seconds}s: without hostile load $without ms, with $with ms (x$ratio); $stores hostile stores, $hostile_connections hostile connections"
  emit "hostile.$backend" rate="$rate" median_p99_without_ms="$without" median_p99_with_ms="$with" ratio="$ratio" \
    rounds_p99_without_ms="[$(tr ' ' ',' <<<"${p99s[without]% }")]" rounds_p99_with_ms="[$(tr ' ' ',' <<<"${p99s[with]% }")]"
  unset p99s rates
  stop_pixgate
done
