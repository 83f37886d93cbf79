// Everything in the core: expressions, shapes and types, the IR, the engine
// and the built-in rules. Standard library only (no protobuf: see
// symshape/onnx/ for the ONNX adapter).
#pragma once

#include "symshape/dim.hpp"
#include "symshape/expr.hpp"
#include "symshape/infer/context.hpp"
#include "symshape/infer/engine.hpp"
#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ir/builder.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/ops/all.hpp"
#include "symshape/shape.hpp"
#include "symshape/types.hpp"

namespace symshape {

// Infers the type and shape of every value of `model` in place.
inline Report infer_shapes(Model& model, const InferenceOptions& options = {}) {
  return infer_shapes_with(ops::kBuiltinRules, model, options);
}

}  // namespace symshape
