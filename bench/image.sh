#!/usr/bin/env bash
# The image beside the bare binary (BENCHMARKS.md): the image's size as podman reports it, the
# time from `podman run` to `pixgate: ready` on a new volume, and new SHADOW charges per second
# through the container's published port against the same binary run bare on the host, in one
# run (wrk -t2 -c32, bench/charge.lua, rate limit off, SQLite).
#
#   bench/image.sh STATIC_PIXGATE [seconds per run, default 20]
#
# The container runs as CI runs it (`--runtime runc`, the ulimits this machine needs) on
# podman's default network for a rootful container (a bridge, the port published on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bin=$(realpath "$1")
duration=${2:-20}
ensure_wrk
tag=localhost/pixgate:bench
deploy/image.sh --binary "$bin" --tag "$tag" >/dev/null
echo "image: $(podman image inspect "$tag" --format '{{.Size}}') bytes"

read -r port admin_port < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
cleanup() {
  podman rm -f -t 2 pixgate-bench >/dev/null 2>&1 || true
  podman volume rm -f pixgate-bench-data >/dev/null 2>&1 || true
  [ -z "${bare:-}" ] || kill "$bare" 2>/dev/null || true
  rm -rf "${work:-/nonexistent}"
}
trap cleanup EXIT
cleanup
podman volume create pixgate-bench-data >/dev/null
started=$(date +%s%N)
podman run -d --name pixgate-bench --runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
  -p "127.0.0.1:$port:8080" -p "127.0.0.1:$admin_port:8081" -v pixgate-bench-data:/data --read-only \
  -e PIXGATE_RATE_LIMIT_PER_SECOND=0 "$tag" >/dev/null
until podman logs pixgate-bench 2>/dev/null | grep -q '^pixgate: ready'; do sleep 0.05; done
echo "container: start to ready $((($(date +%s%N) - started) / 1000000)) ms (new volume)"
key=$(podman logs pixgate-bench 2>/dev/null | sed -n 's/^pixgate: demo merchant.*: //p')
origin="http://127.0.0.1:$port"
wrk_charges 3 new >/dev/null 2>&1
read -r rate p50 p99 non2xx requests _ < <(wrk_charges "$duration" new | wrk_stats)
echo "container: $rate charges/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, $requests requests"
podman rm -f -t 5 pixgate-bench >/dev/null

work=$(mktemp -d)
started=$(date +%s%N)
PIXGATE_DATA_DIR="$work/data" PIXGATE_LISTEN="127.0.0.1:$port" PIXGATE_ADMIN_LISTEN="127.0.0.1:$admin_port" \
  PIXGATE_RATE_LIMIT_PER_SECOND=0 "$bin" serve >"$work/out" 2>"$work/err" &
bare=$!
until grep -q '^pixgate: ready' "$work/out" 2>/dev/null; do kill -0 "$bare"; sleep 0.05; done
echo "bare: start to ready $((($(date +%s%N) - started) / 1000000)) ms (new data dir)"
key=$(sed -n 's/^pixgate: demo merchant.*: //p' "$work/out")
wrk_charges 3 new >/dev/null 2>&1
read -r rate p50 p99 non2xx requests _ < <(wrk_charges "$duration" new | wrk_stats)
echo "bare: $rate charges/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, $requests requests"
