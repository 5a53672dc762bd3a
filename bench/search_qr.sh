#!/usr/bin/env bash
# Search pages of LIVE intents before and after issue 30 item 5 (DESIGN.md section 5: a page
# leaves the QR codes out unless asked with include=qrCode; BENCHMARKS.md section 13). For each
# binary given, on SQLite: a fresh `pixgate serve`, the LIVE store `bench-live` seeded with N
# intents straight into the database (bench/search.py, as bench/search.sh), then GET
# /api/v1/payments pages of 20 with wrk, one connection (the latency of one page), after a 2 s
# warm-up: `newest` (newest or deep pages of the store) and `status` (SUCCEEDED or CANCELED,
# half deep), whose every item has a BR Code, and, for a binary that knows `include`,
# `newest_qr` and `pending_qr` (the same pages asking for the codes: only PENDING items draw).
# Also the bytes of one page of each kind. Target: p99 <= 20 ms for the pages without include.
# Usage: bench/search_qr.sh BEFORE_BIN AFTER_BIN [intents, default 1000000] [seconds, default 10]
#   BEFORE_BIN: a build of the code before the change (main); AFTER_BIN: this branch's.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: $0 BEFORE_BIN AFTER_BIN [intents] [seconds]}
after=${2:?usage: $0 BEFORE_BIN AFTER_BIN [intents] [seconds]}
intents=${3:-1000000}
duration=${4:-10}
source bench/lib.sh
ensure_wrk
trap stop_pixgate EXIT

for run in before after; do
  if [ "$run" = before ]; then bin=$before; kinds="newest status"; else bin=$after; kinds="newest status newest_qr pending_qr"; fi
  [ -x "$bin" ] || bench_fail "no pixgate binary at $bin"
  start_pixgate sqlite
  admin_call POST /stores -H 'Content-Type: application/json' \
    -d '{"code": "bench-live", "name": "Bench LIVE", "merchant": "demo", "mode": "LIVE"}' >/dev/null
  search_key=$(admin_call POST /api-keys -H 'Content-Type: application/json' \
    -d '{"merchant": "demo", "stores": ["bench-live"], "scopes": ["payments:read"]}' |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["apiKey"])')
  base=$(date +%s%3N)
  python3 bench/search.py seed sqlite "$work/pixgate.db" bench-live "$intents" "$base"
  python3 bench/search.py paths bench-live "$intents" "$base" "$work/paths" >/dev/null
  PIXGATE_BENCH_KEY=$search_key python3 bench/search.py check "$origin" "$work/paths" $kinds
  for kind in $kinds; do
    first=$(head -1 "$work/paths/$kind.paths")
    bytes=$(curl -sS -H "Authorization: Bearer $search_key" "$origin$first" | wc -c)
    PIXGATE_BENCH_KEY=$search_key wrk -t1 -c1 -d2s -s bench/search.lua "$origin" -- \
      "$work/paths/$kind.paths" >/dev/null
    out=$(PIXGATE_BENCH_KEY=$search_key wrk -t1 -c1 -d"${duration}s" --latency \
      -s bench/search.lua "$origin" -- "$work/paths/$kind.paths")
    read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
      bench_fail "wrk gave no figures for $run $kind: $out"
    echo "$run ($bin), $kind, 1 connection (wrk -t1 -c1 -d${duration}s): p50 $p50 ms, p99 $p99 ms, $rate requests/s, non-2xx $non2xx, $requests requests; the page $first: $bytes bytes"
    [ "$non2xx" -eq 0 ] || echo "bench: WARNING: $non2xx non-2xx answers in $run $kind" >&2
    emit "search_qr.$run.$kind" requests_per_s="$rate" p50_ms="$p50" p99_ms="$p99" \
      non2xx="$non2xx" requests="$requests" seconds="$duration" intents="$intents" page_bytes="$bytes"
  done
  stop_pixgate
done
