#!/usr/bin/env bash
# Payment search at a million intents (DESIGN.md section 12; BENCHMARKS.md section 9): seeds one
# LIVE store with N intents straight into the database of a release `pixgate serve` (after its
# migrations ran), prints the query plans of the statements a page runs, then measures
# GET /api/v1/payments with wrk, six kinds of pages, each path picked at random from 2,000
# (bench/search.py): the newest and deep pages of the store, store + status (SUCCEEDED or
# CANCELED; and FAILED, whose intents have no QR code to draw), an exact reference, a day's
# createdFrom/createdTo window, and a rare status in a day's window. Each kind
# runs with 1 connection (the latency of one page: p50, p99) and with 8 (throughput), after a
# 2 s warm-up. Target: p99 <= 20 ms with 1 connection.
# Usage: bench/search.sh [intents, default 1000000] [seconds per run, default 10]
#                        [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
intents=${1:-1000000}
duration=${2:-10}
backends=${3:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
trap stop_pixgate EXIT
kinds="newest status status_failed reference window status_window"

for backend in $backends; do
  start_pixgate "$backend"
  if [ "$backend" = sqlite ]; then db=$work/pixgate.db; else db=$db_url; fi
  admin_call POST /stores -H 'Content-Type: application/json' \
    -d '{"code": "bench-live", "name": "Bench LIVE", "merchant": "demo", "mode": "LIVE"}' >/dev/null
  search_key=$(admin_call POST /api-keys -H 'Content-Type: application/json' \
    -d '{"merchant": "demo", "stores": ["bench-live"], "scopes": ["payments:read"]}' |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["apiKey"])')
  base=$(date +%s%3N)
  python3 bench/search.py seed "$backend" "$db" bench-live "$intents" "$base"
  python3 bench/search.py paths bench-live "$intents" "$base" "$work/paths" >/dev/null
  echo "== $backend: query plans (the statement of one store's page, as host/src/db/search.rs builds it)"
  python3 bench/search.py explain "$backend" "$db" bench-live "$intents" "$base"
  echo "== $backend: pages answered (20 random paths of each kind)"
  PIXGATE_BENCH_KEY=$search_key python3 bench/search.py check "$origin" "$work/paths" $kinds
  for kind in $kinds; do
    for connections in 1 8; do
      threads=$((connections < 2 ? 1 : 2))
      PIXGATE_BENCH_KEY=$search_key wrk -t$threads -c$connections -d2s -s bench/search.lua \
        "$origin" -- "$work/paths/$kind.paths" >/dev/null
      out=$(PIXGATE_BENCH_KEY=$search_key wrk -t$threads -c$connections -d"${duration}s" --latency \
        -s bench/search.lua "$origin" -- "$work/paths/$kind.paths")
      read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
        bench_fail "wrk gave no figures for $backend $kind: $out"
      echo "$backend, $kind, $connections connection(s) (wrk -t$threads -c$connections -d${duration}s): p50 $p50 ms, p99 $p99 ms, $rate requests/s, non-2xx $non2xx, $requests requests"
      [ "$non2xx" -eq 0 ] || echo "bench: WARNING: $non2xx non-2xx answers in $backend $kind" >&2
      emit "search.$backend.$kind.c$connections" requests_per_s="$rate" p50_ms="$p50" \
        p99_ms="$p99" non2xx="$non2xx" requests="$requests" seconds="$duration" intents="$intents"
    done
  done
  stop_pixgate
done
