# Shared by the bench scripts: start a release `pixgate serve` on a fresh SQLite data dir or a
# fresh PostgreSQL database (ports 0, rate limit off), and stop it again.
# Sets: work, pid, origin (merchant API origin), admin (admin API origin), key (demo API key),
# token (admin token), db_url (PostgreSQL only).
pg_admin=${PIXGATE_BENCH_PG:-postgres://postgres@127.0.0.1:5432/postgres}
bin=${PIXGATE_BENCH_BIN:-target/release/pixgate}

start_pixgate() {
  local backend=$1
  work=$(mktemp -d)
  db_url=""
  if [ "$backend" = postgres ]; then
    local name="pixgate_bench_$RANDOM$RANDOM"
    psql "$pg_admin" -qc "create database $name" >/dev/null
    db_url="${pg_admin%/*}/$name"
  fi
  env PIXGATE_DATA_DIR="$work" PIXGATE_LISTEN=127.0.0.1:0 PIXGATE_ADMIN_LISTEN=127.0.0.1:0 \
    PIXGATE_RATE_LIMIT_PER_SECOND=0 PIXGATE_LOG=warn ${db_url:+PIXGATE_DATABASE_URL=$db_url} \
    "$bin" serve >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 1 300); do grep -q '^pixgate: ready' "$work/out" 2>/dev/null && break; sleep 0.1; done
  grep -q '^pixgate: ready' "$work/out" || { cat "$work/err" >&2; return 1; }
  local base
  base=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
  origin=${base%/api/v1}
  admin=$(sed -n 's/^pixgate: admin API on //p' "$work/out")
  admin=${admin%/admin/v1}
  key=$(sed -n 's/^pixgate: demo merchant.*: //p' "$work/out")
  token=$(sed -n 's/^pixgate: admin token.*: //p' "$work/out")
}

stop_pixgate() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$work"
  if [ -n "$db_url" ]; then psql "$pg_admin" -qc "drop database ${db_url##*/}" >/dev/null || true; fi
}

# admin_call METHOD PATH [curl args...]: the admin API with the token; prints the body.
admin_call() {
  local method=$1 path=$2
  shift 2
  curl -sS -X "$method" "$admin/admin/v1$path" -H "Authorization: Bearer $token" "$@"
}

# wrk_charges SECONDS [new|replay]: SHADOW charges with 32 connections; prints wrk's output.
wrk_charges() {
  PIXGATE_BENCH_KEY=$key wrk -t2 -c32 -d"$1s" --latency -s bench/charge.lua "$origin" -- "${2:-new}"
}

ensure_wrk() {
  command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
}
