#!/usr/bin/env bash
# Due-date charges (issue 32): new SHADOW due-date charges per second beside immediate ones,
# in interleaved rounds of one run (target: within 10 %); then a replay, with the recorded
# versions, of every charge recorded (both kinds, at least N; part of them resolved with the
# `costliest-first` fixture, a component built against pixgate:chain@1.0.0, as the store's
# provider step): the report's `changed` must be 0.
# Usage: bench/due_date.sh [seconds per round, default 10] [rounds, default 3]
#                          [charges to replay, default 20000] [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
charges=${3:-20000}
backends=${4:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
need_fixture
trap stop_pixgate EXIT

for backend in $backends; do
  start_pixgate "$backend"
  wrk_charges 3 new >/dev/null   # warm-up
  wrk_charges 3 due >/dev/null
  declare -A rates=()
  for round in $(seq 1 "$rounds"); do
    for mode in new due; do
      out=$(wrk_charges "$seconds" "$mode")
      read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
        bench_fail "wrk gave no figures for $backend round $round: $out"
      [ "$non2xx" = 0 ] || bench_fail "$backend $mode round $round: $non2xx non-2xx answers"
      kind=$([ "$mode" = new ] && echo immediate || echo due-date)
      echo "$backend round $round, $kind: ${rate} charges/s, p50 ${p50} ms, p99 ${p99} ms"
      rates[$mode]+="$rate "
    done
  done
  imm=$(printf '%s\n' ${rates[new]} | median)
  due=$(printf '%s\n' ${rates[due]} | median)
  ratio=$(python3 -c "print(f'{$due / $imm:.3f}')")
  echo "### $backend: immediate median $imm charges/s, due-date median $due charges/s, due-date / immediate = $ratio"

  # Part of the traces from a chain 1.0.0 provider step, then both kinds until N are recorded.
  version=$(upload_fixture)
  admin_call PUT /stores/demo-store/components/provider \
    -H 'Content-Type: application/json' -d "{\"version\": \"$version\"}" >/dev/null
  wrk_charges 3 new >/dev/null
  wrk_charges 3 due >/dev/null
  admin_call PUT /stores/demo-store/components/provider \
    -H 'Content-Type: application/json' -d '{"version": "bundled"}' >/dev/null
  report=$(admin_call POST /replays -H 'Content-Type: application/json' \
    -d "{\"store\": \"demo-store\", \"limit\": 100000}")
  read -r replayed changed rate < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1])["data"]
print(r["replayed"], r["changed"], round(r["chargesPerSecond"]))' "$report")
  echo "### $backend: replay with the recorded versions: $replayed charges (both kinds, some from a 1.0.0 provider step), $changed changed, $rate charges/s"
  [ "$replayed" -ge "$charges" ] || echo "note: fewer than $charges charges recorded; raise the seconds or rounds" >&2
  [ "$changed" = 0 ] || bench_fail "$backend: replay with the recorded versions changed $changed charges"
  unset rates
  stop_pixgate
done
