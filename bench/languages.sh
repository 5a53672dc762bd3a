#!/usr/bin/env bash
# New SHADOW charges per second by the language of the store's provider step (issue 21): one
# `pixgate serve`, the JavaScript and Python sample components uploaded, and rounds of wrk
# (32 connections, every request a new Idempotency-Key) with the demo store's provider step
# activated as the bundled Rust component, then the JavaScript one, then the Python one, so
# that every variant sees the same machine. Prints each round, the medians per variant, and
# the provider step's own mean duration (pixgate_chain_step_duration_seconds).
# Usage: bench/languages.sh [seconds per round, default 10] [rounds, default 3] [backends, default "sqlite"]
# The components come from .ci/kits.sh (PIXGATE_BENCH_SAMPLES, default target/samples).
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
backends=${3:-sqlite}
samples=${PIXGATE_BENCH_SAMPLES:-target/samples}
source bench/lib.sh
ensure_wrk
build_pixgate
for lang in js python; do
  [ -f "$samples/provider-$lang.wasm" ] ||
    bench_fail "no $samples/provider-$lang.wasm: build the kits' samples with .ci/kits.sh $samples"
done
trap stop_pixgate EXIT

upload() {
  admin_call POST /components/provider -H 'Content-Type: application/wasm' --data-binary "@$1" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["version"])'
}

# The provider step's seconds and calls so far (pixgate_chain_step_duration_seconds).
provider_totals() {
  curl -sS "$admin/metrics" -H "Authorization: Bearer $token" | awk '
    /^pixgate_chain_step_duration_seconds_sum\{step="provider"\}/ { sum = $2 }
    /^pixgate_chain_step_duration_seconds_count\{step="provider"\}/ { count = $2 }
    END { printf "%s %s\n", sum + 0, count + 0 }'
}

for backend in $backends; do
  start_pixgate "$backend"
  declare -A version=([bundled]=bundled)
  for lang in js python; do
    started=$(date +%s.%N)
    version[$lang]=$(upload "$samples/provider-$lang.wasm")
    echo "$backend: uploaded provider-$lang.wasm as ${version[$lang]} in $(python3 -c "print(round($(date +%s.%N) - $started, 1))") s"
  done
  declare -A rates=() p99s=()
  for round in $(seq 1 "$rounds"); do
    for variant in bundled js python; do
      admin_call PUT /stores/demo-store/components/provider -H 'Content-Type: application/json' \
        -d "{\"version\": \"${version[$variant]}\"}" >/dev/null
      sleep 1.2 # the store cache takes up to a second to see the activation
      wrk_charges 2 new >/dev/null # warm-up: connections, this version's instances
      read -r sum0 count0 < <(provider_totals)
      out=$(wrk_charges "$seconds" new)
      read -r sum1 count1 < <(provider_totals)
      step_us=$(python3 -c "print(round(($sum1 - $sum0) / max($count1 - $count0, 1) * 1e6))")
      read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
        bench_fail "wrk gave no figures for $backend $variant round $round: $out"
      echo "$backend round $round, provider $variant: $rate charges/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, provider step mean $step_us µs"
      rates[$variant]+="$rate "
      p99s[$variant]+="$p99 "
    done
  done
  for variant in bundled js python; do
    mrate=$(tr ' ' '\n' <<<"${rates[$variant]}" | grep . | median)
    mp99=$(tr ' ' '\n' <<<"${p99s[$variant]}" | grep . | median)
    echo "### $backend, provider $variant: median $mrate charges/s, median p99 $mp99 ms"
    emit "languages.$backend.$variant" median_charges_per_s="$mrate" median_p99_ms="$mp99" \
      rounds_charges_per_s="[$(tr ' ' ',' <<<"${rates[$variant]% }")]"
  done
  stop_pixgate
done
