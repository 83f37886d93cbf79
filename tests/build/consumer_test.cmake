# ctest entries build.consumer_* (cmake -P): builds tests/build/consumer as a
# separate project that uses symshape, then runs it.
#   MODE=find_package      configure, build and `cmake --install` symshape into
#                          WORK_DIR/prefix, then find_package(symshape) from there
#   MODE=add_subdirectory  the consumer add_subdirectory()s the source tree
# Inputs (-D): MODE SOURCE_DIR CONSUMER_DIR WORK_DIR GENERATOR CXX_COMPILER BUILD_TYPE.
cmake_minimum_required(VERSION 3.16)

foreach(var MODE SOURCE_DIR CONSUMER_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

# Runs a command, echoing it; stops with its output on failure.
function(run)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "$ ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${shown}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(common -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)

if(MODE STREQUAL "find_package")
  set(prefix ${WORK_DIR}/prefix)
  # The README's install recipe, as an embedded toolchain runs it: without C++
  # exceptions and RTTI (the library needs neither; the Python package, which
  # does, is left out with a message).
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/symshape-build ${common}
    -DCMAKE_INSTALL_PREFIX=${prefix} "-DCMAKE_CXX_FLAGS=-fno-exceptions -fno-rtti"
    -DSYMSHAPE_BUILD_TESTS=OFF -DSYMSHAPE_BUILD_BENCH=OFF
    -DSYMSHAPE_BUILD_EXAMPLES=OFF -DSYMSHAPE_BUILD_TOOLS=OFF)
  if(NOT last_output MATCHES "Python package off \\(pybind11 needs C\\+\\+ exceptions and RTTI")
    message(FATAL_ERROR "configuring with -fno-exceptions -fno-rtti did not say the Python package is off:\n${last_output}")
  endif()
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/symshape-build -j2)
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/symshape-build --prefix ${prefix})
  file(GLOB_RECURSE installed RELATIVE ${prefix} ${prefix}/*)
  list(LENGTH installed n_installed)
  message(STATUS "installed ${n_installed} files into ${prefix}")
  foreach(expected include/symshape/expr.hpp)
    if(NOT EXISTS ${prefix}/${expected})
      message(FATAL_ERROR "cmake --install did not install ${expected}; installed:\n${installed}")
    endif()
  endforeach()
  file(GLOB compiled_library ${prefix}/lib*/libsymshape.a)  # lib or lib64, as GNUInstallDirs chose
  if(NOT compiled_library)
    message(FATAL_ERROR "cmake --install did not install the precompiled library libsymshape.a; installed:\n${installed}")
  endif()
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build ${common}
    -DSYMSHAPE_CONSUMER_MODE=find_package
    -DCMAKE_PREFIX_PATH=${prefix} -DSYMSHAPE_EXPECTED_PREFIX=${prefix})
elseif(MODE STREQUAL "add_subdirectory")
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build ${common}
    -DSYMSHAPE_CONSUMER_MODE=add_subdirectory -DSYMSHAPE_SOURCE_DIR=${SOURCE_DIR})
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()

run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build -j2)
# consumer: header-only (symshape::symshape); consumer_compiled: the precompiled
# mode (symshape::compiled).
foreach(name consumer consumer_compiled)
  set(consumer_exe ${WORK_DIR}/consumer-build/${name})
  if(NOT EXISTS ${consumer_exe})
    message(FATAL_ERROR "the build made no ${consumer_exe}")
  endif()
  run(${consumer_exe})
  message(STATUS "${last_output}")
  if(NOT last_output MATCHES "${name}: ok")
    message(FATAL_ERROR "${name} did not report success")
  endif()
endforeach()
