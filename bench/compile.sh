#!/usr/bin/env bash
# What compiling a large upload costs the charges served meanwhile (issue 21): a fresh
# `pixgate serve` per round, wrk driving new SHADOW charges (32 connections) for the round,
# and, 2 s in, an upload of the JavaScript sample (11.6 MB, seconds of compiling). Rounds
# alternate PIXGATE_COMPONENT_COMPILE_THREADS between the default (half the cores) and every
# core, so both see the same machine. Prints each round's charges/s, p99 and upload time, and
# the medians per setting.
# Usage: bench/compile.sh [seconds per round, default 30] [rounds, default 3]
# The component comes from .ci/kits.sh (PIXGATE_BENCH_SAMPLES, default target/samples).
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
rounds=${2:-3}
samples=${PIXGATE_BENCH_SAMPLES:-target/samples}
source bench/lib.sh
ensure_wrk
build_pixgate
component="$samples/provider-js.wasm"
[ -f "$component" ] || bench_fail "no $component: build the kits' samples with .ci/kits.sh $samples"
trap stop_pixgate EXIT

cores=$(nproc)
half=$((cores / 2 > 0 ? cores / 2 : 1))
declare -A rates=() p99s=() uploads=()
for round in $(seq 1 "$rounds"); do
  for threads in "$half" "$cores"; do
    server_env=("PIXGATE_COMPONENT_COMPILE_THREADS=$threads")
    start_pixgate sqlite
    wrk_charges 2 new >/dev/null # warm-up
    (
      sleep 2
      started=$(date +%s.%N)
      admin_call POST /components/provider -H 'Content-Type: application/wasm' \
        --data-binary "@$component" >/dev/null
      python3 -c "print(round($(date +%s.%N) - $started, 1))" >"$work/upload-seconds"
    ) &
    uploader=$!
    out=$(wrk_charges "$seconds" new)
    wait "$uploader" || bench_fail "the upload failed in round $round ($threads threads)"
    read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
      bench_fail "wrk gave no figures for round $round ($threads threads): $out"
    upload=$(cat "$work/upload-seconds")
    echo "round $round, $threads compile thread(s) of $cores cores: $rate charges/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx; upload took $upload s"
    rates[$threads]+="$rate "
    p99s[$threads]+="$p99 "
    uploads[$threads]+="$upload "
    stop_pixgate
  done
done
for threads in "$half" "$cores"; do
  mrate=$(tr ' ' '\n' <<<"${rates[$threads]}" | grep . | median)
  mp99=$(tr ' ' '\n' <<<"${p99s[$threads]}" | grep . | median)
  mupload=$(tr ' ' '\n' <<<"${uploads[$threads]}" | grep . | median)
  echo "### $threads compile thread(s): median $mrate charges/s, median p99 $mp99 ms, median upload $mupload s"
  emit "compile.threads_$threads" median_charges_per_s="$mrate" median_p99_ms="$mp99" median_upload_s="$mupload"
done
