#!/usr/bin/env bash
# Builds symshape for the browser and Node (WebAssembly, Debian's emscripten):
# build-wasm/symshape.js (an emscripten module factory, `createSymshape`) and
# build-wasm/symshape.wasm, from web/wasm/symshape_wasm.cpp (`symshape infer`
# and `symshape report` on a model's bytes). One translation unit, so one
# compiler process (about a minute here); standard library only (no
# protobuf, no libonnx), no C++ exceptions (the library uses none).
#
#   bash scripts/build-wasm.sh
#
# Environment: SYMSHAPE_WASM_BUILD_DIR (default build-wasm). docs/wasm.md says
# how to serve web/index.html with it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

OUT=${SYMSHAPE_WASM_BUILD_DIR:-build-wasm}
command -v em++ >/dev/null || { echo "build-wasm: em++ not found (apt-get install emscripten; scripts/install-deps.sh)" >&2; exit 1; }
# Debian's emscripten runs its JavaScript tools with node and needs Debian's node
# modules (node-acorn); a node that is not Debian's own does not look there.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
VERSION=$(sed -n 's/^project(symshape VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
mkdir -p "$OUT/generated"
# `symshape report`'s page files as a header, as tools/symshape/CMakeLists.txt makes it.
cmake -DWEB_DIR=web/report -DOUT="$OUT/generated/report_page_files.hpp" -P tools/symshape/embed_web_files.cmake

flags=(
  -std=c++17 -O2 -Wall -Wextra -Werror -fno-exceptions
  -Iinclude -Itools/symshape -I"$OUT/generated" "-DSYMSHAPE_VERSION=\"$VERSION\""
  # A factory function instead of a global module; memory that grows with
  # the model; the same file for pages and for Node (tests/wasm).
  -sMODULARIZE=1 -sEXPORT_NAME=createSymshape -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web,node
  -sEXPORTED_FUNCTIONS=_symshape_infer_json,_symshape_report_json,_malloc,_free -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString
)
em++ "${flags[@]}" web/wasm/symshape_wasm.cpp -o "$OUT/symshape.js"
echo "build-wasm: wrote $OUT/symshape.js and $OUT/symshape.wasm"
