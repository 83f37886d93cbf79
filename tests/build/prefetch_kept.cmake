# build.prefetch_kept: compiles prefetch_kept.cpp to assembly at -O2 with the
# build's compiler and requires a prefetch instruction in it (x86-64).
#   -DCXX=compiler -DSOURCE=prefetch_kept.cpp -DINCLUDE_DIR=include -DOUT=file.s
execute_process(COMMAND ${CXX} -std=c++17 -O2 -I${INCLUDE_DIR} -S ${SOURCE} -o ${OUT}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} did not compile:\n${err}")
endif()
file(READ ${OUT} assembly)
if(NOT assembly MATCHES "[ \t]prefetch(t0|t1|t2|nta|w)[ \t]")
  message(FATAL_ERROR "${OUT} has no prefetch instruction: the compiler dropped NameIndex::prefetch")
endif()
message(STATUS "prefetch kept in ${OUT}")
