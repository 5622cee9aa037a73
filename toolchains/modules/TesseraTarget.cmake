# Classifies the build target once and sets what every other CMakeLists.txt
# reads:
#   TESSERA_PLATFORM_BACKEND  native | wasm
#   TESSERA_ARCH              x86_64 | aarch64 | wasm32 | other
#   TESSERA_TARGET_NAME       linux-x86_64, linux-aarch64, wasi, wasi-threads, emscripten, ...
#   TESSERA_THREADS_USABLE    0 | 1 (design.md §Serial fallback)
#   TESSERA_ISA_BACKENDS      every ISA backend tessera has (tessera_isa_backend)
#   TESSERA_ISA_SUFFIXES      the backends built here (their kernel file suffixes)
#   TESSERA_FLAGS_<isa>       compiler flags of a built backend's files
#   TESSERA_BUILT_ISA_DEFINES, TESSERA_BUILT_ISA_LIST   for build_config.h

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
  if(TESSERA_WASI_THREADS)  # toolchains/zig-wasi-threads.cmake
    set(TESSERA_TARGET_NAME wasi-threads)
    set(TESSERA_THREADS_USABLE 1)
  else()
    set(TESSERA_TARGET_NAME wasi)
    set(TESSERA_THREADS_USABLE 0)
  endif()
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

# The ISA backends, one line each: the level's name (as in TESSERA_ISA_LEVELS,
# core/include/tessera/isa.hpp, and the suffix of its kernel files
# core/src/isa/kernels_<name>.cc and core/src/simd/vec_<name>.hpp), the
# architecture that has it (none: every target), an option that must be on,
# and the compiler flags of its files. The flags go on those files only
# (design.md §ISA dispatch), so the rest of the library runs anywhere; the registry checks
# the CPU features the backend's kernel table requires before using it.
# HOST: the /proc/cpuinfo flags a CPU needs to run the backend (the kernel
# table's required features, as Linux names them).
#
# TESSERA_ISAS narrows the build to some of the target's backends (a
# smaller library, or a quicker build where the others are not wanted);
# scalar, the one that runs on every CPU, is always built. "host": the
# backends this machine's CPU runs, for builds made to run their tests
# here (the sanitizer presets: a backend the CPU cannot run is compile time
# spent on code no test executes; under ASan the avx512 GEMM kernel sets
# alone took ~50 CPU minutes on a Zen 3, which has no AVX-512).
# TESSERA_ISA_KERNEL_FLAGS: extra compile options for the backends' files.
set(TESSERA_ISAS "" CACHE STRING
  "ISA backends to build, e.g. \"sse2;avx2\", or host (empty: every backend of the target; scalar always)")
set(TESSERA_ISA_KERNEL_FLAGS "" CACHE STRING
  "Extra compile options for the ISA backends' files (core/src/isa/*_<isa>.cc)")
set(TESSERA_HOST_CPU_FLAGS "")
if(TESSERA_ISAS STREQUAL "host")
  if(CMAKE_CROSSCOMPILING OR NOT CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux"
     OR NOT EXISTS /proc/cpuinfo)
    message(FATAL_ERROR "TESSERA_ISAS=host reads this machine's /proc/cpuinfo: it is for native "
      "Linux builds only (this is ${TESSERA_TARGET_NAME} on ${CMAKE_HOST_SYSTEM_NAME}); name the "
      "backends instead")
  endif()
  file(STRINGS /proc/cpuinfo _cpu_flags REGEX "^(flags|Features)[ \t]*:" LIMIT_COUNT 1)
  string(REGEX REPLACE "^[^:]*:[ \t]*" "" _cpu_flags "${_cpu_flags}")
  string(REGEX REPLACE "[ \t]+" ";" TESSERA_HOST_CPU_FLAGS "${_cpu_flags}")
endif()
set(TESSERA_ISA_BACKENDS "")
set(TESSERA_ISA_SUFFIXES "")
set(TESSERA_ISA_AVAILABLE "")
function(tessera_isa_backend name)
  cmake_parse_arguments(PARSE_ARGV 1 _arg "" "ARCH;OPTION" "FLAGS;HOST")
  set(TESSERA_ISA_BACKENDS ${TESSERA_ISA_BACKENDS} ${name} PARENT_SCOPE)
  if(_arg_ARCH AND NOT _arg_ARCH STREQUAL TESSERA_ARCH)
    return()
  endif()
  if(_arg_OPTION)
    if(NOT ${_arg_OPTION})
      return()
    endif()
  endif()
  set(TESSERA_ISA_AVAILABLE ${TESSERA_ISA_AVAILABLE} ${name} PARENT_SCOPE)
  if(TESSERA_ISAS STREQUAL "host")
    foreach(_flag IN LISTS _arg_HOST)
      if(NOT _flag IN_LIST TESSERA_HOST_CPU_FLAGS)
        return()
      endif()
    endforeach()
  elseif(TESSERA_ISAS AND NOT name STREQUAL "scalar" AND NOT name IN_LIST TESSERA_ISAS)
    return()
  endif()
  set(TESSERA_ISA_SUFFIXES ${TESSERA_ISA_SUFFIXES} ${name} PARENT_SCOPE)
  set(TESSERA_FLAGS_${name} ${_arg_FLAGS} PARENT_SCOPE)
endfunction()
tessera_isa_backend(scalar)
tessera_isa_backend(sse2    ARCH x86_64  FLAGS -msse2  HOST sse2)
# F16C (vcvtps2ph, the f16 conversions) came with AVX, before AVX2: every
# AVX2 CPU has it, and each level from avx2 up requires it.
tessera_isa_backend(avx2    ARCH x86_64  FLAGS -mavx2 -mfma -mf16c  HOST avx2 fma f16c)
tessera_isa_backend(avx512  ARCH x86_64  FLAGS -mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx2 -mfma -mf16c
                    HOST avx512f avx512vl avx512bw avx512dq avx2 fma f16c)
# avx2_vnni, avx512_vnni, amx and neon_dotprod share a lower level's kernel
# sets (their tables point at avx2's, avx512's and neon's): each needs that
# level built too.
tessera_isa_backend(avx2_vnni ARCH x86_64 FLAGS -mavx2 -mfma -mf16c -mavxvnni HOST avx2 fma f16c avx_vnni)
tessera_isa_backend(avx512_vnni ARCH x86_64
                    FLAGS -mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx512vnni -mavx2 -mfma -mf16c
                    HOST avx512f avx512vl avx512bw avx512dq avx512_vnni avx2 fma f16c)
# amx: avx512_vnni plus the AMX tiles (the integer GEMM's tdpbusd).
tessera_isa_backend(amx ARCH x86_64
                    FLAGS -mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx512vnni -mavx2 -mfma -mf16c
                          -mamx-tile -mamx-int8
                    HOST avx512f avx512vl avx512bw avx512dq avx512_vnni avx2 fma f16c amx_tile amx_int8)
tessera_isa_backend(neon    ARCH aarch64)                             # baseline on aarch64
tessera_isa_backend(neon_dotprod ARCH aarch64 FLAGS -march=armv8.2-a+dotprod HOST asimddp)
tessera_isa_backend(simd128 ARCH wasm32  OPTION TESSERA_WASM_SIMD)    # -msimd128 is target-wide (below)
tessera_isa_backend(simd128_relaxed ARCH wasm32 OPTION TESSERA_WASM_RELAXED_SIMD FLAGS -mrelaxed-simd)
foreach(_isa IN LISTS TESSERA_ISAS)
  if(_isa STREQUAL "host")
    list(LENGTH TESSERA_ISAS _count)
    if(_count GREATER 1)
      message(FATAL_ERROR "TESSERA_ISAS: host stands alone, not in a list (${TESSERA_ISAS})")
    endif()
    message(STATUS "tessera: TESSERA_ISAS=host builds ${TESSERA_ISA_SUFFIXES} "
      "(of ${TESSERA_ISA_AVAILABLE}: what this CPU runs)")
    continue()
  endif()
  if(NOT _isa IN_LIST TESSERA_ISA_AVAILABLE)
    string(REPLACE ";" ", " _available "${TESSERA_ISA_AVAILABLE}")
    message(FATAL_ERROR "TESSERA_ISAS: '${_isa}' is not an ISA backend this target can build "
      "(${TESSERA_TARGET_NAME} has: ${_available})")
  endif()
endforeach()
foreach(_pair IN ITEMS "avx2_vnni:avx2" "avx512_vnni:avx512" "amx:avx512" "neon_dotprod:neon")
  string(REPLACE ":" ";" _pair "${_pair}")
  list(GET _pair 0 _upper_isa)
  list(GET _pair 1 _lower_isa)
  if(_upper_isa IN_LIST TESSERA_ISA_SUFFIXES AND NOT _lower_isa IN_LIST TESSERA_ISA_SUFFIXES)
    message(FATAL_ERROR "TESSERA_ISAS: ${_upper_isa} runs ${_lower_isa}'s kernel sets: build "
      "${_lower_isa} too (${TESSERA_ISAS})")
  endif()
endforeach()
if(TESSERA_WASM_RELAXED_SIMD)
  # LLVM before 16 (Emscripten 3.1.6's clang 14) encodes relaxed_madd with
  # a pre-standard opcode that no engine runs any more.
  if(NOT TESSERA_WASM_SIMD OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 16)
    message(FATAL_ERROR "TESSERA_WASM_RELAXED_SIMD needs TESSERA_WASM_SIMD and clang >= 16 "
      "(this is ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}); the wasi-relaxed "
      "preset builds it with clang-19")
  endif()
endif()

# build_config.h: TESSERA_BUILT_<ISA> (0 or 1) for every backend, and
# TESSERA_BUILT_ISAS(X), the X(name) list of the built ones.
set(TESSERA_BUILT_ISA_DEFINES "")
set(TESSERA_BUILT_ISA_LIST "")
foreach(_isa IN LISTS TESSERA_ISA_BACKENDS)
  string(TOUPPER "${_isa}" _upper)
  if(_isa IN_LIST TESSERA_ISA_SUFFIXES)
    string(APPEND TESSERA_BUILT_ISA_DEFINES "#define TESSERA_BUILT_${_upper} 1\n")
    string(APPEND TESSERA_BUILT_ISA_LIST " X(${_isa})")
  else()
    string(APPEND TESSERA_BUILT_ISA_DEFINES "#define TESSERA_BUILT_${_upper} 0\n")
  endif()
endforeach()

# Options for every tessera target (library, tests, tools).
# TESSERA_WASM_THREADS' default and range: one JSON file for C++
# (build_config.h) and JS (the pthread pre-js below, js/threading.mjs).
file(READ "${PROJECT_SOURCE_DIR}/platform/wasm_threads.json" _wasm_threads_json)
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${PROJECT_SOURCE_DIR}/platform/wasm_threads.json")
foreach(_field default min max)
  string(TOUPPER "${_field}" _upper)
  string(JSON TESSERA_WASM_THREADS_${_upper} GET "${_wasm_threads_json}" "${_field}")
endforeach()

# Two sets of settings. tessera_usage: what every program linking tessera
# needs (the threads library; Emscripten's pthread and memory settings); the
# library carries it to its users in the build tree (add_subdirectory) and
# the installed package re-creates it. tessera_options: the project's own
# compile settings on top (warnings, no FP contraction, -fno-exceptions and
# SIMD128 on wasm), for tessera's sources, tests and tools only: a project
# that adds tessera as a subdirectory keeps its own flags.
add_library(tessera_usage INTERFACE)
add_library(tessera_options INTERFACE)
add_library(tessera::options ALIAS tessera_options)
target_link_libraries(tessera_options INTERFACE tessera_usage)
# The compiler never contracts a*b+c into an FMA by itself: which operations
# fuse is the kernels' decision, so results are the same on every compiler
# and build type (design.md §Reproducibility; XNNPACK does the same).
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
# What the library's users need besides its headers (core/CMakeLists.txt,
# tessera_library_interface; the installed package re-creates Threads::Threads
# with find_dependency). Settings only an installed package needs are in
# $<INSTALL_INTERFACE:...>: in the build tree tessera_usage carries them.
set(TESSERA_INSTALL_LINK_LIBRARIES "")
set(TESSERA_INSTALL_COMPILE_OPTIONS "")
set(TESSERA_INSTALL_LINK_OPTIONS "")
set(TESSERA_INSTALL_DATA_FILES "")
if(TESSERA_PLATFORM_BACKEND STREQUAL "native")
  find_package(Threads REQUIRED)
  target_link_libraries(tessera_usage INTERFACE Threads::Threads)
  list(APPEND TESSERA_INSTALL_LINK_LIBRARIES Threads::Threads)
endif()

# Emscripten: threads and memory. The whole program (library, tests, tools)
# is compiled with -pthread when the pthreads build is on: objects without
# atomics/bulk-memory cannot be linked into a shared-memory module.
if(EMSCRIPTEN)
  if(TESSERA_WASM_PTHREADS)
    # Each pthread stack (2 MiB by default) comes out of the wasm heap: 8 of
    # them overflow Emscripten's default 16 MiB. Memory growth with threads
    # slows every JS access to the heap, so the size is fixed instead.
    set(TESSERA_WASM_INITIAL_MEMORY 268435456 CACHE STRING
      "Emscripten pthreads build: fixed wasm memory size in bytes (-sINITIAL_MEMORY)")
    target_compile_options(tessera_usage INTERFACE -pthread)
    # Threads are pre-started (a thread created lazily while its creator
    # blocks deadlocks on the main thread); asking for more than the pool
    # fails with EAGAIN instead of hanging (PTHREAD_POOL_SIZE_STRICT=2).
    # The pool's size follows TESSERA_WASM_THREADS at load time
    # (wasm/pthread_pool_size.js.in), plus room for application threads.
    set(_pool_js "${PROJECT_BINARY_DIR}/generated/js/pthread_pool_size.js")
    configure_file("${PROJECT_SOURCE_DIR}/wasm/pthread_pool_size.js.in" "${_pool_js}" @ONLY)
    target_link_options(tessera_usage INTERFACE
      -pthread
      "SHELL:--pre-js \"${_pool_js}\""
      "-sPTHREAD_POOL_SIZE=tesseraPthreadPoolSize()"
      -sPTHREAD_POOL_SIZE_STRICT=2
      "-sINITIAL_MEMORY=${TESSERA_WASM_INITIAL_MEMORY}"
      # A fixed memory makes Emscripten's malloc abort the whole module when
      # the heap is full (ABORTING_MALLOC defaults on without growth); a
      # library reports out-of-memory and stays usable instead.
      -sABORTING_MALLOC=0)
    # The same for a user's own module linked against the installed library:
    # its objects must be built with -pthread, and the pool size script is
    # installed next to the CMake package (share/tessera).
    list(APPEND TESSERA_INSTALL_COMPILE_OPTIONS "$<INSTALL_INTERFACE:-pthread>")
    foreach(_option IN ITEMS -pthread
        "SHELL:--pre-js \"$<INSTALL_PREFIX>/share/tessera/pthread_pool_size.js\""
        "-sPTHREAD_POOL_SIZE=tesseraPthreadPoolSize()"
        -sPTHREAD_POOL_SIZE_STRICT=2
        "-sINITIAL_MEMORY=${TESSERA_WASM_INITIAL_MEMORY}"
        -sABORTING_MALLOC=0)
      list(APPEND TESSERA_INSTALL_LINK_OPTIONS "$<INSTALL_INTERFACE:${_option}>")
    endforeach()
    set(TESSERA_INSTALL_DATA_FILES "${_pool_js}")
  else()
    target_link_options(tessera_usage INTERFACE -sALLOW_MEMORY_GROWTH=1)
  endif()
  # Installed for users' command-line programs under Node (share/tessera;
  # the package names it in tessera_NODE_PRE_JS): the same --pre-js tessera's
  # own programs use, without which Emscripten 3.1.6's loader fails on
  # Node >= 18 (it fetch()es the .wasm by file path).
  list(APPEND TESSERA_INSTALL_DATA_FILES "${PROJECT_SOURCE_DIR}/toolchains/runners/emscripten-node-pre.js")
endif()

# wasm32-wasip1-threads: every thread is an instance of the module on one
# shared memory, which the host creates (imported) with the maximum declared
# here; 2 GiB leaves room for the largest problems tessera's tests and
# benchmarks run. Zig 0.11 reads --max-memory's number as hexadecimal whatever
# its spelling, hence the 0x.
if(TESSERA_TARGET_NAME STREQUAL "wasi-threads")
  set(TESSERA_WASI_THREADS_MAX_MEMORY 0x80000000 CACHE STRING
    "wasi-threads build: the shared memory's maximum in bytes (hexadecimal, 64 KiB pages)")
  set(_wasi_threads_link_options -Wl,--shared-memory -Wl,--import-memory -Wl,--export-memory
    "-Wl,--max-memory=${TESSERA_WASI_THREADS_MAX_MEMORY}")
  target_link_options(tessera_usage INTERFACE ${_wasi_threads_link_options})
  # The same for a user's program linked against the installed library.
  foreach(_option IN LISTS _wasi_threads_link_options)
    list(APPEND TESSERA_INSTALL_LINK_OPTIONS "$<INSTALL_INTERFACE:${_option}>")
  endforeach()
endif()

# Link settings for a tessera *program* (an executable with main(): tests,
# tessera-cli, examples), per target. Nothing on native targets and WASI.
# Emscripten: the runtime exits when main returns, with main's exit code
# (EXIT_RUNTIME; this also stops the pthread workers so Node can exit), and
# under Node the program sees the process environment and loads its .wasm
# without fetch() (toolchains/runners/emscripten-node-pre.js).
function(tessera_program target)
  if(EMSCRIPTEN)
    set(_pre "${PROJECT_SOURCE_DIR}/toolchains/runners/emscripten-node-pre.js")
    target_link_options(${target} PRIVATE -sEXIT_RUNTIME=1 "SHELL:--pre-js \"${_pre}\"")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_pre}")
  endif()
endfunction()

# ccache, when installed, for every compile (TESSERA_USE_CCACHE=OFF or an
# explicit CMAKE_<LANG>_COMPILER_LAUNCHER turns it off).
option(TESSERA_USE_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(TESSERA_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT CMAKE_C_COMPILER_LAUNCHER)
  find_program(TESSERA_CCACHE ccache)
  if(TESSERA_CCACHE)
    set(_launcher "${TESSERA_CCACHE}")
    if(EMSCRIPTEN)
      # ccache keys on the compiler's mtime, here a wrapper script that
      # never changes: key on the Emscripten and clang versions instead.
      set(_launcher "${CMAKE_COMMAND};-E;env;CCACHE_COMPILERCHECK=string:emscripten-${EMSCRIPTEN_VERSION}-clang-${CMAKE_CXX_COMPILER_VERSION};${TESSERA_CCACHE}")
    endif()
    set(CMAKE_C_COMPILER_LAUNCHER "${_launcher}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${_launcher}")
  endif()
endif()
