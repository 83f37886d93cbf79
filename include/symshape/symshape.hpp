// Everything in the core: expressions, shapes and types, the IR, the engine
// and the built-in rules. Standard library only (no protobuf: see
// symshape/onnx/ for the ONNX adapter).
//
// Two build modes (docs/library.md, "Build modes"):
// - header-only (the default, CMake target symshape::symshape): this header
//   defines infer_shapes inline, so the translation unit that calls it
//   compiles every built-in rule (include/symshape/ops/);
// - precompiled (SYMSHAPE_COMPILED defined, as the CMake target
//   symshape::compiled does for its users): this header only declares
//   infer_shapes and does not read the rule headers; src/symshape.cpp,
//   built once into the library, defines it. Every translation unit of a
//   program must use the same mode (the definitions differ).
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
#include "symshape/shape.hpp"
#include "symshape/support/build_mode.hpp"  // mixing the modes fails at link time
#include "symshape/types.hpp"

// The library's own translation unit (src/symshape.cpp) defines
// SYMSHAPE_COMPILED_DEFINE to receive the out-of-line definitions.
#if !defined(SYMSHAPE_COMPILED) || defined(SYMSHAPE_COMPILED_DEFINE)
#include "symshape/ops/all.hpp"
#include "symshape/ops/schemas.hpp"
#else
#include "symshape/api.hpp"  // the declaration of infer_shapes
#endif

#if !defined(SYMSHAPE_COMPILED)
#define SYMSHAPE_API_INLINE inline
#else
#define SYMSHAPE_API_INLINE
#endif

namespace symshape {

// Infers the type and shape of every value of `model` in place, each node
// checked against its ONNX schema first. (The precompiled mode declares it in
// symshape/api.hpp, included above.)
#if !defined(SYMSHAPE_COMPILED) || defined(SYMSHAPE_COMPILED_DEFINE)
SYMSHAPE_API_INLINE Report infer_shapes(Model& model, const InferenceOptions& options = {}) {
  return infer_shapes_with(ops::kBuiltinRules, model, options, ops::kSchemas);
}
#endif

// The built-in rule table and operator schemas, for callers that call
// infer_shapes_with with them (rules added at run time need not: they go in
// InferenceOptions::user_rules).
#if defined(SYMSHAPE_COMPILED) && !defined(SYMSHAPE_COMPILED_DEFINE)
RuleTable builtin_rule_table();
SchemaTable builtin_schema_table();
#else
SYMSHAPE_API_INLINE RuleTable builtin_rule_table() { return ops::kBuiltinRules; }
SYMSHAPE_API_INLINE SchemaTable builtin_schema_table() { return ops::kSchemas; }
#endif

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
  InferenceOptions with_facts = options;  // plus the contracts' conditions
  Report report = infer_shapes(model, options);
  for (int round = 1; round < kMaxAssumptionRounds; ++round) {
    std::vector<Assumption> added = choose_assumptions(report.contracts, declared, assumed);
    std::vector<Assumption> conditions = choose_conditions(report.contracts, with_facts.assume_from_contracts);
    added.insert(added.end(), conditions.begin(), conditions.end());
    if (added.empty()) break;
    assumptions.insert(assumptions.end(), added.begin(), added.end());
    model = reload();
    assume_in_inputs(model, assumed);
    report = infer_shapes(model, with_facts);
  }
  return report;
}

}  // namespace symshape

#undef SYMSHAPE_API_INLINE
