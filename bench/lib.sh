# Shared by the bench scripts (bench/run and the single-purpose bench/*.sh): build or take the
# release binary, start a release `pixgate serve` on a fresh SQLite data dir or a fresh
# PostgreSQL database (ports 0, rate limit off) and stop it again, drive it with wrk, and parse
# what the load generators print. Source it from the repository root.
#
# start_pixgate starts it (restart_pixgate again on the same data) with the settings in the array server_env (NAME=value, none by
# default) on top of those; it sets: work, pid, origin (merchant API origin), admin (admin API origin), key
# (demo API key), token (admin token), db_url (PostgreSQL only).
#
# Environment: PIXGATE_BENCH_BIN (an already built binary: no build step), PIXGATE_BENCH_PG
# (PostgreSQL admin URL), CARGO_TARGET_DIR (shared by the release build and `cargo bench`),
# PIXGATE_BENCH_FIXTURE (the candidate provider component for replay and shadow runs).
pg_admin=${PIXGATE_BENCH_PG:-postgres://postgres@127.0.0.1:5432/postgres}
target_dir=${CARGO_TARGET_DIR:-target}
bin=${PIXGATE_BENCH_BIN:-$target_dir/release/pixgate}
fixture=${PIXGATE_BENCH_FIXTURE:-$target_dir/wasm-guests/wasm32-wasip2/guest/pixgate_fixture_costliest_first.wasm}
pid=""
work=""
db_url=""
server_env=()

bench_fail() {
  echo "bench: $*" >&2
  return 1
}

# build_pixgate: the release binary, unless PIXGATE_BENCH_BIN names one.
build_pixgate() {
  if [ -z "${PIXGATE_BENCH_BIN:-}" ]; then
    cargo build --release -p pixgate --quiet || bench_fail "cargo build --release -p pixgate failed"
  fi
  [ -x "$bin" ] || bench_fail "no pixgate binary at $bin"
}

# field PATH: one field of the JSON on stdin (data.mandateId).
field() {
  python3 -c 'import json, sys
value = json.load(sys.stdin)
for part in sys.argv[1].split("."):
    value = value[part]
print(value)' "$1"
}

# sql BACKEND TEXT: runs TEXT on the instance's database; prints the rows, fields by |.
sql() {
  if [ "$1" = postgres ]; then
    psql "$db_url" -qAt -v ON_ERROR_STOP=1 -c "$2"
  else
    python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute(sys.argv[2]).fetchall()
db.commit()
for row in rows:
    print("|".join("" if v is None else str(v) for v in row))' "$work/pixgate.db" "$2"
  fi
}

# copy_row BACKEND TABLE ID COUNT [COLUMN=EXPRESSION ...]: writes COUNT copies of TABLE's row
# ID in one statement, every column as pixgate wrote it but those given. An expression reads
# the row's columns and `i`, the copy's number (1 to COUNT); `{i:N}` is `i` zero-padded to N
# digits, in either backend's SQL. Run it while pixgate is stopped.
copy_row() {
  local backend=$1 table=$2 id=$3 count=$4
  shift 4
  local columns numbers pad
  if [ "$backend" = postgres ]; then
    columns=$(sql "$backend" "select column_name from information_schema.columns
      where table_name = '$table' order by ordinal_position")
    numbers="generate_series(1, $count) as n(i)"
    pad="lpad(i::text, \\1, '0')"
  else
    columns=$(sql "$backend" "select name from pragma_table_info('$table') order by cid")
    numbers="(with recursive n(i) as (select 1 union all select i + 1 from n where i < $count) select i from n) as n"
    pad="printf('%0\\1d', i)"
  fi
  local select="" column value given
  for column in $columns; do
    value=$column
    for given in "$@"; do
      [ "${given%%=*}" = "$column" ] && value=${given#*=}
    done
    value=$(sed -E "s/\{i:([0-9]+)\}/$pad/g" <<<"$value")
    select+="${select:+, }$value"
  done
  sql "$backend" "insert into $table ($(tr '\n' ',' <<<"$columns" | sed 's/,$//'))
    select $select from $table, $numbers where id = '$id'"
}

# need_fixture: the candidate provider component exists (built by sandbox/build.rs with the binary).
need_fixture() {
  [ -f "$fixture" ] || bench_fail "no candidate fixture at $fixture (a release build of pixgate in this target dir builds it; or set PIXGATE_BENCH_FIXTURE)"
}

start_pixgate() {
  local backend=$1
  work=$(mktemp -d)
  db_url=""
  if [ "$backend" = postgres ]; then
    local name="pixgate_bench_$RANDOM$RANDOM"
    psql "$pg_admin" -qc "create database $name" >/dev/null || bench_fail "cannot create database $name at $pg_admin"
    db_url="${pg_admin%/*}/$name"
  fi
  launch_pixgate "$backend"
}

# restart_pixgate BACKEND: stops the server and starts it again on the same data dir or
# database (what start_pixgate made), with the same settings.
restart_pixgate() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  launch_pixgate "$1"
}

# launch_pixgate BACKEND: `pixgate serve` on $work (and $db_url); waits until it is ready.
launch_pixgate() {
  local backend=$1
  # Only our settings: a PIXGATE_* variable from the caller's shell would change what is measured.
  local unset=() var
  for var in $(compgen -e PIXGATE_ || true); do
    case $var in PIXGATE_BENCH_*|PIXGATE_TEST_*) ;; *) unset+=(-u "$var") ;; esac
  done
  env "${unset[@]}" PIXGATE_DATA_DIR="$work" PIXGATE_LISTEN=127.0.0.1:0 PIXGATE_ADMIN_LISTEN=127.0.0.1:0 \
    PIXGATE_RATE_LIMIT_PER_SECOND=0 PIXGATE_LOG=warn ${db_url:+PIXGATE_DATABASE_URL=$db_url} \
    ${server_env[@]+"${server_env[@]}"} "$bin" serve >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 1 300); do
    grep -q '^pixgate: ready' "$work/out" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q '^pixgate: ready' "$work/out"; then
    cat "$work/err" >&2
    bench_fail "pixgate serve ($backend) did not get ready"
    return 1
  fi
  local base
  base=$(sed -n 's/^pixgate: merchant API on //p' "$work/out")
  origin=${base%/api/v1}
  admin=$(sed -n 's/^pixgate: admin API on //p' "$work/out")
  admin=${admin%/admin/v1}
  # Printed on the first start only: a restart keeps what the first printed.
  local printed
  printed=$(sed -n 's/^pixgate: demo merchant.*: //p' "$work/out")
  key=${printed:-${key:-}}
  printed=$(sed -n 's/^pixgate: admin token.*: //p' "$work/out")
  token=${printed:-${token:-}}
}

# stop_pixgate: stops the server start_pixgate started, removes its data dir and database.
# Safe to call twice (and from an EXIT trap).
stop_pixgate() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  pid=""
  [ -z "$work" ] || rm -rf "$work"
  work=""
  if [ -n "$db_url" ]; then
    psql "$pg_admin" -qc "drop database if exists ${db_url##*/} with (force)" >/dev/null ||
      echo "bench: could not drop database ${db_url##*/}" >&2
  fi
  db_url=""
}

# peak_rss_kib: the server's peak resident set (VmHWM) so far, in KiB.
peak_rss_kib() {
  awk '$1 == "VmHWM:" {print $2}' "/proc/$pid/status"
}

# admin_call METHOD PATH [curl args...]: the admin API with the token; prints the body.
admin_call() {
  local method=$1 path=$2
  shift 2
  curl -sS --fail-with-body -X "$method" "$admin/admin/v1$path" -H "Authorization: Bearer $token" "$@"
}

# wrk_charges SECONDS [new|replay]: SHADOW charges with 32 connections; prints wrk's output.
wrk_charges() {
  PIXGATE_BENCH_KEY=$key wrk -t2 -c32 -d"$1s" --latency -s bench/charge.lua "$origin" -- "${2:-new}"
}

# wrk_health SECONDS: the admin listener's /healthz (no database, no chain) with 32 connections.
wrk_health() {
  wrk -t2 -c32 -d"$1s" --latency "$admin/healthz"
}

# wrk_stats: reads wrk's --latency output; prints "requests/s p50_ms p99_ms non2xx requests
# socket_errors", or fails when wrk reported no rate.
wrk_stats() {
  awk '
    function ms(v) {
      if (v ~ /us$/) { sub(/us$/, "", v); return v / 1000 }
      if (v ~ /ms$/) { sub(/ms$/, "", v); return v + 0 }
      if (v ~ /m$/) { sub(/m$/, "", v); return v * 60000 }
      if (v ~ /s$/) { sub(/s$/, "", v); return v * 1000 }
      return v + 0
    }
    /^Requests\/sec:/ { rate = $2 }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    /Non-2xx or 3xx responses:/ { non2xx = $NF }
    / requests in / { requests = $1 }
    /Socket errors:/ { gsub(/,/, ""); errors = $4 + $6 + $8 + $10 }
    END {
      if (rate == "") exit 1
      printf "%s %s %s %d %d %d\n", rate, p50, p99, non2xx, requests, errors
    }'
}

# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) exit 1; print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# emit KEY NAME=VALUE...: one result for bench/run's JSON, appended to $bench_parts when set
# (numbers stay numbers; a value starting with [ or { is JSON). A no-op for the single scripts.
emit() {
  [ -n "${bench_parts:-}" ] || return 0
  python3 - "$@" >>"$bench_parts" <<'EOF'
import json, sys
key, values = sys.argv[1], {}
for arg in sys.argv[2:]:
    name, _, value = arg.partition("=")
    try:
        values[name] = json.loads(value) if value[:1] in "[{" else int(value)
    except ValueError:
        try:
            values[name] = float(value)
        except ValueError:
            values[name] = value
print(json.dumps({"key": key, "values": values}))
EOF
}

# charge_runs BACKEND SECONDS: on a started server, the health route, then new and replayed
# SHADOW charges, each after a 3 s warm-up; prints one line per run, emits charges.BACKEND.*,
# then the server's peak RSS after the charge load.
charge_runs() {
  local backend=$1 seconds=$2 out rate p50 p99 non2xx requests errors
  wrk_health 2 >/dev/null
  for route in health new replay; do
    if [ "$route" = health ]; then
      out=$(wrk_health "$seconds")
    else
      wrk_charges 3 "$route" >/dev/null 2>&1   # warm-up: connections, caches, the 64 replay keys
      out=$(wrk_charges "$seconds" "$route")
    fi
    read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
      bench_fail "wrk gave no figures for $backend $route: $out"
    echo "$backend, $route (wrk -t2 -c32 -d${seconds}s): $rate requests/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, socket errors $errors, $requests requests"
    [ "$non2xx" -eq 0 ] || echo "bench: WARNING: $non2xx non-2xx responses in $backend $route" >&2
    emit "charges.$backend.$route" requests_per_s="$rate" p50_ms="$p50" p99_ms="$p99" \
      non2xx="$non2xx" requests="$requests" socket_errors="$errors" seconds="$seconds"
  done
  local rss
  rss=$(peak_rss_kib)
  echo "$backend: peak RSS (VmHWM) after the charge load: $((rss / 1024)) MiB"
  emit "charges.$backend" peak_rss_kib="$rss"
}

# upload_fixture: uploads the candidate provider component; prints its version.
upload_fixture() {
  admin_call POST /components/provider -H 'Content-Type: application/wasm' --data-binary "@$fixture" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["version"])'
}

# replay_runs BACKEND CHARGES: on a started server, records at least CHARGES SHADOW charges
# with wrk, then replays them five times with the recorded versions and five times with the
# candidate fixture; prints each run and the medians, emits replay.BACKEND.{recorded,candidate}.
replay_runs() {
  local backend=$1 charges=$2 recorded=0 n version variant components report line
  local replayed changed ms rate rates
  while [ "$recorded" -lt "$charges" ]; do
    n=$(wrk_charges 5 new | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    [ -n "$n" ] && [ "$n" -gt 0 ] || bench_fail "wrk recorded no charges on $backend"
    recorded=$((recorded + n))
  done
  version=$(upload_fixture)
  for variant in recorded candidate; do
    if [ "$variant" = recorded ]; then components='{}'; else components="{\"provider\": \"$version\"}"; fi
    rates=()
    for run in 1 2 3 4 5; do
      report=$(admin_call POST /replays -H 'Content-Type: application/json' \
        -d "{\"store\": \"demo-store\", \"components\": $components, \"limit\": $charges}")
      line=$(python3 -c '
import json, sys
r = json.loads(sys.argv[1])["data"]
print(r["replayed"], r["changed"], r["durationMs"], round(r["chargesPerSecond"]))' "$report")
      read -r replayed changed ms rate <<<"$line"
      echo "$backend $variant run $run: $replayed charges replayed ($changed changed) in $ms ms: $rate charges/s"
      rates+=("$rate")
    done
    local med
    med=$(printf '%s\n' "${rates[@]}" | median)
    echo "### $backend, $variant versions: median $med charges/s"
    emit "replay.$backend.$variant" median_charges_per_s="$med" \
      runs="[$(IFS=,; echo "${rates[*]}")]" replayed="$replayed" recorded_charges="$recorded"
  done
}

shadow_metric() {
  curl -s "$admin/metrics" | awk -v r="$1" '$1 ~ /^pixgate_shadow_comparisons_total/ && $1 ~ "result=\"" r "\"" {s+=$2} END {print s+0}'
}

# shadow_runs BACKEND SECONDS ROUNDS: on a started server, alternating rounds of new SHADOW
# charges without and with the candidate fixture attached to demo-store; prints each round
# and the medians, emits shadow.BACKEND.{without,with}.
shadow_runs() {
  local backend=$1 seconds=$2 rounds=$3 version variant out rate p50 p99 non2xx requests errors
  version=$(upload_fixture)
  wrk_charges 3 new >/dev/null   # warm-up
  local -A p99s=() rates=()
  for round in $(seq 1 "$rounds"); do
    for variant in without with; do
      if [ "$variant" = with ]; then
        admin_call PUT /stores/demo-store/components/provider/candidate \
          -H 'Content-Type: application/json' -d "{\"version\": \"$version\"}" >/dev/null
      else
        admin_call DELETE /stores/demo-store/components/provider/candidate >/dev/null 2>&1 || true
      fi
      out=$(wrk_charges "$seconds" new)
      read -r rate p50 p99 non2xx requests errors < <(wrk_stats <<<"$out") ||
        bench_fail "wrk gave no figures for $backend shadow round $round: $out"
      echo "$backend round $round, $variant candidate: ${rate} charges/s, p99 ${p99} ms, non-2xx ${non2xx}"
      p99s[$variant]+="$p99 "
      rates[$variant]+="$rate "
    done
  done
  sleep 2   # let the worker finish the queued comparisons
  local recorded skipped
  recorded=$(( $(shadow_metric same) + $(shadow_metric changed) ))
  skipped=$(shadow_metric skipped)
  for variant in without with; do
    local mrate mp99
    mrate=$(tr ' ' '\n' <<<"${rates[$variant]}" | grep . | median)
    mp99=$(tr ' ' '\n' <<<"${p99s[$variant]}" | grep . | median)
    echo "### $backend, $variant candidate: median $mrate charges/s, median p99 $mp99 ms"
    emit "shadow.$backend.$variant" median_charges_per_s="$mrate" median_p99_ms="$mp99" \
      rounds_charges_per_s="[$(tr ' ' ',' <<<"${rates[$variant]% }")]" \
      rounds_p99_ms="[$(tr ' ' ',' <<<"${p99s[$variant]% }")]"
  done
  echo "### $backend: shadow comparisons recorded $recorded, skipped $skipped"
  emit "shadow.$backend" comparisons_recorded="$recorded" comparisons_skipped="$skipped"
}

# webhook_runs BACKEND SECONDS RATE: the in-process webhook delivery benchmark (cargo bench,
# pixgate-e2e), open loop at RATE events/s for SECONDS, then a backlog of 10,000 events; prints
# its lines, emits webhooks.BACKEND.{open_loop,backlog}. PostgreSQL needs
# PIXGATE_TEST_DATABASE_URL; the database each run creates (pixgate_test_*) is dropped after it.
webhook_runs() {
  local backend=$1 seconds=$2 rate=$3 run out line before
  for run in open_loop backlog; do
    before=""
    if [ "$backend" = postgres ]; then
      before=$(psql "$PIXGATE_TEST_DATABASE_URL" -Atc "select datname from pg_database where datname like 'pixgate_test_%'")
    fi
    if [ "$run" = open_loop ]; then
      echo "== $backend: open loop at $rate events/s for $seconds s"
      out=$(cargo bench -q -p pixgate-e2e --bench webhook_delivery -- --backend "$backend" --rate "$rate" --seconds "$seconds") ||
        bench_fail "webhook_delivery ($backend, $run) failed: $out"
    else
      echo "== $backend: a backlog of 10000 events"
      out=$(cargo bench -q -p pixgate-e2e --bench webhook_delivery -- --backend "$backend" --rate 0 --events 10000) ||
        bench_fail "webhook_delivery ($backend, $run) failed: $out"
    fi
    [ "$backend" != postgres ] || drop_new_test_databases "$before"
    echo "$out"
    line=$(grep '^backend=' <<<"$out") || bench_fail "webhook_delivery printed no result line"
    line=$(python3 -c '
import re, sys
m = re.match(r"backend=\S+ rate=(\d+) deliveries=(\d+) in ([\d.]+) s: ([\d.]+) deliveries/s; "
             r"commit-to-receipt p50 (\S+) ms, p90 (\S+) ms, p99 (\S+) ms, max (\S+) ms", sys.argv[1])
names = "offered_per_s deliveries seconds deliveries_per_s p50_ms p90_ms p99_ms max_ms".split()
print(" ".join(f"{n}={v}" for n, v in zip(names, m.groups())) if m else "")' "$line")
    [ -n "$line" ] || bench_fail "cannot parse webhook_delivery's result line: $(grep '^backend=' <<<"$out")"
    # shellcheck disable=SC2086 # the NAME=VALUE words
    emit "webhooks.$backend.$run" $line
  done
}

# drop_new_test_databases BEFORE: drops the databases the webhook benchmark created and left
# (pixgate_test_*, not in BEFORE, holding its `bench` merchant and `bench-store`), so that a
# test run sharing this PostgreSQL keeps its own.
drop_new_test_databases() {
  local before=$1 name base=${PIXGATE_TEST_DATABASE_URL%/*} ours
  for name in $(psql "$PIXGATE_TEST_DATABASE_URL" -Atc "select datname from pg_database where datname like 'pixgate_test_%'"); do
    grep -qx "$name" <<<"$before" && continue
    ours=$(psql "$base/$name" -Atc "select count(*) from merchants m join stores s on s.merchant_id = m.id
      where m.code = 'bench' and s.code = 'bench-store'" 2>/dev/null || true)
    [ "$ours" = 1 ] || continue
    psql "$PIXGATE_TEST_DATABASE_URL" -qc "drop database if exists $name with (force)" >/dev/null 2>&1 ||
      echo "bench: could not drop database $name" >&2
  done
}

ensure_wrk() {
  command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; } ||
    bench_fail "wrk is missing and could not be installed"
}

# start_sim: `pixgate psp-sim` over plain http on a loopback port; sets sim (its origin).
sim_pid=""
sim_work=""
start_sim() {
  sim_work=$(mktemp -d)
  "$bin" psp-sim --listen 127.0.0.1:0 --plain-http >"$sim_work/out" 2>"$sim_work/err" &
  sim_pid=$!
  for _ in $(seq 1 100); do
    grep -q '^psp-sim: ready' "$sim_work/out" 2>/dev/null && break
    kill -0 "$sim_pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -q '^psp-sim: ready' "$sim_work/out" || { cat "$sim_work/err" >&2; bench_fail "psp-sim did not get ready"; }
  sim=$(sed -n 's/^psp-sim: listening on //p' "$sim_work/out")
}

# stop_all: stops pixgate (stop_pixgate) and the simulator start_sim started. Safe to call
# twice (and from an EXIT trap).
stop_all() {
  stop_pixgate
  if [ -n "$sim_pid" ]; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  sim_pid=""
  [ -z "$sim_work" ] || rm -rf "$sim_work"
  sim_work=""
}
