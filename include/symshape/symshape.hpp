// Everything in the core: expressions, shapes and types, the IR, the engine
// and the built-in rules. Standard library only (no protobuf: see
// symshape/onnx/ for the ONNX adapter).
#pragma once

#include "symshape/dim.hpp"
#include "symshape/expr.hpp"
#include "symshape/infer/context.hpp"
#include "symshape/infer/contracts.hpp"
#include "symshape/infer/engine.hpp"
#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ir/builder.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/ops/all.hpp"
#include "symshape/ops/schemas.hpp"
#include "symshape/shape.hpp"
#include "symshape/types.hpp"

namespace symshape {

// Infers the type and shape of every value of `model` in place, each node
// checked against its ONNX schema first.
inline Report infer_shapes(Model& model, const InferenceOptions& options = {}) {
  return infer_shapes_with(ops::kBuiltinRules, model, options, ops::kSchemas);
}

// Infers `model` assuming its contracts (see infer/contracts.hpp): after a
// run, the input symbols its contracts determine are substituted in a fresh
// copy of the model from `reload()` (inference changes a model in place), which
// is inferred again; at most kMaxAssumptionRounds runs. `model` ends as the
// last run left it; `assumptions` lists every substitution made.
inline constexpr int kMaxAssumptionRounds = 4;
template <class Reload>
Report infer_shapes_assuming_contracts(Model& model, Reload reload, const InferenceOptions& options,
                                       std::vector<Assumption>& assumptions) {
  const std::set<std::string> declared = declared_symbols(model);
  Substitution assumed;
  Report report = infer_shapes(model, options);
  for (int round = 1; round < kMaxAssumptionRounds; ++round) {
    std::vector<Assumption> added = choose_assumptions(report.contracts, declared, assumed);
    if (added.empty()) break;
    assumptions.insert(assumptions.end(), added.begin(), added.end());
    model = reload();
    assume_in_inputs(model, assumed);
    report = infer_shapes(model, options);
  }
  return report;
}

}  // namespace symshape
