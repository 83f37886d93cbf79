// FLOP counts of `symshape profile`. Each operator's count is registered with
// its shape rule (`ai_onnx("Conv", 1, 11, 22).cost(count_conv)`, the count
// beside the rule in ops/); count_flops finds a node's row in the rule table
// the profile is given and calls its count. An operator without one is "not
// counted", never a silent 0. docs/profile.md lists every convention; a
// multiply-accumulate is 2 FLOPs.
#pragma once

#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>

#include "symshape/infer/cost.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/infer/versioned_lookup.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/ops/common/costs.hpp"

namespace symshape::profile {

// The count types, as the profile has always named them.
using symshape::CountContext;
using symshape::counted;
using symshape::FlopCount;
using symshape::FlopKind;
using symshape::no_arithmetic;
using symshape::not_counted;
using CountFn = CostFn;

// Counts of operators without a shape rule to register them with:
// LayerNormalization and SimplifiedLayerNormalization written in
// com.microsoft (the rules serve them in ai.onnx, where onnxruntime registers
// them), counted as before the counts moved to the rules. Sorted; a test
// checks that no rule row exists for them.
struct CostWithoutRule {
  std::string_view domain;
  std::string_view op_type;
  int since_version = 1;
  CostFn cost = nullptr;
};
inline constexpr CostWithoutRule kCostsWithoutRule[] = {
    {"com.microsoft", "LayerNormalization", 1, &ops::count_layer_norm},
    {"com.microsoft", "SimplifiedLayerNormalization", 1, &ops::count_layer_norm},
};

// The rule row whose count serves node n: the one the engine resolves (the
// largest since_version <= the model's opset of the domain). A count holds
// for every version of its operator, so a node that opset does not reach (a
// domain not imported, an opset below the first version) takes the
// operator's first row. User rules (UserRules) have no counts: a node one of
// them serves is counted by its operator's row in the table.
inline const RuleEntry* cost_row(const Node& n, const CountContext& ctx) {
  const std::string_view domain = canonical_domain(n.domain);
  const int64_t opset = ctx.model ? ctx.model->opset(std::string(domain)) : 0;
  if (const RuleEntry* row = newest_at(ctx.rules, ctx.rule_count, domain, n.op_type, opset)) return row;
  const RuleEntry* row = newest_at(ctx.rules, ctx.rule_count, domain, n.op_type, std::numeric_limits<int64_t>::max());
  while (row && row != ctx.rules && (row - 1)->domain == row->domain && (row - 1)->op_type == row->op_type) --row;
  return row;
}

// The FLOPs of one node (one execution of it); an operator without a count
// is NotCounted with the reason, never a silent 0.
inline FlopCount count_flops(const Node& n, const CountContext& ctx) {
  const std::string_view domain = canonical_domain(n.domain);
  CostFn cost = nullptr;
  if (const RuleEntry* row = cost_row(n, ctx)) {
    cost = row->cost;
  } else if (const CostWithoutRule* c =
                 newest_at(kCostsWithoutRule, std::size(kCostsWithoutRule), domain, n.op_type, 1)) {
    cost = c->cost;
  }
  if (!cost)
    return not_counted("not counted: no FLOP convention for " + std::string(domain_title(domain)) + "::" + n.op_type);
  return cost(n, ctx);
}

// The context of counting a model's nodes with the counts of table `rules`.
inline CountContext count_context(const Model& model, RuleTable rules) {
  CountContext ctx;
  ctx.onnx_opset = model.opset("");
  ctx.count_node = &count_flops;
  ctx.rules = rules.entries;
  ctx.rule_count = rules.size;
  ctx.model = &model;
  return ctx;
}

}  // namespace symshape::profile
