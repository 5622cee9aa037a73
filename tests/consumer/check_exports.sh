#!/usr/bin/env bash
# The shared library exports the C API (tsr_*) and the public C++ API
# (namespace tessera, its vtables and type information) and nothing of its
# internals: the kernel core (tessera::core), the platform backends, the
# ISA kernel tables. Prints the counts; exits 1 naming any other symbol.
#   check_exports.sh <libtessera.so>
set -euo pipefail
lib="$1"
soname="$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
echo "soname: ${soname:-none}"
case "$soname" in
  libtessera.so.[0-9]*) ;;
  *) echo "FAIL: $lib has no versioned soname" >&2; exit 1 ;;
esac
# Defined dynamic symbols, demangled; weak template instantiations of the
# standard library (vague linkage the compiler emits for tessera's own
# types) are the only other names allowed.
symbols="$(nm -D --defined-only "$lib" | awk '{ $1 = ""; $2 = ""; sub(/^  /, ""); print }')"
c_api=0 cxx_api=0 bad=()
while IFS= read -r mangled; do
  [ -z "$mangled" ] && continue
  name="$(printf '%s\n' "$mangled" | c++filt)"
  case "$name" in
    tsr_*) c_api=$((c_api + 1)) ;;
    tessera::core::*|tessera::native::*|tessera::wasm::*|*"tessera::core::"*)
      bad+=("$name") ;;
    tessera::*|"vtable for tessera::"*|"typeinfo for tessera::"*|"typeinfo name for tessera::"*)
      cxx_api=$((cxx_api + 1)) ;;
    *) bad+=("$name") ;;
  esac
done <<<"$symbols"
echo "exported: $c_api C API (tsr_*), $cxx_api C++ API (tessera::)"
if [ "$c_api" -eq 0 ] || [ "$cxx_api" -eq 0 ]; then
  echo "FAIL: the C or the C++ API is not exported" >&2
  exit 1
fi
if [ ${#bad[@]} -gt 0 ]; then
  echo "FAIL: ${#bad[@]} exported symbols are not public API:" >&2
  printf '  %s\n' "${bad[@]:0:40}" >&2
  exit 1
fi
