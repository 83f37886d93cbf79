// The cost of a node: the FLOP count each rule's registration names beside
// it (`ai_onnx("Conv", 1, 11, 22).cost(count_conv)`, registry.hpp), as tract
// puts `cost` beside `output_facts`. A count function is a formula of the
// node's inferred shapes; `symshape profile` (profile/counts.hpp) calls the
// one of the node's rule row. The functions live with their rules in ops/
// (those that two families share in ops/common/costs.hpp); docs/profile.md
// lists the conventions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "symshape/ir/graph.hpp"

namespace symshape {

enum class FlopKind {
  Counted,       // `flops` is the count (unknown when a dim it needs is unknown)
  NoArithmetic,  // data movement (Reshape, Gather, Cast...): 0 by definition
  NotCounted,    // no convention, or a subgraph whose trip count is unknown
};

struct FlopCount {
  FlopKind kind = FlopKind::NotCounted;
  SymbolicDim flops;  // Counted: the count; NoArithmetic: 0; NotCounted: unknown
  std::string note;   // why, for every kind but a plain Counted one
};

inline FlopCount counted(SymbolicDim flops, std::string note = {}) {
  if (flops.is_unknown() && note.empty()) note = "unknown: a dim the count needs is unknown";
  return {FlopKind::Counted, std::move(flops), std::move(note)};
}
inline FlopCount no_arithmetic() { return {FlopKind::NoArithmetic, SymbolicDim(0), "no arithmetic (data movement)"}; }
inline FlopCount not_counted(std::string why) { return {FlopKind::NotCounted, SymbolicDim(), std::move(why)}; }

struct CountContext;
struct RuleEntry;  // registry.hpp

// A count function: the FLOPs of one execution of the node.
using CostFn = FlopCount (*)(const Node&, const CountContext&);

// What a count function sees besides the node. The profile fills it.
struct CountContext {
  int64_t onnx_opset = 0;  // the model's ai.onnx opset (Scan-8 and Scan-9 differ)
  // The count of any node, which the counts of If, Loop and Scan call on the
  // nodes of their bodies: profile::count_flops, passed down because ops/
  // does not include profile/.
  CostFn count_node = nullptr;
  // The sorted rule table whose rows hold the costs, and the model whose
  // opsets choose a node's row: what count_node reads.
  const RuleEntry* rules = nullptr;
  std::size_t rule_count = 0;
  const Model* model = nullptr;
};

}  // namespace symshape
