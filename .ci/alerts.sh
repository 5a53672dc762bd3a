#!/usr/bin/env bash
# The alert rules (deploy/prometheus/alerts.yaml): promtool checks them and runs their unit
# tests (alerts.test.yaml: each alert fires on the series that should wake someone and stays
# quiet on a healthy instance); every metric the rules name must be one pixgate registers (a
# rule over a misspelt series never fires) and the monitoring page lists; and a real `pixgate
# serve` is scraped after a request (OpenMetrics text, which `promtool check metrics`, a linter
# of the older text format, does not read) for the request's series. promtool is Debian's `prometheus` package.
# Usage: .ci/alerts.sh <path to the pixgate binary>
set -euo pipefail
bin=$(realpath "${1:?usage: .ci/alerts.sh <path to the pixgate binary>}")
cd "$(dirname "$0")/.."
source .ci/debian.sh
debian_install_missing promtool:prometheus
promtool --version | head -n 1

promtool check rules deploy/prometheus/alerts.yaml
(cd deploy/prometheus && promtool test rules alerts.test.yaml)

work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -rf "$work"' EXIT
PIXGATE_DATA_DIR="$work/data" PIXGATE_LISTEN=127.0.0.1:0 PIXGATE_ADMIN_LISTEN=127.0.0.1:0 \
PIXGATE_LOG=warn PIXGATE_RECONCILE_DAILY_AT=off "$bin" serve >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 1 600); do
  grep -q '^pixgate: ready' "$work/out" 2>/dev/null && break
  sleep 0.1
done
grep -q '^pixgate: ready' "$work/out" || { cat "$work/err"; echo "pixgate did not start"; exit 1; }
admin=$(sed -n 's/^pixgate: admin API on //p' "$work/out")
curl -sS --fail "${admin%/admin/v1}/healthz" >/dev/null
curl -sS --fail "${admin%/admin/v1}/metrics" >"$work/metrics"
grep -q '^pixgate_http_requests_total{' "$work/metrics" ||
  { echo "the scrape has no pixgate_http_requests_total sample" >&2; exit 1; }
# The families pixgate registers (host/src/metrics.rs, prefix `pixgate_`; a counter's samples
# add `_total`): a fresh instance exposes only the families that have samples, so the names
# come from where they are made; the monitoring page must list each of them too.
registered=$(python3 -c 'import re, sys
print("\n".join(sorted(set(re.findall(r"register\(\s*\"([a-z_]+)\"", open(sys.argv[1]).read())))))' \
  host/src/metrics.rs)
[ -n "$registered" ] || { echo "no metric registrations found in host/src/metrics.rs" >&2; exit 1; }
missing=0
for name in $registered; do
  if ! grep -q "\`pixgate_${name}\(_total\)\?\`" docs/src/operations/monitoring.md; then
    echo "docs/src/operations/monitoring.md does not list pixgate_$name" >&2
    missing=1
  fi
done
for name in $(grep -o 'pixgate_[a-z_]*' deploy/prometheus/alerts.yaml | sort -u); do
  base=${name#pixgate_}
  if ! grep -qx -e "$base" -e "${base%_total}" <<<"$registered"; then
    echo "deploy/prometheus/alerts.yaml names $name, which pixgate does not register" >&2
    missing=1
  fi
done
[ "$missing" = 0 ] || exit 1
echo "alerts: rules checked and tested; every series they name is registered and documented"
