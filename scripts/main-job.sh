#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine (as root): install the
# dependencies, build the symshape command into build/bin/symshape, and run it
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
cmake --build "$BUILD_DIR" --target symshape_cli -j"$JOBS"
SYMSHAPE="$BUILD_DIR/bin/symshape"

# ---- What the job runs. -------------------------------------------------------
# For now: the expression engine on examples/expressions.txt. When models land in
# examples/models/, this becomes `"$SYMSHAPE" infer examples/models/....onnx --trace`.

# One expression per line; `#` starts a comment.
mapfile -t expressions < <(sed 's/#.*//; s/[[:space:]]*$//; /^[[:space:]]*$/d' examples/expressions.txt)
output=$("$SYMSHAPE" simplify "${expressions[@]}")
mapfile -t simplified <<<"$output"
if ((${#simplified[@]} != ${#expressions[@]})); then
  echo "main-job: symshape simplify printed ${#simplified[@]} lines for ${#expressions[@]} expressions" >&2
  exit 1
fi
echo
echo "symshape simplify (examples/expressions.txt):"
for i in "${!expressions[@]}"; do
  printf '  %-44s -> %s\n' "${expressions[$i]}" "${simplified[$i]}"
done

echo
echo "symshape eval: 7x7 stride-2 convolution over a 224-pixel image:"
"$SYMSHAPE" eval "(H + 2*pad - dilation*(kernel - 1) - 1)//stride + 1" \
  --bind H=224,pad=3,dilation=1,kernel=7,stride=2
