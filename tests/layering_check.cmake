# The layering rules of design.md §Layering, checked on the source tree. Every #include of
# every file under a checked folder must name one of that folder's allowed
# kinds of header:
#
#   folder         may include
#   core/include/  tessera/ (the public headers stand alone)
#   core/          tessera/ (its public API, platform's), core/, and inside
#                  core/src only its own folder or a lower one (below)
#   platform/      tessera/platform/
#   native/        tessera/platform/, native/
#   wasm/          tessera/platform/, wasm/
#   mpi/           tessera/ (the public API, mpi.hpp among it), mpi/ (the
#                  distributed GEMM sits on the public API)
#   cli/           tessera/, its own files
#   js/            tessera/ (the JS module is the C API plus platform seams)
#   bench/         tessera/, its own files, the internal headers core/src/,
#                  native/src/, wasm/src/ (bench/ links tessera::internal)
#   examples/      tessera/, its own files
#   blas/          tessera/, blas/ (the BLAS/CBLAS front door: public API only)
#
# plus standard and system headers (<...> outside the project's folders).
# Project headers are spelled from the repository root ("native/src/x.hpp");
# "its own files" means a quoted name found next to the including file.
# tests/ may include everything and is not checked. Also: core/ has no
# platform #if outside the SIMD backend headers (core/src/simd/vec_*.hpp).
#
# core/src's folders stand on floors, lowest first (_core_floors below); a
# file may include its own folder's headers and those of lower floors, never
# a folder on its own floor or above, so no include runs upward and the ops
# (one floor) never include each other. A folder on no floor is an error:
# a new folder is given its place here.
#
# Run: cmake -DROOT=<repo> -P tests/layering_check.cmake
# A violation names the file, the line, the rule and the include.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "pass -DROOT=<repository root>")
endif()

# Folder (relative to ROOT) -> the include path prefixes it may name. A file
# follows the rule of the most specific folder that holds it.
set(_folders core/include core platform native wasm mpi cli tune js bench examples blas)
set(_allow_core/include tessera/)
set(_allow_core tessera/ core/)
set(_allow_platform tessera/platform/)
set(_allow_native tessera/platform/ native/)
set(_allow_wasm tessera/platform/ wasm/)
set(_allow_mpi tessera/ mpi/)
set(_allow_cli tessera/)
set(_allow_tune tessera/)
set(_allow_js tessera/)
set(_allow_bench tessera/ core/src/ native/src/ wasm/src/)
set(_allow_examples tessera/)
set(_allow_blas tessera/ blas/)
# Folders whose files may include their neighbours by bare name.
set(_local_ok cli tune bench examples)
# Include paths that name a part of the project (anything else in <...> is a
# standard or system header).
set(_project_prefix "^(tessera|core|platform|native|wasm|mpi|cli|js|tests|bench|examples|toolchains|blas)/")

# core/src's floors, lowest first; folders on one floor (separated by
# spaces in one entry) may not include each other. design.md §Layering says
# what each holds.
set(_core_floors
  "simd parallel"                     # vector traits and vmath; resolvers, cursors, ranges
  "kernels"                           # every op's kernel-entry types
  "registry"                          # the kernel table, ISA levels, the registry
  "base"                              # what every driver reads: context state, checks, splits
  "elementwise blas1 reduce gemm qgemm quantize half"  # the operation drivers and kernel bodies
  "isa"                               # the tables: bodies instantiated per ISA, the naive family
  "selftest"                          # the load-time check of a level, through the public calls
  "api")                              # the C++ and C entry points, context, knobs, inventory
set(_floor 0)
foreach(_entry IN LISTS _core_floors)
  string(REPLACE " " ";" _names "${_entry}")
  foreach(_name IN LISTS _names)
    set(_core_floor_${_name} ${_floor})
  endforeach()
  math(EXPR _floor "${_floor} + 1")
endforeach()

set(_platform_macros "__EMSCRIPTEN__|__wasi__|__wasm__|__wasm32__|__wasm_simd128__|_WIN32|__linux__|__APPLE__|__x86_64__|_M_X64|__aarch64__|__ARM_NEON|__i386__|__SSE2__|__AVX2__|__AVX512F__")

set(_violations "")
set(_counts "")
foreach(_folder IN LISTS _folders)
  file(GLOB_RECURSE _files "${ROOT}/${_folder}/*.hpp" "${ROOT}/${_folder}/*.h"
    "${ROOT}/${_folder}/*.cc" "${ROOT}/${_folder}/*.c")
  foreach(_inner IN LISTS _folders)
    if(_inner MATCHES "^${_folder}/")
      list(FILTER _files EXCLUDE REGEX "^${ROOT}/${_inner}/")
    endif()
  endforeach()
  list(LENGTH _files _n)
  list(APPEND _counts "${_n} ${_folder}")
  foreach(_file IN LISTS _files)
    file(RELATIVE_PATH _rel "${ROOT}" "${_file}")
    get_filename_component(_dir "${_file}" DIRECTORY)
    # One list element per line, with the characters CMake lists treat
    # specially (; [ ] \) masked, so element i is line i + 1.
    file(READ "${_file}" _text)
    string(REPLACE "\\" "<bs>" _text "${_text}")
    string(REPLACE ";" "<sc>" _text "${_text}")
    string(REPLACE "[" "<lb>" _text "${_text}")
    string(REPLACE "]" "<rb>" _text "${_text}")
    string(REPLACE "\n" ";" _lines "${_text}")
    set(_number 0)
    foreach(_line IN LISTS _lines)
      math(EXPR _number "${_number} + 1")
      if(NOT _line MATCHES "^[ \t]*#")
        continue()
      endif()
      set(_where "${_rel}:${_number}")
      if(_line MATCHES "^[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"]+)[>\"]")
        set(_quote "${CMAKE_MATCH_1}")
        set(_path "${CMAKE_MATCH_2}")
        if(_path MATCHES "${_project_prefix}")
          set(_ok FALSE)
          foreach(_prefix IN LISTS _allow_${_folder})
            string(FIND "${_path}" "${_prefix}" _at)
            if(_at EQUAL 0)
              set(_ok TRUE)
            endif()
          endforeach()
          if(NOT _ok)
            set(_allowed ${_allow_${_folder}})
            if(_folder IN_LIST _local_ok)
              list(APPEND _allowed "its own files")
            endif()
            list(JOIN _allowed ", " _allowed)
            list(APPEND _violations "${_where}: includes ${_path}, but ${_folder}/ may include only ${_allowed} and system headers")
          endif()
          if(_ok AND _rel MATCHES "^core/src/([^/]+)/" )
            set(_from "${CMAKE_MATCH_1}")
            if(_path MATCHES "^core/src/([^/]+)/")
              set(_to "${CMAKE_MATCH_1}")
              if(NOT DEFINED _core_floor_${_from})
                list(APPEND _violations "${_where}: core/src/${_from}/ stands on no floor of tests/layering_check.cmake (_core_floors)")
              elseif(NOT DEFINED _core_floor_${_to})
                list(APPEND _violations "${_where}: includes ${_path}, but core/src/${_to}/ stands on no floor (_core_floors)")
              elseif(NOT _from STREQUAL _to AND NOT _core_floor_${_to} LESS _core_floor_${_from})
                list(APPEND _violations "${_where}: includes ${_path}: core/src/${_to}/ is not below core/src/${_from}/ (an upward or sideways include, see _core_floors)")
              endif()
            endif()
          endif()
        elseif(_quote STREQUAL "\"")
          if(NOT EXISTS "${_dir}/${_path}")
            list(APPEND _violations "${_where}: \"${_path}\" is neither a project path from the repository root nor a file next to this one")
          elseif(NOT _folder IN_LIST _local_ok)
            list(APPEND _violations "${_where}: ${_folder}/ spells its headers from the repository root, not \"${_path}\"")
          endif()
        endif()
      endif()
      if(_folder MATCHES "^core" AND NOT _rel MATCHES "^core/src/simd/vec_[a-z0-9_]+\\.hpp$")
        if(_line MATCHES "^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)[^\n]*(${_platform_macros})")
          list(APPEND _violations "${_where}: platform conditional outside the SIMD headers (core/src/simd/vec_*.hpp)")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

list(JOIN _counts ", " _counted)
if(_violations)
  list(LENGTH _violations _n)
  list(JOIN _violations "\n  " _list)
  message(FATAL_ERROR "layering: ${_n} violation(s) of design.md §Layering (rules at the top of tests/layering_check.cmake):\n  ${_list}")
endif()
message(STATUS "layering ok (files checked: ${_counted})")
