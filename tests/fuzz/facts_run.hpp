// The model fuzz target's run under facts, shared with regressions_test.cpp so
// that a finding replays the same way: a fact on each symbol of the graph
// inputs (chosen from its name), a bound on the sum of two of them, every
// input dim >= 1 (assume_nonempty), and the model's contracts assumed
// (infer_shapes_assuming_contracts, which reloads the model from the proto for
// each of its rounds). Only a crash or a sanitizer report is a finding: a fact
// that does not parse or contradicts the others gives an error, as it should.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "symshape/onnx/proto.hpp"
#include "symshape/symshape.hpp"

namespace symshape::fuzz {

inline InferenceOptions options_with_facts(const Graph& graph) {
  // Bounds, a modulus and a bound near int64's limit.
  static const char* const kFacts[] = {"<=64", ">=2", "%8==0", "<=2048", "<=4611686018427387904"};
  InferenceOptions options;
  options.assume_nonempty = true;
  std::set<std::string> seen;
  std::string previous;
  for (const Value* input : graph.inputs) {
    for (const SymbolicDim& dim : input->type.shape().dims()) {
      if (!dim.is_symbolic() || !dim.expr().is_symbol() || !seen.insert(dim.expr().name()).second) continue;
      const std::string& name = dim.expr().name();
      std::size_t sum = 0;
      for (const char c : name) sum += static_cast<unsigned char>(c);
      options.assume.push_back(name + kFacts[sum % 5]);
      if (!previous.empty()) options.assume.push_back(previous + "+" + name + "<=100");
      previous = name;
    }
  }
  return options;
}

// Nothing when the proto does not load.
inline Report infer_under_facts(const ::onnx::ModelProto& proto) {
  Result<Model> model = onnx::load_model_proto(proto);
  if (!model) return {};
  const InferenceOptions options = options_with_facts(*model->graph);
  const auto reload = [&proto] { return std::move(onnx::load_model_proto(proto).value()); };
  std::vector<Assumption> assumptions;
  return infer_shapes_assuming_contracts(model.value(), reload, options, assumptions);
}

}  // namespace symshape::fuzz
