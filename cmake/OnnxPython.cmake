# symshape_find_onnx_python(VAR): VAR is a python3 that imports onnx and numpy
# (Debian's python3-onnx belongs to /usr/bin/python3, not to another python3 on
# PATH), or empty when there is none. Tests and benchmarks that make or check
# ONNX models with it are registered only when it is found.
function(symshape_find_onnx_python var)
  find_program(SYMSHAPE_ONNX_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  set(found "")
  if(SYMSHAPE_ONNX_PYTHON)
    execute_process(COMMAND ${SYMSHAPE_ONNX_PYTHON} -c "import onnx, numpy" RESULT_VARIABLE missing
                    OUTPUT_QUIET ERROR_QUIET)
    if(NOT missing)
      set(found ${SYMSHAPE_ONNX_PYTHON})
    endif()
  endif()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()
