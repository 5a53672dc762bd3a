#!/usr/bin/env bash
# deploy/compose.yaml as an operator runs it, with podman-compose (PyPI) and
# .ci/compose.override.yaml (the PostgreSQL image made here, this machine's ulimits):
#
#   .ci/compose.sh PATH/TO/STATIC/pixgate
#
# - the migrate service applies the migrations and exits 0, and the two instances start after
#   it with PIXGATE_MIGRATE=off;
# - a SHADOW charge through instance A's published port reads back through instance B's (one
#   database), with the demo key instance A's first start printed;
# - the simulator's provider is registered from its generated certificates (mTLS by the name
#   `psp-sim`) and a LIVE charge is created at it through instance B;
# - `down` and `up` again keep every charge.
# Every container runs with `--runtime runc` (podman's global flag) and the override's ulimits;
# no pod (`--in-pod false`: this machine cannot start a pod's infra container); `up --no-deps`,
# because podman 4.3 refuses to start a container whose `--requires` chain holds an exited one
# ("generating dependency graph ... not found in input list"), so podman-compose starts them
# all at once here: an instance that comes up before `migrate` finished stops with "run
# `pixgate migrate` first" and its restart policy starts it again (the restarts are printed).
# The ports are published on the host's loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:?usage: .ci/compose.sh <path to a static pixgate>}")
command -v podman-compose >/dev/null || python3 -m pip install --quiet podman-compose==1.6.0
command -v debootstrap >/dev/null ||
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }

export PIXGATE_IMAGE=localhost/pixgate:compose
deploy/image.sh --binary "$bin" --tag "$PIXGATE_IMAGE"
podman image exists localhost/postgres:ci || .ci/postgres-image.sh localhost/postgres:ci

export POSTGRES_PASSWORD=compose-ci-password
export PIXGATE_MASTER_KEY=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=
export PIXGATE_ADMIN_TOKEN=pxa_compose_ci_admin_token_0123456789abcdef
compose=(podman-compose --podman-args="--runtime runc" --in-pod false
  -f deploy/compose.yaml -f .ci/compose.override.yaml)
work=$(mktemp -d)
cleanup() {
  "${compose[@]}" down -v -t 2 >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"${compose[@]}" down -v -t 2 >/dev/null 2>&1 || true
fail() {
  echo "compose check: $*" >&2
  "${compose[@]}" ps >&2 || true
  for c in pixgate_migrate_1 pixgate_pixgate-a_1 pixgate_pixgate-b_1 pixgate_psp-sim_1 pixgate_postgres_1; do
    echo "--- podman logs $c" >&2
    podman logs "$c" >&2 2>&1 | tail -n 40 || true
  done
  exit 1
}

started=$(date +%s%N)
"${compose[@]}" up -d --no-deps >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; fail "up failed"; }
ready() { # PORT: the admin listener's /readyz
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}
ready 8081 || fail "instance A not ready"
ready 8091 || fail "instance B not ready"
echo "compose: both instances ready $(( ($(date +%s%N) - started) / 1000000 )) ms after up" \
  "(restarts before migrate finished: A $(podman inspect pixgate_pixgate-a_1 --format '{{.RestartCount}}')," \
  "B $(podman inspect pixgate_pixgate-b_1 --format '{{.RestartCount}}'))"
[ "$(podman inspect pixgate_migrate_1 --format '{{.State.ExitCode}}')" = 0 ] ||
  fail "the migrate service did not exit 0"
podman logs pixgate_migrate_1 2>&1 | grep -q "migration(s) applied" || fail "migrate applied nothing"
for instance in pixgate_pixgate-a_1 pixgate_pixgate-b_1; do
  podman inspect "$instance" --format '{{range .Config.Env}}{{println .}}{{end}}' |
    grep -qx 'PIXGATE_MIGRATE=off' || fail "$instance migrates by itself"
done

# The demo key: printed once, by whichever instance bootstrapped the database.
demo_key=$( (podman logs pixgate_pixgate-a_1; podman logs pixgate_pixgate-b_1) 2>/dev/null |
  sed -n 's/.*demo API key (shown once): //p' | head -n 1)
[ -n "$demo_key" ] || fail "no demo key printed"
charge() { # PORT KEY IDEMPOTENCY_KEY STORE
  curl -sS --fail-with-body -X POST "http://127.0.0.1:$1/api/v1/payments/charge" \
    -H "Authorization: Bearer $2" -H "Idempotency-Key: $3" -H 'Content-Type: application/json' \
    -d "{\"store\": \"$4\", \"amount\": 42.50, \"reference\": \"compose-$3\",
      \"payer\": {\"name\": \"Ana Souza\", \"taxId\": \"529.982.247-25\"}}"
}
intent=$(charge 8080 "$demo_key" shadow-1 demo-store | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["paymentIntentId"])')
curl -sS --fail -H "Authorization: Bearer $demo_key" "http://127.0.0.1:8090/api/v1/payments/$intent" |
  grep -q "\"$intent\"" || fail "instance B does not read instance A's charge"
echo "compose: a SHADOW charge through A ($intent) read back through B"

# The simulator as a LIVE provider, registered with the certificates it generated (instance
# A mounts its volume read-only), then a LIVE charge created at it through instance B.
admin=(podman exec -i -e PIXGATE_ADMIN_URL=http://127.0.0.1:8081/admin/v1 pixgate_pixgate-a_1
  pixgate admin)
"${admin[@]}" providers create --code sandbox-a --name "psp-sim (compose)" \
  --api-base-url https://psp-sim:8443/api/v2 --token-url https://psp-sim:8443/oauth/token \
  --client-id psp-sim-client --client-secret-file /dev/stdin \
  --pix-key 7d9f0335-8dcc-4054-9bf9-0dbd61d36906 --ca-pem /psp-sim/certs/ca.pem \
  --client-cert /psp-sim/certs/client.pem --client-key /psp-sim/certs/client-key.pem \
  >"$work/provider.out" 2>&1 <<<"psp-sim-secret" || { cat "$work/provider.out" >&2; fail "provider not registered"; }
"${admin[@]}" merchants create --code padaria --name "Padaria Pao Quente" >/dev/null </dev/null
"${admin[@]}" stores create --code padaria-web --name "Padaria Pao Quente" --merchant padaria \
  --mode LIVE --live-enabled >/dev/null </dev/null
"${admin[@]}" stores gateways padaria-web --gateway sandbox-a-d0 >/dev/null </dev/null
key=$("${admin[@]}" api-keys create --merchant padaria --store padaria-web \
  --scope payments:create --scope payments:read --secret-only </dev/null)
answer=$(charge 8090 "$key" live-1 padaria-web) || fail "LIVE charge: $answer"
python3 -c 'import json, sys; d = json.load(sys.stdin)["data"]
assert d["status"] == "PENDING" and d["pix"]["txid"], d' <<<"$answer" ||
  fail "the LIVE charge was not created at the simulator: $answer"
echo "compose: a LIVE charge through B created at the simulator (mTLS to psp-sim:8443)"

# down and up: the volumes keep the database.
"${compose[@]}" down -t 5 >"$work/down.log" 2>&1 || { cat "$work/down.log" >&2; fail "down failed"; }
"${compose[@]}" up -d --no-deps >"$work/up2.log" 2>&1 || { cat "$work/up2.log" >&2; fail "second up failed"; }
ready 8091 || fail "instance B not ready after down and up"
curl -sS --fail -H "Authorization: Bearer $demo_key" "http://127.0.0.1:8090/api/v1/payments/$intent" |
  grep -q "\"$intent\"" || fail "the charge did not survive down and up"
echo "compose: down and up kept the charge"
