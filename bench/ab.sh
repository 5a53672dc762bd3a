#!/usr/bin/env bash
# A/B of two server settings in one run: new SHADOW charges (wrk -t2 -c32, 3 s warm-up), the
# two settings alternating round after round on each backend, each on a fresh data dir or
# database; prints requests/s, p50, p99, non-2xx and peak RSS per run. On this noisy shared
# machine, compare the two columns of one run, not figures across runs.
# Usage: bench/ab.sh "SETTINGS A" "SETTINGS B" [seconds, default 10] [rounds, default 2]
#                    [backends, default "sqlite postgres"]
# e.g.   bench/ab.sh PIXGATE_COMMIT_MAX_BATCH=1 PIXGATE_COMMIT_MAX_BATCH=256
# SETTINGS: space-separated NAME=value pairs given to `pixgate serve` ("" for the defaults);
# the word BIN=path runs that side with another binary (two builds compared in one run, e.g.
# bench/ab.sh BIN=/tmp/pixgate-before BIN=/tmp/pixgate-after).
# PIXGATE_BENCH_BIN names an already built binary (the build step is then skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
a=$1 b=$2 duration=${3:-10} rounds=${4:-2} backends=${5:-sqlite postgres}
source bench/lib.sh
ensure_wrk
build_pixgate
default_bin=$bin
trap stop_pixgate EXIT

printf '| backend | round | settings | requests/s | p50 ms | p99 ms | non-2xx | peak RSS MB |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for backend in $backends; do
  for round in $(seq 1 "$rounds"); do
    for settings in "$a" "$b"; do
      read -r -a words <<<"$settings"
      server_env=() bin=$default_bin
      for word in ${words[@]+"${words[@]}"}; do
        case $word in BIN=*) bin=${word#BIN=} ;; *) server_env+=("$word") ;; esac
      done
      start_pixgate "$backend"
      wrk_charges 3 new >/dev/null
      read -r rate p50 p99 non2xx _ _ < <(wrk_charges "$duration" new | wrk_stats)
      rss=$(( $(peak_rss_kib) / 1024 ))
      stop_pixgate
      printf '| %s | %s | %s | %.0f | %.1f | %.1f | %s | %s |\n' \
        "$backend" "$round" "${settings:-defaults}" "$rate" "$p50" "$p99" "$non2xx" "$rss"
    done
  done
done
