#!/usr/bin/env bash
# The console's committed bundle (console/dist, embedded by `cargo build`) is what its
# sources and lock file build: `npm ci && npm run build` must leave console/dist unchanged.
set -euo pipefail
cd "$(dirname "$0")/../console"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
npm run build
if ! git diff --exit-code --stat -- dist || [ -n "$(git status --porcelain -- dist)" ]; then
  git status --short -- dist
  echo "console/dist is not what 'npm run build' makes: run it in console/ and commit dist" >&2
  exit 1
fi
echo "console/dist is reproducible"
