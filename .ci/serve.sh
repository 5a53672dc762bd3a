# Sourced by the scripts that need a throwaway `pixgate serve` (.ci/alerts.sh, .ci/clients.sh,
# clients/update.sh): serve_fresh BIN starts one on a new data dir in $work (SQLite, ports 0,
# the daily reconciliation off) and waits until it is ready; it sets pid, api (the merchant
# API's base) and admin (the admin API's base). serve_stop stops it. The caller makes $work
# and its EXIT trap calls serve_stop.
pid=""

serve_fresh() {
  PIXGATE_DATA_DIR="$work/data" PIXGATE_LISTEN=127.0.0.1:0 PIXGATE_ADMIN_LISTEN=127.0.0.1:0 \
  PIXGATE_LOG=warn PIXGATE_RECONCILE_DAILY_AT=off "$1" serve >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q '^pixgate: ready' "$work/out" 2>/dev/null && break
    sleep 0.1
  done
  grep -q '^pixgate: ready' "$work/out" || { cat "$work/err" >&2; echo "pixgate did not start" >&2; return 1; }
  api=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
  admin=$(sed -n 's/^pixgate: admin API on //p' "$work/out")
}

serve_stop() {
  [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  pid=""
}
