# Toolchain: WebAssembly, WASI preview1 command modules (wasm32-wasi), no
# threads, no C++ exceptions.
#
#   cmake --preset wasi                      (or)
#   cmake -S . -B build/wasi -G Ninja -DCMAKE_TOOLCHAIN_FILE=toolchains/wasi-sdk.cmake
#
# Two ways to get a compiler and a sysroot:
#  * A real wasi-sdk: set WASI_SDK_PREFIX (cache variable or environment) to
#    its install folder; its clang and share/wasi-sysroot are used.
#  * Otherwise Debian's packages: clang-19, lld-19, wasi-libc,
#    libc++-19-dev-wasm32, libc++abi-19-dev-wasm32, libclang-rt-19-dev-wasm32.
#    They install the wasm headers and libraries under
#    /usr/{include,lib}/wasm32-wasi, so the sysroot is a private folder in the
#    build tree holding two symlinks to them (include/wasm32-wasi,
#    lib/wasm32-wasi). --sysroot=/usr would also put the host's /usr/include
#    on the wasm include path, where it silently shadows wasi-libc headers.
#
# Tests and tools run through CMAKE_CROSSCOMPILING_EMULATOR =
# toolchains/runners/wasi-emulator.sh: Node's node:wasi (run-wasi.mjs), or
# the Wasmtime CLI when TESSERA_WASI_ENGINE=wasmtime (wasi-host.cmake). The
# modules are plain preview1: `wasmtime run --dir=. tessera-cli.wasm info`.
cmake_minimum_required(VERSION 3.25)

set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(TESSERA_WASI_TRIPLE wasm32-wasi)

# Platform/WASI.cmake (CMake 3.25 has none), Platform/WASI-Clang-*.cmake.
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")

if(NOT DEFINED WASI_SDK_PREFIX AND DEFINED ENV{WASI_SDK_PREFIX})
  set(WASI_SDK_PREFIX "$ENV{WASI_SDK_PREFIX}")
endif()

if(WASI_SDK_PREFIX)
  set(WASI_SDK_PREFIX "${WASI_SDK_PREFIX}" CACHE PATH "wasi-sdk install folder")
  set(CMAKE_C_COMPILER "${WASI_SDK_PREFIX}/bin/clang")
  set(CMAKE_CXX_COMPILER "${WASI_SDK_PREFIX}/bin/clang++")
  set(CMAKE_AR "${WASI_SDK_PREFIX}/bin/llvm-ar" CACHE FILEPATH "archiver")
  set(CMAKE_RANLIB "${WASI_SDK_PREFIX}/bin/llvm-ranlib" CACHE FILEPATH "ranlib")
  set(TESSERA_WASI_SYSROOT "${WASI_SDK_PREFIX}/share/wasi-sysroot")
else()
  find_program(TESSERA_WASI_CLANG NAMES clang-19 REQUIRED)
  find_program(TESSERA_WASI_CLANGXX NAMES clang++-19 REQUIRED)
  set(CMAKE_C_COMPILER "${TESSERA_WASI_CLANG}")
  set(CMAKE_CXX_COMPILER "${TESSERA_WASI_CLANGXX}")
  # The private symlink sysroot. The toolchain file is read again for every
  # try_compile, in a scratch build tree: TESSERA_WASI_SYSROOT is forwarded
  # there (CMAKE_TRY_COMPILE_PLATFORM_VARIABLES) so the first path sticks.
  if(NOT TESSERA_WASI_SYSROOT)
    set(TESSERA_WASI_SYSROOT "${CMAKE_BINARY_DIR}/wasi-sysroot")
  endif()
  foreach(_kind include lib)
    set(_real "/usr/${_kind}/${TESSERA_WASI_TRIPLE}")
    set(_link "${TESSERA_WASI_SYSROOT}/${_kind}/${TESSERA_WASI_TRIPLE}")
    if(NOT IS_DIRECTORY "${_real}")
      message(FATAL_ERROR "wasi-sdk.cmake: ${_real} is missing; install the Debian "
        "packages wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 "
        "libclang-rt-19-dev-wasm32 lld-19, or set WASI_SDK_PREFIX")
    endif()
    if(NOT IS_SYMLINK "${_link}")
      file(MAKE_DIRECTORY "${TESSERA_WASI_SYSROOT}/${_kind}")
      file(CREATE_LINK "${_real}" "${_link}" SYMBOLIC)
    endif()
  endforeach()
  if(NOT EXISTS "/usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a")
    message(FATAL_ERROR "wasi-sdk.cmake: clang's wasm32 builtins are missing; "
      "install libclang-rt-19-dev-wasm32")
  endif()
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TESSERA_WASI_SYSROOT WASI_SDK_PREFIX
  TESSERA_WASM_RELAXED_SIMD)

set(CMAKE_SYSROOT "${TESSERA_WASI_SYSROOT}")
set(CMAKE_C_COMPILER_TARGET ${TESSERA_WASI_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${TESSERA_WASI_TRIPLE})

# Debian's wasm libc++abi has no exception support (and wasi-sdk's only with
# the still-experimental wasm EH): errors travel as statuses on wasm.
set(CMAKE_CXX_FLAGS_INIT "-fno-exceptions")

# find_* from the sysroot; tests and tools run under node:wasi. Node 20 runs
# relaxed SIMD only behind a flag (Chromium and wasmtime by default).
set(CMAKE_FIND_ROOT_PATH "${TESSERA_WASI_SYSROOT}")
set(TESSERA_WASI_NODE_FLAGS "")
if(TESSERA_WASM_RELAXED_SIMD)
  set(TESSERA_WASI_NODE_FLAGS "--experimental-wasm-relaxed-simd")
endif()
include("${CMAKE_CURRENT_LIST_DIR}/wasi-host.cmake")

# Relaxed SIMD: after linking, clang runs wasm-opt if one is on PATH, and
# Debian's (binaryen 108, installed with Emscripten) cannot parse the final
# relaxed opcodes ("invalid code after SIMD prefix: 261"). Links run with a
# PATH holding only the linker, so clang finds no wasm-opt.
if(TESSERA_WASM_RELAXED_SIMD AND NOT WASI_SDK_PREFIX)
  find_program(TESSERA_WASI_LD NAMES wasm-ld-19 REQUIRED)
  set(_link_bin "${CMAKE_BINARY_DIR}/wasi-link-bin")
  file(MAKE_DIRECTORY "${_link_bin}")
  if(NOT EXISTS "${_link_bin}/wasm-ld-19")
    file(CREATE_LINK "${TESSERA_WASI_LD}" "${_link_bin}/wasm-ld-19" SYMBOLIC)
  endif()
  set(CMAKE_C_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;PATH=${_link_bin}")
  set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;PATH=${_link_bin}")
endif()
