#!/usr/bin/env bash
# Builds the JavaScript and Python authoring kits' components from source into OUT-DIR
# (default target/samples), installing the pinned toolchains itself on a fresh machine:
# componentize-js and jco from policies/template-js/package-lock.json (npm ci), componentize-py
# from policies/template-python/requirements.txt (pip, hash-checked).
#
#   .ci/kits.sh [OUT-DIR]
#
# It writes:
#   provider-js.wasm, provider-python.wasm   the samples (policies/samples-js, samples-python):
#                                            the bundled provider step's logic, reading the
#                                            clock and randomness; tests/tests/e2e/languages.rs
#                                            runs them end to end
#   provider-js-http.wasm                    the JavaScript sample built with componentize-js's
#                                            http features on, as an author might by mistake:
#                                            it imports wasi:http and the upload must refuse it
#   template-<step>-js.wasm, template-<step>-python.wasm
#                                            what `pixgate policy new --lang js|python` gives an
#                                            author for each step, built as its README says
# and type-checks the JavaScript sources against the checked-in WIT declarations.
#
# They are built with --no-seal: CI runs this beside the Rust build, before there is a pixgate
# binary to run `pixgate policy seal` with. tests/tests/e2e/languages.rs seals them with the binary
# under test, and checks that the build commands seal when pixgate is there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "${1:-$root/target/samples}"
out=$(cd "${1:-$root/target/samples}" && pwd)
started=$(date +%s)

for tool in node npm python3; do
  command -v "$tool" >/dev/null || { echo "kits: $tool is required" >&2; exit 1; }
done

echo "== JavaScript kit (componentize-js)"
js="$root/policies/template-js"
cd "$js"
# npm ci wipes and reinstalls node_modules; skip it when the tree is the lock file's already.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.pixgate-lock-sha256 2>/dev/null)" != "$lock_sum" ]; then
  npm ci --no-audit --no-fund
  echo "$lock_sum" > node_modules/.pixgate-lock-sha256
fi
npx --no-install tsc -p .
npx --no-install tsc -p ../samples-js
node build.mjs --no-seal --step provider --source ../samples-js/provider.js --out "$out/provider-js.wasm"
npx --no-install componentize-js ../samples-js/provider.js --wit wit --world-name provider-step \
  -o "$out/provider-js-http.wasm"
for step in policy provider economics; do
  node build.mjs --no-seal --step "$step" --out "$out/template-$step-js.wasm"
done
js_done=$(date +%s)

echo "== Python kit (componentize-py)"
py="$root/policies/template-python"
cd "$py"
pin=$(sed -n 's/^componentize-py==\([^ ]*\).*/\1/p' requirements.txt)
if ! python3 -m pip show componentize-py 2>/dev/null | grep -qx "Version: $pin"; then
  # Only where the interpreter is the system's (PEP 668) does pip need leave to install.
  managed=$(python3 -c 'import os, sysconfig; print(os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))')
  extra=()
  [ "$managed" = True ] && extra=(--break-system-packages)
  python3 -m pip install --disable-pip-version-check --require-hashes -r requirements.txt "${extra[@]}"
fi
python3 build.py --no-seal --step provider --source ../samples-python/provider.py --out "$out/provider-python.wasm"
for step in policy provider economics; do
  python3 build.py --no-seal --step "$step" --out "$out/template-$step-python.wasm"
done
py_done=$(date +%s)

echo "== built into $out"
ls -l "$out"/*.wasm
echo "kits: JavaScript $((js_done - started)) s, Python $((py_done - js_done)) s, total $((py_done - started)) s"
