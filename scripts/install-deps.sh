#!/usr/bin/env bash
# Installs what building, testing and benchmarking symshape needs on Debian 12.
# Run as root (or with sudo available). Only missing packages are installed; when
# everything is present it returns at once without touching apt.
set -euo pipefail

PACKAGES=(
  build-essential cmake g++                   # the build
  clang libclang-rt-14-dev                    # second compiler, its sanitizer runtimes
  clang-format                                # scripts/check-format.sh
  libonnx-dev libprotobuf-dev protobuf-compiler  # the onnx adapter and the command
  libgtest-dev libbenchmark-dev               # tests and benchmarks
  libonnx-testdata                            # ONNX backend node tests (conformance)
  python3-onnx python3-sympy                  # reference implementations for comparisons
  pybind11-dev python3-dev python3-pytest     # the Python package (python/) and its tests
  python3-setuptools python3-wheel python3-pip  # pip install . of the Python package
  nodejs chromium                             # the report page's tests (tests/report/): Node and headless Chromium
  firefox-esr                                 # the same tests in headless Firefox (report.browser_firefox)
  emscripten                                  # the WebAssembly build and its tests (scripts/build-wasm.sh, tests/wasm)
)

missing=()
for package in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [[ "$status" == installed ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (missing: ${missing[*]})" >&2; exit 1; }
  SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
