# tune.writes-profile: tessera-tune with the smallest budget writes a
# profile that parses, and tessera-cli applies it through TESSERA_PROFILE.
file(REMOVE "${OUT}")
execute_process(COMMAND "${TUNE}" --budget 10s --dtypes f32 --out "${OUT}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tessera-tune exited ${rc}\n${out}\n${err}")
endif()
if(NOT out MATCHES "wrote .*tune-test-profile.json")
  message(FATAL_ERROR "tessera-tune did not say it wrote the profile:\n${out}")
endif()
file(READ "${OUT}" json)
string(JSON version GET "${json}" tessera_profile)
if(NOT version EQUAL 1)
  message(FATAL_ERROR "the profile's format version is '${version}':\n${json}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "TESSERA_PROFILE=${OUT}" "${CLI}" info
  RESULT_VARIABLE rc OUTPUT_VARIABLE info ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT info MATCHES "profile: +applied from TESSERA_PROFILE='")
  message(FATAL_ERROR "tessera-cli did not apply the profile (exit ${rc}):\n${info}\n${err}")
endif()
message(STATUS "tessera-tune wrote a profile tessera-cli applies:\n${out}")
