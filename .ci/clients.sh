#!/usr/bin/env bash
# The client libraries (clients/, DESIGN.md section 20):
# 1. clients/openapi.json is the document the server serves (`/api/v1/openapi.json`, keys
#    sorted), and the generated code is what clients/generate.py writes from it;
# 2. the breaking-change gate: the last commit that changed clients/openapi.json took nothing
#    away from a client (clients/openapi_gate.py), or noted it in CHANGELOG.md in that commit;
# 3. the Python client's suite (on Python 3.9, the oldest it supports, when pyenv has it) and
#    the TypeScript client's (its ESM and CommonJS builds) against the real binary, with the
#    book's examples.
# Usage: .ci/clients.sh <path to the pixgate binary>
set -euo pipefail
bin=$(realpath "${1:?usage: .ci/clients.sh <path to the pixgate binary>}")
cd "$(dirname "$0")/.."
source .ci/debian.sh
debian_install_missing openssl:openssl node:nodejs npm:npm curl:curl
work=$(mktemp -d)
source .ci/serve.sh
trap 'serve_stop; rm -rf "$work"' EXIT
fail() { echo "clients: $*" >&2; exit 1; }

# 1. The snapshot and the generated code.
serve_fresh "$bin"
curl -sS --fail "$api/openapi.json" | python3 -m json.tool --sort-keys --indent 2 >"$work/served.json"
serve_stop
if ! diff -u clients/openapi.json "$work/served.json" >"$work/openapi.diff"; then
  head -n 60 "$work/openapi.diff"
  fail "the server's /api/v1/openapi.json is not clients/openapi.json: copy it there (python3 -m json.tool --sort-keys --indent 2), run python3 clients/generate.py, and note a breaking change in CHANGELOG.md"
fi
python3 clients/generate.py --check
echo "clients: clients/openapi.json is what the server serves; the generated code is current"

# 2. The breaking-change gate.
python3 clients/openapi_gate.py --self-test
# A shallow clone lacks the commit before: deepen it when the remote allows.
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  git fetch --quiet --deepen=200 2>/dev/null || true
fi
last=$(git log -1 --format=%H -- clients/openapi.json)
[ -n "$last" ] || fail "clients/openapi.json is not committed"
if git cat-file -e "$last^:clients/openapi.json" 2>/dev/null; then
  git show "$last^:clients/openapi.json" >"$work/before.json"
  if python3 clients/openapi_gate.py "$work/before.json" clients/openapi.json; then
    echo "clients: $(git log -1 --format='%h %s' "$last" | cut -c1-80)... took nothing away from a client"
  elif git diff "$last^" "$last" -- CHANGELOG.md | grep -qi '^+.*breaking'; then
    echo "clients: the breaking change above is noted in CHANGELOG.md by ${last:0:10}"
  else
    fail "${last:0:10} changes clients/openapi.json in a way that breaks clients (above) without a line saying 'breaking' added to CHANGELOG.md in the same commit"
  fi
elif [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  # The served document still had to equal the snapshot (above); only the history is missing.
  echo "clients: WARNING: a shallow clone that cannot be deepened: the snapshot before ${last:0:10} is not here, so the breaking-change comparison did not run" >&2
else
  echo "clients: ${last:0:10} added the first clients/openapi.json: nothing to compare"
fi

# 3. The Python client's suite, on the oldest Python it supports when pyenv has one.
# (Read whole, not with grep -q: under pipefail, grep leaving early fails the pipeline.)
python=python3
oldest=""
command -v pyenv >/dev/null && oldest=$(pyenv versions --bare 2>/dev/null | grep '^3\.9\.' | tail -n 1 || true)
if [ -n "$oldest" ]; then
  export PYENV_VERSION=$oldest
  python=python
fi
# Installed from its directory into a fresh virtualenv, as a merchant installs it: the suite
# imports the installed package (pytest's own entry point puts no source directory first).
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet ./clients/python'[test]'
echo "clients: the Python client installed on $("$work/venv/bin/python" --version)"
# Its types (the package ships py.typed): the generated layer and the hand-written one agree.
"$work/venv/bin/mypy" --strict --no-incremental clients/python/pixgate
(cd clients/python && PIXGATE_BIN="$bin" "$work/venv/bin/pytest" -p no:cacheprovider tests)
unset PYENV_VERSION

# The TypeScript client: its lock file's packages, both builds, the suite.
echo "clients: the TypeScript client on Node $(node --version)"
(cd clients/typescript && npm ci --silent --no-audit --no-fund && npm run --silent build &&
  PIXGATE_BIN="$bin" npm test --silent)
# What `npm publish` would ship: both builds and their types.
(cd clients/typescript && npm pack --dry-run --json 2>/dev/null) | python3 -c '
import json, sys
files = {f["path"] for f in json.load(sys.stdin)[0]["files"]}
wanted = {"dist/esm/index.js", "dist/esm/index.d.ts", "dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/cjs/package.json"}
missing = wanted - files
sys.exit(f"clients: the npm package lacks {sorted(missing)}" if missing else 0)'
echo "clients: the npm package holds both builds and their types"
