#!/usr/bin/env bash
# Runs one of the reference BLAS test programs (Debian's libblas-test:
# xblat1{s,d,c,z}, xblat2*, xblat3* and the CBLAS testers x{s,d,c,z}cblat1/2/3,
# with their input files) with
# libtessera_blas in front of the reference library (LD_PRELOAD), and fails
# unless
#   - each listed routine passed the tester's computational tests and, for
#     levels 2 and 3, its error-exit tests (XERBLA called with the routine's
#     name and the right parameter number, by the tester's own XERBLA),
#   - the tester reported no failure at all,
#   - the dynamic linker bound each listed routine to libtessera_blas
#     (LD_DEBUG=bindings): a routine that fell through to the reference
#     library fails the test instead of passing by proxy.
# Levels 2 and 3 test only the listed routines (the others are set to F in
# a copy of the input file), over more sizes than the stock input (up to the
# testers' limit, 65) so that tessera's blocked paths run too. The
# routines tessera does not provide come from the reference library next
# to the testers (LD_LIBRARY_PATH), whatever libblas.so.3 the system's
# alternatives name.
#
#   run_reference_tester.sh <libtessera_blas.so> <testers folder> <s|d|c|z> <level> ROUTINE...
#   level: 1, 2, 3 (Fortran BLAS) or c1, c2, c3 (CBLAS; routines cblas_sgemm ...)
set -euo pipefail
lib="$1" testers="$2" prec="$3" level="$4"
shift 4
routines=("$@")
cblas=0
if [ "${level#c}" != "$level" ]; then
  cblas=1
  level="${level#c}"
  tester="$testers/x${prec}cblat${level}"
  stock_input="$testers/${prec}in${level}"
else
  tester="$testers/xblat${level}${prec}"
  stock_input="$testers/${prec}blat${level}.in"
fi
if [ ! -x "$tester" ]; then
  echo "FAIL: $tester not found: install Debian's libblas-test (./dev deps does)" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

input=/dev/null
if [ "$level" != 1 ]; then
  input="$work/input"
  want=" ${routines[*]} "
  # Sizes: the stock 0 1 2 3 5 9, plus 16 33 65 (level 3; the testers' NMAX
  # is 65). Routine lines: T only for the listed routines.
  # Fixed columns: the routine name is 6 wide (12 for the CBLAS names).
  width=6
  [ "$cblas" = 1 ] && width=12
  awk -v want="$want" -v level="$level" -v width="$width" '
    /NUMBER OF VALUES OF N$/ && level == 3 { print "9                 NUMBER OF VALUES OF N"; next }
    /VALUES OF N$/ && level == 3 { print "0 1 2 3 5 9 16 33 65       VALUES OF N"; next }
    /PUT F FOR NO TEST/ {
      name = $1
      flag = index(want, " " name " ") > 0 ? "T" : "F"
      printf "%-*s %s PUT F FOR NO TEST. SAME COLUMNS.\n", width, name, flag
      next
    }
    { print }' "$stock_input" >"$input"
fi

LD_LIBRARY_PATH="$testers" LD_PRELOAD="$lib" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$work/bindings" \
  "$tester" <"$input" >"$work/stdout" 2>&1 || {
  echo "FAIL: $tester exited with $?" >&2
  cat "$work/stdout" >&2
  exit 1
}
summary="$work/stdout"
if [ "$level" != 1 ] && [ "$cblas" = 0 ]; then summary="$work/${prec}blat${level}.out"; fi
cat "$summary"

status=0
if grep -E -q "FAIL|FATAL|NOT DETECTED|\*\*\*" "$summary"; then
  echo "FAIL: the tester reported failures" >&2
  status=1
fi
for r in "${routines[@]}"; do
  if [ "$level" = 1 ]; then
    # "Test of subprogram number  1             SDOT" then "----- PASS -----"
    # (the CBLAS tester prints the name upper case).
    upper="$(printf '%s' "$r" | tr 'a-z' 'A-Z')"
    verdict="$(grep -A1 -E "Test of subprogram number +[0-9]+ +$upper *\$" "$summary" || true)"
    if [[ "$verdict" != *PASS* ]]; then
      echo "FAIL: $r did not pass" >&2
      status=1
    fi
  else
    # The CBLAS testers run each routine column-major and row-major: they
    # name the layout, but the complex level-2 ones print one line twice.
    # The complex level-2 tester prints ?gerc's error-exit line under
    # ?geru's name (c_cblat2.f), so a ?gerc is looked up under that name; a
    # failed error exit still prints its own failure, which the check above
    # catches.
    errors_name="$r"
    checks=("THE COMPUTATIONAL TESTS")
    if [ "$cblas" = 1 ]; then
      case "$prec$level" in
        c2|z2) checks=("THE COMPUTATIONAL TESTS" "THE COMPUTATIONAL TESTS")
               errors_name="${r/gerc/geru}" ;;
        *) checks=("THE COLUMN-MAJOR COMPUTATIONAL TESTS" "THE ROW-MAJOR    COMPUTATIONAL TESTS") ;;
      esac
    fi
    if ! grep -E -q "^ $errors_name +PASSED THE TESTS OF ERROR-EXITS" "$summary"; then
      echo "FAIL: $r did not pass THE TESTS OF ERROR-EXITS" >&2
      status=1
    fi
    # Each check needs its own line (a repeated one, one line per layout).
    declare -A seen=()
    for what in "${checks[@]}"; do
      seen["$what"]=$(( ${seen["$what"]:-0} + 1 ))
      found="$(grep -E -c "^ $r +PASSED $what" "$summary" || true)"
      if [ "$found" -lt "${seen["$what"]}" ]; then
        echo "FAIL: $r did not pass $what (${seen["$what"]} time(s) expected, $found found)" >&2
        status=1
      fi
    done
    unset seen
  fi
  symbol="$(printf '%s' "$r" | tr 'A-Z' 'a-z')"
  [ "$cblas" = 0 ] && symbol="${symbol}_"
  # CBLAS returns a complex dot product through an argument: the tester's
  # CBLAS_CDOTC calls cblas_cdotc_sub.
  case "$symbol" in cblas_[cz]dot[cu]) symbol="${symbol}_sub" ;; esac
  # grep on the files, not at the end of a pipe: with pipefail, grep -q
  # leaving early would fail the pipe.
  bound="$(grep -h -E "normal symbol \`$symbol'" "$work"/bindings.* || true)"
  if ! grep -E -q "to [^ ]*libtessera_blas\.so[^ ]*( \[[0-9]+\])?: normal symbol" <<<"$bound"; then
    echo "FAIL: $symbol was not bound to libtessera_blas:" >&2
    printf '%s\n' "$bound" | head -5 >&2
    status=1
  else
    echo "$symbol bound to $(head -1 <<<"$bound" | sed 's/.* to \([^ ]*\).*/\1/')"
  fi
done
exit "$status"
