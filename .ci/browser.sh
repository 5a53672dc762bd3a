#!/usr/bin/env bash
# The console's browser tests (console/tests, @playwright/test) against a built pixgate:
# installs what a fresh machine lacks (Debian's chromium, node and npm, the locked npm
# packages), then runs the suite; each test file starts the binary itself on free loopback
# ports with a new data dir. Screenshots of the main views go to docs/src/images/console-*.png.
# Usage: .ci/browser.sh <path to the pixgate binary>
set -euo pipefail
bin=$(realpath "${1:?usage: .ci/browser.sh <path to the pixgate binary>}")
cd "$(dirname "$0")/.."

source .ci/debian.sh
debian_install_missing chromium:chromium node:nodejs npm:npm
chromium --version 2>/dev/null || true
# Playwright needs node 20 or later (the machine image's nodejs is 20).
if (( $(node -p 'process.versions.node.split(".")[0]') < 20 )); then
  echo "the browser tests need node 20 or later, found $(node --version)" >&2
  exit 1
fi

cd console
# @playwright/test drives the system chromium: it must never download a browser of its own.
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
PIXGATE_BIN="$bin" CHROMIUM="$(command -v chromium)" CI=${CI:-true} npx playwright test
