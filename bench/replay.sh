#!/usr/bin/env bash
# Replay throughput (issue 8, DESIGN.md section 9): records at least N SHADOW charges with wrk
# against a release `pixgate serve`, then replays them through POST /admin/v1/replays, five
# times with the recorded versions and five times with a candidate provider component (the
# `costliest-first` fixture), and prints each run's charges/s and the medians.
# Usage: bench/replay.sh [charges, default 20000] [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
charges=${1:-20000}
backends=${2:-sqlite postgres}
source bench/lib.sh
ensure_wrk
[ -n "${PIXGATE_BENCH_BIN:-}" ] || cargo build --release -p pixgate --quiet
fixture=target/wasm-guests/wasm32-wasip2/guest/pixgate_fixture_costliest_first.wasm

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

for backend in $backends; do
  start_pixgate "$backend"
  recorded=0
  while [ "$recorded" -lt "$charges" ]; do
    n=$(wrk_charges 5 new | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    recorded=$((recorded + n))
  done
  version=$(admin_call POST /components/provider -H 'Content-Type: application/wasm' \
    --data-binary "@$fixture" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["version"])')
  for variant in recorded candidate; do
    if [ "$variant" = recorded ]; then components='{}'; else components="{\"provider\": \"$version\"}"; fi
    rates=()
    for run in 1 2 3 4 5; do
      report=$(admin_call POST /replays -H 'Content-Type: application/json' \
        -d "{\"store\": \"demo-store\", \"components\": $components, \"limit\": $charges}")
      line=$(python3 -c '
import json, sys
r = json.loads(sys.argv[1])["data"]
print(r["replayed"], r["changed"], r["durationMs"], round(r["chargesPerSecond"]))' "$report")
      read -r replayed changed ms rate <<<"$line"
      echo "$backend $variant run $run: $replayed charges replayed ($changed changed) in $ms ms: $rate charges/s"
      rates+=("$rate")
    done
    echo "### $backend, $variant versions: median $(printf '%s\n' "${rates[@]}" | median) charges/s"
  done
  stop_pixgate
done
