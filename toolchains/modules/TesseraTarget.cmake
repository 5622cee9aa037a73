# Classifies the build target once and sets what every other CMakeLists.txt
# reads:
#   TESSERA_PLATFORM_BACKEND  native | wasm
#   TESSERA_ARCH              x86_64 | aarch64 | wasm32 | other
#   TESSERA_TARGET_NAME       linux-x86_64, linux-aarch64, wasi, emscripten, ...
#   TESSERA_THREADS_USABLE    0 | 1 (SPEC 2.7)
#   TESSERA_ISA_SUFFIXES      kernel file suffixes built here (beyond scalar)
#   TESSERA_BUILT_<ISA>       0 | 1, for build_config.h

if(EMSCRIPTEN)
  set(TESSERA_PLATFORM_BACKEND wasm)
  set(TESSERA_ARCH wasm32)
  set(TESSERA_TARGET_NAME emscripten)
  if(TESSERA_WASM_PTHREADS)
    set(TESSERA_THREADS_USABLE 1)
    string(APPEND TESSERA_TARGET_NAME "-pthreads")
  else()
    set(TESSERA_THREADS_USABLE 0)
  endif()
elseif(CMAKE_SYSTEM_NAME STREQUAL "WASI")
  set(TESSERA_PLATFORM_BACKEND wasm)
  set(TESSERA_ARCH wasm32)
  set(TESSERA_TARGET_NAME wasi)
  set(TESSERA_THREADS_USABLE 0)
else()
  set(TESSERA_PLATFORM_BACKEND native)
  string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _tessera_proc)
  if(_tessera_proc MATCHES "^(x86_64|amd64|x64)$")
    set(TESSERA_ARCH x86_64)
  elseif(_tessera_proc MATCHES "^(aarch64|arm64)$")
    set(TESSERA_ARCH aarch64)
  else()
    set(TESSERA_ARCH other)
  endif()
  string(TOLOWER "${CMAKE_SYSTEM_NAME}-${TESSERA_ARCH}" TESSERA_TARGET_NAME)
  set(TESSERA_THREADS_USABLE 1)
endif()

foreach(_isa SSE2 AVX2 AVX512 NEON SIMD128)
  set(TESSERA_BUILT_${_isa} 0)
endforeach()
set(TESSERA_ISA_SUFFIXES "")
if(TESSERA_ARCH STREQUAL "x86_64")
  set(TESSERA_ISA_SUFFIXES sse2 avx2 avx512)
elseif(TESSERA_ARCH STREQUAL "aarch64")
  set(TESSERA_ISA_SUFFIXES neon)
elseif(TESSERA_ARCH STREQUAL "wasm32" AND TESSERA_WASM_SIMD)
  set(TESSERA_ISA_SUFFIXES simd128)
endif()
foreach(_isa IN LISTS TESSERA_ISA_SUFFIXES)
  string(TOUPPER "${_isa}" _upper)
  set(TESSERA_BUILT_${_upper} 1)
endforeach()

# Compiler flags for the files of one ISA backend (by file-name suffix). They
# go on those files only (STYLE.md), so the rest of the library runs anywhere.
set(TESSERA_FLAGS_sse2 -msse2)
set(TESSERA_FLAGS_avx2 -mavx2 -mfma)
set(TESSERA_FLAGS_avx512 -mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx2 -mfma)
set(TESSERA_FLAGS_neon "")        # baseline on aarch64
set(TESSERA_FLAGS_simd128 "")     # -msimd128 is target-wide on wasm (below)

# Options for every tessera target (library, tests, tools).
add_library(tessera_options INTERFACE)
add_library(tessera::options ALIAS tessera_options)
# The compiler never contracts a*b+c into an FMA by itself: which operations
# fuse is the kernels' decision, so results are the same on every compiler
# and build type (SPEC 3; XNNPACK does the same).
target_compile_options(tessera_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-ffp-contract=off -Wall -Wextra>)
if(TESSERA_ARCH STREQUAL "wasm32")
  # Debian's wasm libc++abi has no exception support; wasm builds report
  # errors as statuses (the C++ try_* functions, the C API).
  target_compile_options(tessera_options INTERFACE -fno-exceptions)
  if(TESSERA_WASM_SIMD)
    target_compile_options(tessera_options INTERFACE -msimd128)
    target_link_options(tessera_options INTERFACE -msimd128)
  endif()
endif()
if(TESSERA_PLATFORM_BACKEND STREQUAL "native")
  find_package(Threads REQUIRED)
  target_link_libraries(tessera_options INTERFACE Threads::Threads)
endif()
