#!/usr/bin/env bash
# The console's first load over loopback against its budget (issue 20: at most 300 KB
# transferred compressed, interactive within 1 s): starts `pixgate serve` on free ports with
# a new data dir, loads /console/ in Debian's chromium with an empty cache RUNS times (after
# one warm-up load) and prints each figure's median. Exit status 1 when over the budget.
# Usage: bench/console.sh [path to the pixgate binary] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
default=target/release/pixgate
[ -x "$default" ] || default=target/debug/pixgate
bin=$(realpath "${1:-$default}")
runs=${2:-9}
command -v chromium >/dev/null || { echo "bench/console.sh needs Debian's chromium (apt-get install chromium)" >&2; exit 1; }
[ -d console/node_modules ] || (cd console && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
echo "pixgate: $bin; chromium: $(chromium --version 2>/dev/null); runs: $runs"
PIXGATE_BIN="$bin" CHROMIUM="$(command -v chromium)" RUNS="$runs" node console/bench/first-load.js
