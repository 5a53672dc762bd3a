#!/usr/bin/env bash
# The shadow candidate's effect on charge latency (issue 8): new SHADOW charges with wrk
# (32 connections) against a release `pixgate serve`, alternating rounds without and with a
# candidate provider component attached to the store (the `costliest-first` fixture, which
# decides otherwise on every charge), so both see the same machine. Prints each round's
# requests/s and p99, the medians per variant, and how many comparisons were recorded and
# skipped (a full shadow queue skips comparisons, never delays charges).
# Usage: bench/shadow.sh [seconds per round, default 10] [rounds, default 3] [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
backends=${3:-sqlite postgres}
source bench/lib.sh
ensure_wrk
[ -n "${PIXGATE_BENCH_BIN:-}" ] || cargo build --release -p pixgate --quiet
fixture=target/wasm-guests/wasm32-wasip2/guest/pixgate_fixture_costliest_first.wasm

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# wrk's latency in ms ("31.20ms", "1.02s", "850.00us").
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}'; }
shadow_metric() {
  curl -s "$admin/metrics" | awk -v r="$1" '$1 ~ /^pixgate_shadow_comparisons_total/ && $1 ~ "result=\"" r "\"" {s+=$2} END {print s+0}'
}

for backend in $backends; do
  start_pixgate "$backend"
  version=$(admin_call POST /components/provider -H 'Content-Type: application/wasm' \
    --data-binary "@$fixture" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["version"])')
  wrk_charges 3 new >/dev/null   # warm-up
  declare -A p99s=() rates=()
  for round in $(seq 1 "$rounds"); do
    for variant in without with; do
      if [ "$variant" = with ]; then
        admin_call PUT /stores/demo-store/components/provider/candidate \
          -H 'Content-Type: application/json' -d "{\"version\": \"$version\"}" >/dev/null
      else
        admin_call DELETE /stores/demo-store/components/provider/candidate >/dev/null
      fi
      out=$(wrk_charges "$seconds" new)
      rate=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")
      p99=$(awk '$1 == "99%" {print $2}' <<<"$out" | to_ms)
      non2xx=$(sed -n 's/^ *Non-2xx or 3xx responses: *//p' <<<"$out")
      echo "$backend round $round, $variant candidate: ${rate} charges/s, p99 ${p99} ms, non-2xx ${non2xx:-0}"
      p99s[$variant]+="$p99 "
      rates[$variant]+="$rate "
    done
  done
  sleep 2   # let the worker finish the queued comparisons
  for variant in without with; do
    echo "### $backend, $variant candidate: median $(tr ' ' '\n' <<<"${rates[$variant]}" | grep . | median) charges/s, median p99 $(tr ' ' '\n' <<<"${p99s[$variant]}" | grep . | median) ms"
  done
  echo "### $backend: shadow comparisons recorded $(( $(shadow_metric same) + $(shadow_metric changed) )), skipped $(shadow_metric skipped)"
  unset p99s rates
  stop_pixgate
done
