#!/bin/sh
# Runs a WASI preview1 command module under the Wasmtime CLI, the second
# engine the WASI presets' tests run under (wasi-emulator.sh picks it when
# TESSERA_WASI_ENGINE=wasmtime). Same interface and contract as
# run-wasi.mjs, so a test passes the same arguments to either:
#
#   run-wasmtime.sh [--wasmtime=PATH] [--threads] module.wasm [args...]
#   run-wasmtime.sh ... --pick relaxed.wasm simd128.wasm [args...]
#   run-wasmtime.sh ... --threads --no-thread-spawn threads.wasm [args...]
#
# --threads: the module imports a shared memory and `wasi.thread-spawn`
# (the wasi-threads preset). Wasmtime then runs it with the threads
# proposal and shared memories (-W threads=y, plus shared-memory=y where the
# version has that option) and its wasi-threads host (-S threads=y), which
# makes the shared memory with the limits the module declares.
#
# --no-thread-spawn: Wasmtime has no host whose thread-spawn fails (what
# run-wasi.mjs's flag gives); the nearest is a Wasmtime without -S threads,
# and there a threaded module does not instantiate: Wasmtime exits non-zero
# naming the import it lacks (`unknown import: env::memory`). The test that
# uses the flag expects exactly that under this engine.
#
# --pick: Wasmtime runs relaxed SIMD by default, so the first module.
#
# As under run-wasi.mjs: argv[0] is the module's file name (Wasmtime's
# default), the whole environment passes through (-S inherit-env, so
# TESSERA_* variables reach the module), "/" and "." are preopened, and
# the exit code is the module's; a trap prints Wasmtime's error and exits
# non-zero.
set -eu

wasmtime="${TESSERA_WASMTIME:-wasmtime}"
threads=0
spawn=1
while [ $# -gt 0 ]; do
  case "$1" in
    --wasmtime=*) wasmtime="${1#--wasmtime=}" ;;
    --threads) threads=1 ;;
    --no-thread-spawn) spawn=0 ;;
    --pick)
      if [ $# -lt 3 ]; then
        echo "usage: run-wasmtime.sh --pick relaxed.wasm simd128.wasm [args...]" >&2
        exit 2
      fi
      relaxed="$2"
      shift 3
      set -- "$relaxed" "$@"
      if [ "${TESSERA_WASI_PICK:-}" = 1 ]; then
        echo "run-wasmtime: relaxed SIMD runs here: $relaxed" >&2
      fi
      break ;;
    -*) echo "run-wasmtime: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
if [ $# -eq 0 ]; then
  echo "usage: run-wasmtime.sh [--wasmtime=PATH] [--threads] [--no-thread-spawn] module.wasm [args...]" >&2
  exit 2
fi

set -- --dir=/ --dir=. -S inherit-env=y "$@"
if [ "$threads" = 1 ]; then
  # Wasmtime 36 enables shared memories with the threads proposal; later
  # versions (46) ask for them separately (-W shared-memory), which 36
  # rejects as an unknown option.
  case "$("$wasmtime" run -W help 2>&1)" in
    *"shared-memory["*) set -- -W threads=y,shared-memory=y "$@" ;;
    *) set -- -W threads=y "$@" ;;
  esac
  if [ "$spawn" = 1 ]; then
    set -- -S threads=y "$@"
  fi
fi
exec "$wasmtime" run "$@"
