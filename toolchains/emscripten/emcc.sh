#!/bin/sh
# emcc (from PATH: Debian's /usr/bin/emcc, or an activated emsdk) with Debian's
# Node.js modules on NODE_PATH. Debian's emscripten 3.1.6 runs its
# JavaScript passes with the system node and finds 'acorn' (package
# node-acorn, /usr/share/nodejs) only through NODE_PATH. Builds run under
# ninja, outside the configure step's environment, so
# toolchains/emscripten.cmake makes this script the compiler. With an emsdk
# the extra entry is harmless.
NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
export NODE_PATH
exec emcc "$@"
