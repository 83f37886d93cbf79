// Helpers of the profile tests: a one-node model (op_test_util's Op) or a
// built model, inferred (without errors) and profiled.
#pragma once

#include <string>
#include <vector>

#include "infer/graph_test_util.hpp"
#include "symshape/profile/profile.hpp"

namespace symshape::testing {

// The canonical form of a formula written by hand ("2*B*S*32*64").
inline std::string canon(const std::string& text) {
  Result<Expr> e = parse_expr(text);
  return e ? to_string(*e) : "parse error: " + e.error();
}

inline profile::ModelProfile infer_and_profile(Model& m) {
  const Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  return profile::profile_model(m, builtin_rule_table());
}

// The FLOP count of the one node of Op(...).model(inputs, attrs).
inline profile::FlopCount node_flops(const Op& op, const std::vector<In>& inputs, std::vector<Attribute> attrs = {}) {
  Model m = op.model(inputs, std::move(attrs));
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.nodes.size(), 1u);
  return p.nodes.empty() ? profile::FlopCount{} : p.nodes[0].flops;
}

// The value of a profile quantity at the bindings; -1 when it does not evaluate.
inline int64_t value_at(const SymbolicDim& q, const Bindings& b) {
  if (q.is_unknown()) return -1;
  Result<int64_t> v = evaluate(q.expr(), b);
  return v ? *v : -1;
}

}  // namespace symshape::testing
