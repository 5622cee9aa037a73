#!/usr/bin/env bash
# Runs a real client's own test suite with tessera as the system BLAS:
# NumPy's (numpy.linalg and the dot/matmul tests of numpy.core) or SciPy's
# (scipy.linalg), Debian's builds under Debian's pytest, with the dynamic
# linker finding tessera's libblas.so.3 first and Debian's reference LAPACK
# (liblapack3, which calls the BLAS through libblas.so.3) next: the same
# binding update-alternatives would make, without changing the machine.
# Fails unless
#   - the BLAS routines NumPy and SciPy call were bound to tessera's
#     library (LD_DEBUG=bindings, on a short run of both),
#   - the suite ran and reported no failure and no error.
# With --compare, runs the suite also on the reference BLAS and on
# OpenBLAS (its BLAS and LAPACK) and prints the three summaries.
#
#   run_clients.sh <folder of tessera's libblas.so.3> <numpy|scipy> [--compare]
#
# Exits 77 (CTest's skip) when Debian's python3-numpy, python3-scipy or
# python3-pytest is missing, unless TESSERA_REQUIRE_BLAS_CLIENTS=1
# (./dev test installs them and sets it).
set -euo pipefail
tessera_dir="$1" suite="$2" compare="${3:-}"
python=/usr/bin/python3
triplet="$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
libdir="/usr/lib/$triplet"
lapack_dir="$libdir/lapack"

if ! "$python" -c 'import numpy, scipy, pytest, hypothesis' 2>/dev/null || [ ! -e "$lapack_dir/liblapack.so.3" ]; then
  msg="Debian's python3-numpy, python3-scipy, python3-pytest, python3-hypothesis or liblapack3 is missing (./dev deps installs them)"
  if [ "${TESSERA_REQUIRE_BLAS_CLIENTS:-0}" = 1 ]; then
    echo "FAIL: $msg" >&2
    exit 1
  fi
  echo "SKIP: $msg"
  exit 77
fi

case "$suite" in
  numpy) args=(--pyargs numpy.linalg numpy.core.tests.test_multiarray -k "dot or matmul or linalg") ;;
  scipy) args=(--pyargs scipy.linalg) ;;
  *) echo "unknown suite $suite (numpy or scipy)" >&2; exit 2 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONDONTWRITEBYTECODE=1

# 1. The binding: a few calls through NumPy's CBLAS and SciPy's Fortran
# BLAS, and LAPACK's calls into the BLAS.
LD_LIBRARY_PATH="$tessera_dir:$lapack_dir" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$work/bindings" \
  "$python" -c '
import numpy as np, scipy.linalg as sl
a = np.arange(1.0, 401.0).reshape(20, 20) + 20 * np.eye(20)
b = a @ a.T
sl.cho_factor(b)
(a + 1j * a) @ (a - 1j * a)
sl.blas.dgemm(1.0, a, a)
' >/dev/null
status=0
for symbol in cblas_dgemm cblas_zgemm dgemm_ dsyrk_ dtrsm_; do
  bound="$(grep -h -E "normal symbol \`$symbol'" "$work"/bindings.* | grep -v "binding file $tessera_dir" || true)"
  if [ -z "$bound" ]; then
    echo "FAIL: nothing called $symbol" >&2
    status=1
  elif grep -q -v -E "to $tessera_dir/libblas\.so\.3" <<<"$bound"; then
    echo "FAIL: $symbol was not bound to $tessera_dir/libblas.so.3:" >&2
    grep -v -E "to $tessera_dir/libblas\.so\.3" <<<"$bound" | head -3 >&2
    status=1
  else
    echo "$symbol bound to $tessera_dir/libblas.so.3"
  fi
done
rm -f "$work"/bindings.*

# 2. The suite.
run_suite() {
  local path="$1"
  LD_LIBRARY_PATH="$path" "$python" -m pytest -q -p no:cacheprovider "${args[@]}" >"$work/out" 2>&1 || true
  tail -1 "$work/out"
}
summary="$(run_suite "$tessera_dir:$lapack_dir")"
echo "$suite on tessera:          $summary"
if ! grep -q -E '[0-9]+ passed' <<<"$summary" || grep -q -E '(^| )[0-9]+ (failed|errors?)( |,|$)' <<<"$summary"; then
  echo "FAIL: the $suite suite did not pass on tessera:" >&2
  grep -E '^(FAILED|ERROR)' "$work/out" | head -20 >&2 || tail -30 "$work/out" >&2
  status=1
fi
if [ "$compare" = --compare ]; then
  echo "$suite on the reference BLAS: $(run_suite "$libdir/blas:$lapack_dir")"
  echo "$suite on OpenBLAS:          $(run_suite "$libdir/openblas-pthread")"
fi
exit "$status"
