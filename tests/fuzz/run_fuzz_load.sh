#!/usr/bin/env bash
# The byte-level fuzzing of the ONNX loader + inference engine + writer: the
# model fuzz target tests/fuzz/fuzz_engine.cpp with SYMSHAPE_FUZZ_MUTATOR=bytes
# (libFuzzer's byte mutations only; formerly the separate target fuzz_load).
#
#   tests/fuzz/run_fuzz_load.sh [SECONDS=60] [extra libFuzzer flags...]
#
# Builds the target if needed; environment and outputs as in run_fuzz_engine.sh.
set -euo pipefail
seconds=${1:-60}
shift || true
exec bash "$(dirname "${BASH_SOURCE[0]}")/run_fuzz_engine.sh" bytes "$seconds" "$@"
