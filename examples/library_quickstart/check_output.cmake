# Runs PROGRAM [ARGS] (a ;-list) and compares its stdout with the file EXPECTED; the
# exit code must be 0 and stderr empty.
#   cmake -DPROGRAM=... -DEXPECTED=... [-DARGS=a;b] -P check_output.cmake
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${EXPECTED} expected)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT err STREQUAL "")
  message(FATAL_ERROR "${PROGRAM} wrote to stderr:\n${err}")
endif()
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "${PROGRAM}: stdout differs from ${EXPECTED}\n--- got:\n${out}--- expected:\n${expected}")
endif()
