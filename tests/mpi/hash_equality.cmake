# The distributed GEMM's promise, end to end through tessera-cli: on every
# grid, `mpi-gemm --hash` prints the hash of one-process `gemm --hash` on the
# same seeded problem and ISA level (whatever that level's kc is on this
# machine, so the expected hash is computed here, not pinned).
#
#   cmake -DCLI=<tessera-cli> -DMPIEXEC=<mpirun> "-DPROBLEM=M|N|K|<gemm options>"
#         "-DRUNS=<ranks>:<grid>:<extra mpirun/mpi-gemm options, comma-separated>;..."
#         -P hash_equality.cmake
foreach(_var CLI MPIEXEC PROBLEM RUNS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "hash_equality.cmake: pass -D${_var}=...")
  endif()
endforeach()
string(REPLACE "|" ";" _problem "${PROBLEM}")

execute_process(COMMAND "${CLI}" gemm ${_problem} --reps 1 --hash
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _result EQUAL 0 OR NOT _out MATCHES "hash: ([0-9a-f]+) ")
  message(FATAL_ERROR "one-process gemm failed (${_result}):\n${_out}${_err}")
endif()
set(_expected "${CMAKE_MATCH_1}")
message("one process: ${_expected}")

foreach(_run IN LISTS RUNS)
  string(REPLACE ":" ";" _parts "${_run}")
  list(GET _parts 0 _ranks)
  list(GET _parts 1 _grid)
  set(_extra "")
  list(LENGTH _parts _n)
  if(_n GREATER 2)
    list(GET _parts 2 _extra)
    string(REPLACE "," ";" _extra "${_extra}")
  endif()
  execute_process(
    COMMAND "${MPIEXEC}" -np ${_ranks} --oversubscribe --bind-to none "${CLI}" mpi-gemm
      ${_problem} --grid ${_grid} --reps 1 --hash --check ${_extra}
    RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _result EQUAL 0 OR NOT _out MATCHES "hash: ([0-9a-f]+) ")
    message(FATAL_ERROR "mpi-gemm on ${_grid} ${_extra} failed (${_result}):\n${_out}${_err}")
  endif()
  if(NOT CMAKE_MATCH_1 STREQUAL _expected)
    message(FATAL_ERROR "grid ${_grid} ${_extra}: hash ${CMAKE_MATCH_1}, one process ${_expected}\n${_out}")
  endif()
  message("grid ${_grid} ${_extra}: ${CMAKE_MATCH_1}")
endforeach()
message("all grids: the one-process hash ${_expected}")
