#!/usr/bin/env bash
# Compares libtessera_blas's dynamic symbols with the reference BLAS's
# (Debian's libblas.so.3, LAPACK 3.11: every Fortran routine and its CBLAS
# form). Fails when a reference symbol is missing that the list of routines
# not yet built (tests/blas/not_yet_built.txt) does not name, and when that
# list names a symbol the library now exports (so it cannot go stale).
#
#   check_exports.sh <libtessera_blas.so> <reference libblas.so.3> <not_yet_built.txt>
set -euo pipefail
lib="$1" ref="$2" pending="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
symbols() { nm -D --defined-only "$1" | awk '{print $3}' | sed 's/@.*//' | sort -u; }
symbols "$lib" >"$work/ours"
symbols "$ref" >"$work/reference"
{ grep -v -E '^(#|$)' "$pending" || true; } | sort -u >"$work/pending"
comm -23 "$work/reference" "$work/ours" >"$work/missing"
status=0
unexpected="$(comm -23 "$work/missing" "$work/pending")"
if [ -n "$unexpected" ]; then
  echo "FAIL: the reference exports these and libtessera_blas does not:" >&2
  echo "$unexpected" >&2
  status=1
fi
stale="$(comm -13 "$work/missing" "$work/pending")"
if [ -n "$stale" ]; then
  echo "FAIL: not_yet_built.txt names symbols libtessera_blas exports now (remove them):" >&2
  echo "$stale" >&2
  status=1
fi
echo "reference symbols: $(wc -l <"$work/reference"), exported by libtessera_blas: $(( $(wc -l <"$work/reference") - $(wc -l <"$work/missing") )), not yet built: $(wc -l <"$work/missing")"
exit "$status"
