#!/usr/bin/env bash
# The image (deploy/Containerfile, DESIGN.md section 19), built with buildah from the binary
# the tests ran and run with podman as an operator would:
#
#   .ci/image.sh PATH/TO/STATIC/pixgate
#
# - at most 40 MB as podman reports it, its user 65532, no shell;
# - `pixgate psp-sim` from the same image, over mTLS, as the PSP;
# - `pixgate serve` with a read-only root filesystem and a named volume on /data: a SHADOW
#   charge through the published port; a LIVE charge created at the simulator, paid there and
#   settled by its callback; the signed webhooks of it received (and verified) by an HTTPS
#   receiver on the host;
# - the image's HEALTHCHECK (`pixgate healthcheck`) healthy; a restart that keeps the data.
#
# Every container runs with `--runtime runc` and the ulimits this machine needs. The simulator's
# container owns the network: slirp4netns, with the host's loopback reachable at 10.0.2.2, the
# ports published on the host's 127.0.0.1; pixgate's container joins it (as a pod's containers
# share one), so pixgate and the simulator talk over the container's loopback (the simulator
# calls back loopback addresses only) and the receiver on the host is 10.0.2.2. Nothing leaves
# a loopback interface. Prints the figures BENCHMARKS.md quotes (size, start to ready).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "$1")
for tool in podman buildah runc openssl; do
  command -v "$tool" >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc openssl >/dev/null
    break
  }
done

tag=localhost/pixgate:ci
deploy/image.sh --binary "$bin" --tag "$tag"
size=$(podman image inspect "$tag" --format '{{.Size}}')
echo "image: $size bytes"
# DESIGN.md's bound; PIXGATE_IMAGE_MAX_BYTES raises it for a try with a debug build (not in CI).
if [ "$size" -gt "${PIXGATE_IMAGE_MAX_BYTES:-40000000}" ]; then
  echo "the image is over 40 MB" >&2
  exit 1
fi
user=$(podman image inspect "$tag" --format '{{.Config.User}}')
[ "$user" = "65532:65532" ] || { echo "the image runs as '$user', not 65532" >&2; exit 1; }

work=$(mktemp -d)
run_flags=(--runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
receiver=""
cleanup() {
  podman rm -f -t 2 pixgate-ci-serve pixgate-ci-sim >/dev/null 2>&1 || true
  podman volume rm -f pixgate-ci-data >/dev/null 2>&1 || true
  [ -z "$receiver" ] || kill "$receiver" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cleanup_on_start() { podman rm -f pixgate-ci-serve pixgate-ci-sim >/dev/null 2>&1 || true; }
cleanup_on_start
fail() {
  echo "image check: $*" >&2
  for c in pixgate-ci-sim pixgate-ci-serve; do
    echo "--- podman logs $c" >&2
    podman logs "$c" >&2 2>&1 || true
  done
  exit 1
}

read -r merchant admin sim_port receiver_port < <(python3 -c '
import socket
ports = []
for _ in range(4):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s); 
print(*[s.getsockname()[1] for s in ports])')
host=10.0.2.2 # the host's loopback, as the containers see it

# Certificates: one CA for the simulator's server certificate, pixgate's client certificate
# (mTLS) and the receiver's.
certs="$work/certs"
mkdir "$certs"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj '/CN=pixgate CI CA' \
  -keyout "$certs/ca-key.pem" -out "$certs/ca.pem" 2>/dev/null
issue() { # NAME SAN EXTENDED_KEY_USAGE
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$1" \
    -keyout "$certs/$1-key.pem" -out "$certs/$1.csr" 2>/dev/null
  openssl x509 -req -in "$certs/$1.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca-key.pem" \
    -CAcreateserial -days 2 -out "$certs/$1.pem" \
    -extfile <(printf 'subjectAltName=%s\nextendedKeyUsage=%s\n' "$2" "$3") 2>/dev/null
}
issue sim "IP:127.0.0.1" serverAuth
issue client "DNS:pixgate" clientAuth
issue receiver "IP:$host" serverAuth
# The containers' user reads them (test keys, thrown away with $work).
chmod 0755 "$certs" && chmod 0644 "$certs"/*

# The PSP: the simulator from the same image, in the container that holds the network (and
# publishes pixgate's ports too).
podman run -d --name pixgate-ci-sim "${run_flags[@]}" --read-only \
  --network slirp4netns:allow_host_loopback=true \
  -p "127.0.0.1:$sim_port:8443" -p "127.0.0.1:$merchant:8080" -p "127.0.0.1:$admin:8081" \
  -v "$certs:/certs:ro" "$tag" \
  psp-sim --listen 0.0.0.0:8443 --mtls --cert /certs/sim.pem --key /certs/sim-key.pem \
  --client-ca /certs/ca.pem >/dev/null
wait_line() { # CONTAINER LINE
  for _ in $(seq 1 300); do
    podman logs "$1" 2>/dev/null | grep -q "$2" && return 0
    [ "$(podman inspect "$1" --format '{{.State.Running}}')" = true ] || fail "$1 stopped"
    sleep 0.2
  done
  fail "$1 did not print '$2'"
}
wait_line pixgate-ci-sim '^psp-sim: ready'

# pixgate, on a named volume, its root filesystem read-only.
podman volume create pixgate-ci-data >/dev/null
serve() {
  podman run -d --name pixgate-ci-serve "${run_flags[@]}" --read-only \
    --network container:pixgate-ci-sim \
    -v pixgate-ci-data:/data -v "$certs:/certs:ro" \
    -e PIXGATE_PUBLIC_URL=http://127.0.0.1:8080 \
    -e PIXGATE_WEBHOOK_ALLOW_CIDRS="$host/32" -e PIXGATE_WEBHOOK_CA_FILE=/certs/ca.pem \
    -e PIXGATE_RECONCILE_DAILY_AT=off \
    --health-interval disable \
    "$tag" >/dev/null
}
started=$(date +%s%N)
serve
wait_line pixgate-ci-serve '^pixgate: ready'
ready_ms=$((($(date +%s%N) - started) / 1000000))
echo "image: start to ready ${ready_ms} ms (a new data dir: migrations, first-start seeding)"
logs=$(podman logs pixgate-ci-serve 2>/dev/null)
token=$(sed -n 's/^pixgate: admin token.*: //p' <<<"$logs")
demo=$(sed -n 's/^pixgate: demo merchant.*: //p' <<<"$logs")
[ -n "$token" ] && [ -n "$demo" ] || fail "no admin token or demo key printed"
api="http://127.0.0.1:$merchant/api/v1"
export PIXGATE_ADMIN_URL="http://127.0.0.1:$admin" PIXGATE_ADMIN_TOKEN="$token"
json='Content-Type: application/json'
charge() { # KEY IDEMPOTENCY-KEY STORE
  curl -sS --fail-with-body "$api/payments/charge" -H "Authorization: Bearer $1" -H "$json" \
    -H "Idempotency-Key: $2" -d "{\"store\": \"$3\", \"amount\": 42.50, \"reference\": \"$2\",
      \"payer\": {\"name\": \"Ana Souza\", \"taxId\": \"529.982.247-25\"}}"
}
field() { python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][sys.argv[1]])' "$1"; }

# 1. A SHADOW charge through the published port.
shadow=$(charge "$demo" image-shadow-1 demo-store | field paymentIntentId) || fail "SHADOW charge"
echo "image: SHADOW charge $shadow"

# 2. A LIVE charge at the simulator, paid, settled, its webhooks signed and received.
printf psp-sim-secret >"$work/client-secret"
"$bin" admin providers create --code sandbox-a --name "Sandbox A (psp-sim in a container)" \
  --api-base-url https://127.0.0.1:8443/api/v2 --token-url https://127.0.0.1:8443/oauth/token \
  --client-id psp-sim-client --client-secret-file "$work/client-secret" \
  --pix-key 7d9f0335-8dcc-4054-9bf9-0dbd61d36906 --ca-pem "$certs/ca.pem" \
  --client-cert "$certs/client.pem" --client-key "$certs/client-key.pem" >/dev/null
"$bin" admin merchants create --code padaria --name "Padaria Pao Quente" >/dev/null
"$bin" admin stores create --code padaria-web --name "Padaria Pao Quente" --merchant padaria \
  --mode LIVE --live-enabled >/dev/null
"$bin" admin stores gateways padaria-web --gateway sandbox-a-d0 >/dev/null
key=$("$bin" admin api-keys create --merchant padaria --store padaria-web \
  --scope payments:create --secret-only)
"$bin" admin webhook-endpoints create --merchant padaria --name ci \
  --url "https://$host:$receiver_port/hook" --event payment.pending --event payment.succeeded \
  --secret-only >"$work/secret"
python3 .ci/webhook-receiver.py "$receiver_port" "$certs/receiver.pem" "$certs/receiver-key.pem" \
  "$work/secret" "$work/received" >"$work/receiver.out" 2>&1 &
receiver=$!
for _ in $(seq 1 50); do grep -q ready "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
answer=$(charge "$key" image-live-1 padaria-web) || fail "LIVE charge: $answer"
live=$(field paymentIntentId <<<"$answer")
txid=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["pix"]["txid"])' <<<"$answer")
curl -sS --fail-with-body --cacert "$certs/ca.pem" --cert "$certs/client.pem" --key "$certs/client-key.pem" \
  -X POST "https://127.0.0.1:$sim_port/_sim/cob/$txid/pay" -H "$json" -d '{}' >/dev/null || fail "pay at the simulator"
status=""
for _ in $(seq 1 150); do
  status=$(curl -sS "$api/payments/$live" -H "Authorization: Bearer $key" | field status)
  [ "$status" = SUCCEEDED ] && grep -q '^payment.succeeded verified' "$work/received" 2>/dev/null && break
  sleep 0.2
done
[ "$status" = SUCCEEDED ] || fail "the LIVE charge is $status, not SUCCEEDED"
grep -q '^payment.succeeded verified' "$work/received" || fail "no verified payment.succeeded: $(cat "$work/received" 2>/dev/null)"
if grep -q REFUSED "$work/received"; then fail "a delivery's signature did not verify"; fi
echo "image: LIVE charge $live paid at the simulator; webhooks received: $(tr '\n' ' ' <"$work/received")"

# 3. The HEALTHCHECK (run here by hand: podman's timer for it needs systemd, which this
#    machine's containers run without, hence --health-interval disable above), then a restart
#    that keeps the data.
podman healthcheck run pixgate-ci-serve >/dev/null || fail "podman healthcheck run: unhealthy"
podman stop -t 20 pixgate-ci-serve >/dev/null
podman rm pixgate-ci-serve >/dev/null
serve
wait_line pixgate-ci-serve '^pixgate: ready'
for id in "$shadow" "$live"; do
  k=$demo
  [ "$id" = "$live" ] && k=$key
  curl -sS --fail-with-body "$api/payments/$id" -H "Authorization: Bearer $k" >/dev/null ||
    fail "$id is gone after the restart"
done
if podman logs pixgate-ci-serve 2>/dev/null | grep -q '^pixgate: admin token'; then
  fail "the restart made a new database"
fi
echo "image: restarted on its volume; both charges are there"
