#!/bin/sh
# The WASI presets' test emulator (CMAKE_CROSSCOMPILING_EMULATOR, set in
# wasi-host.cmake): runs a module under one of two engines, chosen when the
# test runs by TESSERA_WASI_ENGINE, so one build's ctest suite runs twice:
#
#   node      (the default) Node's node:wasi, through run-wasi.mjs
#   wasmtime  the Wasmtime CLI, through run-wasmtime.sh
#
# The toolchain puts what it found first, up to "--"; the runner options and
# the module follow:
#
#   wasi-emulator.sh --node=PATH [--node-flag=FLAG]... [--wasmtime=PATH]
#                    [--threads] -- [runner options] module.wasm [args...]
#
# The test presets name the engine (CMakePresets.json: wasi and
# wasi-wasmtime, ...), so `ctest --preset wasi-wasmtime` is the Wasmtime lane.
set -eu

here="$(dirname "$0")"
node=node
node_flags=""
wasmtime=""
threads=""
while [ $# -gt 0 ]; do
  case "$1" in
    --node=*) node="${1#--node=}" ;;
    --node-flag=*) node_flags="$node_flags ${1#--node-flag=}" ;;
    --wasmtime=*) wasmtime="${1#--wasmtime=}" ;;
    --threads) threads=--threads ;;
    --) shift; break ;;
    *) echo "wasi-emulator: unknown option $1 (the runner's options follow --)" >&2; exit 2 ;;
  esac
  shift
done

case "${TESSERA_WASI_ENGINE:-node}" in
  node)
    # Word splitting of node_flags is wanted: one word per --node-flag.
    # shellcheck disable=SC2086
    exec "$node" $node_flags "$here/run-wasi.mjs" "$@" ;;
  wasmtime)
    if [ -z "$wasmtime" ]; then
      echo "wasi-emulator: TESSERA_WASI_ENGINE=wasmtime, but this build found no Wasmtime CLI" \
           "when it was configured (./dev deps builds it into .tools/wasmtime; or set" \
           "TESSERA_WASMTIME=/path/to/wasmtime and configure again)" >&2
      exit 2
    fi
    exec "$here/run-wasmtime.sh" "--wasmtime=$wasmtime" $threads "$@" ;;
  *)
    echo "wasi-emulator: TESSERA_WASI_ENGINE must be node or wasmtime, not" \
         "'${TESSERA_WASI_ENGINE}'" >&2
    exit 2 ;;
esac
