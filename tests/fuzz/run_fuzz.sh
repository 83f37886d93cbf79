#!/usr/bin/env bash
# Builds the parser fuzz target (libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer, clang++) in a temporary folder and runs it for a
# bounded time on the seed corpus in tests/fuzz/corpus/ and the past findings in
# tests/fuzz/regressions/parse/, with the grammar's tokens as a dictionary
# (expr.dict). See tests/fuzz/README.md.
#
# Usage: tests/fuzz/run_fuzz.sh [SECONDS]      (default 30)
# Environment: CLANGXX (default clang++); SYMSHAPE_FUZZ_ARTIFACTS, the folder
# where a crashing input is saved (default: the current folder).
# Exits non-zero if the target finds a crash, a leak or a round-trip mismatch.
set -euo pipefail

seconds="${1:-30}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cxx="${CLANGXX:-clang++}"
artifacts="${SYMSHAPE_FUZZ_ARTIFACTS:-$PWD}"

work="$(mktemp -d "${TMPDIR:-/tmp}/symshape-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "run_fuzz: building with $cxx"
"$cxx" -std=c++17 -O1 -gline-tables-only -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Wall -Wextra -I"$root/include" "$here/fuzz_parse.cpp" -o "$work/fuzz_parse"

# New inputs go to the first (temporary) corpus folder; the seeds are only read.
mkdir -p "$work/corpus" "$artifacts"
echo "run_fuzz: fuzzing for ${seconds} s"
"$work/fuzz_parse" -max_total_time="$seconds" -max_len=256 -timeout=10 -rss_limit_mb=4096 \
  -dict="$here/expr.dict" -print_final_stats=1 -artifact_prefix="$artifacts/fuzz_parse-" \
  "$work/corpus" "$here/corpus" "$here/regressions/parse"
echo "run_fuzz: no failure in ${seconds} s"
