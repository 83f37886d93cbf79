# ctest bench_whole_process_smoke: generates three small models (squeezenet with its
# real-size initializers, a 2-layer transformer, a 1k-node chain) and runs
# bench/whole_process.py once on them. Fails if a command fails, never on timings.
# -D PYTHON, SRC (bench/), OUT (scratch folder), SYMSHAPE, ONNX_REF.
file(REMOVE_RECURSE ${OUT})
execute_process(
  COMMAND ${PYTHON} ${SRC}/gen_whole_models.py --out ${OUT} --cnns squeezenet --layers 2 --chains 1000
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_whole_models.py failed: ${rc}")
endif()
execute_process(
  COMMAND ${PYTHON} ${SRC}/whole_process.py --symshape ${SYMSHAPE} --onnx-ref ${ONNX_REF} --models ${OUT} --reps 1
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "whole_process.py failed: ${rc}")
endif()
file(REMOVE_RECURSE ${OUT})
