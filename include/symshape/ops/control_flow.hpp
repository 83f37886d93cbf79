// Control flow: If, Loop and Scan. Their bodies are subgraphs inferred through
// ctx.infer_subgraph (the engine), with outer-scope values visible.
//  - If merges both branches: equal dims stay, different dims become unknown
//    (the engine names them fresh), different ranks give an unknown rank. A
//    condition with a known value selects its branch.
//  - Loop generalises loop-carried values whose dims change in the body: the
//    body is inferred with the initial types, every carried dim that the body
//    changes becomes a fresh symbol, and the body is inferred once more. A
//    carried sequence that starts empty takes the element rank that the body
//    keeps (seed_empty_sequences).
//  - Scan slices its scan inputs along the scan axes and stacks the scan
//    outputs along the scan output axes.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/subgraphs.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace control_flow_detail {

// A tensor type with the dim at `axis` removed (the type unchanged when the
// rank is unknown).
inline Type remove_dim(const Type& t, std::size_t axis) {
  if (!t.is_tensor_like() || !t.shape().has_rank() || axis >= t.shape().size()) return t;
  std::vector<SymbolicDim> d = t.shape().dims();
  d.erase(d.begin() + static_cast<std::ptrdiff_t>(axis));
  return Type::tensor(t.elem_type(), Shape(std::move(d)));
}

// Whether `d` mentions one of `symbols`.
inline bool mentions(const SymbolicDim& d, const std::set<std::string>& symbols) {
  if (!d.is_symbolic() || symbols.empty()) return false;
  for (const auto& s : free_symbols(d.expr()))
    if (symbols.count(s)) return true;
  return false;
}

// `t` with every dim that mentions one of `symbols` made unknown (for a
// sequence, the dims of its element type).
inline Type forget_dims_mentioning(const Type& t, const std::set<std::string>& symbols) {
  const bool seq = t.kind() == Type::Kind::Sequence && t.inner();
  Type scrub = seq ? *t.inner() : t;
  if (scrub.is_tensor_like() && scrub.shape().has_rank())
    for (auto& d : scrub.shape().dims())
      if (mentions(d, symbols)) d = SymbolicDim();
  return seq ? Type::sequence(std::move(scrub)) : scrub;
}

// Whether two tensor types have shapes that cannot both hold: known ranks
// that differ, or integer dims that differ on the same axis.
inline bool shapes_contradict(const Type& x, const Type& y) {
  if (!x.is_tensor_like() || !y.is_tensor_like()) return false;
  const Shape& a = x.shape();
  const Shape& b = y.shape();
  if (!a.has_rank() || !b.has_rank()) return false;
  if (a.size() != b.size()) return true;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].is_int() && b[k].is_int() && a[k] != b[k]) return true;
  return false;
}

// A scan output: the body's per-iteration type with `len` inserted at `axis`.
// Dims that mention body-local symbols become unknown. `axis` is already
// normalised into [0, rank].
inline Type stack_type(const Type& elem, const SymbolicDim& len, std::size_t axis,
                       const std::set<std::string>& local = {}) {
  if (!elem.is_tensor_like()) return Type::tensor(DataType::UNDEFINED, Shape());
  if (!elem.shape().has_rank()) return Type::tensor(elem.elem_type(), Shape());
  std::vector<SymbolicDim> d = elem.shape().dims();
  for (auto& x : d)
    if (mentions(x, local)) x = SymbolicDim();
  if (axis > d.size()) axis = d.size();
  d.insert(d.begin() + static_cast<std::ptrdiff_t>(axis), mentions(len, local) ? SymbolicDim() : len);
  return Type::tensor(elem.elem_type(), Shape(std::move(d)));
}

enum class BranchShapes { MustMatch, MayDiffer };
inline void infer_if_impl(Context& ctx, Node& n, BranchShapes same_shapes) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  Graph* then_g = graph_attribute(ctx, n, "then_branch");
  if (!then_g) return;
  Graph* else_g = graph_attribute(ctx, n, "else_branch");
  if (!else_g) return;
  const std::size_t count = then_g->outputs.size();
  if (else_g->outputs.size() != count)
    return ctx.usage_error(n, {"then_branch has ", count, " outputs but else_branch has ", else_g->outputs.size()});
  if (n.outputs.size() != count)
    return ctx.usage_error(n, {"the node has ", n.outputs.size(), " outputs but its branches have ", count});
  const DataType cond_type = dtype_of(n.input(0));
  if (cond_type != DataType::UNDEFINED && cond_type != DataType::BOOL)
    return ctx.record_error(n, {"condition must be bool, got ", to_string(cond_type)});
  // A condition with a known value selects its branch, and only that one is
  // inferred: the other cannot run, and what it would do is not the model's
  // error (a Silero-style VAD squeezes an axis only where it is 1).
  if (auto c = ctx.int_values(n.input(0)); c && c->size() == 1) {
    Graph* taken = (*c)[0] != 0 ? then_g : else_g;
    const std::vector<Type> r = ctx.infer_subgraph(*taken, {});
    for (std::size_t i = 0; i < r.size() && i < n.outputs.size(); ++i) {
      ctx.set_type(n.output(i), r[i]);
      // The taken branch's values too (a shape computed in the branch).
      if (auto v = ctx.rational_value(taken->outputs[i])) ctx.set_rational_value(n.output(i), std::move(*v));
    }
    return;
  }
  const std::vector<Type> t = ctx.infer_subgraph(*then_g, {});
  const std::vector<Type> e = ctx.infer_subgraph(*else_g, {});
  for (std::size_t i = 0; i < t.size() && i < e.size(); ++i) {
    if (dtypes_conflict(t[i], e[i])) {
      ctx.record_error(n, {"output ", i, ": then_branch gives ", t[i], " but else_branch gives ", e[i],
                           " (element types must match)"});
      continue;
    }
    if (same_shapes == BranchShapes::MustMatch && shapes_contradict(t[i], e[i])) {
      ctx.record_error(n, {"output ", i, ": then_branch gives ", t[i], " but else_branch gives ", e[i],
                           " (If before opset 11 requires equal shapes)"});
      continue;
    }
    ctx.set_type(n.output(i), union_type(t[i], e[i]));
  }
}

// ---- Loop ----

struct LoopArity {
  std::size_t carried = 0;
  std::size_t scan = 0;
};

// Checks the body's inputs and outputs and the node's outputs against the
// loop-carried inputs; the numbers of carried values and scan outputs, or
// nullopt after a usage error.
inline Maybe<LoopArity> loop_arity(Context& ctx, const Node& n, const Graph& body) {
  const std::size_t num_carried = n.inputs.size() > 2 ? n.inputs.size() - 2 : 0;
  if (body.inputs.size() != 2 + num_carried) {
    ctx.usage_error(n, {"body has ", body.inputs.size(), " inputs, expected 2 + ", num_carried, " loop-carried"});
    return std::nullopt;
  }
  if (body.outputs.size() < 1 + num_carried) {
    ctx.usage_error(
        n, {"body has ", body.outputs.size(), " outputs, expected at least 1 + ", num_carried, " loop-carried"});
    return std::nullopt;
  }
  const std::size_t num_scan = body.outputs.size() - 1 - num_carried;
  if (n.outputs.size() != num_carried + num_scan) {
    ctx.usage_error(n, {"the node has ", n.outputs.size(), " outputs, expected ", num_carried, " loop-carried + ",
                        num_scan, " scan outputs"});
    return std::nullopt;
  }
  for (std::size_t i = 2; i < n.inputs.size(); ++i)
    if (!n.inputs[i]) {
      ctx.usage_error(n, {"loop-carried input ", i, " is missing"});
      return std::nullopt;
    }
  return LoopArity{num_carried, num_scan};
}

// The body's input types: iteration number, condition, then the initial
// types of the carried values.
inline std::vector<Type> loop_body_inputs(const Node& n, std::size_t num_carried) {
  std::vector<Type> in{Type::tensor(DataType::INT64, Shape::scalar()), Type::tensor(DataType::BOOL, Shape::scalar())};
  for (std::size_t i = 0; i < num_carried; ++i) in.push_back(n.inputs[2 + i]->type);
  return in;
}

// The tensor that each iteration appends to carried sequence `i`: the
// carried output is a SequenceInsert into the body's carried input; nullptr
// otherwise.
inline const Value* inserted_tensor(const Graph& body, std::size_t i) {
  const Value* carried_out = body.outputs[1 + i];
  const Node* ins = carried_out ? carried_out->producer : nullptr;
  if (!ins || ins->op_type != "SequenceInsert" || ins->inputs.size() < 2 || ins->inputs[0] != body.inputs[2 + i])
    return nullptr;
  return ins->inputs[1];
}

// The dims of the tensor that the body appends to carried sequence `i`
// after the last body run, when it has rank `r`; nullopt otherwise.
inline std::optional<std::vector<SymbolicDim>> inserted_dims(const Graph& body, std::size_t i, std::size_t r) {
  const Value* tensor = inserted_tensor(body, i);
  if (!tensor || !tensor->type.is_tensor_like() || !tensor->type.shape().has_rank() || tensor->type.shape().size() != r)
    return std::nullopt;
  return tensor->type.shape().dims();
}

// Whether the body, given carried sequence `i` with elements of type
// `given`, returns that sequence with elements of the same rank and dtype
// whose dims equal the given ones or are fresh.
inline bool keeps_element_type(const std::vector<Type>& out, std::size_t i, const Type& given,
                               const std::set<std::string>& fresh) {
  const Type* e = out[1 + i].kind() == Type::Kind::Sequence ? out[1 + i].inner() : nullptr;
  const Shape& want = given.shape();
  if (!e || !e->is_tensor_like() || !e->shape().has_rank() || e->shape().size() != want.size() ||
      dtypes_conflict(*e, given))
    return false;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (e->shape()[k] != want[k] && !mentions(want[k], fresh)) return false;
  return true;
}

// After a trial in which the body kept rank `r` for carried sequence `i`
// (see seed_empty_sequences): narrows the element type to that of the tensor
// the body inserts (dims it does not fix stay fresh) when the body keeps that
// type too: [3] for the Shape of a rank-3 element, say. The check, not the
// pattern, makes it sound. The body inputs to start from: narrowed, else
// `trial`.
inline std::vector<Type> narrow_seeded_sequence(Context& ctx, Graph& body, std::vector<Type> trial, std::size_t i,
                                                const Shape& kept, std::set<std::string>& fresh) {
  std::vector<SymbolicDim> narrow = inserted_dims(body, i, kept.size()).value_or(kept.dims());
  for (auto& d : narrow)
    if (!d.is_known() || mentions(d, fresh)) {
      d = ctx.new_symbolic_dim();
      fresh.insert(d.to_string());
    }
  std::vector<Type> second = trial;
  second[2 + i] = Type::sequence(Type::tensor(trial[2 + i].inner()->elem_type(), Shape(std::move(narrow))));
  const std::vector<Type> out = ctx.infer_subgraph(body, second);
  const bool kept_narrow =
      out.size() == body.outputs.size() && keeps_element_type(out, i, *second[2 + i].inner(), fresh);
  return kept_narrow ? std::move(second) : std::move(trial);
}

// Tries element ranks 0 to 8 for the carried sequence `i`, which starts
// empty with elements of unknown rank (see seed_empty_sequences). The body
// inputs with that sequence's element rank fixed, or nullopt when the body
// keeps none of those ranks.
inline Maybe<std::vector<Type>> seed_sequence_rank(Context& ctx, Graph& body, const std::vector<Type>& in,
                                                   std::size_t i, std::set<std::string>& fresh) {
  const DataType elem_type = in[2 + i].inner()->elem_type();
  for (std::size_t r = 0; r <= 8; ++r) {
    std::vector<SymbolicDim> dims;
    std::set<std::string> names;
    for (std::size_t k = 0; k < r; ++k) {
      dims.push_back(ctx.new_symbolic_dim());
      names.insert(dims.back().to_string());
    }
    std::vector<Type> trial = in;
    trial[2 + i] = Type::sequence(Type::tensor(elem_type, Shape(std::move(dims))));
    const std::vector<Type> o = ctx.infer_subgraph(body, trial);
    if (o.size() != body.outputs.size()) return std::nullopt;
    const Type& t = o[1 + i];
    const Type* te = t.kind() == Type::Kind::Sequence ? t.inner() : nullptr;
    if (te && te->is_tensor_like() && te->shape().has_rank() && te->shape().size() == r && t != trial[2 + i] &&
        !dtypes_conflict(*te, *trial[2 + i].inner())) {
      fresh.insert(names.begin(), names.end());
      return narrow_seeded_sequence(ctx, body, std::move(trial), i, te->shape(), fresh);
    }
  }
  return std::nullopt;
}

// A carried sequence that starts empty (SequenceEmpty) only ever holds what
// the body inserts. If, for some rank r, the body turns a sequence of rank-r
// elements (every dim a fresh symbol) into another sequence of rank-r
// elements, then by induction from the empty start every element has rank r:
// start from that type instead of one of unknown rank. The trial runs are
// speculative: their diagnostics are dropped (the final run reports).
inline std::vector<Type> seed_empty_sequences(Context& ctx, const Node& n, Graph& body, std::vector<Type> in,
                                              std::size_t num_carried, std::set<std::string>& fresh) {
  auto& diagnostics = ctx.report().diagnostics;
  const std::size_t reported = diagnostics.size();
  for (std::size_t i = 0; i < num_carried; ++i) {
    const auto len = sequence_length(ctx, n.inputs[2 + i]);
    const Type* e = in[2 + i].inner();
    if (!len || !len->is_int(0) || !e || !e->is_tensor_like() || e->shape().has_rank()) continue;
    if (auto seeded = seed_sequence_rank(ctx, body, in, i, fresh)) in = std::move(*seeded);
  }
  if (diagnostics.size() > reported)
    diagnostics.erase(diagnostics.begin() + static_cast<std::ptrdiff_t>(reported), diagnostics.end());
  return in;
}

// A carried type after the body ran once, and whether the body changed it.
struct Generalized {
  Type type;
  bool changed = false;
};

// Carried type after the body ran once: dims the body changed become fresh
// symbols (added to `fresh`), a changed rank becomes unknown.
inline Generalized generalize(Context& ctx, const Type& init, const Type& out, std::set<std::string>& fresh) {
  if (init.is_unknown()) return {init, false};
  if (out.is_unknown()) {
    // The body's result is unknown: keep only what cannot change per the spec.
    if (init.is_tensor_like() && init.shape().has_rank()) return {Type::tensor(init.elem_type(), Shape()), true};
    return {init, false};
  }
  if (!init.is_tensor_like() || !out.is_tensor_like()) {
    // optional(T) carried in, T carried out: the value stays optional(T).
    const bool unwrap = init.kind() == Type::Kind::Optional && out.kind() != Type::Kind::Optional && init.inner();
    Type u = unwrap ? Type::optional(union_type(*init.inner(), out)) : union_type(init, out);
    const bool changed = u != init;
    return {std::move(u), changed};
  }
  const Shape& a = init.shape();
  const Shape& b = out.shape();
  if (!a.has_rank()) return {init, false};
  if (!b.has_rank() || a.size() != b.size()) return {Type::tensor(init.elem_type(), Shape()), true};
  bool changed = false;
  std::vector<SymbolicDim> dims = a.dims();
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (a[i] == b[i]) continue;
    changed = true;
    dims[i] = ctx.new_symbolic_dim();
    fresh.insert(dims[i].to_string());
  }
  return {Type::tensor(init.elem_type() != DataType::UNDEFINED ? init.elem_type() : out.elem_type(),
                       Shape(std::move(dims))),
          changed};
}

// Runs the body on `in`; when it changes the type of a carried value, runs
// it again with those types generalised. The output types of the last run.
inline std::vector<Type> infer_loop_body(Context& ctx, Graph& body, const std::vector<Type>& in,
                                         std::size_t num_carried, std::set<std::string>& fresh) {
  std::vector<Type> out = ctx.infer_subgraph(body, in);
  if (out.size() != body.outputs.size()) return out;
  bool changed = false;
  std::vector<Type> general = in;
  for (std::size_t i = 0; i < num_carried; ++i) {
    Generalized g = generalize(ctx, in[2 + i], out[1 + i], fresh);
    general[2 + i] = std::move(g.type);
    changed = changed || g.changed;
  }
  return changed ? ctx.infer_subgraph(body, general) : out;
}

// The trip count, when M is known and no condition can stop the loop early:
// there is none, or it is known true and the body passes it on unchanged
// (directly or through Identity) or gives a known true value (torch writes
// Cast(true)). Unknown otherwise.
inline SymbolicDim loop_trip_count(const Context& ctx, const Node& n, const Graph& body) {
  bool runs_to_m = n.input(0) && !n.input(1);
  if (n.input(0) && n.input(1)) {
    const auto c = ctx.int_values(n.input(1));
    const Value* cond_out = body.outputs[0];
    if (cond_out && cond_out->producer && cond_out->producer->op_type == "Identity")
      cond_out = cond_out->producer->input(0);
    const auto body_c = ctx.int_values(cond_out);
    const bool stays_true = cond_out == body.inputs[1] || (body_c && body_c->size() == 1 && (*body_c)[0] != 0);
    runs_to_m = c && c->size() == 1 && (*c)[0] != 0 && cond_out && stays_true;
  }
  if (!runs_to_m) return SymbolicDim();
  auto m = ctx.symbolic_value(n.input(0));
  if (!m || m->size() != 1 || !(*m)[0].is_known()) return SymbolicDim();
  const SymbolicDim& v = (*m)[0];
  return proven_max(v, 0);
}

// The final carried values. Zero iterations give the initial value,
// otherwise the body's last one. An optional(T) initial value carried out as
// T gives T, as in ONNX's Loop inference (the output type follows the body's
// carried output). Dims that mention the loop's fresh symbols are unknown.
inline void set_carried_outputs(Context& ctx, Node& n, const std::vector<Type>& in, const std::vector<Type>& out,
                                std::size_t num_carried, const std::set<std::string>& fresh) {
  for (std::size_t i = 0; i < num_carried; ++i) {
    const Type& init = in[2 + i];
    const bool unwrap = init.kind() == Type::Kind::Optional && out[1 + i].kind() != Type::Kind::Optional &&
                        !out[1 + i].is_unknown() && init.inner();
    const Type t = union_type(unwrap ? *init.inner() : init, out[1 + i]);
    ctx.set_type(n.output(i), forget_dims_mentioning(t, fresh));
  }
}

// A carried sequence to which every iteration appends one tensor ends with
// its initial length plus the trip count (torch's repeat_interleave: a
// SequenceEmpty filled once per row, then ConcatFromSequence).
inline void set_carried_sequence_lengths(Context& ctx, Node& n, const Graph& body, std::size_t num_carried,
                                         const SymbolicDim& trip) {
  if (!trip.is_known()) return;
  for (std::size_t i = 0; i < num_carried; ++i) {
    const auto initial = sequence_length(ctx, n.inputs[2 + i]);
    if (initial && inserted_tensor(body, i) && n.output(i) && n.output(i)->type.kind() == Type::Kind::Sequence)
      set_sequence_length(ctx, n.output(i), *initial + trip);
  }
}

// The scan outputs: the body's per-iteration values stacked along a new
// leading axis of length `trip`.
inline void set_loop_scan_outputs(Context& ctx, Node& n, const std::vector<Type>& out, const LoopArity& arity,
                                  const SymbolicDim& trip, const std::set<std::string>& fresh) {
  for (std::size_t j = 0; j < arity.scan; ++j) {
    const Type& elem = out[1 + arity.carried + j];
    if (elem.is_unknown()) continue;
    if (!elem.is_tensor_like()) {
      ctx.record_error(n, {"scan output ", j, " must be a tensor, got ", elem});
      continue;
    }
    ctx.set_type(n.output(arity.carried + j), stack_type(elem, trip, 0, fresh));
  }
}

}  // namespace control_flow_detail

// ---- FLOP counts (infer/cost.hpp) ----

// The FLOPs of one execution of a subgraph: the sum of its counted nodes,
// each counted as the profile counts a node (ctx.count_node). Nodes without a
// count are named in the note (the count is then partial).
inline FlopCount subgraph_flops(const Graph& g, const CountContext& ctx) {
  SymbolicDim total(0);
  std::size_t missing = 0;
  for (const Node* n : g.nodes) {
    const FlopCount c =
        ctx.count_node ? ctx.count_node(*n, ctx) : not_counted("not counted: no CountContext::count_node");
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

// If-1: both branches must give the same shapes.
inline void infer_if_1(Context& ctx, Node& n) {
  control_flow_detail::infer_if_impl(ctx, n, control_flow_detail::BranchShapes::MustMatch);
}
SYMSHAPE_RULES(infer_if_1, ai_onnx("If", 1).cost(count_if));
// If-11 and later: branches may differ in shape; the output covers both.
inline void infer_if(Context& ctx, Node& n) {
  control_flow_detail::infer_if_impl(ctx, n, control_flow_detail::BranchShapes::MayDiffer);
}
SYMSHAPE_RULES(infer_if, ai_onnx("If", 11, 13, 16, 19, 21, 23, 24, 25).cost(count_if));

// Loop(M?, cond?, v_initial...) with body(iter_num, cond, carried...) ->
// (cond, carried..., scan_outputs...); outputs: final carried values, then
// scan outputs with a leading iteration dim.
inline void infer_loop(Context& ctx, Node& n) {
  namespace cf = control_flow_detail;
  Graph* body = graph_attribute(ctx, n, "body");
  if (!body) return;
  const auto arity = cf::loop_arity(ctx, n, *body);
  if (!arity) return;
  // Symbols made for carried dims that change between iterations; the
  // outputs do not mention them.
  std::set<std::string> fresh;
  const std::vector<Type> in =
      cf::seed_empty_sequences(ctx, n, *body, cf::loop_body_inputs(n, arity->carried), arity->carried, fresh);
  const std::vector<Type> out = cf::infer_loop_body(ctx, *body, in, arity->carried, fresh);
  if (out.size() != body->outputs.size()) return;
  cf::set_carried_outputs(ctx, n, in, out, arity->carried, fresh);
  const SymbolicDim trip = cf::loop_trip_count(ctx, n, *body);
  cf::set_carried_sequence_lengths(ctx, n, *body, arity->carried, trip);
  cf::set_loop_scan_outputs(ctx, n, out, *arity, trip, fresh);
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
SYMSHAPE_RULES(infer_loop, ai_onnx("Loop", 1, 11, 13, 16, 19, 21, 23, 24, 25).cost(count_loop));

namespace control_flow_detail {

// ---- Scan ----

// Checks num_scan_inputs against the `num_in` inputs that feed the body
// (`which` says which inputs those are, for the message) and the body's
// input and output counts; the number of state variables, or nullopt after
// reporting the problem.
inline Maybe<std::size_t> scan_state_count(Context& ctx, Node& n, const Graph& body, std::size_t num_in,
                                           const char* which) {
  const Attribute* nsi = require_attr(ctx, n, "num_scan_inputs", Attribute::Kind::Int);
  if (!nsi) return std::nullopt;
  if (nsi->i < 1 || static_cast<uint64_t>(nsi->i) > num_in) {
    ctx.usage_error(n, {"num_scan_inputs ", nsi->i, " must be in [1, ", num_in, "]", which});
    return std::nullopt;
  }
  const std::size_t num_states = num_in - static_cast<std::size_t>(nsi->i);
  if (body.inputs.size() != num_in) {
    ctx.usage_error(n, {"body has ", body.inputs.size(), " inputs, expected ", num_in});
    return std::nullopt;
  }
  if (body.outputs.size() != n.outputs.size() || n.outputs.size() < num_states) {
    ctx.usage_error(n, {"body has ", body.outputs.size(), " outputs but the node has ", n.outputs.size()});
    return std::nullopt;
  }
  return num_states;
}

// The size that scan inputs agree on, seen so far (`so_far`) and in one more
// input (`d`): the more specific of the two, or nullopt after a semantic
// error when both are integers that differ. `what` names the size.
inline std::optional<SymbolicDim> agreed_size(Context& ctx, const Node& n, const SymbolicDim& so_far,
                                              const SymbolicDim& d, const char* what) {
  if (so_far.is_int() && d.is_int() && so_far != d) {
    ctx.record_error(n, {"scan inputs disagree on the ", what, ": ", so_far, " vs ", d});
    return std::nullopt;
  }
  return Context::specificity(d) > Context::specificity(so_far) ? d : so_far;
}

// Scan-8: Scan(sequence_lens?, states..., scan_inputs...), batch axis 0 and
// sequence axis 1 on scan inputs, batch axis 0 on states.
inline void infer_scan_8(Context& ctx, Node& n) {
  Graph* body = graph_attribute(ctx, n, "body");
  if (!body) return;
  const std::size_t num_in = n.inputs.size() > 0 ? n.inputs.size() - 1 : 0;
  const Maybe<std::size_t> states = scan_state_count(ctx, n, *body, num_in, " (the inputs after sequence_lens)");
  if (!states) return;
  const std::size_t num_states = *states;
  for (std::size_t i = 1; i < n.inputs.size(); ++i)
    if (!n.inputs[i]) return ctx.usage_error(n, {"input ", i, " is missing"});
  SymbolicDim batch, seq;
  std::vector<Type> in;
  for (std::size_t i = 0; i < num_in; ++i) {
    const Type& t = n.inputs[1 + i]->type;
    const bool is_state = i < num_states;
    const Shape* s = shape_of(n.inputs[1 + i]);
    if (s && s->size() < (is_state ? 1u : 2u))
      return ctx.record_error(n, {(is_state ? "state " : "scan input "), i, " has rank ", s->size(),
                                  ", expected at least ", (is_state ? "1" : "2")});
    if (s && !is_state) {
      const auto b = agreed_size(ctx, n, batch, (*s)[0], "batch size");
      if (!b) return;
      batch = *b;
      const auto q = agreed_size(ctx, n, seq, (*s)[1], "sequence size");
      if (!q) return;
      seq = *q;
    }
    // The body sees states without the batch axis, scan inputs without batch and sequence axes.
    in.push_back(s ? remove_dim(is_state ? t : remove_dim(t, 0), 0) : t);
  }
  std::vector<Type> out = ctx.infer_subgraph(*body, in);
  if (out.size() != n.outputs.size()) return;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i < num_states) {
      const Type& init = n.inputs[1 + i]->type;
      ctx.set_type(n.output(i), shape_of(n.inputs[1 + i]) ? init : stack_type(out[i], batch, 0));
    } else if (!out[i].is_unknown()) {
      Type t = stack_type(out[i], seq, 0);
      ctx.set_type(n.output(i), t.shape().has_rank() ? stack_type(t, batch, 0) : t);
    }
  }
}

struct ScanAxes {
  std::vector<int64_t> in;   // scan_input_axes, one per scan input
  std::vector<int64_t> out;  // scan_output_axes, one per scan output
};

// scan_input_axes and scan_output_axes (0 by default), their counts and
// those of the direction attributes checked; nullopt after a usage error.
inline Maybe<ScanAxes> scan_axes(Context& ctx, const Node& n, std::size_t num_scan_in, std::size_t num_scan_out) {
  ScanAxes axes{ctx.attr_ints(n, "scan_input_axes").value_or(std::vector<int64_t>(num_scan_in, 0)),
                ctx.attr_ints(n, "scan_output_axes").value_or(std::vector<int64_t>(num_scan_out, 0))};
  if (axes.in.size() != num_scan_in) {
    ctx.usage_error(n, {"scan_input_axes has ", axes.in.size(), " values, expected ", num_scan_in});
    return std::nullopt;
  }
  if (axes.out.size() != num_scan_out) {
    ctx.usage_error(n, {"scan_output_axes has ", axes.out.size(), " values, expected ", num_scan_out});
    return std::nullopt;
  }
  const std::pair<const char*, std::size_t> directions[] = {{"scan_input_directions", num_scan_in},
                                                            {"scan_output_directions", num_scan_out}};
  for (const auto& [dir, count] : directions) {
    auto d = ctx.attr_ints(n, dir);
    if (d && d->size() != count) {
      ctx.usage_error(n, {dir, " has ", d->size(), " values, expected ", count});
      return std::nullopt;
    }
  }
  return axes;
}

struct ScanBodyInputs {
  std::vector<Type> types;  // states as given, scan inputs without their scan axis
  SymbolicDim seq;          // the sequence length the scan inputs agree on
};

// The body's input types and the number of iterations, from the node's
// inputs; nullopt after a semantic error (an axis out of range, a scalar
// scan input, scan inputs of different lengths).
enum class NegativeAxes { Rejected, Allowed };  // scan axes below 0 (opset 11+)
inline Maybe<ScanBodyInputs> scan_body_inputs(Context& ctx, const Node& n, std::size_t num_states,
                                              const std::vector<int64_t>& in_axes, NegativeAxes negative_axes) {
  ScanBodyInputs in;
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    const Type& t = n.inputs[i]->type;
    if (i < num_states) {
      in.types.push_back(t);
      continue;
    }
    const Shape* s = shape_of(n.inputs[i]);
    const int64_t axis = in_axes[i - num_states];
    if (!s) {
      if (negative_axes == NegativeAxes::Rejected && axis < 0) {
        ctx.record_error(n, {"scan_input_axes value ", axis, " must be >= 0 before opset 11"});
        return std::nullopt;
      }
      in.types.push_back(t.is_tensor_like() ? Type::tensor(t.elem_type(), Shape()) : t);
      continue;
    }
    const auto rank = static_cast<int64_t>(s->size());
    if (rank < 1) {
      ctx.record_error(n, {"scan input ", i - num_states, " is a scalar; it needs a scan axis"});
      return std::nullopt;
    }
    if (axis < (negative_axes == NegativeAxes::Allowed ? -rank : 0) || axis >= rank) {
      ctx.record_error(n, {"scan_input_axes value ", axis, " is out of range for rank ", rank});
      return std::nullopt;
    }
    const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    const auto seq = agreed_size(ctx, n, in.seq, (*s)[a], "sequence length");
    if (!seq) return std::nullopt;
    in.seq = *seq;
    in.types.push_back(remove_dim(t, a));
  }
  return in;
}

// States keep their shape across iterations (the spec requires it).
inline void set_scan_state_outputs(Context& ctx, Node& n, const std::vector<Type>& out, std::size_t num_states) {
  for (std::size_t i = 0; i < num_states; ++i) {
    const Type& init = n.inputs[i]->type;
    const Type& o = out[i];
    if (shapes_contradict(init, o)) {
      ctx.record_error(n, {"state ", i, " is ", init, " but the body returns ", o, "; states must keep their shape"});
      continue;
    }
    ctx.set_type(n.output(i), shape_of(n.inputs[i]) || o.is_unknown() ? init : o);
  }
}

// The scan outputs: the body's per-iteration values stacked along their
// scan_output_axes, `seq` long.
inline void set_scan_outputs(Context& ctx, Node& n, const std::vector<Type>& out, std::size_t num_states,
                             const std::vector<int64_t>& out_axes, const SymbolicDim& seq, NegativeAxes negative_axes) {
  for (std::size_t j = 0; j < out_axes.size(); ++j) {
    const Type& o = out[num_states + j];
    if (o.is_unknown()) continue;
    if (!o.is_tensor_like()) {
      ctx.record_error(n, {"scan output ", j, " must be a tensor, got ", o});
      continue;
    }
    int64_t axis = out_axes[j];
    if (!o.shape().has_rank()) {
      ctx.set_type(n.output(num_states + j), Type::tensor(o.elem_type(), Shape()));
      continue;
    }
    const auto rank = static_cast<int64_t>(o.shape().size()) + 1;
    if (axis < (negative_axes == NegativeAxes::Allowed ? -rank : 0) || axis >= rank) {
      ctx.record_error(n, {"scan_output_axes value ", axis, " is out of range for rank ", rank});
      continue;
    }
    if (axis < 0) axis += rank;
    ctx.set_type(n.output(num_states + j), stack_type(o, seq, static_cast<std::size_t>(axis)));
  }
}

// Scan-9 and later: Scan(states..., scan_inputs...) with per-input scan axes
// and per-output stacking axes; negative axes from opset 11.
inline void infer_scan_impl(Context& ctx, Node& n, NegativeAxes negative_axes) {
  Graph* body = graph_attribute(ctx, n, "body");
  if (!body) return;
  const Maybe<std::size_t> num_states = scan_state_count(ctx, n, *body, n.inputs.size(), "");
  if (!num_states) return;
  for (std::size_t i = 0; i < n.inputs.size(); ++i)
    if (!n.inputs[i]) return ctx.usage_error(n, {"input ", i, " is missing"});
  const auto axes = scan_axes(ctx, n, n.inputs.size() - *num_states, n.outputs.size() - *num_states);
  if (!axes) return;
  const auto in = scan_body_inputs(ctx, n, *num_states, axes->in, negative_axes);
  if (!in) return;
  const std::vector<Type> out = ctx.infer_subgraph(*body, in->types);
  if (out.size() != n.outputs.size()) return;
  set_scan_state_outputs(ctx, n, out, *num_states);
  set_scan_outputs(ctx, n, out, *num_states, axes->out, in->seq, negative_axes);
}

}  // namespace control_flow_detail

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

inline void infer_scan_8(Context& ctx, Node& n) { control_flow_detail::infer_scan_8(ctx, n); }
SYMSHAPE_RULES(infer_scan_8, ai_onnx("Scan", 8).cost(count_scan));
inline void infer_scan_9(Context& ctx, Node& n) {
  control_flow_detail::infer_scan_impl(ctx, n, control_flow_detail::NegativeAxes::Rejected);
}
SYMSHAPE_RULES(infer_scan_9, ai_onnx("Scan", 9).cost(count_scan));
inline void infer_scan(Context& ctx, Node& n) {
  control_flow_detail::infer_scan_impl(ctx, n, control_flow_detail::NegativeAxes::Allowed);
}
SYMSHAPE_RULES(infer_scan, ai_onnx("Scan", 11, 16, 19, 21, 23, 24, 25).cost(count_scan));

// Later since-versions only extend the allowed types; they share a rule.
inline constexpr auto kControlFlowRules =
    family_rules<infer_if_1_rules, infer_if_rules, infer_loop_rules, infer_scan_8_rules, infer_scan_9_rules,
                 infer_scan_rules>("symshape/ops/control_flow.hpp");

}  // namespace symshape::ops
