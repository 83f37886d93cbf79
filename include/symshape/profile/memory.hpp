// Memory conventions of `symshape profile`: the bytes of a tensor value, the
// total of the activations (every node output of the main graph) and the
// peak of the live activations under the graph's node order. A value lives
// from its producer to its last consumer (a node whose subgraph reads it
// counts as a consumer); graph outputs live to the end. Graph inputs and
// initializers are not activations. Values inside subgraphs are not counted.
#pragma once

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "symshape/expr/prove.hpp"
#include "symshape/infer/helpers.hpp"
#include "symshape/ir/graph.hpp"

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
      if (!v) continue;
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
      if (v) last[v] = i;
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

// The candidates for a maximum: a new sum is dropped when a kept one is
// provably at least as large, and replaces those it provably exceeds.
inline void keep_maximal(std::vector<Expr>& kept, const Expr& e) {
  for (const Expr& k : kept)
    if (prove_ge(k, e)) return;
  kept.erase(std::remove_if(kept.begin(), kept.end(), [&e](const Expr& k) { return prove_ge(e, k); }), kept.end());
  kept.push_back(e);
}

// The peak of the live bytes over the steps of the node order: at step i,
// the outputs of node i and every earlier output still to be read at or
// after i. A Max of the step sums that no other provably dominates.
inline SymbolicDim peak_activation_bytes(const Graph& g) {
  const auto last = last_uses(g);
  std::vector<std::vector<const Value*>> dies(g.nodes.size() + 1);
  for (const auto& [v, step] : last) dies[step].push_back(v);
  SymbolicDim live(0);
  std::vector<Expr> peaks;
  std::size_t i = 0;
  for (const Node* n : g.nodes) {
    for (const Value* v : n->outputs)
      if (v) live = live + value_bytes(v);
    if (live.is_unknown()) return {};
    keep_maximal(peaks, live.expr());
    for (const Value* v : dies[i]) live = live - value_bytes(v);
    ++i;
  }
  if (peaks.empty()) return SymbolicDim(0);
  return SymbolicDim(max_of(peaks));
}

}  // namespace symshape::profile
