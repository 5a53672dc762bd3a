#!/usr/bin/env bash
# What the search's indexes cost the charge path (migration 0009: two indexes added to
# payment_intents, and `id` added to the store's (store_id, created_at) index): new SHADOW
# charges under wrk (as bench/charges.sh) on one release `pixgate serve`, alternating rounds
# with the two added indexes present and dropped (straight in the database, between runs), so
# both variants meet the same binary, the same growing table and the same machine.
# Usage: bench/search_index_cost.sh [seconds per run, default 10] [rounds, default 3]
#                                   [backends, default "sqlite postgres"]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
rounds=${2:-3}
backends=${3:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
trap stop_pixgate EXIT

# sql BACKEND STATEMENTS: runs them on the server's database.
sql() {
  if [ "$1" = sqlite ]; then
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=60); c.executescript(sys.argv[2]); c.close()' \
      "$work/pixgate.db" "$2"
  else
    psql "$db_url" -qAtX -v ON_ERROR_STOP=1 -c "set client_min_messages = warning; $2"
  fi
}

for backend in $backends; do
  start_pixgate "$backend"
  for round in $(seq 1 "$rounds"); do
    for variant in with without; do
      if [ "$variant" = with ]; then
        sql "$backend" "create index if not exists payment_intents_store_status_idx on payment_intents (store_id, status, created_at, id); create index if not exists payment_intents_store_reference_idx on payment_intents (store_id, reference, created_at, id);"
      else
        sql "$backend" "drop index if exists payment_intents_store_status_idx; drop index if exists payment_intents_store_reference_idx;"
      fi
      wrk_charges 3 new >/dev/null 2>&1
      out=$(wrk_charges "$duration" new)
      read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
        bench_fail "wrk gave no figures for $backend $variant: $out"
      echo "$backend, round $round, $variant the search indexes: $rate charges/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, $requests requests"
    done
  done
  stop_pixgate
done
