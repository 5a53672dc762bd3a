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
source .ci/serve.sh
trap 'serve_stop; rm -rf "$work"' EXIT
serve_fresh "$bin"
curl -sS --fail "$api/openapi.json" | python3 -m json.tool --sort-keys --indent 2 >"$work/served.json"
serve_stop
if git cat-file -e HEAD:clients/openapi.json 2>/dev/null; then
  git show HEAD:clients/openapi.json >"$work/before.json"
  python3 clients/openapi_gate.py "$work/before.json" "$work/served.json" ||
    echo "update: the change above breaks clients: add a line saying 'breaking' to CHANGELOG.md in this commit" >&2
fi
cp "$work/served.json" clients/openapi.json
python3 clients/generate.py
