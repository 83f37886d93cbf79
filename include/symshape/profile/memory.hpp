// Memory conventions of `symshape profile`: the bytes of a tensor value, the
// total of the activations (every node output of the main graph) and the
// peak of the live activations under the graph's node order. A value lives
// from its producer to its last consumer (a node whose subgraph reads it
// counts as a consumer); graph outputs live to the end. Graph inputs and
// initializers are not activations. Values inside subgraphs are not counted.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "symshape/expr/evaluate.hpp"
#include "symshape/expr/prove.hpp"
#include "symshape/infer/helpers.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::profile {

// numel x element size; sub-byte types round the tensor up to whole bytes.
// Unknown for a value without a known shape or element type, and for
// sequences, optionals and maps.
inline SymbolicDim value_bytes(const Value* v) {
  const Shape* s = v && v->type.is_tensor() ? shape_of(v) : nullptr;
  const int bits = s ? element_bits(v->type.elem_type()) : 0;
  if (bits == 0) return {};
  const SymbolicDim count = product(s->dims());
  if (bits % 8 == 0) return count * SymbolicDim(bits / 8);
  return (count * SymbolicDim(bits) + SymbolicDim(7)) / SymbolicDim(8);
}

// How many Identity and Cast nodes holds_weights follows back to weights.
inline constexpr int kMaxWeightChain = 8;

// The tensor of a value that is a parameter although a node produces it: a
// float tensor of more than one element written as a Constant node, as
// Paddle2ONNX writes every weight. Like an initializer it is not an
// activation. A single element is a hyper-parameter (an epsilon, a scale, a
// clip bound), which exporters write as Constant nodes beside weights kept
// as initializers.
inline const Tensor* constant_parameter(const Value* v) {
  const Node* p = v ? v->producer : nullptr;
  if (!p || p->op_type != "Constant" || !canonical_domain(p->domain).empty()) return nullptr;
  const Attribute* a = p->attr("value");
  if (!a || a->kind != Attribute::Kind::Tensor || a->tensors.empty()) return nullptr;
  const Tensor& t = a->tensors[0];
  const std::optional<int64_t> count = t.element_count();
  return ops::is_float_type(t.dtype) && count && *count > 1 ? &t : nullptr;
}

// Whether a node's output holds weights rather than activations: a Constant
// node's parameter (above), or an Identity or Cast of a float initializer or
// of such a value, as exporters write shared or converted weights
// (onnxruntime folds both when it loads the model). The weights are counted
// once, as the parameter the chain starts from.
inline bool holds_weights(const Value* v) {
  for (int depth = 0; v && depth < kMaxWeightChain; ++depth) {
    if (v->initializer) return ops::is_float_type(v->initializer->dtype);
    if (constant_parameter(v)) return true;
    const Node* p = v->producer;
    if (!p || !canonical_domain(p->domain).empty() || (p->op_type != "Identity" && p->op_type != "Cast") ||
        p->inputs.empty())
      return false;
    v = p->inputs[0];
  }
  return false;
}

// Every value a node reads: its inputs and, through its subgraphs, the
// outer-scope values their nodes read.
inline void values_read(const Node& n, std::unordered_set<const Value*>& out) {
  for (const Value* v : n.inputs)
    if (v) out.insert(v);
  for (const Attribute& a : n.attributes)
    for (const auto& g : a.graphs)
      if (g)
        for (const Node* inner : g->nodes) values_read(*inner, out);
}

// The sum of the bytes of every node output of `g` (unknown once one is).
inline SymbolicDim activation_bytes(const Graph& g) {
  std::vector<Expr> terms;
  for (const Node* n : g.nodes)
    for (const Value* v : n->outputs) {
      if (!v || holds_weights(v)) continue;
      const SymbolicDim b = value_bytes(v);
      if (b.is_unknown()) return {};
      terms.push_back(b.expr());
    }
  return SymbolicDim(sum_of(terms));
}

// The step of each value's last use: the index of its last consumer, the
// number of nodes for a graph output, its producer's index when unused.
inline std::unordered_map<const Value*, std::size_t> last_uses(const Graph& g) {
  std::unordered_map<const Value*, std::size_t> last;
  std::size_t i = 0;
  for (const Node* n : g.nodes) {
    for (const Value* v : n->outputs)
      if (v && !holds_weights(v)) last[v] = i;
    std::unordered_set<const Value*> read;
    values_read(*n, read);
    for (const Value* v : read) {
      auto it = last.find(v);
      if (it != last.end()) it->second = i;  // only activations (produced earlier) are tracked
    }
    ++i;
  }
  for (const Value* v : g.outputs)
    if (v && last.count(v)) last[v] = i;
  return last;
}

// One candidate for the peak: the live bytes at a step of the node order
// (the index of the node in its graph) that no other step provably exceeds.
struct PeakCandidate {
  std::size_t step = 0;
  Expr bytes;
};

// The candidates for a maximum: a new sum is dropped when a kept one is
// provably at least as large (so an earlier step keeps its place on a tie),
// and replaces those it provably exceeds.
inline void keep_maximal(std::vector<PeakCandidate>& kept, PeakCandidate c) {
  for (const PeakCandidate& k : kept)
    if (prove_ge(k.bytes, c.bytes)) return;
  kept.erase(
      std::remove_if(kept.begin(), kept.end(), [&c](const PeakCandidate& k) { return prove_ge(c.bytes, k.bytes); }),
      kept.end());
  kept.push_back(std::move(c));
}

// The steps whose live bytes make up the peak, in node order: at step i, the
// outputs of node i and every earlier output still to be read at or after i,
// keeping the sums that no other provably dominates. Nothing when a size is
// unknown (and for a graph without nodes).
inline std::optional<std::vector<PeakCandidate>> peak_candidates(const Graph& g) {
  const auto last = last_uses(g);
  std::vector<std::vector<const Value*>> dies(g.nodes.size() + 1);
  for (const auto& [v, step] : last) dies[step].push_back(v);
  SymbolicDim live(0);
  std::vector<PeakCandidate> peaks;
  std::size_t i = 0;
  for (const Node* n : g.nodes) {
    for (const Value* v : n->outputs)
      if (v && !holds_weights(v)) live = live + value_bytes(v);
    if (live.is_unknown()) return std::nullopt;
    keep_maximal(peaks, {i, live.expr()});
    for (const Value* v : dies[i]) live = live - value_bytes(v);
    ++i;
  }
  return peaks;
}

// The peak of the live bytes over the steps of the node order: the Max of
// peak_candidates() (0 for a graph without nodes, unknown when a size is).
inline SymbolicDim peak_activation_bytes(const std::optional<std::vector<PeakCandidate>>& candidates) {
  if (!candidates) return {};
  if (candidates->empty()) return SymbolicDim(0);
  std::vector<Expr> sums;
  for (const PeakCandidate& c : *candidates) sums.push_back(c.bytes);
  return SymbolicDim(max_of(sums));
}

inline SymbolicDim peak_activation_bytes(const Graph& g) { return peak_activation_bytes(peak_candidates(g)); }

// The candidate with the most bytes at `b` (the earliest on a tie): where
// the peak occurs at those bindings. Nothing when one of them does not
// evaluate (an unbound symbol) or there is none.
inline std::optional<std::size_t> largest_candidate_at(const std::vector<PeakCandidate>& candidates,
                                                       const Bindings& b) {
  std::optional<std::size_t> best;
  int64_t best_bytes = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Result<int64_t> v = evaluate(candidates[i].bytes, b);
    if (!v) return std::nullopt;
    if (!best || *v > best_bytes) {
      best = i;
      best_bytes = *v;
    }
  }
  return best;
}

}  // namespace symshape::profile
