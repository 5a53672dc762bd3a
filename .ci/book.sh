#!/usr/bin/env bash
# Builds the book (docs/, mdBook) into docs/book/, installing mdBook first when it is missing,
# and fails on anything mdBook reports: a chapter of SUMMARY.md without its file stops it
# (create-missing = false), but a broken {{#include}} is only logged as an ERROR with exit
# status 0, so the log is read too. Relative links are checked by tests/tests/e2e/docs.rs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned: book.toml's keys are this version's (0.5 refuses unknown ones). Only the search
# feature: watch and serve are for writing the book, not building it, and cost compile time.
# A debug build: it compiles in about half the time, and a book this size builds in a second.
MDBOOK_VERSION=0.5.4
if ! mdbook --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
  echo "installing mdBook $MDBOOK_VERSION"
  cargo install mdbook --locked --debug --version "$MDBOOK_VERSION" --no-default-features --features search
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# No colour: the log is grepped.
if ! NO_COLOR=1 mdbook build docs 2>&1 | tee "$log"; then
  echo "book: mdbook build failed" >&2
  exit 1
fi
if grep -E '(^|[[:space:]])(ERROR|WARN)[[:space:]]' "$log" >/dev/null; then
  echo "book: mdbook reported errors or warnings (above)" >&2
  exit 1
fi
echo "book: docs/book/index.html"
