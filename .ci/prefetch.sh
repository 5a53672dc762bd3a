#!/usr/bin/env bash
# Downloads and installs, on a fresh machine, what CI's later steps need from the package
# registries: Debian's chromium, node and npm (the browser tests), schemathesis and pypix-api
# (the API fuzzing and the API Pix conformance), and the console's and the TypeScript client's
# locked npm packages.
# .ci/run starts it in the background while the Rust build keeps the cores busy: this is
# network and disk work. Each later step still checks for what it needs and installs it
# itself when this did not run, so every script stays runnable on its own.
set -euo pipefail
cd "$(dirname "$0")/.."

source .ci/debian.sh
debian_install_missing chromium:chromium node:nodejs npm:npm promtool:prometheus

# The versions .ci/schemathesis.sh and .ci/psp-sim-conformance.sh pin.
schemathesis --version 2>/dev/null | grep -q ' 4.32.5$' ||
  python3 -m pip install --quiet 'schemathesis==4.32.5'
python3 -c 'import importlib.metadata as m; assert m.version("pypix-api") == "0.14.0"' 2>/dev/null ||
  python3 -m pip install --quiet 'pypix-api==0.14.0'

# Fills npm's cache: .ci/console-bundle.sh and .ci/browser.sh run `npm ci` again from it.
(cd console && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
# And for .ci/clients.sh: the TypeScript client's locked dev packages (tsc, Node's types).
(cd clients/typescript && npm ci --no-audit --no-fund)
echo "prefetch: done"
