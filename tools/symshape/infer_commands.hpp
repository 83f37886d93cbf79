// `symshape infer` and `symshape show`: shape inference over an ONNX file.
//
// Output conventions (shared with expr_commands.hpp): results, summaries and
// the inference diagnostics go to stdout; a fatal problem (bad usage,
// unreadable or malformed model, failed write) is one line on stderr starting
// with "symshape <command>:" and gives a non-zero exit. Exit codes:
//   0  inference ran without errors
//   1  the model could not be read, loaded or written (nothing was written)
//   2  bad usage
//   3  inference reported errors (the diagnostics are printed; -o and --json
//      outputs are still written, in full)
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "args.hpp"
#include "expr_commands.hpp"
#include "json_writer.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"
#include "table.hpp"

namespace symshape::cli {

// ---- small helpers ----

// Splits on commas outside parentheses ("a,Max(b,c),3" -> 3 items).
inline std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

struct InputShape {
  std::string name;
  Shape shape;
};

// "NAME=D0,D1,..." with integers, names, expressions or '?' (unknown);
// "NAME=" is a scalar.
inline bool parse_input_shape(const std::string& text, InputShape& out, std::string& error) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "bad --input-shape '" + text + "', expected NAME=D0,D1,...";
    return false;
  }
  out.name = text.substr(0, eq);
  const std::string dims_text = text.substr(eq + 1);
  std::vector<SymbolicDim> dims;
  if (!dims_text.empty()) {
    for (const std::string& item : split_top_level(dims_text)) {
      std::string t = item;
      t.erase(0, t.find_first_not_of(" \t"));
      t.erase(t.find_last_not_of(" \t") + 1);
      if (t == "?") {
        dims.emplace_back();
        continue;
      }
      Result<Expr> e = parse_expr(t);
      if (!e) {
        error = "bad dim '" + item + "' in --input-shape '" + text + "': " + e.error();
        return false;
      }
      if (e->is_int() && e->as_int() < 0) {
        error = "negative dim '" + item + "' in --input-shape '" + text + "'";
        return false;
      }
      dims.emplace_back(*e);
    }
  }
  out.shape = Shape(std::move(dims));
  return true;
}

// Writes `content` to `path` through PATH.tmp; the temp file is left for
// `commit_text_file` so that several outputs can be committed together.
inline bool write_temp_file(const std::string& path, const std::string& content, std::string& error) {
  const std::string tmp = path + ".tmp";
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "file " + path + ": cannot write " + tmp + " (" + std::strerror(errno) + ")";
    return false;
  }
  out << content;
  out.flush();
  if (!out.good()) {
    out.close();
    std::remove(tmp.c_str());
    error = "file " + path + ": writing " + tmp + " failed";
    return false;
  }
  return true;
}

inline bool commit_temp_file(const std::string& path, std::string& error) {
  const std::string tmp = path + ".tmp";
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "file " + path + ": cannot rename " + tmp + " (" + std::strerror(errno) + ")";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

inline const char* severity_name(Severity s) { return s == Severity::Error ? "error" : "warning"; }

inline const char* kind_name(DiagnosticKind k) {
  switch (k) {
    case DiagnosticKind::Usage: return "usage";
    case DiagnosticKind::Semantic: return "semantic";
    case DiagnosticKind::MissingRule: return "missing_rule";
    case DiagnosticKind::Graph: return "graph";
    case DiagnosticKind::Conflict: return "conflict";
  }
  return "unknown";
}

// The values of the main graph shown by `infer --json` and `show`: graph
// inputs, then node outputs in file order (initializers with --all).
inline std::vector<const Value*> listed_values(const Model& m, bool with_initializers) {
  std::vector<const Value*> out;
  const Graph& g = *m.graph;
  for (const Value* v : g.inputs)
    if (v && (!v->initializer || with_initializers)) out.push_back(v);
  if (with_initializers)
    for (const auto& t : g.initializers) {
      const Value* v = g.find(t->name);
      if (v && !v->is_graph_input && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    }
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v && !v->name.empty()) out.push_back(v);
  return out;
}

inline void print_diagnostics(const Report& r) {
  for (const auto& d : r.diagnostics) std::printf("%s\n", d.to_string().c_str());
}

// Loads MODEL (proto and IR); false after printing the one-line error.
inline bool load(const char* cmd, const std::string& path, ::onnx::ModelProto& proto, Model& model) {
  Result<::onnx::ModelProto> p = io::read_model_proto(path);
  if (!p) {
    fatal(cmd, p.error());
    return false;
  }
  Result<Model> m = io::load_model_proto(*p);
  if (!m) {
    fatal(cmd, "file " + path + ": " + m.error());
    return false;
  }
  proto = std::move(p.value());
  model = std::move(m.value());
  return true;
}

// ---- symshape infer ----

struct InferArgs {
  std::string model_path, out_path, json_path;
  std::vector<InputShape> input_shapes;
  InferenceOptions options;  // --policy; the trace callback is set by run_infer
  bool trace = false;
};

// Returns 0, or 2 after printing the usage error.
inline int parse_infer_args(const std::vector<std::string>& args, InferArgs& a) {
  const char* cmd = "infer";
  auto policy = [&a](const std::string& value, std::string& error) {
    auto p = parse_merge_policy(value);
    if (!p) {
      error = "bad --policy '" + value + "', expected skip, override, refine or strict";
      return false;
    }
    a.options.policy = *p;
    return true;
  };
  auto input_shape = [&a](const std::string& value, std::string& error) {
    InputShape s;
    if (!parse_input_shape(value, s, error)) return false;
    a.input_shapes.push_back(std::move(s));
    return true;
  };
  const ArgSpec spec{cmd,
                     {{{"-o", "--output"}, "OUT.onnx", store_value(a.out_path)},
                      {{"--json"}, "REPORT.json", store_value(a.json_path)},
                      {{"--policy"}, "skip|override|refine|strict", policy},
                      {{"--input-shape"}, "NAME=D0,D1,...", input_shape},
                      {{"--trace"}, nullptr, set_flag(a.trace)}},
                     one_positional(a.model_path)};
  if (const int code = parse_args(spec, args)) return code;
  if (a.model_path.empty()) return fatal(cmd, "expected a model file (symshape infer MODEL.onnx [-o OUT.onnx] ...)", 2);
  if (!a.out_path.empty() && a.out_path == a.json_path) return fatal(cmd, "-o and --json name the same file", 2);
  return 0;
}

// --input-shape: replaces the dims of graph inputs (the element type stays).
// Returns 0, or 2 after printing the usage error.
inline int apply_input_shapes(const InferArgs& a, Model& model) {
  const char* cmd = "infer";
  for (const InputShape& s : a.input_shapes) {
    Value* v = nullptr;
    for (Value* in : model.graph->inputs)
      if (in && in->name == s.name) v = in;
    if (!v) return fatal(cmd, "--input-shape: '" + s.name + "' is not an input of " + a.model_path, 2);
    if (!v->type.is_tensor_like() && !v->type.is_unknown())
      return fatal(cmd, "--input-shape: input '" + s.name + "' is not a tensor", 2);
    const DataType dt = v->type.is_unknown() ? DataType::UNDEFINED : v->type.elem_type();
    v->type = v->type.kind() == Type::Kind::SparseTensor ? Type::sparse_tensor(dt, s.shape) : Type::tensor(dt, s.shape);
  }
  // New input shapes make earlier types of node outputs (value_info, declared
  // output types, e.g. from a previous run) stale: infer those afresh.
  if (!a.input_shapes.empty())
    for (auto& n : model.graph->nodes)
      for (Value* out : n->outputs)
        if (out) out->type = Type();
  return 0;
}

// The --json report: the run's settings and counts, every diagnostic, and
// every listed value with its type and producer.
inline std::string infer_report_json(const InferArgs& a, const Model& model, const Report& report) {
  using Layout = JsonWriter::Layout;
  JsonWriter j;
  j.begin_object();
  j.key("model").string(a.model_path);
  j.key("policy").string(to_string(a.options.policy));
  j.key("modified").boolean(report.modified);
  j.key("errors").integer(report.errors());
  j.key("warnings").integer(report.warnings());
  j.key("diagnostics").begin_array();
  for (const Diagnostic& d : report.diagnostics) {
    j.begin_object(Layout::Inline);
    j.key("severity").string(severity_name(d.severity)).key("kind").string(kind_name(d.kind));
    j.key("node").string(d.node).key("op_type").string(d.op_type).key("message").string(d.message);
    j.end_object();
  }
  j.end_array();
  j.key("values").begin_array();
  for (const Value* v : listed_values(model, false)) {
    j.begin_object(Layout::Inline);
    j.key("name").string(v->name).key("type").string(v->type.to_string());
    j.key("node").string(v->producer ? v->producer->name : std::string());
    j.key("op_type").string(v->producer ? v->producer->op_type : std::string());
    j.key("graph_input").boolean(v->is_graph_input).key("graph_output").boolean(v->is_graph_output);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str() + "\n";
}

// Puts the inferred types into `proto`, and the new dims of the inputs given
// with --input-shape (write_inferred_types leaves graph inputs as they are).
inline void write_types_to_proto(const InferArgs& a, const Model& model, ::onnx::ModelProto& proto) {
  for (const InputShape& s : a.input_shapes)
    for (auto& in : *proto.mutable_graph()->mutable_input())
      if (in.name() == s.name) {
        const Value* v = model.graph->find(s.name);
        if (v && io::detail::writable(v->type)) {
          io::detail::FreshDims fresh({});
          io::detail::write_type(v->type, *in.mutable_type(), fresh);
        }
      }
  io::write_inferred_types(model, proto);
}

// Writes -o and --json. Everything is prepared before anything is renamed
// into place: if the model cannot be saved, no report appears either.
// Returns 0, or 1 after printing the error.
inline int write_infer_outputs(const InferArgs& a, const Model& model, const Report& report,
                               ::onnx::ModelProto& proto) {
  const char* cmd = "infer";
  std::string error;
  if (!a.json_path.empty() && !write_temp_file(a.json_path, infer_report_json(a, model, report), error))
    return fatal(cmd, error);
  if (!a.out_path.empty()) {
    write_types_to_proto(a, model, proto);
    Result<bool> saved = io::save_model_file(proto, a.out_path);
    if (!saved) {
      if (!a.json_path.empty()) std::remove((a.json_path + ".tmp").c_str());
      return fatal(cmd, saved.error());
    }
  }
  if (!a.json_path.empty() && !commit_temp_file(a.json_path, error)) return fatal(cmd, error);
  return 0;
}

// "  input  x: float[batch,seq,32]" (`label` padded to the width of "output").
inline void print_value_line(const char* label, const Value& v) {
  std::printf("  %-6s %s: %s\n", label, v.name.c_str(), v.type.to_string().c_str());
}

// The summary on stdout: counts, graph inputs and outputs, the diagnostics,
// and the files written.
inline void print_infer_summary(const InferArgs& a, const Model& model, const Report& report) {
  const Graph& g = *model.graph;
  std::size_t values = 0, known = 0;
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v) {
        ++values;
        known += v->type.is_tensor_like() ? v->type.shape().has_rank() : !v->type.is_unknown();
      }
  std::printf("%s: %zu nodes, %zu values, %zu with known shape, %zu errors, %zu warnings\n", a.model_path.c_str(),
              g.nodes.size(), values, known, report.errors(), report.warnings());
  for (const Value* v : g.inputs)
    if (v && !v->initializer) print_value_line("input", *v);
  for (const Value* v : g.outputs)
    if (v) print_value_line("output", *v);
  print_diagnostics(report);
  if (!a.out_path.empty()) std::printf("wrote %s\n", a.out_path.c_str());
  if (!a.json_path.empty()) std::printf("wrote %s\n", a.json_path.c_str());
}

inline int run_infer(const std::vector<std::string>& args) {
  InferArgs a;
  if (const int code = parse_infer_args(args, a)) return code;
  ::onnx::ModelProto proto;
  Model model;
  if (!load("infer", a.model_path, proto, model)) return 1;
  if (const int code = apply_input_shapes(a, model)) return code;
  if (a.trace) a.options.trace = [](const std::string& line) { std::printf("%s\n", line.c_str()); };
  const Report report = infer_shapes(model, a.options);
  if (const int code = write_infer_outputs(a, model, report, proto)) return code;
  print_infer_summary(a, model, report);
  return report.ok() ? 0 : 3;
}

// ---- symshape show ----

// "[2,128,32]" with '?' for dims that do not evaluate; sets the element count
// when every dim evaluates.
inline std::string concrete_shape(const Shape& s, const Bindings& b, std::optional<int64_t>& count) {
  count.reset();
  if (!s.has_rank()) return "?";
  std::string out = "[";
  int64_t n = 1;
  bool all = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ',';
    std::optional<int64_t> v;
    if (s[i].is_known()) {
      Result<int64_t> r = evaluate(s[i].expr(), b);
      if (r) v = *r;
    }
    if (v && *v >= 0) {
      out += std::to_string(*v);
      if (all && !checked::mul(n, *v, n)) all = false;
    } else {
      out += '?';
      all = false;
    }
  }
  if (all) count = n;
  return out + "]";
}

struct ShowArgs {
  std::string model_path;
  Bindings bindings;
  bool have_bind = false;  // adds the concrete and bytes columns
  bool with_initializers = false;
};

// Returns 0, or 2 after printing the usage error.
inline int parse_show_args(const std::vector<std::string>& args, ShowArgs& a) {
  const char* cmd = "show";
  auto bind = [&a](const std::string& value, std::string& error) {
    a.have_bind = true;
    return parse_bindings(value, a.bindings, error);
  };
  const ArgSpec spec{cmd,
                     {{{"--bind"}, "SYM=INT,...", bind}, {{"--all"}, nullptr, set_flag(a.with_initializers)}},
                     one_positional(a.model_path)};
  if (const int code = parse_args(spec, args)) return code;
  if (a.model_path.empty()) return fatal(cmd, "expected a model file (symshape show MODEL.onnx [--bind SYM=INT,...])", 2);
  return 0;
}

// The sum of the sizes of node outputs; unknown once one size is.
struct ByteTotal {
  int64_t bytes = 0;
  bool known = true;
};

// The "concrete" and "bytes" cells of `v` at the bindings; node outputs add
// their size to `total`.
inline void append_concrete_cells(const Value& v, const Bindings& bindings, TableRow& row, ByteTotal& total) {
  const Type& t = v.type;
  std::optional<int64_t> count;
  row.push_back(t.is_tensor_like() ? concrete_shape(t.shape(), bindings, count) : "-");
  const int bits = t.is_tensor_like() ? element_bits(t.elem_type()) : 0;
  int64_t bytes = 0;
  if (count && bits > 0 && checked::mul(*count, int64_t{bits}, bytes)) {
    bytes = (bytes + 7) / 8;
    row.push_back(std::to_string(bytes));
    if (v.producer && !checked::add(total.bytes, bytes, total.bytes)) total.known = false;
  } else {
    row.push_back("?");
    if (v.producer) total.known = false;
  }
}

// One row: value, node, op, dtype, shape (and with --bind concrete, bytes).
inline TableRow show_row(const Value& v, const ShowArgs& a, ByteTotal& total) {
  TableRow row{v.name};
  if (v.producer) {
    row.push_back(v.producer->name.empty() ? "-" : v.producer->name);
    row.push_back(v.producer->op_type);
  } else {
    row.push_back(v.is_graph_input ? "(input)" : "(initializer)");
    row.push_back("-");
  }
  const Type& t = v.type;
  if (t.is_tensor_like()) {
    row.push_back(std::string(t.kind() == Type::Kind::SparseTensor ? "sparse " : "") + to_string(t.elem_type()));
    row.push_back(t.shape().to_string());
  } else {
    row.push_back(t.is_unknown() ? "?" : "-");
    row.push_back(t.to_string());
  }
  if (a.have_bind) append_concrete_cells(v, a.bindings, row, total);
  return row;
}

inline int run_show(const std::vector<std::string>& args) {
  ShowArgs a;
  if (const int code = parse_show_args(args, a)) return code;
  ::onnx::ModelProto proto;
  Model model;
  if (!load("show", a.model_path, proto, model)) return 1;
  const Report report = infer_shapes(model);

  std::vector<TableRow> rows{{"value", "node", "op", "dtype", "shape"}};
  if (a.have_bind) rows[0].insert(rows[0].end(), {"concrete", "bytes"});
  ByteTotal total;
  for (const Value* v : listed_values(model, a.with_initializers)) rows.push_back(show_row(*v, a, total));
  print_table(rows, /*right_align_last=*/a.have_bind);  // the bytes column
  if (a.have_bind)
    std::printf("total bytes of node outputs: %s\n", total.known ? std::to_string(total.bytes).c_str() : "?");
  print_diagnostics(report);
  return report.ok() ? 0 : 3;
}

}  // namespace symshape::cli
