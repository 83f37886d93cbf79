#!/usr/bin/env bash
# Builds and runs the model fuzz target tests/fuzz/fuzz_engine.cpp (ONNX loader
# + inference engine + writer; libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer, clang++ -O1) for a bounded time.
#
#   tests/fuzz/run_fuzz_engine.sh build
#   tests/fuzz/run_fuzz_engine.sh run MODE SECONDS [extra libFuzzer flags...]
#   tests/fuzz/run_fuzz_engine.sh MODE SECONDS [...]   (build if needed, then run)
#
# MODE: structure (the custom mutator: model-level mutations of the seeds) or
# bytes (libFuzzer's byte mutations only, SYMSHAPE_FUZZ_MUTATOR=bytes).
# Seeds (read only): tests/fuzz/corpus_models/ (small valid models),
# tests/fuzz/regressions/ (past findings), tests/data/onnx-light/ (referenced,
# not copied: four of them are 67-214 KB). New inputs go to a corpus folder.
# Environment: CLANGXX (default clang++); SYMSHAPE_FUZZ_BUILD (folder of the
# binary, default build-fuzz-engine); SYMSHAPE_FUZZ_CORPUS (the folder new
# inputs are written to, default: a temporary one); SYMSHAPE_FUZZ_ARTIFACTS
# (where a crashing input is saved, default: the current folder).
# Exits non-zero on any finding (crash, sanitizer report, timeout, leak, OOM).
# Replay a finding: SYMSHAPE_FUZZ_BUILD/fuzz_engine FILE (or add it to
# tests/fuzz/regressions/ and run build/bin/fuzz_regressions_test).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cxx="${CLANGXX:-clang++}"
dir="${SYMSHAPE_FUZZ_BUILD:-$root/build-fuzz-engine}"
exe="$dir/fuzz_engine"
artifacts="${SYMSHAPE_FUZZ_ARTIFACTS:-$PWD}"

build() {
  mkdir -p "$dir"
  echo "run_fuzz_engine: building $exe with $cxx (1-3 minutes)"
  "$cxx" -std=c++17 -O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Wall -Wextra -DONNX_NAMESPACE=onnx -DONNX_ML=1 -I"$root/include" \
    "$here/fuzz_engine.cpp" -o "$exe.tmp" -lonnx_proto -lprotobuf -lpthread
  mv "$exe.tmp" "$exe"
}

stale() {
  [[ ! -x $exe || $here/fuzz_engine.cpp -nt $exe || $here/facts_run.hpp -nt $exe || -n $(find "$root/include" -newer "$exe" -name '*.hpp' -print -quit) ]]
}

run() {
  local mode=$1 seconds=$2
  shift 2
  case $mode in
    structure) export SYMSHAPE_FUZZ_MUTATOR=structure ;;
    bytes) export SYMSHAPE_FUZZ_MUTATOR=bytes ;;
    *) echo "run_fuzz_engine: MODE is structure or bytes, not '$mode'" >&2; exit 2 ;;
  esac
  [[ -x $exe ]] || { echo "run_fuzz_engine: $exe missing (run: $0 build)" >&2; exit 2; }
  local corpus="${SYMSHAPE_FUZZ_CORPUS:-}"
  if [[ -z $corpus ]]; then
    corpus="$(mktemp -d "${TMPDIR:-/tmp}/symshape-fuzz-engine.XXXXXX")"
    trap "rm -rf '$corpus'" EXIT  # expanded now: the EXIT trap runs outside this function
  fi
  mkdir -p "$corpus" "$artifacts"
  local seeds=("$here/corpus_models" "$root/tests/data/onnx-light")
  [[ -d $here/regressions ]] && seeds+=("$here/regressions")
  echo "run_fuzz_engine: $mode mutations for ${seconds} s"
  "$exe" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 \
    -artifact_prefix="$artifacts/fuzz_engine-$mode-" -print_final_stats=1 "$@"
  echo "run_fuzz_engine: no failure in ${seconds} s ($mode)"
}

case "${1:-}" in
  build) build ;;
  run) shift; run "$@" ;;
  structure | bytes) if stale; then build; fi; run "$@" ;;
  *) sed -n '2,22p' "$0" >&2; exit 2 ;;
esac
