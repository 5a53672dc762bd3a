# Shared by the harness scripts: runs one harness (a module of tests/tests/e2e/, harness_*.rs) with
# the size given in HARNESS_* variables, against SQLite and PostgreSQL, without nextest's
# per-test timeout, and prints the figures each run reports (lines starting `harness-`).
# Sourced, not run: `run_harness <module> <backends: both|postgres>` after option parsing.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage_common() {
  cat <<USAGE
  --backend sqlite|postgres|both   which backends to run (default: both)
  --log DIR                        keep the full output in DIR (default: a new temporary dir)
  --no-build                       run the test binary and pixgate already built in target/debug
                                   (the newest), without cargo (another build may hold its lock)
  -h, --help                       this text
PostgreSQL: PIXGATE_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
a database where the harness may create databases (one fresh database per run).
USAGE
}

BACKEND=both
LOG_DIR=""
BUILD=1
parse_common() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --backend) BACKEND="$2"; shift 2 ;;
      --log) LOG_DIR="$2"; shift 2 ;;
      --no-build) BUILD=0; shift ;;
      -h|--help) usage; exit 0 ;;
      *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
  done
  case "$BACKEND" in sqlite|postgres|both) ;; *) echo "--backend: sqlite, postgres or both" >&2; exit 2 ;; esac
}

# run_harness TEST SUPPORTED: SUPPORTED is "both" or "postgres" (the multi-instance harness).
run_harness() {
  local test="$1" supported="$2"
  local filter=()
  export PIXGATE_TEST_DATABASE_URL=${PIXGATE_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
  if [ "$BACKEND" != sqlite ]; then
    if command -v pg_isready >/dev/null &&
      ! pg_isready -d "$PIXGATE_TEST_DATABASE_URL" -q; then
      echo "PostgreSQL at $PIXGATE_TEST_DATABASE_URL is not reachable (or run with --backend sqlite)" >&2
      exit 1
    fi
  fi
  case "$BACKEND" in
    sqlite)
      if [ "$supported" = postgres ]; then
        echo "this harness runs on PostgreSQL only" >&2; exit 2
      fi
      filter=(--skip on_postgresql) ;;
    postgres) [ "$supported" = postgres ] || filter=(--skip on_sqlite) ;;
    both) ;;
  esac
  # The harness's module of the one end-to-end binary (libtest's filters match a prefix).
  filter=("$test::" "${filter[@]}")
  LOG_DIR=${LOG_DIR:-$(mktemp -d)}
  mkdir -p "$LOG_DIR"
  local log="$LOG_DIR/$test.log"
  local runner
  if [ "$BUILD" = 1 ]; then
    echo "== building pixgate and the $test harness"
    cargo build --quiet -p pixgate
    cargo test --quiet -p pixgate-e2e --test e2e --no-run
    runner=(cargo test --quiet -p pixgate-e2e --test e2e --)
  else
    local bin
    # The newest test binary itself (cargo also leaves `e2e-<hash>.d` and, after an
    # interrupted build, object files there).
    bin=$(ls -t target/debug/deps | grep -E '^e2e-[0-9a-f]{16}$' | head -n1)
    bin=target/debug/deps/$bin
    [ -x "$bin" ] && [ -x target/debug/pixgate ] || {
      echo "--no-build: build first (cargo test -p pixgate-e2e --test e2e --no-run)" >&2; exit 1; }
    runner=("$bin")
    # A copy: a build finishing meanwhile must not swap the binary between two restarts.
    cp target/debug/pixgate "$LOG_DIR/pixgate"
    export PIXGATE_BIN="$LOG_DIR/pixgate"
  fi
  echo "== $test ($(env | grep '^HARNESS_' | sort | tr '\n' ' ')backend $BACKEND); full output in $log"
  local started=$SECONDS status=0
  # One test at a time, so the figures are not shared with another run; no nextest timeout.
  "${runner[@]}" --nocapture --test-threads=1 "${filter[@]}" > "$log" 2>&1 || status=$?
  echo "== results ($((SECONDS - started)) s)"
  grep -oE '(harness-[a-z-]+ .*|PostgreSQL only.*)' "$log" || true
  if [ "$status" -ne 0 ]; then
    echo "== FAILED (exit $status); the failures:" >&2
    grep -E -A25 "^(---- |thread '.*' panicked)" "$log" | head -120 >&2 || tail -60 "$log" >&2
    exit "$status"
  fi
  grep -E '^test result' "$log" || true
}
