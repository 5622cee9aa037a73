# The layering rules of design.md §Layering, checked on the source tree:
#  - core/ includes nothing from native/ or wasm/;
#  - core/ has no platform #if outside the SIMD backend headers
#    (core/src/simd/vec_*.hpp);
#  - platform/ includes nothing from core/, native/ or wasm/.
# Run: cmake -DROOT=<repo> -P tests/layering_check.cmake
if(NOT ROOT)
  message(FATAL_ERROR "pass -DROOT=<repository root>")
endif()

set(_platform_macros "__EMSCRIPTEN__|__wasi__|__wasm__|__wasm32__|__wasm_simd128__|_WIN32|__linux__|__APPLE__|__x86_64__|_M_X64|__aarch64__|__ARM_NEON|__i386__|__SSE2__|__AVX2__|__AVX512F__")
set(_violations "")

file(GLOB_RECURSE _core_files "${ROOT}/core/*.hpp" "${ROOT}/core/*.h" "${ROOT}/core/*.cc")
foreach(_file IN LISTS _core_files)
  file(RELATIVE_PATH _rel "${ROOT}" "${_file}")
  file(STRINGS "${_file}" _lines)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"](native|wasm)/")
      list(APPEND _violations "${_rel}: includes ${CMAKE_MATCH_1}/: ${_line}")
    endif()
    if(NOT _rel MATCHES "^core/src/simd/vec_[a-z0-9]+\\.hpp$")
      if(_line MATCHES "^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)[^\n]*(${_platform_macros})")
        list(APPEND _violations "${_rel}: platform conditional outside the SIMD headers: ${_line}")
      endif()
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE _platform_files "${ROOT}/platform/*.hpp" "${ROOT}/platform/*.h" "${ROOT}/platform/*.cc")
foreach(_file IN LISTS _platform_files)
  file(RELATIVE_PATH _rel "${ROOT}" "${_file}")
  file(STRINGS "${_file}" _lines)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"](core|native|wasm)/")
      list(APPEND _violations "${_rel}: platform/ includes ${CMAKE_MATCH_1}/: ${_line}")
    endif()
    if(_line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]tessera/(tessera|context|elementwise|gemm|knobs|isa)")
      list(APPEND _violations "${_rel}: platform/ includes the core API: ${_line}")
    endif()
  endforeach()
endforeach()

list(LENGTH _core_files _n_core)
list(LENGTH _platform_files _n_platform)
if(_violations)
  list(JOIN _violations "\n  " _text)
  message(FATAL_ERROR "layering violations:\n  ${_text}")
endif()
message(STATUS "layering ok: ${_n_core} core files, ${_n_platform} platform files checked")
