#!/usr/bin/env bash
# Runs pixgate's cargo-fuzz targets, each for a bounded time.
#
#   fuzz/run.sh SECONDS [TARGET...]     (default: every target, one after the other)
#
# Builds once (`cargo fuzz build`, into fuzz/target), then runs each target's binary for
# SECONDS with its committed seeds (fuzz/corpus/TARGET, read only) and a working corpus that
# grows across runs (fuzz/target/corpus/TARGET). Exits non-zero when any target crashes,
# times out or runs out of memory; the input that did it is left in fuzz/artifacts/TARGET/
# and the command to replay it is printed. A summary (executions, exec/s, coverage, result per
# target) is printed at the end and written to fuzz/target/summary.txt.
#
# Stable Rust: libFuzzer's coverage instrumentation (-Cpasses=sancov-module and -Cllvm-args)
# is stable, AddressSanitizer (-Zsanitizer) is not, so the build is `--sanitizer none`; see
# fuzz/README.md. Settings:
#   FUZZ_SANITIZER=address   ASan anyway (the build then runs with RUSTC_BOOTSTRAP=1)
#   FUZZ_OPT_LEVEL=3         opt-level 3 instead of fuzz/Cargo.toml's 1 (slower build, more exec/s)
#   FUZZ_TARGET_DIR=DIR      another target dir than fuzz/target
#   FUZZ_BUILD_ONLY=1        build, then stop (CI builds in the background, runs later)
set -euo pipefail

usage() {
  echo "usage: fuzz/run.sh SECONDS [TARGET...]   (targets: ${ALL_TARGETS[*]})" >&2
  exit 2
}

ALL_TARGETS=(tax_id brcode webhook_signature charge_body component_loader)
[[ $# -ge 1 && $1 =~ ^[0-9]+$ && $1 -gt 0 ]] || usage
SECONDS_PER_TARGET=$1
shift
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=("${ALL_TARGETS[@]}")
for t in "${TARGETS[@]}"; do
  [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "unknown target: $t" >&2; usage; }
done

FUZZ_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$FUZZ_DIR"
SANITIZER=${FUZZ_SANITIZER:-none}
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')

# Its own target dir: the flags differ from the workspace's, and sandbox/build.rs puts the guest
# components it builds under CARGO_TARGET_DIR too. The loader target's compiled-module cache
# goes to TMPDIR, removed at the end.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$FUZZ_DIR/target}"
if [[ -n ${FUZZ_OPT_LEVEL:-} ]]; then
  export CARGO_PROFILE_RELEASE_OPT_LEVEL=$FUZZ_OPT_LEVEL
fi
export CARGO_INCREMENTAL=0
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
export TMPDIR="$CARGO_TARGET_DIR/tmp"
mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"/pixgate-fuzz-modules-*' EXIT

if ! command -v cargo-fuzz >/dev/null; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi
# The same dependency versions as the product: start from the workspace's lock file (cargo
# adds libfuzzer-sys to it) whenever that one is newer.
if [[ ! -f Cargo.lock || ../Cargo.lock -nt Cargo.lock ]]; then
  cp ../Cargo.lock Cargo.lock
fi

echo "== build (cargo fuzz build --sanitizer $SANITIZER, into $CARGO_TARGET_DIR)"
# 16 codegen units, not cargo-fuzz's 1: wasmtime and cranelift dominate the build, and one
# unit per crate serialises their optimisation on one core (see fuzz/README.md for the times).
build_flags=(--sanitizer "$SANITIZER" --codegen-units 16)
if [[ $SANITIZER != none ]]; then
  # What `cargo fuzz run` would set for an ASan binary.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0}
fi
mkdir -p "$CARGO_TARGET_DIR/logs"
build_log="$CARGO_TARGET_DIR/logs/build.log"
one=()
[[ ${#TARGETS[@]} -eq 1 ]] && one=("${TARGETS[0]}") # else `cargo fuzz build` builds them all
build_started=$(date +%s)
# -Zsanitizer is unstable: the stable toolchain takes it with RUSTC_BOOTSTRAP=1, given to
# this build command only.
bootstrap=()
[[ $SANITIZER != none ]] && bootstrap=(env RUSTC_BOOTSTRAP=1)
if ! "${bootstrap[@]}" cargo fuzz build "${build_flags[@]}" "${one[@]}" >"$build_log" 2>&1; then
  tail -n 60 "$build_log"
  echo "the fuzz build failed (log: $build_log)" >&2
  exit 1
fi
build_secs=$(($(date +%s) - build_started))
echo "built in ${build_secs}s (log: $build_log)"
[[ ${FUZZ_BUILD_ONLY:-} == 1 ]] && exit 0
BIN_DIR="$CARGO_TARGET_DIR/$TRIPLE/release"

# Per-target libFuzzer options beyond the common ones.
extra_options() {
  case $1 in
    # Room for a body with metadata near its 16 KB limit.
    charge_body) echo "-max_len=20480" ;;
    # The bundled components are the seeds; mutants of them must fit.
    component_loader) echo "-max_len=131072" ;;
    *) ;;
  esac
}

summary="$CARGO_TARGET_DIR/summary.txt"
{
  echo "fuzz/run.sh $SECONDS_PER_TARGET (sanitizer: $SANITIZER, opt-level: ${FUZZ_OPT_LEVEL:-1}, build ${build_secs}s, $(date -u +%FT%TZ))"
  printf '%-18s %8s %12s %8s %8s %8s %7s  %s\n' target seconds execs exec/s cov corpus rss_mb result
} >"$summary"
failed=()
for t in "${TARGETS[@]}"; do
  corpus="$CARGO_TARGET_DIR/corpus/$t"
  artifacts="$FUZZ_DIR/artifacts/$t"
  log="$CARGO_TARGET_DIR/logs/$t.log"
  mkdir -p "$corpus" "$artifacts"
  options=(
    -max_total_time="$SECONDS_PER_TARGET"
    -timeout=30
    -rss_limit_mb=4096
    -print_final_stats=1
    -artifact_prefix="$artifacts/"
  )
  [[ -f dict/$t.dict ]] && options+=(-dict="dict/$t.dict")
  # shellcheck disable=SC2207
  options+=($(extra_options "$t"))
  echo "== $t: ${SECONDS_PER_TARGET}s (log: $log)"
  started=$(date +%s)
  set +e
  "$BIN_DIR/$t" "${options[@]}" "$corpus" "corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  took=$(($(date +%s) - started))
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n1; }
  execs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  rss=$(stat peak_rss_mb)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  if [[ $rc -eq 0 ]]; then
    result=ok
  else
    result="FAILED (exit $rc)"
    failed+=("$t")
  fi
  printf '%-18s %8s %12s %8s %8s %8s %7s  %s\n' "$t" "$took" "${execs:--}" "${rate:--}" \
    "${cov:--}" "${corp:--}" "${rss:--}" "$result" | tee -a "$summary"
  if [[ $rc -ne 0 ]]; then
    echo "---- $t: the end of its log"
    tail -n 40 "$log"
    for a in "$artifacts"/*; do
      [[ -f $a ]] || continue
      echo "---- left: $a"
      echo "     replay: $BIN_DIR/$t $a"
    done
  fi
done

echo "== summary"
cat "$summary"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzzing found a problem in: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
