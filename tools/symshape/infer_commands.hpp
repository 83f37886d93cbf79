// `symshape infer` and `symshape show`: shape inference over an ONNX file.
//
// The contract (shared with expr_commands.hpp, documented in --help,
// docs/onnx.md and the README):
//   - results and tables go to stdout (with `-o -` or `--json -` stdout
//     holds only that file, and infer's summary and --trace go to stderr);
//   - every diagnostic goes to stderr, one line each, "symshape CMD: FILE:
//     error|warning|note: node #I 'NAME' (OP): MESSAGE"; a fatal problem is
//     one line "symshape CMD: ..." naming the file (or the argument);
//   - exit 0 success, 1 unreadable or malformed input (or an output that
//     cannot be written), 2 bad usage, 3 inference reported errors;
//   - on a non-zero exit -o is neither created nor modified (--allow-errors
//     writes it despite inference errors, exit 3); --json is written whenever
//     inference ran, since it reports the errors.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "args.hpp"
#include "expr_commands.hpp"
#include "fit.hpp"
#include "model_io.hpp"
#include "symshape/infer/input_shapes.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/report/bindings_check.hpp"
#include "symshape/report/diagnostic_text.hpp"
#include "symshape/report/listed_values.hpp"
#include "symshape/report/report_json.hpp"
#include "symshape/support/output_file.hpp"
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

using report::kind_name;
using report::listed_values;
using report::severity_name;

// ---- symshape infer ----

inline constexpr const char* kInferUsage =
    "usage: symshape infer MODEL.onnx|- [-o OUT.onnx|-] [--input-shape NAME=D0,D1,...]...\n"
    "                      [--policy skip|override|refine|strict] [--trace] [--json REPORT.json|-]\n"
    "                      [--allow-errors] [--external-data keep|copy|link] [--assume-contracts]\n"
    "                      [--assume FACT]...\n"
    "                      [--assume-nonempty] [--full] [--quiet]\n"
    "  Infers every value's shape. Prints a summary on stdout (counts, inputs and\n"
    "  outputs with their types as written, '?' for an unknown dim, _dN for a fresh\n"
    "  symbol), then the model's contracts: relations between input dims that\n"
    "  every valid run satisfies (MatMul inner dims equal, broadcast dims equal or\n"
    "  1, a declared dim the inference cannot confirm), each with its node. Every\n"
    "  diagnostic goes to stderr, one line each naming the file and the node\n"
    "  (#index, name, op type).\n"
    "  MODEL '-' reads standard input; '-o -' / '--json -' write standard output,\n"
    "  and then the summary and --trace go to stderr.\n"
    "  -o OUT          write the model with value_info for every value (a temporary\n"
    "                  file beside OUT renamed over it; a symlink is written through,\n"
    "                  a device or FIFO in place); relative external-data locations\n"
    "                  are rewritten to resolve from OUT's folder\n"
    "  --external-data keep|copy|link  what -o does with external data files:\n"
    "                  keep (default) rewrites their relative locations to resolve\n"
    "                  from OUT's folder, refused when that would go up with '..';\n"
    "                  copy or link places each file beside OUT at the location the\n"
    "                  model has (a hard link, else a symbolic one)\n"
    "  --allow-errors  write -o even when inference reports errors (exit 3)\n"
    "  --json REPORT   write a JSON report, also when inference reports errors\n"
    "                  (docs/json.md: \"schema\": \"symshape/infer/1\")\n"
    "  --input-shape   replace an input's dims (integers, names, expressions, '?')\n"
    "  --policy        how inferred types merge with existing ones (default refine)\n"
    "  --trace         one line per node\n"
    "  --quiet, -q     no summary and no contracts: the diagnostics and files only\n"
    "  --assume-contracts  assume the contracts hold: substitute the input symbols\n"
    "                  they determine (keeping the names the model declares) and\n"
    "                  infer again; lists every assumption made. Without it every\n"
    "                  shape is exact for every valid run.\n" SYMSHAPE_CLI_ASSUME_HELP
    "  --full          print the summary's types and the contracts' and assumptions'\n"
    "                  expressions whole; without it one longer than the room left\n"
    "                  by the terminal's width (60 characters when not a terminal)\n"
    "                  is cut, ending in '…' (--json always holds them whole)\n"
    "  Outputs may not be the input model, each other, a directory, or an external\n"
    "  data file of the model (usage errors, before anything runs).\n"
    "exit status: 0 ok; 1 unreadable or malformed input, or an output that cannot\n"
    "  be written; 2 bad usage; 3 inference reported errors. On a non-zero exit -o\n"
    "  is neither created nor modified (except 3 with --allow-errors).\n";

// --external-data: what -o does with the model's external data files.
enum class ExternalDataMode {
  Keep,  // the locations rewritten to resolve from -o's folder (refused when they would go up)
  Copy,  // the files copied beside -o at the same relative locations, which stay
  Link,  // the same with links (hard links, else symbolic ones)
};

struct InferArgs {
  std::string model_path, out_path, json_path;
  ExternalDataMode external_data = ExternalDataMode::Keep;
  std::vector<InputShape> input_shapes;
  InferenceOptions options;  // --policy; the trace callback is set by run_infer
  bool trace = false;
  bool allow_errors = false;
  bool assume_contracts = false;
  bool full = false;   // --full: no expression cut
  bool quiet = false;  // --quiet: no summary (diagnostics and files only)
};

// The options infer and profile share: --policy and --input-shape.
inline auto policy_option(MergePolicy& policy) {
  return [&policy](const std::string& value, std::string& error) {
    auto p = parse_merge_policy(value);
    if (!p) {
      error = "bad --policy '" + value + "', expected skip, override, refine or strict";
      return false;
    }
    policy = *p;
    return true;
  };
}
inline auto input_shape_option(std::vector<InputShape>& shapes) {
  return [&shapes](const std::string& value, std::string& error) {
    InputShape s;
    if (!parse_input_shape(value, s, error)) return false;
    for (const InputShape& other : shapes)
      if (other.name == s.name) {
        error = "--input-shape: '" + s.name + "' is given twice";
        return false;
      }
    shapes.push_back(std::move(s));
    return true;
  };
}

// Returns nothing when inference is to run, else the exit code (after
// printing the usage or the usage error).
inline std::optional<int> parse_infer_args(const std::vector<std::string>& args, InferArgs& a) {
  const char* cmd = "infer";
  const ArgSpec spec{cmd,
                     kInferUsage,
                     {{{"-o", "--output"}, "OUT.onnx", file_option(a.out_path, "-o")},
                      {{"--json"}, "REPORT.json", file_option(a.json_path, "--json")},
                      {{"--policy"}, "skip|override|refine|strict", policy_option(a.options.policy)},
                      {{"--input-shape"}, "NAME=D0,D1,...", input_shape_option(a.input_shapes)},
                      {{"--trace"}, nullptr, set_flag(a.trace)},
                      {{"-q", "--quiet"}, nullptr, set_flag(a.quiet)},
                      {{"--external-data"},
                       "keep|copy|link",
                       [&a](const std::string& value, std::string& error) {
                         error = "bad --external-data '" + value + "', expected keep, copy or link";
                         if (value == "keep")
                           a.external_data = ExternalDataMode::Keep;
                         else if (value == "copy")
                           a.external_data = ExternalDataMode::Copy;
                         else if (value == "link")
                           a.external_data = ExternalDataMode::Link;
                         else
                           return false;
                         return true;
                       }},
                      {{"--allow-errors"}, nullptr, set_flag(a.allow_errors)},
                      {{"--assume-contracts"}, nullptr, set_flag(a.assume_contracts)},
                      {{"--assume"}, "FACT", assume_text_option(a.options.assume)},
                      {{"--assume-nonempty"}, nullptr, set_flag(a.options.assume_nonempty)},
                      {{"--full"}, nullptr, set_flag(a.full)}},
                     one_positional(a.model_path)};
  if (const std::optional<int> done = parse_args(spec, args)) return done;
  if (a.model_path.empty())
    return fatal(cmd, "expected a model file (symshape infer MODEL.onnx [-o OUT.onnx] ...)", kExitUsage);
  return check_outputs(cmd, a.model_path, {{"-o", a.out_path}, {"--json", a.json_path}});
}

// The graph inputs with a dim that inference named (_dN for a dim the file
// leaves unknown): they are written with those names, so that the inputs and
// the values computed from them share the symbol, and inferring the output
// again gives the same names.
inline std::vector<std::string> inputs_with_fresh_dims(const Model& model) {
  std::vector<std::string> names;
  for (const Value* v : model.graph->inputs) {
    if (!v || !v->type.is_tensor_like() || !v->type.shape().has_rank()) continue;
    for (const SymbolicDim& d : v->type.shape().dims())
      if (d.is_symbolic() && d.expr().is_symbol() && Context::fresh_index(d.expr().name())) {
        names.push_back(v->name);
        break;
      }
  }
  return names;
}

// --input-shape: set_input_shapes(); nothing, or 2 after printing the usage error.
inline std::optional<int> apply_input_shapes(const char* cmd, const std::string& model_path,
                                             const std::vector<InputShape>& shapes, Model& model) {
  const std::string problem = set_input_shapes("--input-shape", shapes, display_name(model_path), model);
  if (problem.empty()) return std::nullopt;
  return fatal(cmd, problem, kExitUsage);
}

// The --json report (report/report_json.hpp).
inline std::string infer_report_json(const InferArgs& a, const Model& model, const Report& report,
                                     const std::vector<Assumption>& assumptions, const WrittenTypes& types) {
  return report::report_json(a.model_path, a.options.policy, model, report, assumptions, types);
}

// "  input  x: float[batch,seq,32]" (`label` padded to the width of "output"),
// the type's text cut to `fit`.
inline void print_value_line(FILE* out, const char* label, const Value& v, const std::string& type_text,
                             const ExprFit& fit) {
  const std::size_t used = std::strlen("  output ") + display_width(v.name) + std::strlen(": ");
  const std::string type = fit.cut(type_text, used);
  // Put together and written at once: fprintf's formatting was 3% of the
  // command on a model with 773 inputs (one line each). The texts go up to a
  // NUL byte, as "%s" took them.
  std::string line = "  ";
  line.reserve(used + type.size() + 1);
  line += label;
  line.resize(std::max<std::size_t>(line.size(), std::strlen("  output")), ' ');
  line += ' ';
  line += v.name.c_str();
  line += ": ";
  line += type.c_str();
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), out);
}

// The relation of `c` on a line whose other text takes `used` columns, with
// each expression in it (and `extra` more on the line) cut to fit.
inline std::string fitted_relation(const Contract& c, const ExprFit& fit, std::size_t used, std::size_t extra = 0) {
  if (!c.condition.empty()) return fit.cut(c.condition, used);  // short already: the clamp-free case
  if (!fit.cuts()) return c.relation();
  const std::size_t skeleton = display_width(c.relation("", ""));
  const std::size_t parts =
      display_width(c.relation("x", "")) - skeleton + display_width(c.relation("", "x")) - skeleton + extra;
  return c.relation(fit.cut(c.lhs.to_string(), used + skeleton, parts),
                    fit.cut(c.rhs.to_string(), used + skeleton, parts));
}

// The contracts (and, with --assume-contracts, the assumptions, or a line
// saying there were none), after the summary: "  node #3 'add' (Add): total
// == past+seq or ... (broadcast)", their expressions cut to `fit`.
inline std::string contract_place(const Contract& c) {
  const std::string where = node_place(c.where, c.node, c.op_type);
  return where.empty() ? std::string() : where + ": ";
}
// With --assume-contracts: what was assumed, or a line saying nothing was.
inline void print_assumptions(FILE* out, const Report& report, const std::vector<Assumption>& assumptions,
                              const ExprFit& fit) {
  const auto& place = contract_place;
  if (!assumptions.empty()) std::fprintf(out, "assumed (--assume-contracts): %zu\n", assumptions.size());
  if (assumptions.empty())  // say so, rather than nothing
    std::fprintf(out, "assumed (--assume-contracts): none, %s\n",
                 report.contracts.empty() ? "the model has no contracts to assume"
                                          : "no contract determines an input symbol or has a condition");
  for (const Assumption& x : assumptions) {
    const std::string from = place(x.from);
    if (x.symbol.empty()) {  // a fact: the contract's condition, "from node #18 'g' (Gather) (Gather indices)"
      const std::string node = node_place(x.from.where, x.from.node, x.from.op_type);
      const std::string origin = x.from.origin;
      const std::string source = node.empty() ? "(" + origin + ")" : node + " (" + origin + ")";
      std::fprintf(out, "  %s  from %s\n", fit.cut(x.fact, display_width("    from " + source)).c_str(),
                   source.c_str());
      continue;
    }
    // "  SYMBOL = VALUE  from PLACE: RELATION": VALUE is one more expression.
    const std::size_t used = display_width("  " + x.symbol + " =   from " + from);
    const std::string relation = fitted_relation(x.from, fit, used, 1);
    const std::string value = fit.cut(x.value.to_string(), used + display_width(relation));
    std::fprintf(out, "  %s = %s  from %s%s\n", x.symbol.c_str(), value.c_str(), from.c_str(), relation.c_str());
  }
}
inline void print_contracts(FILE* out, const Report& report, bool assume_contracts,
                            const std::vector<Assumption>& assumptions, const ExprFit& fit) {
  const auto& place = contract_place;
  if (assume_contracts) print_assumptions(out, report, assumptions, fit);
  if (report.contracts.empty()) return;
  std::fprintf(out, "contracts: %s that valid inputs satisfy\n",
               count_noun(report.contracts.size(), "relation").c_str());
  for (const Contract& c : report.contracts) {
    const std::string where = place(c), origin = c.origin;
    const std::string relation = fitted_relation(c, fit, display_width("  " + where + " ()" + origin));
    std::fprintf(out, "  %s%s (%s)\n", where.c_str(), relation.c_str(), origin.c_str());
  }
}

// The summary: counts, graph inputs and outputs with their types as written
// (cut to `fit`), and the files written.
inline void print_infer_summary(FILE* out, const InferArgs& a, const Model& model, const Report& report,
                                const WrittenTypes& types, const std::vector<std::string>& placed_data,
                                bool wrote_model, bool wrote_json, const ExprFit& fit) {
  const Graph& g = *model.graph;
  std::size_t values = 0, known = 0;
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v) {
        ++values;
        known += types.known(*v);
      }
  std::fprintf(out, "%s: %s, %s, %zu with known shape, %s, %s\n", display_name(a.model_path).c_str(),
               count_noun(g.nodes.size(), "node").c_str(), count_noun(values, "value").c_str(), known,
               count_noun(report.errors(), "error").c_str(), count_noun(report.warnings(), "warning").c_str());
  if (report.undetermined_dims > 0)
    std::fprintf(out, "%s determined by the inputs but left as fresh symbols (see the warnings)\n",
                 count_noun(report.undetermined_dims, "dim").c_str());
  print_facts_line(out, report.facts);
  // A graph's inputs share a few types (the 48-layer transformer of
  // bench/gen_whole_models.py: 7 among 773 inputs), so each type written is
  // decoded and printed once: the summary took a tenth of the command's
  // instructions on that model, most of it decoding and printing the same
  // types again.
  std::unordered_map<std::string_view, std::string> texts;
  auto type_text = [&types, &texts](const Value& v) {
    const std::string_view bytes = types.type_bytes(v);
    if (bytes.empty()) return types.of(v).to_string();
    auto [at, added] = texts.try_emplace(bytes);
    if (added) at->second = types.of(v).to_string();
    return at->second;
  };
  for (const Value* v : g.inputs)
    if (v && !v->initializer) print_value_line(out, "input", *v, type_text(*v), fit);
  for (const Value* v : g.outputs)
    if (v) print_value_line(out, "output", *v, type_text(*v), fit);
  for (const std::string& f : placed_data)
    std::fprintf(out, "%s %s\n", a.external_data == ExternalDataMode::Copy ? "copied" : "linked", f.c_str());
  if (wrote_model) std::fprintf(out, "wrote %s\n", names_stdout(a.out_path) ? "standard output" : a.out_path.c_str());
  if (wrote_json) std::fprintf(out, "wrote %s\n", names_stdout(a.json_path) ? "standard output" : a.json_path.c_str());
}

// --external-data copy|link: each external data file at a relative location
// placed beside OUT at the same location (so the model's locations stay as
// they are): copied (as cp does, std::filesystem::copy_file) or linked (a hard
// link, else a symbolic one to the file). A file already there is kept when it
// is the data file itself, else refused, as is a location that goes up
// ("../w.bin"). The files placed go to `placed`; on failure the message.
inline Result<bool> place_external_data(const InferArgs& a, const InputFile& input, std::vector<std::string>& placed) {
  namespace fs = std::filesystem;
  const fs::path out_dir = model_dir(a.out_path).empty() ? fs::path(".") : fs::path(model_dir(a.out_path));
  std::error_code missing;
  if (!fs::is_directory(out_dir, missing))  // (as writing -o would say; no folder is made for it)
    return Result<bool>::failure("cannot write it: folder " + out_dir.string() + " does not exist");
  for (const std::string& location : input.external_data().relative_locations) {
    const fs::path source = onnx::detail::external_file(model_dir(a.model_path), location);
    const fs::path target = (out_dir / location).lexically_normal();
    if (target.lexically_relative(out_dir.lexically_normal()).empty() ||
        *target.lexically_relative(out_dir.lexically_normal()).begin() == "..")
      return Result<bool>::failure("external data location '" + location + "' goes up out of the folder of -o");
    std::error_code ec;
    if (fs::exists(target, ec)) {
      if (fs::equivalent(source, target, ec)) continue;  // the data file itself (the same folder)
      return Result<bool>::failure("external data file " + target.string() + " exists and is not the model's " +
                                   source.string() + " (not overwritten)");
    }
    fs::create_directories(target.parent_path(), ec);
    ec.clear();
    if (a.external_data == ExternalDataMode::Copy) {
      fs::copy_file(source, target, ec);
    } else {
      fs::create_hard_link(source, target, ec);
      if (ec) {
        ec.clear();
        fs::create_symlink(fs::absolute(source, ec), target, ec);
      }
    }
    if (ec)
      return Result<bool>::failure(
          "cannot " + std::string(a.external_data == ExternalDataMode::Copy ? "copy" : "link") +
          " external data file " + source.string() + " to " + target.string() + ": " + ec.message());
    placed.push_back(target.string());
  }
  return true;
}

// Writes --json (always) and -o (when inference had no errors, or with
// --allow-errors). The report is put in place first, so that -o is only
// replaced once nothing else can fail. Returns 0, or 1 after printing the
// problem.
inline int write_infer_outputs(const InferArgs& a, const Model& model, const Report& report,
                               const std::vector<Assumption>& assumptions, const WrittenTypes& types,
                               const InputFile& input, onnx::Splice& splice, bool& wrote_model, bool& wrote_json,
                               std::vector<std::string>& placed_data) {
  const char* cmd = "infer";
  const std::string file = display_name(a.model_path);
  int code = kExitOk;
  std::optional<onnx::SplicedModel> spliced;  // before model_out, whose writer reads it
  std::optional<PreparedOutput> model_out;
  if (!a.out_path.empty() && !report.ok() && !a.allow_errors) {
    std::fprintf(
        stderr, "symshape %s: %s: note: %s not written because inference reported errors (--allow-errors writes it)\n",
        cmd, one_line(file).c_str(), names_stdout(a.out_path) ? "standard output" : one_line(a.out_path).c_str());
  } else if (!a.out_path.empty()) {
    // Relative external-data locations are re-expressed from the folder of -o
    // (as given, not through its symlinks); standard output and special files
    // have no folder of their own, their locations stay as they were.
    // With --external-data copy|link the files go beside -o instead, at the
    // locations the model has.
    Result<bool> moved = true;
    const bool to_file = !names_stdout(a.out_path) && !symshape::resolve_output(a.out_path).special;
    if (to_file && input.external_data().tensors > 0) {
      if (a.external_data == ExternalDataMode::Keep)
        moved = splice.relocate(model_dir(a.model_path), model_dir(a.out_path));
      else
        moved = place_external_data(a, input, placed_data);
    }
    Result<onnx::SplicedModel> pieces = moved ? splice.finish() : Result<onnx::SplicedModel>::failure("(not spliced)");
    if (!moved) {
      code = fatal(cmd, "file " + a.out_path + ": " + moved.error() + " (nothing written)");
    } else if (!pieces) {
      code = fatal(cmd, "file " + a.out_path + ": " + pieces.error());
    } else {
      spliced = std::move(pieces.value());
      // Standard output gets the pieces with write(); a file, copies from the input's descriptor.
      const int in_fd = names_stdout(a.out_path) ? -1 : input.fd();
      Result<PreparedOutput> p = prepare_output(a.out_path, onnx::spliced_writer(*spliced, in_fd));
      if (p)
        model_out = std::move(p.value());
      else
        code = fatal(cmd, p.error());
    }
  }
  if (!a.json_path.empty()) {
    const std::string json = infer_report_json(a, model, report, assumptions, types);
    Result<PreparedOutput> p = prepare_output(a.json_path, symshape::bytes_writer(json));
    Result<bool> done = p ? commit_output(p.value()) : Result<bool>::failure(p.error());
    if (!done) {
      model_out.reset();  // removes its temporary file: -o stays as it was
      return fatal(cmd, done.error());
    }
    wrote_json = true;
  }
  if (model_out) {
    Result<bool> done = commit_output(*model_out);
    if (!done) return fatal(cmd, done.error());
    wrote_model = true;
  }
  return code;
}

// --assume-contracts: each further run starts from the model as loaded (with
// --input-shape applied).
inline Report infer_assuming_contracts(const char* cmd, const std::string& model_path,
                                       const std::vector<InputShape>& shapes, const InputFile& input, Model& model,
                                       const InferenceOptions& options, std::vector<Assumption>& assumptions) {
  auto reload = [&]() {
    Result<Model> loaded =
        onnx::load_model_bytes(input.bytes(), display_name(model_path), nullptr, releasing_pages(input));
    Model fresh = std::move(loaded.value());  // loaded once
    input.release_pages();                    // the load read them back in
    apply_input_shapes(cmd, model_path, shapes, fresh);
    return fresh;
  };
  return infer_shapes_assuming_contracts(model, reload, options, assumptions);
}

// The graph inputs whose types the written model changes: those with a dim
// inference named (inputs_with_fresh_dims), those given by --input-shape,
// and after assumptions every input (written as assumed).
inline std::vector<std::string> rewritten_inputs(const std::vector<InputShape>& input_shapes,
                                                 const std::vector<Assumption>& assumptions, const Model& model) {
  std::vector<std::string> names = inputs_with_fresh_dims(model);
  for (const InputShape& s : input_shapes) names.push_back(s.name);
  if (!assumptions.empty())
    for (const Value* v : model.graph->inputs)
      if (v) names.push_back(v->name);
  return names;
}

inline int run_infer(const std::vector<std::string>& args) {
  const char* cmd = "infer";
  InferArgs a;
  if (const std::optional<int> done = parse_infer_args(args, a)) return *done;
  InputFile input;
  Model model;
  if (!load(cmd, a.model_path, input, model)) return kExitInput;
  if (const std::optional<int> bad =
          check_outputs_against_data(cmd, input, {{"-o", a.out_path}, {"--json", a.json_path}}))
    return *bad;
  if (const std::optional<int> bad = apply_input_shapes(cmd, a.model_path, a.input_shapes, model)) return *bad;
  // The splice reads the file's graph now, so that its pages need not stay
  // in memory while the model is inferred.
  onnx::Splice splice(input.bytes(), model, releasing_pages(input));
  input.release_pages();
  // With -o - or --json -, stdout holds only that file.
  FILE* summary = names_stdout(a.out_path) || names_stdout(a.json_path) ? stderr : stdout;
  if (a.trace) a.options.trace = [summary](const std::string& line) { std::fprintf(summary, "%s\n", line.c_str()); };
  std::vector<Assumption> assumptions;
  const Report report = a.assume_contracts ? infer_assuming_contracts(cmd, a.model_path, a.input_shapes, input, model,
                                                                      a.options, assumptions)
                                           : infer_shapes(model, a.options);
  print_diagnostics(cmd, a.model_path, report);

  const std::vector<std::string> changed_inputs = rewritten_inputs(a.input_shapes, assumptions, model);
  if (a.out_path.empty())
    splice.record_types(changed_inputs);  // the summary and --json read the types; nothing is written
  else
    splice.write_types(changed_inputs);
  const WrittenTypes types(splice.main_graph_value_infos());
  bool wrote_model = false, wrote_json = false;
  std::vector<std::string> placed_data;  // --external-data copy|link
  const int code =
      write_infer_outputs(a, model, report, assumptions, types, input, splice, wrote_model, wrote_json, placed_data);
  const ExprFit fit = ExprFit::for_output(summary, a.full);
  if (!a.quiet) {
    print_infer_summary(summary, a, model, report, types, placed_data, wrote_model, wrote_json, fit);
    print_contracts(summary, report, a.assume_contracts, assumptions, fit);
  }
  if (std::fflush(stdout) != 0) return fatal(cmd, "cannot write to standard output");
  return end_without_teardown(code != kExitOk ? code : report.ok() ? kExitOk : kExitInference);
}

// ---- symshape show ----

inline constexpr const char* kShowUsage =
    "usage: symshape show MODEL.onnx|- [--bind SYM=INT,...]... [--all] [--json FILE|-] [--quiet]\n"
    "                     [--assume FACT]... [--assume-nonempty] [--full]\n"
    "  Infers every value's shape and prints one aligned row per value on stdout\n"
    "  (graph inputs and node outputs; --all adds initializers): name, producing\n"
    "  node, op, dtype, symbolic shape as `infer -o` would write it ('?' for an\n"
    "  unknown dim, _dN for a fresh symbol); with --bind also the concrete shape and\n"
    "  the size in bytes ('?' where a symbol is unbound) and the total size of the\n"
    "  node outputs. Diagnostics go to stderr. MODEL '-' reads standard input.\n"
    "  Binding values are integers >= 0; binding a symbol twice, or a symbol that\n"
    "  no shown shape has, is a usage error, and so are bindings that break a fact.\n"
    "  The model is also inferred at the bound input dims: an error there (a\n"
    "  broadcast that fails at those values) is reported, exit status 3.\n"
    "  A shape longer than the room left by the terminal's width (60 characters\n"
    "  when stdout is not a terminal) is cut, ending in '…'; --full prints every\n"
    "  shape whole. --json writes the rows as JSON (docs/json.md: each value's\n"
    "  dtype and dims, and with --bind its concrete dims and bytes); '-' is\n"
    "  standard output, and the table then goes to stderr. --quiet (-q) prints no\n"
    "  table.\n" SYMSHAPE_CLI_ASSUME_HELP
    "exit status: 0 ok; 1 unreadable or malformed input; 2 bad usage; 3 inference\n"
    "  reported errors (the table is still printed).\n";

// "[2,128,32]" with '?' for dims that do not evaluate; sets the element count
// when every dim evaluates.
// Each dim of a shape of known rank at the bindings; nothing for one that
// does not evaluate (or to a negative value). Sets the element count when
// every dim evaluates and their product fits int64.
inline std::vector<std::optional<int64_t>> concrete_dims(const Shape& s, const Bindings& b,
                                                         std::optional<int64_t>& count) {
  std::vector<std::optional<int64_t>> dims;
  int64_t n = 1;
  bool all = true;
  for (const SymbolicDim& d : s.dims()) {
    std::optional<int64_t> v;
    if (d.is_known()) {
      Result<int64_t> r = evaluate(d.expr(), b);
      if (r && *r >= 0) v = *r;
    }
    if (!v || (all && !checked::mul(n, *v, n))) all = false;
    dims.push_back(v);
  }
  count = all ? std::optional<int64_t>(n) : std::nullopt;
  return dims;
}

inline std::string concrete_shape(const Shape& s, const Bindings& b, std::optional<int64_t>& count) {
  count.reset();
  if (!s.has_rank()) return "?";
  std::string out = "[";
  for (const std::optional<int64_t>& v : concrete_dims(s, b, count)) {
    if (out.size() > 1) out += ',';
    out += v ? std::to_string(*v) : "?";
  }
  return out + "]";
}

struct ShowArgs {
  std::string model_path, json_path;
  Bindings bindings;
  bool have_bind = false;  // adds the concrete and bytes columns
  bool with_initializers = false;
  InferenceOptions options;  // --assume, --assume-nonempty
  bool full = false;         // --full: no expression cut
  bool quiet = false;        // --quiet: no table
};

// Returns nothing when the command is to run, else the exit code.
inline std::optional<int> parse_show_args(const std::vector<std::string>& args, ShowArgs& a) {
  const char* cmd = "show";
  auto bind = [&a](const std::string& value, std::string& error) {
    a.have_bind = true;
    return parse_bindings(value, a.bindings, error);
  };
  const ArgSpec spec{cmd,
                     kShowUsage,
                     {{{"--bind"}, "SYM=INT,...", bind},
                      {{"--all"}, nullptr, set_flag(a.with_initializers)},
                      {{"--json"}, "FILE", file_option(a.json_path, "--json")},
                      {{"-q", "--quiet"}, nullptr, set_flag(a.quiet)},
                      {{"--assume"}, "FACT", assume_text_option(a.options.assume)},
                      {{"--assume-nonempty"}, nullptr, set_flag(a.options.assume_nonempty)},
                      {{"--full"}, nullptr, set_flag(a.full)}},
                     one_positional(a.model_path)};
  if (const std::optional<int> done = parse_args(spec, args)) return done;
  if (a.model_path.empty())
    return fatal(cmd, "expected a model file (symshape show MODEL.onnx [--bind SYM=INT,...])", kExitUsage);
  return check_outputs(cmd, a.model_path, {{"--json", a.json_path}});
}

// The sum of the sizes of node outputs; unknown once one size is.
struct ByteTotal {
  int64_t bytes = 0;
  bool known = true;
};

// The bytes of a tensor of `count` elements of type t; nothing when unknown
// or beyond int64. Node outputs add theirs to `total`.
inline std::optional<int64_t> concrete_bytes(const Value& v, const Type& t, std::optional<int64_t> count,
                                             ByteTotal& total) {
  const int bits = t.is_tensor_like() ? element_bits(t.elem_type()) : 0;
  int64_t bytes = 0;
  if (count && bits > 0 && checked::mul(*count, int64_t{bits}, bytes)) {
    bytes = (bytes + 7) / 8;
    if (v.producer && !checked::add(total.bytes, bytes, total.bytes)) total.known = false;
    return bytes;
  }
  if (v.producer) total.known = false;
  return std::nullopt;
}

// The "concrete" and "bytes" cells of `v` at the bindings; node outputs add
// their size to `total`.
inline void append_concrete_cells(const Value& v, const Type& t, const Bindings& bindings, TableRow& row,
                                  ByteTotal& total) {
  std::optional<int64_t> count;
  row.push_back(t.is_tensor_like() ? concrete_shape(t.shape(), bindings, count) : "-");
  const std::optional<int64_t> bytes = concrete_bytes(v, t, count, total);
  row.push_back(bytes ? std::to_string(*bytes) : "?");
}

// --json of show: each value's type (also as dtype and dims) and, with
// --bind, its concrete dims (null where one does not evaluate) and bytes.
inline std::string show_json(const ShowArgs& a, const std::vector<const Value*>& values, const WrittenTypes& types) {
  using Layout = report::JsonWriter::Layout;
  report::JsonWriter j;
  j.begin_object();
  j.key("schema").string(report::kShowJsonSchema);
  j.key("model").string(a.model_path);
  j.key("bindings").begin_object(Layout::Inline);
  for (const auto& [name, value] : std::map<std::string, int64_t>(a.bindings.begin(), a.bindings.end()))
    j.key(name).integer(value);
  j.end_object();
  ByteTotal total;
  j.key("values").begin_array();
  for (const Value* v : values) {
    const Type& t = types.of(*v);
    j.begin_object(Layout::Inline);
    j.key("name").string(v->name);
    j.key("node").string(v->producer ? v->producer->name : std::string());
    j.key("op_type").string(v->producer ? v->producer->op_type : std::string());
    j.key("type").string(t.to_string());
    report::json_dtype_and_dims(j, t);
    if (a.have_bind) {
      std::optional<int64_t> count;
      j.key("concrete");
      if (t.is_tensor_like() && t.shape().has_rank()) {
        j.begin_array(Layout::Inline);
        for (const std::optional<int64_t>& x : concrete_dims(t.shape(), a.bindings, count)) j.integer_or_null(x);
        j.end_array();
      } else {
        j.null();
      }
      j.key("bytes").integer_or_null(concrete_bytes(*v, t, count, total));
    }
    j.end_object();
  }
  j.end_array();
  if (a.have_bind) {
    j.key("total_bytes").integer_or_null(total.known ? std::optional<int64_t>(total.bytes) : std::nullopt);
  }
  j.end_object();
  return j.str() + "\n";
}

inline constexpr std::size_t kShowShapeColumn = 4;  // the column cut to fit (fit.hpp)

// One row: value, node, op, dtype, shape (and with --bind concrete, bytes),
// with the type as written.
inline TableRow show_row(const Value& v, const Type& t, const ShowArgs& a, ByteTotal& total) {
  TableRow row{v.name};
  if (v.producer) {
    row.push_back(v.producer->name.empty() ? "-" : v.producer->name);
    row.push_back(v.producer->op_type);
  } else {
    row.push_back(v.is_graph_input ? "(input)" : "(initializer)");
    row.push_back("-");
  }
  if (t.is_tensor_like()) {
    row.push_back(std::string(t.kind() == Type::Kind::SparseTensor ? "sparse " : "") + to_string(t.elem_type()));
    row.push_back(t.shape().to_string());
  } else {
    row.push_back(t.is_unknown() ? "?" : "-");
    row.push_back(t.to_string());
  }
  if (a.have_bind) append_concrete_cells(v, t, a.bindings, row, total);
  return row;
}

using report::collect_symbols;
using report::inferred_symbols;

// A binding of a symbol the model does not have (report/bindings_check.hpp)
// as a usage error (2).
inline std::optional<int> check_bound_symbols(const char* cmd, const char* option, const std::string& model_path,
                                              const Bindings& bindings, const std::set<std::string>& symbols) {
  const std::string problem = report::bound_symbols_problem(option, display_name(model_path), bindings, symbols);
  if (problem.empty()) return std::nullopt;
  return fatal(cmd, problem, kExitUsage);
}

// "batch=1, frames=3000", sorted by name.
inline std::string bindings_text(const Bindings& bindings) {
  const std::map<std::string, int64_t> sorted(bindings.begin(), bindings.end());
  std::string list;
  for (const auto& [name, value] : sorted) list += (list.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return list;
}

// --bind of show and profile: the model inferred again with its input dims at
// the bindings, as `infer --input-shape` at those dims would; an error there
// that the symbolic inference did not report (a broadcast that fails at those
// values) is printed. True when there is one (exit status 3).
inline bool report_errors_at_bindings(const char* cmd, const std::string& model_path, const InputFile& input,
                                      const std::vector<InputShape>& input_shapes, const Bindings& bindings,
                                      const InferenceOptions& options, const Report& symbolic) {
  if (bindings.empty()) return false;
  Result<Model> fresh =
      onnx::load_model_bytes(input.bytes(), display_name(model_path), nullptr, releasing_pages(input));
  input.release_pages();                                             // the load read them back in
  if (!fresh) return false;                                          // (it loaded once already)
  apply_input_shapes(cmd, model_path, input_shapes, fresh.value());  // (applied once already)
  report::bind_input_dims(fresh.value(), bindings);
  const Report bound = infer_shapes(fresh.value(), options);
  const std::vector<Diagnostic> errors = report::errors_only_at_bindings(symbolic, bound);
  for (const Diagnostic& d : errors)
    std::fprintf(stderr, "symshape %s: %s (at %s)\n", cmd, report::diagnostic_line(display_name(model_path), d).c_str(),
                 bindings_text(bindings).c_str());
  return !errors.empty();
}

inline int run_show(const std::vector<std::string>& args) {
  const char* cmd = "show";
  ShowArgs a;
  if (const std::optional<int> done = parse_show_args(args, a)) return *done;
  InputFile input;
  Model model;
  if (!load(cmd, a.model_path, input, model)) return kExitInput;
  onnx::Splice splice(input.bytes(), model, releasing_pages(input));  // (as in run_infer)
  input.release_pages();
  const Report report = infer_shapes(model, a.options);
  splice.record_types(inputs_with_fresh_dims(model));
  const WrittenTypes types(splice.main_graph_value_infos());
  const std::vector<const Value*> values = listed_values(model, a.with_initializers);

  // A binding of a symbol no shown shape has is most likely a typo.
  std::set<std::string> symbols;
  for (const Value* v : listed_values(model, true)) collect_symbols(types.of(*v), symbols);
  if (const std::optional<int> bad = check_bound_symbols(cmd, "--bind", a.model_path, a.bindings, symbols)) return *bad;
  if (const std::string problem = bindings_break_facts(report.facts, a.bindings); !problem.empty())
    return fatal(cmd, "--bind: " + problem, kExitUsage);

  // With --json -, stdout holds only the JSON.
  FILE* out = names_stdout(a.json_path) ? stderr : stdout;
  if (!a.quiet) {
    print_facts_line(out, report.facts);
    std::vector<TableRow> rows{{"value", "node", "op", "dtype", "shape"}};
    if (a.have_bind) rows[0].insert(rows[0].end(), {"concrete", "bytes"});
    ByteTotal total;
    for (const Value* v : values) rows.push_back(show_row(*v, types.of(*v), a, total));
    ExprFit::for_output(out, a.full).fit_table(rows, {kShowShapeColumn});
    print_table(rows, out);
    if (a.have_bind)
      std::fprintf(out, "total bytes of node outputs: %s\n", total.known ? std::to_string(total.bytes).c_str() : "?");
  }
  if (!a.json_path.empty()) {
    Result<PreparedOutput> prepared = prepare_output(a.json_path, symshape::bytes_writer(show_json(a, values, types)));
    Result<bool> done = prepared ? commit_output(prepared.value()) : Result<bool>::failure(prepared.error());
    if (!done) return fatal(cmd, done.error());
  }
  print_diagnostics(cmd, a.model_path, report);
  const bool fails_at_bindings = report_errors_at_bindings(cmd, a.model_path, input, {}, a.bindings, a.options, report);
  if (std::fflush(stdout) != 0) return fatal(cmd, "cannot write to standard output");
  return end_without_teardown(report.ok() && !fails_at_bindings ? kExitOk : kExitInference);
}

}  // namespace symshape::cli
