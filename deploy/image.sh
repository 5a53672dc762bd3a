#!/usr/bin/env bash
# Builds pixgate's image from a clone (DESIGN.md section 19): the static binary first, on the
# host, then the image with buildah from deploy/Containerfile.
#
#   deploy/image.sh [--binary PATH] [--tag NAME]
#
# --binary: a static pixgate already built (CI gives the one its tests ran); without it,
#   `cargo build --profile image --target x86_64-unknown-linux-musl` builds one (needs
#   `rustup target add x86_64-unknown-linux-musl` and musl-gcc, Debian's musl-tools, for
#   the C in ring, SQLite and mimalloc).
# --tag: the image's name (default localhost/pixgate:latest).
# Needs buildah (Debian's package) and Debian's CA bundle (ca-certificates).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
tag="localhost/pixgate:latest"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    *) echo "usage: deploy/image.sh [--binary PATH] [--tag NAME]" >&2; exit 2 ;;
  esac
done
if [ -z "$binary" ]; then
  cargo build --locked --profile image --target x86_64-unknown-linux-musl -p pixgate --bin pixgate
  binary=target/x86_64-unknown-linux-musl/image/pixgate
fi
# Static, or it cannot run on an empty base.
if ! file -b "$binary" | grep -q 'static'; then
  echo "deploy/image.sh: $binary is not statically linked: $(file -b "$binary")" >&2
  exit 1
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
strip -o "$context/pixgate" "$binary"
cp /etc/ssl/certs/ca-certificates.crt "$context/"
mkdir "$context/data"
buildah bud --quiet --format docker --layers=false -f deploy/Containerfile -t "$tag" "$context" >/dev/null
echo "deploy/image.sh: built $tag ($(podman image inspect "$tag" --format '{{.Size}}') bytes)"
