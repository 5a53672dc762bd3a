#!/usr/bin/env bash
# Load benchmark of SHADOW charges and idempotent replays on SQLite and PostgreSQL:
# wrk with 32 connections beside a release pixgate on this machine. Prints requests/s and
# the latency distribution of each run.
# Usage: bench/charges.sh [seconds per run, default 20] [backends, default "sqlite postgres"]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-20}
backends=${2:-sqlite postgres}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
cargo build --release -p pixgate --quiet
bin=target/release/pixgate
pg_admin=${PIXGATE_BENCH_PG:-postgres://postgres@127.0.0.1:5432/postgres}

run_backend() {
  local backend=$1 work db_url=""
  work=$(mktemp -d)
  if [ "$backend" = postgres ]; then
    local name="pixgate_bench_$RANDOM$RANDOM"
    psql "$pg_admin" -qc "create database $name" >/dev/null
    db_url="${pg_admin%/*}/$name"
  fi
  env PIXGATE_DATA_DIR="$work" PIXGATE_LISTEN=127.0.0.1:0 PIXGATE_ADMIN_LISTEN=127.0.0.1:0 \
    PIXGATE_RATE_LIMIT_PER_SECOND=0 PIXGATE_LOG=warn ${db_url:+PIXGATE_DATABASE_URL=$db_url} \
    "$bin" serve >"$work/out" 2>"$work/err" &
  local pid=$!
  for _ in $(seq 1 300); do grep -q '^pixgate: ready' "$work/out" 2>/dev/null && break; sleep 0.1; done
  local base key
  base=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
  key=$(sed -n 's/^pixgate: demo merchant.*: //p' "$work/out")
  local origin=${base%/api/v1}
  for mode in new replay; do
    # A short warm-up: connections, caches, the 64 replay keys.
    PIXGATE_BENCH_KEY=$key wrk -t2 -c32 -d3s -s bench/charge.lua "$origin" -- "$mode" >/dev/null 2>&1
    echo "### $backend, $mode charges (wrk -t2 -c32 -d${duration}s --latency)"
    PIXGATE_BENCH_KEY=$key wrk -t2 -c32 -d"${duration}s" --latency -s bench/charge.lua "$origin" -- "$mode" \
      | grep -E 'Requests/sec|Non-2xx|Socket errors|^\s+(50|75|90|99)%|requests in'
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$work"
  if [ -n "$db_url" ]; then psql "$pg_admin" -qc "drop database ${db_url##*/}" >/dev/null || true; fi
}

for backend in $backends; do run_backend "$backend"; done
