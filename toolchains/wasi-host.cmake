# What both WASI toolchain files (wasi-sdk.cmake, zig-wasi-threads.cmake)
# set the same way once their compiler is chosen: find_* reads headers,
# libraries and packages from the target's side only (the toolchain's
# sysroot, CMAKE_FIND_ROOT_PATH when the file sets one) and programs from
# the host; .wasm programs (tests, tessera-cli) run under Node's node:wasi
# (runners/run-wasi.mjs) as the cross-compiling emulator, with the Node
# flags in TESSERA_WASI_NODE_FLAGS (set before including this).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(TESSERA_NODE NAMES node nodejs)
if(TESSERA_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR
    "${TESSERA_NODE};${TESSERA_WASI_NODE_FLAGS};${CMAKE_CURRENT_LIST_DIR}/runners/run-wasi.mjs")
  list(REMOVE_ITEM CMAKE_CROSSCOMPILING_EMULATOR "")
endif()
