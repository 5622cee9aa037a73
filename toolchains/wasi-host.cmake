# What both WASI toolchain files (wasi-sdk.cmake, zig-wasi-threads.cmake)
# set the same way once their compiler is chosen: find_* reads headers,
# libraries and packages from the target's side only (the toolchain's
# sysroot, CMAKE_FIND_ROOT_PATH when the file sets one) and programs from
# the host; .wasm programs (tests, tessera-cli) run through
# runners/wasi-emulator.sh as the cross-compiling emulator, which runs them
# under Node's node:wasi (runners/run-wasi.mjs, with the Node flags in
# TESSERA_WASI_NODE_FLAGS, set before including this) or, when the test
# runs with TESSERA_WASI_ENGINE=wasmtime, under the Wasmtime CLI
# (runners/run-wasmtime.sh; TESSERA_WASI_THREADS: with wasi-threads).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(TESSERA_NODE NAMES node nodejs)
# The Wasmtime CLI: TESSERA_WASMTIME (cache variable or environment), else
# the one `./dev deps` builds into .tools/wasmtime (a version that still
# hosts wasi-threads), else one on PATH. None: the Wasmtime lanes cannot run.
if(NOT TESSERA_WASMTIME AND DEFINED ENV{TESSERA_WASMTIME})
  set(TESSERA_WASMTIME "$ENV{TESSERA_WASMTIME}" CACHE FILEPATH "the Wasmtime CLI")
endif()
find_program(TESSERA_WASMTIME NAMES wasmtime
  HINTS "${CMAKE_CURRENT_LIST_DIR}/../.tools/wasmtime/bin")
if(TESSERA_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR
    "${CMAKE_CURRENT_LIST_DIR}/runners/wasi-emulator.sh" "--node=${TESSERA_NODE}")
  foreach(_flag IN LISTS TESSERA_WASI_NODE_FLAGS)
    list(APPEND CMAKE_CROSSCOMPILING_EMULATOR "--node-flag=${_flag}")
  endforeach()
  if(TESSERA_WASMTIME)
    list(APPEND CMAKE_CROSSCOMPILING_EMULATOR "--wasmtime=${TESSERA_WASMTIME}")
  endif()
  if(TESSERA_WASI_THREADS)
    list(APPEND CMAKE_CROSSCOMPILING_EMULATOR "--threads")
  endif()
  list(APPEND CMAKE_CROSSCOMPILING_EMULATOR "--")
endif()
