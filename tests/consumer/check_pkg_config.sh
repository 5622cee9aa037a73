#!/usr/bin/env bash
# tessera.pc as a C user meets it: compile tests/consumer/consumer.c with
# nothing but `pkg-config --cflags --libs tessera` against the shared
# library, then against the static one alone (`--static`) from a moved
# copy of the prefix (the .pc file finds its prefix from its own folder),
# and run both.
#   check_pkg_config.sh <installed prefix> <scratch folder>
set -euo pipefail
prefix="$1" work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cc="${CC:-gcc}"
rm -rf "$work"
mkdir -p "$work"

flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs tessera)"
echo "pkg-config --cflags --libs tessera: $flags"
# shellcheck disable=SC2086
"$cc" -std=c99 -Wall -Werror "$here/consumer.c" -o "$work/consumer_shared" $flags
LD_LIBRARY_PATH="$prefix/lib" "$work/consumer_shared"
# ldd's output is taken whole first: `ldd | grep -q` under pipefail fails
# whenever grep exits early and ldd dies of SIGPIPE.
linked="$(ldd "$work/consumer_shared")"
if ! grep -q "libtessera.so" <<<"$linked"; then
  echo "FAIL: consumer_shared is not linked against libtessera.so" >&2
  exit 1
fi

moved="$work/moved-prefix"
cp -a "$prefix" "$moved"
rm -f "$moved"/lib/libtessera.so*
flags="$(PKG_CONFIG_PATH="$moved/lib/pkgconfig" pkg-config --static --cflags --libs tessera)"
echo "pkg-config --static --cflags --libs tessera (moved prefix): $flags"
case "$flags" in
  *"$moved"*) ;;
  *) echo "FAIL: the moved .pc file does not point into its own prefix" >&2; exit 1 ;;
esac
# shellcheck disable=SC2086
"$cc" -std=c99 -Wall -Werror "$here/consumer.c" -o "$work/consumer_static" $flags
"$work/consumer_static"
