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
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"

namespace symshape::cli {

// ---- small helpers ----

inline std::string json_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

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

inline int run_infer(const std::vector<std::string>& args) {
  const char* cmd = "infer";
  std::string model_path, out_path, json_path;
  std::vector<InputShape> input_shapes;
  InferenceOptions options;
  bool trace = false;
  auto need = [&](std::size_t i, const char* what) {
    if (i + 1 < args.size()) return true;
    fatal(cmd, std::string(args[i]) + " needs " + what, 2);
    return false;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    auto option = [&](const char* name, const char* what, bool& ok) {
      const std::string n(name);
      if (a == n) {
        ok = need(i, what);
        if (ok) value = args[++i];
        return true;
      }
      if (a.rfind(n + "=", 0) == 0) {
        ok = true;
        value = a.substr(n.size() + 1);
        return true;
      }
      return false;
    };
    bool ok = true;
    if (option("-o", "OUT.onnx", ok) || option("--output", "OUT.onnx", ok)) {
      if (!ok) return 2;
      out_path = value;
    } else if (option("--json", "REPORT.json", ok)) {
      if (!ok) return 2;
      json_path = value;
    } else if (option("--policy", "skip|override|refine|strict", ok)) {
      if (!ok) return 2;
      auto p = parse_merge_policy(value);
      if (!p) return fatal(cmd, "bad --policy '" + value + "', expected skip, override, refine or strict", 2);
      options.policy = *p;
    } else if (option("--input-shape", "NAME=D0,D1,...", ok)) {
      if (!ok) return 2;
      InputShape s;
      std::string error;
      if (!parse_input_shape(value, s, error)) return fatal(cmd, error, 2);
      input_shapes.push_back(std::move(s));
    } else if (a == "--trace") {
      trace = true;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return fatal(cmd, "unknown option '" + a + "'", 2);
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return fatal(cmd, "unexpected argument '" + a + "'", 2);
    }
  }
  if (model_path.empty()) return fatal(cmd, "expected a model file (symshape infer MODEL.onnx [-o OUT.onnx] ...)", 2);
  if (!out_path.empty() && out_path == json_path) return fatal(cmd, "-o and --json name the same file", 2);

  ::onnx::ModelProto proto;
  Model model;
  if (!load(cmd, model_path, proto, model)) return 1;

  // --input-shape: replace the dims of graph inputs (the element type stays).
  for (const InputShape& s : input_shapes) {
    Value* v = nullptr;
    for (Value* in : model.graph->inputs)
      if (in && in->name == s.name) v = in;
    if (!v) return fatal(cmd, "--input-shape: '" + s.name + "' is not an input of " + model_path, 2);
    if (!v->type.is_tensor_like() && !v->type.is_unknown())
      return fatal(cmd, "--input-shape: input '" + s.name + "' is not a tensor", 2);
    const DataType dt = v->type.is_unknown() ? DataType::UNDEFINED : v->type.elem_type();
    v->type = v->type.kind() == Type::Kind::SparseTensor ? Type::sparse_tensor(dt, s.shape) : Type::tensor(dt, s.shape);
  }

  // New input shapes make earlier types of node outputs (value_info, declared
  // output types, e.g. from a previous run) stale: infer those afresh.
  if (!input_shapes.empty())
    for (auto& n : model.graph->nodes)
      for (Value* out : n->outputs)
        if (out) out->type = Type();

  if (trace) options.trace = [](const std::string& line) { std::printf("%s\n", line.c_str()); };
  const Report report = infer_shapes(model, options);

  // Outputs: everything is prepared before anything is renamed into place.
  std::string error;
  if (!json_path.empty()) {
    std::string j = "{\n  \"model\": " + json_escape(model_path) + ",\n";
    j += "  \"policy\": " + json_escape(to_string(options.policy)) + ",\n";
    j += std::string("  \"modified\": ") + (report.modified ? "true" : "false") + ",\n";
    j += "  \"errors\": " + std::to_string(report.errors()) + ",\n";
    j += "  \"warnings\": " + std::to_string(report.warnings()) + ",\n";
    j += "  \"diagnostics\": [";
    for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
      const Diagnostic& d = report.diagnostics[i];
      j += i ? ",\n    " : "\n    ";
      j += "{\"severity\": " + json_escape(severity_name(d.severity)) + ", \"kind\": " + json_escape(kind_name(d.kind)) +
           ", \"node\": " + json_escape(d.node) + ", \"op_type\": " + json_escape(d.op_type) +
           ", \"message\": " + json_escape(d.message) + "}";
    }
    j += report.diagnostics.empty() ? "],\n" : "\n  ],\n";
    j += "  \"values\": [";
    const auto values = listed_values(model, false);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const Value* v = values[i];
      j += i ? ",\n    " : "\n    ";
      j += "{\"name\": " + json_escape(v->name) + ", \"type\": " + json_escape(v->type.to_string());
      j += ", \"node\": " + json_escape(v->producer ? v->producer->name : std::string());
      j += ", \"op_type\": " + json_escape(v->producer ? v->producer->op_type : std::string());
      j += std::string(", \"graph_input\": ") + (v->is_graph_input ? "true" : "false");
      j += std::string(", \"graph_output\": ") + (v->is_graph_output ? "true" : "false") + "}";
    }
    j += values.empty() ? "]\n}\n" : "\n  ]\n}\n";
    if (!write_temp_file(json_path, j, error)) return fatal(cmd, error);
  }
  if (!out_path.empty()) {
    // Inputs given with --input-shape are written with their new dims.
    for (const InputShape& s : input_shapes)
      for (auto& in : *proto.mutable_graph()->mutable_input())
        if (in.name() == s.name) {
          const Value* v = model.graph->find(s.name);
          if (v && io::detail::writable(v->type)) {
            io::detail::FreshDims fresh({});
            io::detail::write_type(v->type, *in.mutable_type(), fresh);
          }
        }
    io::write_inferred_types(model, proto);
    Result<bool> saved = io::save_model_file(proto, out_path);
    if (!saved) {
      if (!json_path.empty()) std::remove((json_path + ".tmp").c_str());
      return fatal(cmd, saved.error());
    }
  }
  if (!json_path.empty() && !commit_temp_file(json_path, error)) return fatal(cmd, error);

  // Summary.
  const Graph& g = *model.graph;
  std::size_t values = 0, known = 0;
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v) {
        ++values;
        known += v->type.is_tensor_like() ? v->type.shape().has_rank() : !v->type.is_unknown();
      }
  std::printf("%s: %zu nodes, %zu values, %zu with known shape, %zu errors, %zu warnings\n", model_path.c_str(),
              g.nodes.size(), values, known, report.errors(), report.warnings());
  for (const Value* v : g.inputs)
    if (v && !v->initializer) std::printf("  input  %s: %s\n", v->name.c_str(), v->type.to_string().c_str());
  for (const Value* v : g.outputs)
    if (v) std::printf("  output %s: %s\n", v->name.c_str(), v->type.to_string().c_str());
  print_diagnostics(report);
  if (!out_path.empty()) std::printf("wrote %s\n", out_path.c_str());
  if (!json_path.empty()) std::printf("wrote %s\n", json_path.c_str());
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

inline int run_show(const std::vector<std::string>& args) {
  const char* cmd = "show";
  std::string model_path;
  Bindings bindings;
  bool have_bind = false, with_initializers = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string error;
    if (a == "--bind") {
      if (i + 1 >= args.size()) return fatal(cmd, "--bind needs SYM=INT,...", 2);
      if (!parse_bindings(args[++i], bindings, error)) return fatal(cmd, error, 2);
      have_bind = true;
    } else if (a.rfind("--bind=", 0) == 0) {
      if (!parse_bindings(a.substr(7), bindings, error)) return fatal(cmd, error, 2);
      have_bind = true;
    } else if (a == "--all") {
      with_initializers = true;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return fatal(cmd, "unknown option '" + a + "'", 2);
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return fatal(cmd, "unexpected argument '" + a + "'", 2);
    }
  }
  if (model_path.empty()) return fatal(cmd, "expected a model file (symshape show MODEL.onnx [--bind SYM=INT,...])", 2);
  ::onnx::ModelProto proto;
  Model model;
  if (!load(cmd, model_path, proto, model)) return 1;
  const Report report = infer_shapes(model);

  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"value", "node", "op", "dtype", "shape"};
  if (have_bind) {
    header.push_back("concrete");
    header.push_back("bytes");
  }
  rows.push_back(header);
  int64_t total = 0;
  bool total_known = true;
  for (const Value* v : listed_values(model, with_initializers)) {
    std::vector<std::string> row;
    row.push_back(v->name);
    if (v->producer) {
      row.push_back(v->producer->name.empty() ? "-" : v->producer->name);
      row.push_back(v->producer->op_type);
    } else {
      row.push_back(v->is_graph_input ? "(input)" : "(initializer)");
      row.push_back("-");
    }
    const Type& t = v->type;
    if (t.is_tensor_like()) {
      row.push_back(std::string(t.kind() == Type::Kind::SparseTensor ? "sparse " : "") + to_string(t.elem_type()));
      row.push_back(t.shape().to_string());
    } else {
      row.push_back(t.is_unknown() ? "?" : "-");
      row.push_back(t.to_string());
    }
    if (have_bind) {
      std::optional<int64_t> count;
      row.push_back(t.is_tensor_like() ? concrete_shape(t.shape(), bindings, count) : "-");
      const int bits = t.is_tensor_like() ? element_bits(t.elem_type()) : 0;
      int64_t bytes = 0;
      if (count && bits > 0 && checked::mul(*count, int64_t{bits}, bytes)) {
        bytes = (bytes + 7) / 8;
        row.push_back(std::to_string(bytes));
        if (v->producer && !checked::add(total, bytes, total)) total_known = false;
      } else {
        row.push_back("?");
        if (v->producer) total_known = false;
      }
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> width(header.size(), 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c) {
      std::string cell = r[c];
      const bool last = c + 1 == r.size();
      const bool right = have_bind && c + 1 == r.size();  // bytes, right-aligned
      if (right && cell.size() < width[c]) cell.insert(0, width[c] - cell.size(), ' ');
      if (!last && cell.size() < width[c]) cell.append(width[c] - cell.size(), ' ');
      line += cell;
      if (!last) line += "  ";
    }
    std::printf("%s\n", line.c_str());
  }
  if (have_bind)
    std::printf("total bytes of node outputs: %s\n", total_known ? std::to_string(total).c_str() : "?");
  print_diagnostics(report);
  return report.ok() ? 0 : 3;
}

}  // namespace symshape::cli
