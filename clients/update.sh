#!/usr/bin/env bash
# After a change to the merchant API: writes the document the binary serves to
# clients/openapi.json (keys sorted, as .ci/clients.sh compares it), regenerates the clients'
# typed layer, and says what the change takes away from a client (against the committed
# snapshot): anything it prints needs a line saying "breaking" in CHANGELOG.md, in the same
# commit.
# Usage: clients/update.sh <path to the pixgate binary>
set -euo pipefail
bin=$(realpath "${1:?usage: clients/update.sh <path to the pixgate binary>}")
cd "$(dirname "$0")/.."
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
grep -q '^pixgate: ready' "$work/out" || { cat "$work/err" >&2; echo "update: pixgate did not start" >&2; exit 1; }
api=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
curl -sS --fail "$api/openapi.json" | python3 -m json.tool --sort-keys --indent 2 >"$work/served.json"
if git cat-file -e HEAD:clients/openapi.json 2>/dev/null; then
  git show HEAD:clients/openapi.json >"$work/before.json"
  python3 clients/openapi_gate.py "$work/before.json" "$work/served.json" ||
    echo "update: the change above breaks clients: add a line saying 'breaking' to CHANGELOG.md in this commit" >&2
fi
cp "$work/served.json" clients/openapi.json
python3 clients/generate.py
