#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine (as root): install the
# dependencies, build the symshape command into build/bin/symshape (and the
# Python package into build/python when pybind11 is found), and run them
# on the examples in examples/.
#
#   bash scripts/main-job.sh
#
# Environment: SYMSHAPE_BUILD_DIR (default build), SYMSHAPE_JOBS (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SYMSHAPE_BUILD_DIR:-build}
JOBS=${SYMSHAPE_JOBS:-2}

bash scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYMSHAPE_BUILD_TOOLS=ON -DSYMSHAPE_SANITIZE=OFF
targets=(symshape_cli)
# The Python package too, when CMake found pybind11 (SYMSHAPE_BUILD_PYTHON).
python_on=0
if grep -q '^SYMSHAPE_BUILD_PYTHON:BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; then
  python_on=1
  targets+=(symshape_python)
fi
cmake --build "$BUILD_DIR" --target "${targets[@]}" -j"$JOBS"
SYMSHAPE="$BUILD_DIR/bin/symshape"

# ---- What the job runs. -------------------------------------------------------
# Infer every value of a small transformer block shipped in examples/models/
# (symbolic batch and seq), write the annotated model, and show the table of
# every value with concrete sizes at batch=2, seq=128.
MODEL=examples/models/transformer_block.onnx
OUT="$BUILD_DIR/transformer_block.inferred.onnx"
echo
echo "symshape infer $MODEL -o $OUT --trace"
"$SYMSHAPE" infer "$MODEL" -o "$OUT" --trace
echo
echo "symshape show $MODEL --bind batch=2,seq=128"
"$SYMSHAPE" show "$MODEL" --bind batch=2,seq=128
echo
echo "symshape simplify: a stride-2 convolution's output size, and a cancelling sum"
"$SYMSHAPE" simplify "(H + 2*1 - 1*(3 - 1) - 1)//2 + 1" "past + seq - past + CeilToInt(seq, 8)*8 - 8*((seq + 7)//8)"
echo
echo "symshape profile: FLOPs and memory of a GPT-2-like decoder as formulas of batch, seq, past"
"$SYMSHAPE" profile examples/models/gpt2_like.onnx --bind batch=1,seq=128,past=0 --by op
echo
REPORT="$BUILD_DIR/transformer_block.report.html"
echo "symshape report $MODEL -o $REPORT --bind batch=2,seq=128: one HTML page (graph, live bindings, profile)"
"$SYMSHAPE" report "$MODEL" -o "$REPORT" --bind batch=2,seq=128
echo "open $REPORT in a browser (file://), e.g. $REPORT#batch=8&seq=512"
if ((python_on)); then
  echo
  echo "Python: examples/python/quickstart.py (a custom operator in Python, the report, dims)"
  PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/python/quickstart.py
fi
