# Toolchain: WebAssembly through Emscripten, for browsers and Node (SIMD128;
# pthreads when TESSERA_WASM_PTHREADS=ON, see the emscripten and
# emscripten-st presets).
#
#   cmake --preset emscripten                (or)
#   cmake -S . -B build/em -G Ninja -DCMAKE_TOOLCHAIN_FILE=toolchains/emscripten.cmake
#
# Wraps Emscripten's own platform file: Debian's
# /usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake (3.1.6) by
# default, an emsdk's when EMSDK is set in the environment, or any with
# -DEMSCRIPTEN_ROOT_PATH=<folder holding emcc.py>. On top of it:
#  * emcc/em++ run through toolchains/emscripten/em*.sh, which put
#    /usr/share/nodejs on NODE_PATH (Debian's emcc needs it to find acorn);
#  * programs run under plain `node` (CMAKE_CROSSCOMPILING_EMULATOR): no
#    --experimental-wasm-threads (emcmake adds it; Node 20 rejects it). The
#    Node specifics (environment passthrough, no fetch of the .wasm) live in
#    toolchains/runners/emscripten-node-pre.js, linked into programs by
#    tessera_wasm_program() (toolchains/modules/TesseraTarget.cmake).
cmake_minimum_required(VERSION 3.25)

if(NOT EMSCRIPTEN_ROOT_PATH)
  if(DEFINED ENV{EMSDK} AND EXISTS "$ENV{EMSDK}/upstream/emscripten/emcc.py")
    set(EMSCRIPTEN_ROOT_PATH "$ENV{EMSDK}/upstream/emscripten")
  else()
    set(EMSCRIPTEN_ROOT_PATH "/usr/share/emscripten")
  endif()
endif()
set(_tessera_em_platform "${EMSCRIPTEN_ROOT_PATH}/cmake/Modules/Platform/Emscripten.cmake")
if(NOT EXISTS "${_tessera_em_platform}")
  message(FATAL_ERROR "emscripten.cmake: ${_tessera_em_platform} not found; install "
    "Debian's emscripten package, or set EMSDK / EMSCRIPTEN_ROOT_PATH")
endif()

# For the configure step itself (emcc -v, em-config in the platform file).
if(NOT "$ENV{NODE_PATH}" MATCHES "/usr/share/nodejs")
  if("$ENV{NODE_PATH}" STREQUAL "")
    set(ENV{NODE_PATH} "/usr/share/nodejs")
  else()
    set(ENV{NODE_PATH} "/usr/share/nodejs:$ENV{NODE_PATH}")
  endif()
endif()

# For the build: the wrappers. Set before the platform file, which only
# picks plain emcc/em++ when no compiler is set.
set(CMAKE_C_COMPILER "${CMAKE_CURRENT_LIST_DIR}/emscripten/emcc.sh")
set(CMAKE_CXX_COMPILER "${CMAKE_CURRENT_LIST_DIR}/emscripten/em++.sh")

find_program(TESSERA_NODE NAMES node nodejs)
if(TESSERA_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${TESSERA_NODE}")
endif()

include("${_tessera_em_platform}")

# Platform/Emscripten-Clang-*.cmake (no -fPIC in a statically linked module).
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")
