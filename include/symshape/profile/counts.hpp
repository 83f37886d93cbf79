// FLOP conventions of `symshape profile`: one count function per operator
// (domain, op_type), each a formula of the node's inferred shapes, and an
// explicit answer for the operators without a count ("no arithmetic" for data
// movement, "not counted" for those without a convention). docs/profile.md
// lists every convention; a multiply-accumulate is 2 FLOPs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/versioned_lookup.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape::profile {

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

// What a count function sees besides the node: the model's ai.onnx opset
// (Scan-8 and Scan-9 differ) and the count of a subgraph (control flow).
struct CountContext {
  int64_t onnx_opset = 0;
};

using CountFn = FlopCount (*)(const Node&, const CountContext&);

// ---- shapes ----

// Element count of a tensor value; unknown without a known shape.
inline SymbolicDim numel(const Value* v) {
  const Shape* s = shape_of(v);
  return s ? product(s->dims()) : SymbolicDim();
}

// Dim i of a value, counted from the end when negative; unknown when absent.
inline SymbolicDim dim(const Value* v, int64_t i) {
  const Shape* s = shape_of(v);
  if (!s) return {};
  const int64_t r = s->rank();
  if (i < 0) i += r;
  return i >= 0 && i < r ? (*s)[static_cast<std::size_t>(i)] : SymbolicDim();
}

// Product of dims [begin, rank) of a value (the kernel of a conv weight).
inline SymbolicDim dims_from(const Value* v, std::size_t begin) {
  const Shape* s = shape_of(v);
  return s && s->size() >= begin ? product(s->dims(), begin) : SymbolicDim();
}

inline SymbolicDim per_element(const Value* v, int64_t k) { return SymbolicDim(k) * numel(v); }

inline std::size_t present_inputs(const Node& n) {
  std::size_t k = 0;
  for (const Value* v : n.inputs) k += v != nullptr;
  return k;
}

// ---- elementwise, reductions, softmax ----

// One FLOP per output element (arithmetic, comparisons, activations alike).
inline FlopCount count_elementwise(const Node& n, const CountContext&) { return counted(per_element(n.output(0), 1)); }
// Sum/Max/Min over k inputs: k-1 per output element; Mean: k (the divide).
inline FlopCount count_variadic(const Node& n, const CountContext&) {
  const auto k = static_cast<int64_t>(present_inputs(n));
  return counted(per_element(n.output(0), n.op_type == "Mean" ? k : k - 1));
}
// Two per output element: a fused bias add (BiasGelu, FastGelu with bias), or
// a scale and a shift (QuantizeLinear, DequantizeLinear).
inline FlopCount count_two_per_element(const Node& n, const CountContext&) {
  return counted(per_element(n.output(0), 2));
}
inline FlopCount count_fast_gelu(const Node& n, const CountContext&) {
  return counted(per_element(n.output(0), n.input(1) ? 2 : 1));
}
// One FLOP per input element (a comparison or an add into the result).
inline FlopCount count_per_input(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 1)); }
// A square (or abs, or exp) then an add per input element.
inline FlopCount count_reduce_two(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 2)); }
// max, subtract, exp, sum, divide: 5 per element.
inline FlopCount count_softmax(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 5)); }

// ---- normalization ----

// Mean (1), centre (1), variance (square and add: 2), normalize (1) per
// element, plus one per affine input given (scale, bias) and, for the Skip
// variants, the residual add and its optional bias.
inline FlopCount count_layer_norm(const Node& n, const CountContext&) {
  const bool simplified = n.op_type.find("Simplified") != std::string::npos || n.op_type == "RMSNormalization";
  const bool skip = n.op_type.rfind("Skip", 0) == 0;
  int64_t k = simplified ? 3 : 5;  // RMS: no mean, no centring
  if (skip) {
    // com.microsoft Skip*: input, skip, gamma, [beta,] [bias]; the Simplified one has no beta.
    k += 2;  // residual add, gamma
    k += simplified ? 0 : n.input(3) != nullptr;
    k += n.input(simplified ? 3 : 4) != nullptr;
  } else {
    k += (n.input(1) != nullptr) + (n.input(2) != nullptr);
  }
  return counted(per_element(n.input(0), k));
}
// (x - mean) / sqrt(var + eps) * scale + B with given statistics: 4 per element.
inline FlopCount count_batch_norm(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 4)); }
// Statistics computed (5) plus scale and bias (2) per element.
inline FlopCount count_instance_norm(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 7)); }
// Square, add, divide per element.
inline FlopCount count_lp_norm(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 3)); }
inline FlopCount count_mvn(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 5)); }
// A square-sum over `size` channels, then a scale, power and divide.
inline FlopCount count_lrn(const Node& n, const CountContext&) {
  return counted(per_element(n.input(0), n.attr_int("size", 1) + 3));
}

// ---- matrix products ----

// 2 x numel(Y) x K, K the contracted dim of A (input a_index).
enum class AOrder { AsIs, Transposed };
inline FlopCount count_matmul_k(const Node& n, std::size_t a_index, AOrder a_order) {
  const Value* a = n.input(a_index);
  const Shape* s = shape_of(a);
  if (s && s->rank() == 0) return not_counted("MatMul of a scalar is invalid");
  const SymbolicDim k = a_order == AOrder::Transposed && s && s->rank() >= 2 ? dim(a, -2) : dim(a, -1);
  return counted(SymbolicDim(2) * numel(n.output(0)) * k);
}
// MatMul, MatMulInteger, QLinearMatMul, MatMulIntegerToFloat...: A is input 0.
inline FlopCount count_matmul(const Node& n, const CountContext&) { return count_matmul_k(n, 0, AOrder::AsIs); }
inline FlopCount count_fused_matmul(const Node& n, const CountContext&) {
  if (n.attr_int("transBatchA", 0) || n.attr_int("transBatchB", 0))
    return not_counted("not counted: FusedMatMul with transBatchA/transBatchB");
  return count_matmul_k(n, 0, n.attr_int("transA", 0) != 0 ? AOrder::Transposed : AOrder::AsIs);
}
// MatMulNBits, MatMulBnb4: K is an attribute (B is packed).
inline FlopCount count_matmul_k_attr(const Node& n, const CountContext&) {
  return counted(SymbolicDim(2) * numel(n.output(0)) * SymbolicDim(n.attr_int("K", 0)));
}
// 2 x M x N x K, plus M x N for the added C when given (alpha, beta not counted).
inline FlopCount count_gemm(const Node& n, const CountContext&) {
  const SymbolicDim k = n.attr_int("transA", 0) ? dim(n.input(0), 0) : dim(n.input(0), 1);
  SymbolicDim flops = SymbolicDim(2) * numel(n.output(0)) * k;
  if (n.input(2)) flops = flops + numel(n.output(0));
  return counted(flops);
}

// ---- convolutions and pooling ----

// Inputs of the conv family: where X, W and B are.
struct ConvInputs {
  std::size_t x, w, b;
};
inline ConvInputs conv_inputs(const Node& n) {
  if (n.op_type == "QLinearConv") return {0, 3, 8};
  if (n.op_type == "ConvInteger") return {0, 1, SIZE_MAX};
  return {0, 1, 2};
}
// 2 x numel(Y) x C_in/group x prod(kernel) (W is [M, C/group, k...]), plus
// numel(Y) for the bias; FusedConv adds one per element for its activation
// and one for Z.
inline FlopCount count_conv(const Node& n, const CountContext&) {
  const ConvInputs in = conv_inputs(n);
  SymbolicDim flops = SymbolicDim(2) * numel(n.output(0)) * dims_from(n.input(in.w), 1);
  if (n.input(in.b)) flops = flops + numel(n.output(0));
  if (n.op_type == "FusedConv") {
    if (!n.attr_string("activation").empty()) flops = flops + numel(n.output(0));
    if (n.input(3)) flops = flops + numel(n.output(0));
  }
  return counted(flops);
}
// Every input element is multiplied by a kernel of M/group x prod(kernel)
// outputs (W is [C, M/group, k...]): 2 x numel(X) x M/group x prod(kernel),
// plus numel(Y) for the bias.
inline FlopCount count_conv_transpose(const Node& n, const CountContext&) {
  SymbolicDim flops = SymbolicDim(2) * numel(n.input(0)) * dims_from(n.input(1), 1);
  if (n.input(2)) flops = flops + numel(n.output(0));
  return counted(flops);
}
// One comparison or add per window element: numel(Y) x prod(kernel_shape);
// LpPool twice that (the power).
inline FlopCount count_pool(const Node& n, const CountContext&) {
  const auto kernel = n.attr_ints("kernel_shape");
  if (!kernel) return not_counted("not counted: no kernel_shape");
  int64_t window = n.op_type == "LpPool" ? 2 : 1;
  for (int64_t k : *kernel)
    if (!checked::mul(window, k, window)) return not_counted("not counted: kernel_shape overflows int64");
  return counted(per_element(n.output(0), window));
}

// ---- attention ----

// The core of every attention op: scores Q K^T (2 x B x N x S x T x Dk =
// 2 x numel(Q) x T), softmax over B x N x S rows of T (5 per score), context
// scores x V (2 x numel(Y) x T). `rows` is B x N x S; T counts past keys too.
inline SymbolicDim attention_core(const SymbolicDim& q_elems, const SymbolicDim& y_elems, const SymbolicDim& rows,
                                  const SymbolicDim& t) {
  const SymbolicDim two(2);
  return two * q_elems * t + SymbolicDim(5) * rows * t + two * y_elems * t;
}

// com.microsoft Attention: input [B,S,In] x weights [In,W] (+ bias [W]), then
// the core with Dq = qkv_hidden_sizes[0] or W/3 and T = present's dim 3.
inline FlopCount count_ms_attention(const Node& n, const CountContext&) {
  const Value* x = n.input(0);
  const SymbolicDim w = dim(n.input(1), 1);
  const SymbolicDim bs = dim(x, 0) * dim(x, 1);
  SymbolicDim flops = SymbolicDim(2) * numel(x) * w;
  if (n.input(2)) flops = flops + bs * w;
  const auto sizes = n.attr_ints("qkv_hidden_sizes");
  const SymbolicDim dq = sizes && sizes->size() == 3 ? SymbolicDim((*sizes)[0]) : w / SymbolicDim(3);
  SymbolicDim t = dim(x, 1);
  if (n.output(1)) {
    t = dim(n.output(1), 3);
  } else if (n.input(4)) {
    t = t + dim(n.input(4), 3);
  }
  const SymbolicDim rows = bs * SymbolicDim(n.attr_int("num_heads", 0));
  return counted(flops + attention_core(bs * dq, numel(n.output(0)), rows, t));
}

// The number of keys: the present key's sequence dim when it is an output
// (past included), else the key input's.
inline SymbolicDim attention_keys(const Node& n, std::size_t present_out, const SymbolicDim& from_key) {
  return n.output(present_out) ? dim(n.output(present_out), 2) : from_key;
}

// com.microsoft MultiHeadAttention (query [B,S,D] or packed [B,S,N,3,H]) and
// GroupQueryAttention (query [B,S,D], packed QKV too): the core only (bias
// adds, rotary and masks not counted).
inline FlopCount count_ms_mha(const Node& n, const CountContext&) {
  const Value* q = n.input(0);
  const Value* k = n.input(1);
  const Shape* qs = shape_of(q);
  if (!qs) return counted(SymbolicDim());
  const bool gqa = n.op_type == "GroupQueryAttention";
  SymbolicDim from_key = dim(q, 1);  // packed QKV: the query's own sequence
  if (k && shape_of(k)) from_key = shape_of(k)->rank() == 4 && !gqa ? dim(k, 2) : dim(k, 1);
  const SymbolicDim t = attention_keys(n, 1, from_key);
  const SymbolicDim heads(n.attr_int("num_heads", 0));
  const SymbolicDim y = numel(n.output(0));
  const SymbolicDim q_elems = qs->rank() == 5 ? dim(q, 0) * dim(q, 1) * dim(q, 2) * dim(q, 4) : (gqa ? y : numel(q));
  return counted(attention_core(q_elems, y, dim(q, 0) * dim(q, 1) * heads, t));
}

// ai.onnx Attention (opset 23): Q [B,N,S,H] or [B,S,N*H]; T from present_key,
// else K's sequence dim.
inline FlopCount count_onnx_attention(const Node& n, const CountContext&) {
  const Value* q = n.input(0);
  const Value* k = n.input(1);
  const Shape* qs = shape_of(q);
  const Shape* ks = shape_of(k);
  if (!qs || !ks) return counted(SymbolicDim());
  const bool four_d = qs->rank() == 4;
  const SymbolicDim rows =
      four_d ? dim(q, 0) * dim(q, 1) * dim(q, 2) : dim(q, 0) * dim(q, 1) * SymbolicDim(n.attr_int("q_num_heads", 0));
  const SymbolicDim t = attention_keys(n, 1, ks->rank() == 4 ? dim(k, 2) : dim(k, 1));
  return counted(attention_core(numel(q), numel(n.output(0)), rows, t));
}

// x * cos + rotate(x) * sin: 3 per element.
inline FlopCount count_rotary(const Node& n, const CountContext&) { return counted(per_element(n.output(0), 3)); }

// ---- recurrent ----

// Per step and direction, the gate products X W^T and H R^T:
// 2 x seq x batch x dirs x gates*H x (I + H); the biases (Wb + Rb) add
// 2 x gates*H per step when B is given, and the gate activations one per gate
// element. The cell update (LSTM's c, GRU's h blend) is not counted.
inline FlopCount count_rnn(const Node& n, const CountContext&) {
  const Value* x = n.input(0);
  const bool batch_first = n.attr_int("layout", 0) != 0;
  const SymbolicDim seq = dim(x, batch_first ? 1 : 0);
  const SymbolicDim batch = dim(x, batch_first ? 0 : 1);
  const SymbolicDim dirs = dim(n.input(1), 0);
  const SymbolicDim gates_h = dim(n.input(1), 1);
  const SymbolicDim steps = seq * batch * dirs * gates_h;
  SymbolicDim flops = SymbolicDim(2) * steps * (dim(n.input(1), 2) + dim(n.input(2), 2)) + steps;
  if (n.input(3)) flops = flops + SymbolicDim(2) * steps;
  return counted(flops);
}

// ---- einsum ----

// The letters of one Einsum term and the dims they name; "..." stands for
// the dims left over, named by their position from the right.
struct EinsumTerm {
  std::vector<std::string> labels;  // "a", or "...0" (last ellipsis dim), "...1", ...
};

inline std::optional<EinsumTerm> einsum_term(const std::string& text, int64_t rank) {
  EinsumTerm t;
  const std::size_t e = text.find("...");
  const std::string before = e == std::string::npos ? text : text.substr(0, e);
  const std::string after = e == std::string::npos ? std::string() : text.substr(e + 3);
  const int64_t letters = static_cast<int64_t>(before.size() + after.size());
  if (e == std::string::npos ? letters != rank : letters > rank) return std::nullopt;
  for (char c : before) t.labels.push_back(std::string(1, c));
  for (int64_t i = rank - letters - 1; e != std::string::npos && i >= 0; --i)
    t.labels.push_back("..." + std::to_string(i));
  for (char c : after) t.labels.push_back(std::string(1, c));
  return t;
}

// Splits "ij,jk->ik" (spaces dropped) into its input terms and output.
inline void einsum_split(std::string eq, std::vector<std::string>& inputs, std::optional<std::string>& output) {
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const std::size_t arrow = eq.find("->");
  if (arrow != std::string::npos) output = eq.substr(arrow + 2);
  const std::string lhs = eq.substr(0, arrow);
  std::size_t start = 0;
  for (std::size_t comma = lhs.find(',');; comma = lhs.find(',', start)) {
    inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

// The full index space P (every distinct label once; a broadcast label takes
// its dim that is not 1): (n-1) multiplies per point for n operands, plus one
// add per point when a label is summed.
inline FlopCount count_einsum(const Node& n, const CountContext&) {
  std::vector<std::string> terms;
  std::optional<std::string> output;
  einsum_split(n.attr_string("equation"), terms, output);
  if (terms.size() != n.inputs.size()) return not_counted("not counted: equation does not match the inputs");
  std::map<std::string, SymbolicDim> size;
  std::map<std::string, int> uses;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Shape* s = shape_of(n.input(i));
    if (!s) return counted(SymbolicDim());
    const auto t = einsum_term(terms[i], s->rank());
    if (!t) return not_counted("not counted: equation does not match the input ranks");
    for (std::size_t j = 0; j < t->labels.size(); ++j) {
      ++uses[t->labels[j]];
      auto it = size.find(t->labels[j]);
      if (it == size.end() || it->second.is_int(1)) size[t->labels[j]] = (*s)[j];
    }
  }
  bool summed = false;
  for (const auto& [label, count] : uses) {
    const bool ellipsis = label.size() > 1;
    const bool kept =
        output ? ellipsis ? output->find("...") != std::string::npos : output->find(label) != std::string::npos
               : ellipsis || count == 1;
    summed = summed || !kept;
  }
  std::vector<SymbolicDim> dims;
  for (const auto& [label, d] : size) dims.push_back(d);
  const auto per_point = static_cast<int64_t>(terms.size()) - 1 + (summed ? 1 : 0);
  if (per_point == 0) return no_arithmetic();
  return counted(SymbolicDim(per_point) * product(dims));
}

// ---- the table ----

FlopCount count_flops(const Node& n, const CountContext& ctx);

// Ops that only move, select or reinterpret data: no arithmetic.
inline FlopCount count_none(const Node&, const CountContext&) { return no_arithmetic(); }

// Scatter with a reduction adds into the data: one per update element.
inline FlopCount count_scatter(const Node& n, const CountContext&) {
  const std::string r = n.attr_string("reduction", "none");
  if (r == "none") return no_arithmetic();
  return counted(per_element(n.input(2), 1));
}

// Resize / Upsample: nearest copies; the interpolating modes have no count.
inline FlopCount count_resize(const Node& n, const CountContext&) {
  if (n.attr_string("mode", "nearest") == "nearest") return no_arithmetic();
  return not_counted("not counted: no convention for " + n.attr_string("mode") + " interpolation");
}

// The FLOPs of one execution of a subgraph: the sum of its counted nodes.
// Nodes without a count are named in the note (the count is then partial).
inline FlopCount subgraph_flops(const Graph& g, const CountContext& ctx) {
  SymbolicDim total(0);
  std::size_t missing = 0;
  for (const Node* n : g.nodes) {
    const FlopCount c = count_flops(*n, ctx);
    if (c.kind == FlopKind::NotCounted) {
      ++missing;
    } else {
      total = total + c.flops;
    }
  }
  if (missing == 0) return counted(total);
  return counted(total, "partial: " + std::to_string(missing) + " node(s) of the subgraph not counted");
}

inline const Graph* graph_attr(const Node& n, const char* name) {
  const Attribute* a = n.attr(name);
  return a && a->kind == Attribute::Kind::Graph && !a->graphs.empty() ? a->graphs[0].get() : nullptr;
}

// If: the larger of the two branches (which one runs is data-dependent).
inline FlopCount count_if(const Node& n, const CountContext& ctx) {
  const Graph* then_g = graph_attr(n, "then_branch");
  const Graph* else_g = graph_attr(n, "else_branch");
  if (!then_g || !else_g) return not_counted("not counted: a branch is missing");
  FlopCount a = subgraph_flops(*then_g, ctx), b = subgraph_flops(*else_g, ctx);
  const std::string partial = a.note.empty() && b.note.empty() ? "" : "; partial: a branch has nodes not counted";
  return counted(dim_max(a.flops, b.flops), "the larger branch" + partial);
}

// The body once per execution, times the number of executions when known.
inline FlopCount repeat_body(const Node& n, const char* body, const SymbolicDim& trips, const CountContext& ctx) {
  const Graph* g = graph_attr(n, body);
  if (!g) return not_counted("not counted: no body");
  if (trips.is_unknown()) return not_counted("not counted: trip count unknown");
  const FlopCount once = subgraph_flops(*g, ctx);
  std::string note = "body x " + trips.to_string();
  if (!once.note.empty()) note += "; " + once.note;
  return counted(trips * once.flops, note);
}

// Loop: M iterations when the trip count M is a known (possibly symbolic)
// value; the condition may stop it earlier, so the count is an upper bound.
inline FlopCount count_loop(const Node& n, const CountContext& ctx) {
  const Value* m = n.input(0);
  SymbolicDim trips;
  if (m && m->symbolic_value && !m->fraction && m->symbolic_value->size() == 1) {
    trips = (*m->symbolic_value)[0];
  } else if (m && m->initializer && m->initializer->has_data && m->initializer->int_data.size() == 1) {
    trips = SymbolicDim(m->initializer->int_data[0]);
  }
  return repeat_body(n, "body", trips, ctx);
}

// Scan-9 and later: the length of the first scan input along its scan axis;
// Scan-8: its batch x sequence dims (the body runs per batch element).
inline FlopCount count_scan(const Node& n, const CountContext& ctx) {
  const auto scans = static_cast<std::size_t>(n.attr_int("num_scan_inputs", 0));
  if (scans == 0 || scans > n.inputs.size()) return not_counted("not counted: trip count unknown");
  const Value* first = n.inputs[n.inputs.size() - scans];
  if (ctx.onnx_opset > 0 && ctx.onnx_opset < 9) return repeat_body(n, "body", dim(first, 0) * dim(first, 1), ctx);
  const auto axes = n.attr_ints("scan_input_axes");
  return repeat_body(n, "body", dim(first, axes && !axes->empty() ? (*axes)[0] : 0), ctx);
}

// One convention and the operators it serves, named in one space-separated
// string (a compact table that formatting keeps on few lines).
struct CountGroup {
  const char* domain;
  const char* ops;
  CountFn fn;
};

// Elementwise, reductions, softmax and normalization.
inline const std::vector<CountGroup>& arithmetic_groups() {
  static const std::vector<CountGroup> groups = {
      {"",
       "Add Sub Mul Div Pow Mod BitShift And Or Xor Not Equal Less Greater LessOrEqual GreaterOrEqual Where Abs "
       "Neg Reciprocal Sqrt Exp Log Erf Sigmoid HardSigmoid Tanh Relu LeakyRelu PRelu Elu Selu Celu "
       "ThresholdedRelu Softplus Softsign HardSwish Mish Gelu Sin Cos Tan Asin Acos Atan Sinh Cosh Asinh Acosh "
       "Atanh Floor Ceil Round Sign IsNaN IsInf Clip Shrink BitwiseAnd BitwiseOr BitwiseXor BitwiseNot Range",
       count_elementwise},
      {"com.microsoft", "Gelu QuickGelu FastGelu", count_fast_gelu},
      {"com.microsoft", "BiasGelu BiasAdd", count_two_per_element},
      {"", "Sum Max Min Mean", count_variadic},
      {"", "QuantizeLinear DequantizeLinear", count_two_per_element},
      {"",
       "ReduceSum ReduceMean ReduceMax ReduceMin ReduceProd ReduceLogSum ArgMax ArgMin CumSum GlobalAveragePool "
       "GlobalMaxPool Hardmax",
       count_per_input},
      {"", "ReduceSumSquare ReduceL1 ReduceL2 ReduceLogSumExp GlobalLpPool", count_reduce_two},
      {"", "Softmax LogSoftmax", count_softmax},
      // SimplifiedLayerNormalization: onnxruntime registers it in ai.onnx.
      {"", "LayerNormalization RMSNormalization SimplifiedLayerNormalization", count_layer_norm},
      {"com.microsoft",
       "LayerNormalization SimplifiedLayerNormalization SkipLayerNormalization SkipSimplifiedLayerNormalization",
       count_layer_norm},
      {"", "BatchNormalization", count_batch_norm},
      {"", "InstanceNormalization GroupNormalization", count_instance_norm},
      {"com.microsoft", "GroupNorm", count_instance_norm},
      {"", "LpNormalization", count_lp_norm},
      {"", "MeanVarianceNormalization", count_mvn},
      {"", "LRN", count_lrn},
  };
  return groups;
}

// Products, convolutions, pooling, attention, recurrences, control flow and
// the ops without arithmetic.
inline const std::vector<CountGroup>& structured_groups() {
  static const std::vector<CountGroup> groups = {
      {"", "MatMul MatMulInteger QLinearMatMul", count_matmul},
      {"com.microsoft", "MatMulIntegerToFloat DynamicQuantizeMatMul MatMulInteger16", count_matmul},
      {"com.microsoft", "FusedMatMul", count_fused_matmul},
      {"com.microsoft", "MatMulNBits MatMulBnb4", count_matmul_k_attr},
      {"", "Gemm", count_gemm},
      {"", "Conv ConvInteger QLinearConv", count_conv},
      {"com.microsoft", "FusedConv NhwcConv", count_conv},
      {"", "ConvTranspose", count_conv_transpose},
      {"", "MaxPool AveragePool LpPool", count_pool},
      {"com.microsoft", "Attention", count_ms_attention},
      {"com.microsoft", "MultiHeadAttention GroupQueryAttention", count_ms_mha},
      {"", "Attention", count_onnx_attention},
      {"", "RotaryEmbedding", count_rotary},
      {"com.microsoft", "RotaryEmbedding", count_rotary},
      {"", "LSTM GRU RNN", count_rnn},
      {"", "Einsum", count_einsum},
      {"", "If", count_if},
      {"", "Loop", count_loop},
      {"", "Scan", count_scan},
      {"", "ScatterElements ScatterND", count_scatter},
      {"", "Resize Upsample", count_resize},
      {"",
       "Reshape Flatten Squeeze Unsqueeze Transpose Identity Shape Size Gather GatherElements GatherND Slice "
       "Concat Split Expand Tile Pad Cast CastLike Constant ConstantOfShape DepthToSpace SpaceToDepth Dropout "
       "OneHot NonZero Compress EyeLike Trilu ReverseSequence Scatter MaxUnpool SplitToSequence "
       "ConcatFromSequence SequenceAt SequenceConstruct SequenceEmpty SequenceErase SequenceInsert "
       "SequenceLength Optional OptionalHasElement OptionalGetElement",
       count_none},
  };
  return groups;
}

// One operator's convention, as a row of the tables that versioned_lookup.hpp
// searches. A convention holds for every version of its operator: each row's
// since_version is 1.
struct CountRow {
  std::string domain;
  std::string op_type;
  int since_version = 1;
  CountFn fn = nullptr;
};

// The conventions sorted by (domain, op_type); docs/profile.md lists them.
inline const std::vector<CountRow>& count_table() {
  static const std::vector<CountRow> table = [] {
    std::vector<CountRow> t;
    for (const auto* groups : {&arithmetic_groups(), &structured_groups()})
      for (const CountGroup& g : *groups) {
        const std::string ops = g.ops;
        for (std::size_t start = 0; start < ops.size();) {
          const std::size_t end = std::min(ops.find(' ', start), ops.size());
          t.push_back({g.domain, ops.substr(start, end - start), 1, g.fn});
          start = end + 1;
        }
      }
    std::stable_sort(t.begin(), t.end(), [](const CountRow& x, const CountRow& y) {
      return std::tie(x.domain, x.op_type) < std::tie(y.domain, y.op_type);
    });
    return t;
  }();
  return table;
}

// The FLOPs of one node (one execution of it); an operator without a
// convention is NotCounted with the reason, never a silent 0.
inline FlopCount count_flops(const Node& n, const CountContext& ctx) {
  const std::string_view domain = canonical_domain(n.domain);
  const std::vector<CountRow>& table = count_table();
  const CountRow* row = newest_at(table.data(), table.size(), domain, n.op_type, 1);
  if (!row)
    return not_counted("not counted: no FLOP convention for " + std::string(domain_title(domain)) + "::" + n.op_type);
  return row->fn(n, ctx);
}

}  // namespace symshape::profile
