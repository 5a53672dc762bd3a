#!/usr/bin/env bash
# What heavy admin work costs a merchant's charges (issue 30, DESIGN.md section 13): a fresh
# `pixgate serve` (SQLite, loopback), N SHADOW charges recorded first so replays have work,
# then two phases of the same length, each measuring one client's charges back to back on the
# demo store (one connection: each charge's own latency, no queue of our making):
#   quiet   nothing else;
#   loaded  6 clients asking for replays of the demo store and 8 clients uploading 32 MiB
#           bodies, each asking again as soon as it is answered (after `Retry-After` when
#           refused with a 429).
# Prints p50, p99 and the slowest charge of each phase, what the admin clients got (answers
# by status) and the server's peak RSS. Both phases run on one server, quiet first.
# Usage: bench/admin_load.sh [seconds per phase, default 20] [recorded charges, default 5000]
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped): run it
# with a binary built before and one built after a change to compare them.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
recorded=${2:-5000}
source bench/lib.sh
build_pixgate
trap 'kill ${clients[@]+"${clients[@]}"} 2>/dev/null || true; stop_pixgate' EXIT

# charges MODE SECONDS|COUNT: SHADOW charges of the demo store from Python's http.client
# (keep-alive). "measure S": one connection for S seconds, prints "n p50_ms p99_ms max_ms
# non200"; "record N": N charges over 8 connections.
charges() {
  PIXGATE_BENCH_KEY=$key python3 - "$origin" "$@" <<'PY'
import http.client, json, os, sys, threading, time, uuid
origin, mode, amount = sys.argv[1], sys.argv[2], float(sys.argv[3])
host = origin.removeprefix("http://")
body = json.dumps({"store": "demo-store", "amount": 129.9, "currency": "BRL",
    "reference": "order-10042", "payer": {"name": "Ana Souza", "taxId": "529.982.247-25",
    "email": "ana@example.com"}, "metadata": {"orderId": "10042"}})
headers = {"Authorization": "Bearer " + os.environ["PIXGATE_BENCH_KEY"],
           "Content-Type": "application/json"}
def charge(conn):
    conn.request("POST", "/api/v1/payments/charge", body,
                 dict(headers, **{"Idempotency-Key": uuid.uuid4().hex}))
    r = conn.getresponse()
    r.read()
    return r.status
if mode == "record":
    left = [int(amount)]
    lock = threading.Lock()
    def worker():
        conn = http.client.HTTPConnection(host)
        while True:
            with lock:
                if left[0] <= 0:
                    return
                left[0] -= 1
            if charge(conn) != 200:
                sys.exit("a charge failed while recording")
    threads = [threading.Thread(target=worker) for _ in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
else:
    conn = http.client.HTTPConnection(host)
    times, failed, end = [], 0, time.monotonic() + amount
    while time.monotonic() < end:
        start = time.perf_counter()
        status = charge(conn)
        times.append((time.perf_counter() - start) * 1000)
        failed += status != 200
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"{len(times)} {pick(0.5):.1f} {pick(0.99):.1f} {times[-1]:.1f} {failed}")
PY
}

# admin_client KIND UNTIL: asks for a replay or an upload again and again until the epoch
# second UNTIL, appending each answer's status to $work/KIND.codes.
admin_client() {
  local kind=$1 until=$2 code retry
  local head="$work/head.$BASHPID" # this client's (a command substitution has its own pid)
  while [ "$(date +%s)" -lt "$until" ]; do
    if [ "$kind" = replay ]; then
      code=$(curl -sS -o /dev/null -D "$head" -w '%{http_code}' -X POST \
        "$admin/admin/v1/replays" -H "Authorization: Bearer $token" \
        -H 'Content-Type: application/json' -d '{"store": "demo-store", "components": {}}')
    else
      code=$(curl -sS -o /dev/null -D "$head" -w '%{http_code}' -X POST \
        "$admin/admin/v1/components/provider" -H "Authorization: Bearer $token" \
        -H 'Content-Type: application/wasm' --data-binary "@$work/upload.bin")
    fi
    echo "$code" >>"$work/$kind.codes"
    if [ "$code" = 429 ]; then
      retry=$(awk 'tolower($1) == "retry-after:" {print $2 + 0}' "$head")
      sleep "${retry:-1}"
    fi
  done
}

# summary KIND: "N answers: 200 x3, 429 x40".
summary() {
  sort "$work/$1.codes" | uniq -c | awk '{s = s sep $2 " x" $1; sep = ", "; n += $1}
    END {printf "%d answers: %s", n, s}'
}

start_pixgate sqlite
echo "recording $recorded SHADOW charges"
charges record "$recorded"
# 32 MiB (the default upload limit) of a would-be component: the magic and version of a
# component, then zeros; read whole, then refused as not a component.
{ printf '\0asm\x0d\x00\x01\x00'; head -c $((32 * 1024 * 1024 - 8)) /dev/zero; } >"$work/upload.bin"

read -r n p50 p99 max failed < <(charges measure "$seconds")
echo "quiet: $n charges in ${seconds}s, p50 $p50 ms, p99 $p99 ms, slowest $max ms, non-200 $failed"
quiet_rss=$(peak_rss_kib)
echo "  server peak RSS (VmHWM) so far: $((quiet_rss / 1024)) MiB"
emit admin_load.quiet charges="$n" p50_ms="$p50" p99_ms="$p99" max_ms="$max" non200="$failed" \
  peak_rss_kib="$quiet_rss"

until=$(($(date +%s) + seconds + 2))
: >"$work/replay.codes"
: >"$work/upload.codes"
clients=()
for _ in 1 2 3 4 5 6; do admin_client replay "$until" & clients+=($!); done
for _ in 1 2 3 4 5 6 7 8; do admin_client upload "$until" & clients+=($!); done
sleep 1 # the admin clients are asking
read -r n p50 p99 max failed < <(charges measure "$seconds")
wait "${clients[@]}" # not the server, also a child of this shell
echo "loaded (6 replay clients, 8 upload clients of 32 MiB): $n charges in ${seconds}s, p50 $p50 ms, p99 $p99 ms, slowest $max ms, non-200 $failed"
echo "  replays: $(summary replay)"
echo "  uploads: $(summary upload)"
rss=$(peak_rss_kib)
echo "  server peak RSS (VmHWM): $((rss / 1024)) MiB"
emit admin_load.loaded charges="$n" p50_ms="$p50" p99_ms="$p99" max_ms="$max" non200="$failed" \
  peak_rss_kib="$rss"
