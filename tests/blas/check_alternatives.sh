#!/usr/bin/env bash
# The documented registration of tessera's libblas.so.3 as the system BLAS
# (docs/blas.md), run in a throw-away root: Debian's update-alternatives
# with its own alternatives and administration folders and the link in a
# temporary lib folder, so the machine's BLAS is never touched. Checks that
#   - --install and --set make the link resolve to tessera's library,
#   - a program loading libblas.so.3 through that link runs on it (dgemm_
#     and cblas_dgemm bound there, LD_DEBUG=bindings),
#   - --remove takes the link away again.
#
#   check_alternatives.sh <folder of tessera's libblas.so.3>
set -euo pipefail
tessera_dir="$1"
if ! command -v update-alternatives >/dev/null; then
  echo "SKIP: no update-alternatives (not a Debian system)"
  exit 77
fi
triplet="$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/alternatives" "$root/admin" "$root/lib"
ua=(update-alternatives --altdir "$root/alternatives" --admindir "$root/admin")
name="libblas.so.3-$triplet"
library="$tessera_dir/libblas.so.3"
"${ua[@]}" --install "$root/lib/libblas.so.3" "$name" "$library" 5
"${ua[@]}" --set "$name" "$library"
if [ "$(readlink -f "$root/lib/libblas.so.3")" != "$(readlink -f "$library")" ]; then
  echo "FAIL: $root/lib/libblas.so.3 does not resolve to $library" >&2
  exit 1
fi
# A program that links libblas.so.3, run with only the registered link to
# find it by.
cat >"$root/client.c" <<'C'
#include <stdio.h>
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int,
                 double, double*, int);
int main(void) {
  const double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  double c[4] = {0}, d[4] = {0};
  const int two = 2;
  const double one = 1, zero = 0;
  dgemm_("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two);
  cblas_dgemm(102, 111, 111, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, d, 2);
  /* column-major: C = [1 3; 2 4] [5 7; 6 8] = [23 31; 34 46] */
  const double want[4] = {23, 34, 31, 46};
  for (int i = 0; i < 4; ++i) {
    if (c[i] != want[i] || d[i] != want[i]) {
      printf("wrong product at %d: %g %g, want %g\n", i, c[i], d[i], want[i]);
      return 1;
    }
  }
  return 0;
}
C
cc -o "$root/client" "$root/client.c" -L"$root/lib" -l:libblas.so.3
LD_LIBRARY_PATH="$root/lib" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$root/bindings" "$root/client"
for symbol in dgemm_ cblas_dgemm; do
  if ! grep -h -E "normal symbol \`$symbol'" "$root"/bindings.* | grep -q "$root/lib/libblas.so.3"; then
    echo "FAIL: $symbol was not bound through the registered libblas.so.3" >&2
    exit 1
  fi
done
"${ua[@]}" --remove "$name" "$library"
if [ -e "$root/lib/libblas.so.3" ] || [ -L "$root/lib/libblas.so.3" ]; then
  echo "FAIL: --remove left $root/lib/libblas.so.3" >&2
  exit 1
fi
echo "registered, used and removed: $library as $name"
