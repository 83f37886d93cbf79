#!/usr/bin/env bash
# The tests, from a fresh Debian 12 machine (as root): install the dependencies,
# build and run every test, then build the tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer and run them, except those labelled slow or fuzz (the
# sanitizer build also leaves out the checks that only compile, tests/build, and
# runs the expression property test on 25,000 expressions instead of 100,000).
# The WebAssembly module is built first (scripts/build-wasm.sh, about a minute)
# and compared with the command under Node by the main build's tests (label
# wasm, about a minute and a half). Also checks that the C++ sources are formatted
# (scripts/check-format.sh).
#
#   bash scripts/test.sh
#
# Leaves the command at build/bin/symshape. Exits non-zero on any failure.
# Environment: SYMSHAPE_BUILD_DIR (default build), SYMSHAPE_WASM_BUILD_DIR
# (default build-wasm), SYMSHAPE_SANITIZE_BUILD_DIR
# (default build-sanitize), SYMSHAPE_JOBS (default 2), SYMSHAPE_SANITIZE_CXX (the
# compiler of the sanitizer build: clang++, a second compiler next to the main
# build's g++; g++ if clang++ is missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SYMSHAPE_BUILD_DIR:-build}
WASM_DIR=${SYMSHAPE_WASM_BUILD_DIR:-build-wasm}
SANITIZE_DIR=${SYMSHAPE_SANITIZE_BUILD_DIR:-build-sanitize}
JOBS=${SYMSHAPE_JOBS:-2}
START=$SECONDS

step() { printf '\n==== %s  [%dm%02ds]\n' "$*" $(((SECONDS - START) / 60)) $(((SECONDS - START) % 60)); }

step "dependencies"
bash scripts/install-deps.sh

step "format (clang-format, .clang-format)"
format_rc=0
bash scripts/check-format.sh || format_rc=$?

SANITIZE_CXX=${SYMSHAPE_SANITIZE_CXX:-$(command -v clang++ || command -v g++)}

step "build $WASM_DIR (WebAssembly, scripts/build-wasm.sh)"
SYMSHAPE_WASM_BUILD_DIR=$WASM_DIR bash scripts/build-wasm.sh

step "configure $BUILD_DIR (RelWithDebInfo, tests on, the WebAssembly module's tests too)"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYMSHAPE_BUILD_TESTS=ON -DSYMSHAPE_SANITIZE=OFF -DSYMSHAPE_WERROR=ON \
  -DSYMSHAPE_WASM_TESTS=ON -DSYMSHAPE_WASM_DIR="$(realpath "$WASM_DIR")"
step "build $BUILD_DIR"
cmake --build "$BUILD_DIR" -j"$JOBS"
step "test $BUILD_DIR"
main_rc=0
(cd "$BUILD_DIR" && ctest --output-on-failure --no-tests=error --timeout 900 -j"$JOBS") || main_rc=$?

step "configure $SANITIZE_DIR (ASan + UBSan, $SANITIZE_CXX)"
# -O1 with line tables only: sanitizer reports keep file:line, and the build stays short.
cmake -S . -B "$SANITIZE_DIR" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_COMPILER="$SANITIZE_CXX" \
  -DSYMSHAPE_SANITIZE=ON -DSYMSHAPE_WERROR=ON -DSYMSHAPE_BUILD_TESTS=ON -DSYMSHAPE_BUILD_BENCH=OFF -DSYMSHAPE_BUILD_EXAMPLES=OFF
step "build $SANITIZE_DIR"
cmake --build "$SANITIZE_DIR" -j"$JOBS"
step "test $SANITIZE_DIR (not slow, not fuzz)"
sanitize_rc=0
(cd "$SANITIZE_DIR" &&
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  ctest --output-on-failure --no-tests=error --timeout 900 -j"$JOBS" -LE 'slow|fuzz') || sanitize_rc=$?

step "done"
echo "format:                         $([[ $format_rc == 0 ]] && echo clean || echo "NOT CLEAN (bash scripts/check-format.sh --fix)")"
echo "tests ($BUILD_DIR):              $([[ $main_rc == 0 ]] && echo passed || echo "FAILED ($main_rc)")"
echo "sanitized tests ($SANITIZE_DIR): $([[ $sanitize_rc == 0 ]] && echo passed || echo "FAILED ($sanitize_rc)")"
((format_rc == 0 && main_rc == 0 && sanitize_rc == 0))
