# Runs a command and checks BOTH its exit status and its output (stdout and
# stderr together) against a regular expression. CTest alone cannot:
# PASS_REGULAR_EXPRESSION ignores the exit code and WILL_FAIL ignores the
# text.
#
#   cmake "-DEXPECT_COMMAND=<program>|<arg>|..." -DEXPECT_EXIT=zero|nonzero
#         -DEXPECT_REGEX=<regex> -P run-expect.cmake
#
# The command's words are separated by "|" (not passed after "--": CMake
# 3.25 still swallows a "-L" there, e.g. qemu's). It runs as given, so on
# cross targets the caller puts the emulator (CMAKE_CROSSCOMPILING_EMULATOR)
# in front of it. Environment variables set on the test (ENVIRONMENT
# property) reach the command. "nonzero" means a normal exit with a code
# other than 0: a crash or a missing program does not count.
foreach(_var EXPECT_COMMAND EXPECT_EXIT EXPECT_REGEX)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "run-expect.cmake: pass -D${_var}=...")
  endif()
endforeach()
if(NOT EXPECT_EXIT MATCHES "^(zero|nonzero)$")
  message(FATAL_ERROR "run-expect.cmake: EXPECT_EXIT must be zero or nonzero")
endif()
string(REPLACE "|" ";" _command "${EXPECT_COMMAND}")

execute_process(COMMAND ${_command}
  RESULT_VARIABLE _result
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _err)
string(REPLACE ";" " " _shown "${_command}")
message("command: ${_shown}\nexit: ${_result}\nstdout:\n${_out}\nstderr:\n${_err}")

if(NOT _result MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the command did not exit normally: '${_result}'")
endif()
if(EXPECT_EXIT STREQUAL "zero" AND NOT _result EQUAL 0)
  message(FATAL_ERROR "expected exit code 0, got ${_result}")
endif()
if(EXPECT_EXIT STREQUAL "nonzero" AND _result EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit code, got 0")
endif()
if(NOT "${_out}${_err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'")
endif()
