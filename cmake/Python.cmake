# symshape_python_default(VAR): VAR is ON when the Python package can be built
# here (symshape is the top-level project, not sanitized, C++ exceptions and
# RTTI not turned off, pybind11 and Python's development files found), else OFF with a
# STATUS message saying why. Prefers /usr/bin/python3 (Debian's pybind11-dev,
# python3-dev and python3-onnx belong to it, not to another python3 on PATH);
# -DPython3_EXECUTABLE=... chooses another. A macro: pybind11_add_module needs
# the variables that find_package sets, in the top directory's scope.
macro(symshape_python_default var)
  set(${var} OFF)
  if(NOT SYMSHAPE_TOP_LEVEL)
    # a consumer's add_subdirectory: nothing to say
  elseif(CMAKE_CXX_FLAGS MATCHES "-fno-exceptions|-fno-rtti")
    message(STATUS "symshape: Python package off (pybind11 needs C++ exceptions and RTTI, which "
                   "CMAKE_CXX_FLAGS turns off; the library and the command do not need them)")
  elseif(SYMSHAPE_SANITIZE)
    message(STATUS "symshape: Python package off in the sanitizer build (a sanitized extension needs the "
                   "sanitizer runtime preloaded into python)")
  else()
    if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
      set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The Python the package is built for")
    endif()
    find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
    if(NOT Python3_FOUND)
      message(STATUS "symshape: Python package off (no Python 3 development files: apt-get install python3-dev)")
    else()
      find_package(pybind11 CONFIG QUIET)
      if(NOT pybind11_FOUND)
        message(STATUS "symshape: Python package off (pybind11 not found: apt-get install pybind11-dev)")
      else()
        message(STATUS "symshape: Python package on (${Python3_EXECUTABLE}, pybind11 ${pybind11_VERSION})")
        set(${var} ON)
      endif()
    endif()
  endif()
endmacro()
