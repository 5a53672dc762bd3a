#!/usr/bin/env bash
# The dashboard on real metrics (docs/src/images/dashboard.png): a `pixgate serve` on SQLite
# under a few minutes of traffic, scraped every 2 s by Prometheus (Debian's package), then
# deploy/grafana/render.py draws deploy/grafana/pixgate.json from Prometheus's answers.
#
# The traffic, all on loopback: SHADOW charges from wrk on the demo store, whose provider step
# has a shadow candidate and a 10% canary (the `costliest-first` fixture); LIVE charges at
# `pixgate psp-sim --plain-http`, four in five paid there, signed webhooks to an HTTPS receiver
# (a test CA). Two incidents in the middle third: the simulator answers 503 to 40 charge
# creations, and the webhook receiver is down for 30 s (the deliveries that failed then wait
# for their next attempt: the backlog stays until their backoff ends).
# Usage: deploy/grafana/screenshot.sh [seconds of traffic, default 180] [out, default the book's PNG]
# Environment: PIXGATE_BENCH_BIN (an already built binary, as bench/lib.sh), PIXGATE_BENCH_FIXTURE.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-180}
out=${2:-docs/src/images/dashboard.png}
source bench/lib.sh
source .ci/debian.sh
debian_install_missing prometheus:prometheus wrk:wrk openssl:openssl
python3 -c 'import matplotlib' 2>/dev/null || python3 -m pip install --quiet 'matplotlib==3.9.2'
build_pixgate
need_fixture

scratch=$(mktemp -d)
prometheus_pid=""
receiver_pid=""
cleanup() {
  for p in $prometheus_pid $receiver_pid; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  stop_all
  rm -rf "$scratch"
}
trap cleanup EXIT

read -r receiver_port prometheus_port < <(python3 -c '
import socket
ports = [socket.socket() for _ in range(2)]
for s in ports: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ports])')

# The webhook receiver's certificate, from a CA pixgate is told to trust.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj '/CN=dashboard CA' \
  -keyout "$scratch/ca-key.pem" -out "$scratch/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=receiver' \
  -keyout "$scratch/receiver-key.pem" -out "$scratch/receiver.csr" 2>/dev/null
openssl x509 -req -in "$scratch/receiver.csr" -CA "$scratch/ca.pem" -CAkey "$scratch/ca-key.pem" \
  -CAcreateserial -days 1 -out "$scratch/receiver.pem" \
  -extfile <(printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n') 2>/dev/null

start_sim
server_env=(PIXGATE_RECONCILE_INTERVAL=2s PIXGATE_RECONCILE_DAILY_AT=off
  PIXGATE_WEBHOOK_ALLOW_CIDRS=127.0.0.1/32 "PIXGATE_WEBHOOK_CA_FILE=$scratch/ca.pem")
start_pixgate sqlite
export PIXGATE_ADMIN_URL=$admin PIXGATE_ADMIN_TOKEN=$token

json='Content-Type: application/json'
admin_call POST /providers -H "$json" -d "{\"code\": \"sandbox-a\", \"name\": \"Sandbox A (psp-sim)\",
  \"apiBaseUrl\": \"$sim/api/v2\", \"tokenUrl\": \"$sim/oauth/token\", \"clientId\": \"psp-sim-client\",
  \"clientSecret\": \"psp-sim-secret\", \"pixKey\": \"7d9f0335-8dcc-4054-9bf9-0dbd61d36906\"}" >/dev/null
admin_call POST /merchants -H "$json" -d '{"code": "padaria", "name": "Padaria Pao Quente"}' >/dev/null
admin_call POST /stores -H "$json" -d '{"code": "padaria-web", "name": "Padaria Pao Quente", "merchant": "padaria",
  "mode": "LIVE", "liveEnabled": true}' >/dev/null
admin_call PUT /stores/padaria-web/gateways -H "$json" -d '{"gateways": ["sandbox-a-d0"]}' >/dev/null
live_key=$("$bin" admin api-keys create --merchant padaria --store padaria-web --scope payments:create --secret-only)
"$bin" admin webhook-endpoints create --merchant padaria --name dashboard \
  --url "https://127.0.0.1:$receiver_port/hook" --event payment.pending --event payment.succeeded \
  --event payment.failed --secret-only >"$scratch/secret"
candidate=$("$bin" policy upload --step provider "$fixture" --label costliest-first | grep -o '[0-9a-f]\{64\}' | head -n 1)
[ -n "$candidate" ] || bench_fail "the fixture's upload printed no version"
"$bin" policy candidate --store demo-store --step provider "$candidate" >/dev/null
"$bin" policy canary start --store demo-store --step provider "$candidate" --percent 10 >/dev/null

receiver() {
  python3 .ci/webhook-receiver.py "$receiver_port" "$scratch/receiver.pem" "$scratch/receiver-key.pem" \
    "$scratch/secret" "$scratch/received" >"$scratch/receiver.out" 2>&1 &
  receiver_pid=$!
}
receiver

cat >"$scratch/prometheus.yml" <<EOF
global: {scrape_interval: 2s, evaluation_interval: 2s}
scrape_configs:
  - job_name: pixgate
    static_configs: [{targets: ["${admin#http://}"]}]
EOF
prometheus --config.file="$scratch/prometheus.yml" --storage.tsdb.path="$scratch/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$scratch/prometheus.log" 2>&1 &
prometheus_pid=$!
prom="http://127.0.0.1:$prometheus_port"
for _ in $(seq 1 100); do curl -sf "$prom/-/ready" >/dev/null 2>&1 && break; sleep 0.2; done
curl -sf "$prom/-/ready" >/dev/null || { cat "$scratch/prometheus.log" >&2; bench_fail "Prometheus did not get ready"; }

started=$(date +%s)
echo "dashboard: $seconds s of traffic from $(date -u +%H:%M:%S)"
# SHADOW charges: one connection, so the LIVE loop below keeps a core.
PIXGATE_BENCH_KEY=$key wrk -t1 -c1 -d"${seconds}s" -s bench/charge.lua "$origin" >"$scratch/wrk.out" 2>&1 &
wrk_pid=$!
n=0 paid=0 incidents=0
while [ $(($(date +%s) - started)) -lt "$seconds" ]; do
  elapsed=$(($(date +%s) - started))
  if [ "$incidents" = 0 ] && [ "$elapsed" -ge $((seconds / 3)) ]; then
    curl -sS --fail "$sim/_sim/faults" -H "$json" -d '{"count": 40, "kind": "error", "status": 503,
      "route": "PUT /cob/{txid}"}' >/dev/null
    kill "$receiver_pid"; wait "$receiver_pid" 2>/dev/null || true
    incidents=1
    echo "dashboard: at ${elapsed} s the simulator fails 40 charge creations and the receiver is down"
  elif [ "$incidents" = 1 ] && [ "$elapsed" -ge $((seconds / 3 + 30)) ]; then
    receiver
    incidents=2
    echo "dashboard: at ${elapsed} s the receiver is back"
  fi
  n=$((n + 1))
  answer=$(curl -sS "$origin/api/v1/payments/charge" -H "Authorization: Bearer $live_key" -H "$json" \
    -H "Idempotency-Key: dashboard-$n" -d "{\"store\": \"padaria-web\", \"amount\": $((n % 90 + 10)).90,
      \"reference\": \"order-$n\", \"payer\": {\"name\": \"Ana Souza\", \"taxId\": \"529.982.247-25\"}}" || true)
  txid=$(sed -n 's/.*"txid":"\([^"]*\)".*/\1/p' <<<"$answer")
  if [ -n "$txid" ] && [ $((n % 5)) != 0 ]; then
    curl -sS --fail -X POST "$sim/_sim/cob/$txid/pay" -H "$json" -d '{}' >/dev/null && paid=$((paid + 1))
  fi
  sleep 0.1
done
wait "$wrk_pid" || true
sleep 6 # the last scrapes
ended=$(date +%s)
echo "dashboard: $n LIVE charges ($paid paid at the simulator), SHADOW: $(grep -o '[0-9]* requests in' "$scratch/wrk.out" || echo '?')," \
  "webhooks received: $(wc -l <"$scratch/received" 2>/dev/null || echo 0)"
python3 deploy/grafana/render.py --prometheus "$prom" --start "$((started - 10))" --end "$ended" \
  --step 2 --rate-interval 8s --out "$out"
