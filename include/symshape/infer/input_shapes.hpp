// New shapes for a model's graph inputs before inference (`symshape infer
// --input-shape`, the Python package's input_shapes).
#pragma once

#include <string>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/shape.hpp"

namespace symshape {

// The shape one graph input is given.
struct InputShape {
  std::string name;
  Shape shape;
};

// Replaces the dims of the graph inputs named in `shapes` (the element type
// stays). New input shapes make earlier types of node outputs (value_info,
// declared output types, e.g. from a previous run) stale: those are dropped
// and inferred afresh. Returns the problem, prefixed by `option` and naming
// the model as `model_name`, or "".
inline std::string set_input_shapes(const std::string& option, const std::vector<InputShape>& shapes,
                                    const std::string& model_name, Model& model) {
  for (const InputShape& s : shapes) {
    Value* v = nullptr;
    for (Value* in : model.graph->inputs)
      if (in && in->name == s.name) v = in;
    if (!v) {  // most likely a typo: name the inputs there are
      std::string names;
      for (const Value* in : model.graph->inputs)
        if (in && !in->initializer) names += (names.empty() ? "" : ", ") + in->name;
      return option + ": '" + s.name + "' is not an input of " + model_name +
             " (its inputs: " + (names.empty() ? std::string("none") : names) + ")";
    }
    if (!v->type.is_tensor_like() && !v->type.is_unknown()) return option + ": input '" + s.name + "' is not a tensor";
    const DataType dt = v->type.is_unknown() ? DataType::UNDEFINED : v->type.elem_type();
    v->type = v->type.kind() == Type::Kind::SparseTensor ? Type::sparse_tensor(dt, s.shape) : Type::tensor(dt, s.shape);
  }
  if (!shapes.empty())
    for (Node* n : model.graph->nodes)
      for (Value* out : n->outputs)
        if (out) out->type = Type();
  return std::string();
}

}  // namespace symshape
