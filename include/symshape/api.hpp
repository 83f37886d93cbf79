// The entry point alone: infer_shapes, the Report it returns and the
// InferenceOptions it takes, for a translation unit that infers models it
// gets from elsewhere (loaded or built in another unit).
// - precompiled mode (SYMSHAPE_COMPILED, CMake target symshape::compiled):
//   declarations only, without the IR, the engine or the rules, so such a
//   unit compiles in well under a second (docs/benchmarks.md, "Build cost");
//   src/symshape.cpp defines infer_shapes;
// - header-only mode: symshape/symshape.hpp (infer_shapes is defined inline
//   and compiles every built-in rule).
#pragma once

#if defined(SYMSHAPE_COMPILED) && !defined(SYMSHAPE_COMPILED_DEFINE)

#include "symshape/infer/diagnostics.hpp"
#include "symshape/infer/options.hpp"

namespace symshape {

struct Model;  // symshape/ir/graph.hpp

// Infers the type and shape of every value of `model` in place, each node
// checked against its ONNX schema first.
Report infer_shapes(Model& model, const InferenceOptions& options = {});

}  // namespace symshape

#else
#include "symshape/symshape.hpp"
#endif
