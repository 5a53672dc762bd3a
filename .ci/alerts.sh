#!/usr/bin/env bash
# The alert rules (deploy/prometheus/alerts.yaml): promtool checks them and runs their unit
# tests (alerts.test.yaml: each alert fires on the series that should wake someone and stays
# quiet on a healthy instance); every metric the rules name must be one pixgate registers (a
# rule over a misspelt series never fires) and the monitoring page lists; and a real `pixgate
# serve` is scraped after a request (OpenMetrics text, which `promtool check metrics`, a linter
# of the older text format, does not read) for the request's series and the series at zero.
# The dashboard's queries are checked the same way. promtool is Debian's `prometheus` package.
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
source .ci/serve.sh
trap 'serve_stop; rm -rf "$work"' EXIT
serve_fresh "$bin"
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
for file in deploy/prometheus/alerts.yaml deploy/grafana/pixgate.json; do
  for name in $(grep -o 'pixgate_[a-z_]*' "$file" | sort -u); do
    base=${name#pixgate_}
    if ! grep -qx -e "$base" -e "${base%_total}" -e "${base%_bucket}" -e "${base%_sum}" \
      -e "${base%_count}" <<<"$registered"; then
      echo "$file names $name, which pixgate does not register" >&2
      missing=1
    fi
  done
done
# The series the rules read with rate() or increase() and that have no per-store or
# per-provider label exist at zero from the start (a series born at one hides its first event).
for series in 'pixgate_webhook_attempts_total{result="failed"}' \
  'pixgate_shadow_comparisons_total{step="all",result="skipped"}' \
  pixgate_webhook_pending pixgate_webhook_due_lag_seconds; do
  if ! grep -qF "$series 0" "$work/metrics"; then
    echo "a fresh instance does not expose $series at zero" >&2
    missing=1
  fi
done
[ "$missing" = 0 ] || exit 1

# The dashboard (deploy/grafana/pixgate.json): every panel's query is PromQL that Prometheus
# parses, checked by promtool as recording rules with Grafana's variables given values.
python3 - deploy/grafana/pixgate.json "$work/dashboard-rules.yaml" <<'PY'
import json, sys
dashboard = json.load(open(sys.argv[1]))
assert dashboard["uid"] == "pixgate" and dashboard["panels"], "not the pixgate dashboard"
rules = []
for panel in dashboard["panels"]:
    if panel["type"] == "row":
        continue
    assert panel["targets"], f"panel {panel['title']!r} has no query"
    for target in panel["targets"]:
        expr = target["expr"].replace("$__rate_interval", "5m").replace("$job", "pixgate")
        assert "$" not in expr, f"an unknown variable in {expr}"
        rules.append({"record": f"dashboard:panel_{panel['id']}_{target['refId']}", "expr": expr})
with open(sys.argv[2], "w") as out:
    json.dump({"groups": [{"name": "dashboard", "rules": rules}]}, out)
print(f"dashboard: {len(rules)} queries in {sum(p['type'] != 'row' for p in dashboard['panels'])} panels")
PY
promtool check rules "$work/dashboard-rules.yaml"
echo "alerts: rules checked and tested; the dashboard's queries parse; every series they name is registered and documented"
