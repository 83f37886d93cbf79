// `symshape profile`: FLOPs, parameters and memory of a model as formulas of
// its input dims (include/symshape/profile/, docs/profile.md), evaluated at
// --bind, over a --sweep of one symbol, grouped --by op or scope; --json,
// --csv and --plot write files ('-' for --json/--csv is standard output, and
// then the tables go to stderr).
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "args.hpp"
#include "expr_commands.hpp"
#include "fit.hpp"
#include "infer_commands.hpp"
#include "model_io.hpp"
#include "symshape/profile/profile.hpp"
#include "symshape/profile/svg_plot.hpp"
#include "symshape/report/profile_json.hpp"
#include "symshape/report/profile_quantities.hpp"
#include "table.hpp"

namespace symshape::cli {

inline constexpr const char* kProfileUsage =
    "usage: symshape profile MODEL.onnx|- [--bind SYM=INT,...]... [--by op|scope] [--top N] [--json FILE|-]\n"
    "                        [--csv FILE|-] [--sweep SYM=LO..HI [--plot FILE.svg]]\n"
    "                        [--input-shape NAME=D0,D1,...]... [--policy skip|override|refine|strict]\n"
    "                        [--assume-contracts] [--assume FACT]... [--assume-nonempty] [--full] [--quiet]\n"
    "  Infers every shape, then prints the model's FLOPs, parameters and memory as\n"
    "  expressions of its input symbols (docs/profile.md states the conventions):\n"
    "  the totals (flops, params, param_bytes, activation_bytes: every node output,\n"
    "  peak_activation_bytes: the most bytes live at once under the node order),\n"
    "  then one row per node (flops, bytes of its outputs, parameters it reads).\n"
    "  The peak is a max of the live bytes at several steps: the line after the\n"
    "  totals names the node where it occurs at the bindings.\n"
    "  '?' is a quantity that an unknown dim makes unknown; 'not counted' an\n"
    "  operator without a FLOP convention (left out of the total and named).\n"
    "  --bind      evaluate at these values (integers >= 0; a symbol the model\n"
    "              does not have is a usage error); the model is also inferred at\n"
    "              the bound input dims, and an error there is reported (exit 3)\n"
    "  --by        one row per operator type or per node-name scope ('/blocks.3/attn')\n"
    "              instead of one per node; the rows with most FLOPs first when the\n"
    "              bindings make them concrete\n"
    "  --top       only the N rows with the most FLOPs at the bindings\n"
    "  --json      the profile as JSON: {bindings, totals, nodes}, each quantity\n"
    "              {\"expr\": ..., \"value\": ...} (value when the bindings make it concrete)\n"
    "  --csv       the node (or --by group) table as CSV\n"
    "  --sweep     evaluate the totals for SYM from LO to HI (the ends and the powers\n"
    "              of two between; every value when there are at most 16), the\n"
    "              other symbols bound by --bind; prints only that table, and --json\n"
    "              adds it as \"sweep\", --csv holds it instead of the node table\n"
    "  --plot      with --sweep: an SVG of FLOPs and peak activation memory against SYM\n"
    "              (one panel each, sharing the x axis)\n"
    "  --input-shape, --policy, --assume-contracts  as for `symshape infer`: replace an\n"
    "              input's dims, how inferred types merge with the file's, assume the\n"
    "              contracts (the assumptions are listed before the totals)\n"
    "  --quiet     (-q) print no table: the diagnostics and the files only\n"
    "  --full      print every expression whole. Without it one longer than the room\n"
    "              left by the terminal's width (60 characters when not a terminal)\n"
    "              is cut, ending in '…', and a cut peak shows its largest candidate\n"
    "              at the bindings. --json and --csv always hold them whole.\n" SYMSHAPE_CLI_ASSUME_HELP
    "exit status: 0 ok; 1 unreadable or malformed input, or an output that cannot\n"
    "  be written; 2 bad usage; 3 inference reported errors (the profile is still\n"
    "  printed).\n";

struct Sweep {
  std::string symbol;
  int64_t lo = 0, hi = 0;
};

// ---- what profile and report share: inferring the model at --bind ----

// The model and the inference options of a command that evaluates the model
// at --bind (profile, report): infer's --input-shape, --policy,
// --assume-contracts, --assume and --assume-nonempty.
struct InferRunArgs {
  std::string model_path;
  Bindings bindings;
  std::vector<InputShape> input_shapes;
  InferenceOptions options;  // --policy, --assume, --assume-nonempty
  bool assume_contracts = false;
};

// Their options, for the command's ArgSpec.
inline std::vector<Option> infer_run_options(InferRunArgs& a) {
  auto bind = [&a](const std::string& value, std::string& error) { return parse_bindings(value, a.bindings, error); };
  return {{{"--bind"}, "SYM=INT,...", bind},
          {{"--input-shape"}, "NAME=D0,D1,...", input_shape_option(a.input_shapes)},
          {{"--policy"}, "skip|override|refine|strict", policy_option(a.options.policy)},
          {{"--assume-contracts"}, nullptr, set_flag(a.assume_contracts)},
          {{"--assume"}, "FACT", assume_text_option(a.options.assume)},
          {{"--assume-nonempty"}, nullptr, set_flag(a.options.assume_nonempty)}};
}

// A model loaded and inferred.
struct InferredRun {
  InputFile input;
  Model model;
  std::optional<onnx::Splice> splice;  // with the types written (load_and_infer's written_types)
  Report report;
  std::vector<Assumption> assumptions;  // of --assume-contracts
};

// Loads the model, checks `outputs` against its external data files, applies
// --input-shape and infers it (assuming its contracts with
// --assume-contracts); with `written_types` the splice records the types the
// written model would have (onnx::WrittenTypes, as `show` prints them).
// Nothing, or the exit code after printing the problem.
inline std::optional<int> load_and_infer(const char* cmd, const InferRunArgs& a, const std::vector<OutputArg>& outputs,
                                         bool written_types, InferredRun& run) {
  if (!load(cmd, a.model_path, run.input, run.model)) return kExitInput;
  if (const std::optional<int> bad = check_outputs_against_data(cmd, run.input, outputs)) return bad;
  if (const std::optional<int> bad = apply_input_shapes(cmd, a.model_path, a.input_shapes, run.model)) return bad;
  if (written_types)
    run.splice.emplace(run.input.bytes(), run.model, releasing_pages(run.input));  // (it reads the file's graph now)
  run.input.release_pages();  // read again only by --assume-contracts and --bind
  run.report = a.assume_contracts ? infer_assuming_contracts(cmd, a.model_path, a.input_shapes, run.input, run.model,
                                                             a.options, run.assumptions)
                                  : infer_shapes(run.model, a.options);
  if (written_types) run.splice->record_types(rewritten_inputs(a.input_shapes, run.assumptions, run.model));
  return std::nullopt;
}

// --bind: a symbol that none of `symbols` (the model's) is, or bindings that
// break a fact in force, is a usage error. Nothing, or 2 after printing it.
inline std::optional<int> check_bindings(const char* cmd, const InferRunArgs& a, const Report& report,
                                         const std::set<std::string>& symbols) {
  if (const std::optional<int> bad = check_bound_symbols(cmd, "--bind", a.model_path, a.bindings, symbols)) return bad;
  if (const std::string problem = bindings_break_facts(report.facts, a.bindings); !problem.empty())
    return fatal(cmd, "--bind: " + problem, kExitUsage);
  return std::nullopt;
}

// Prints the diagnostics, and the errors of the inference at the bindings
// (report_errors_at_bindings); true when there are such errors (exit 3).
inline bool print_inference_problems(const char* cmd, const InferRunArgs& a, const InferredRun& run) {
  print_diagnostics(cmd, a.model_path, run.report);
  return report_errors_at_bindings(cmd, a.model_path, run.input, a.input_shapes, a.bindings, a.options, run.report);
}

// ---- profile's arguments ----

struct ProfileArgs : InferRunArgs {
  std::string json_path, csv_path, plot_path;
  std::optional<profile::GroupBy> by;
  std::optional<std::size_t> top;  // --top N
  std::optional<Sweep> sweep;
  bool full = false;   // --full: no expression cut
  bool quiet = false;  // --quiet: no tables (diagnostics and files only)
};

// "SYM=LO..HI" with 0 <= LO <= HI.
inline bool parse_sweep(const std::string& text, Sweep& out, std::string& error) {
  const std::size_t eq = text.find('=');
  const std::size_t dots = text.find("..", eq == std::string::npos ? 0 : eq);
  error = "bad --sweep '" + text + "', expected SYM=LO..HI with integers 0 <= LO <= HI";
  if (eq == std::string::npos || eq == 0 || dots == std::string::npos) return false;
  Result<Expr> lo = parse_expr(text.substr(eq + 1, dots - eq - 1));
  Result<Expr> hi = parse_expr(text.substr(dots + 2));
  if (!lo || !hi || !lo->is_int() || !hi->is_int()) return false;
  out = {text.substr(0, eq), lo->as_int(), hi->as_int()};
  return out.lo >= 0 && out.lo <= out.hi;
}

inline std::optional<int> parse_profile_args(const std::vector<std::string>& args, ProfileArgs& a) {
  const char* cmd = "profile";
  auto by = [&a](const std::string& value, std::string& error) {
    if (value != "op" && value != "scope") {
      error = "bad --by '" + value + "', expected op or scope";
      return false;
    }
    a.by = value == "op" ? profile::GroupBy::Op : profile::GroupBy::Scope;
    return true;
  };
  auto top = [&a](const std::string& value, std::string& error) {
    Result<Expr> n = parse_expr(value);
    error = "bad --top '" + value + "', expected an integer >= 1";
    if (!n || !n->is_int() || n->as_int() < 1) return false;
    a.top = static_cast<std::size_t>(n->as_int());
    return true;
  };
  auto sweep = [&a](const std::string& value, std::string& error) {
    Sweep s;
    if (!parse_sweep(value, s, error)) return false;
    a.sweep = s;
    return true;
  };
  ArgSpec spec{cmd,
               kProfileUsage,
               {{{"--by"}, "op|scope", by},
                {{"--top"}, "N", top},
                {{"--json"}, "FILE", file_option(a.json_path, "--json")},
                {{"--csv"}, "FILE", file_option(a.csv_path, "--csv")},
                {{"--sweep"}, "SYM=LO..HI", sweep},
                {{"--plot"}, "FILE.svg", file_option(a.plot_path, "--plot")},
                {{"-q", "--quiet"}, nullptr, set_flag(a.quiet)},
                {{"--full"}, nullptr, set_flag(a.full)}},
               one_positional(a.model_path)};
  for (Option& option : infer_run_options(a)) spec.options.push_back(std::move(option));
  if (const std::optional<int> done = parse_args(spec, args)) return done;
  if (a.model_path.empty()) return fatal(cmd, "expected a model file (symshape profile MODEL.onnx ...)", kExitUsage);
  if (!a.plot_path.empty() && !a.sweep) return fatal(cmd, "--plot needs --sweep SYM=LO..HI", kExitUsage);
  if (a.sweep && a.bindings.count(a.sweep->symbol))
    return fatal(cmd, "--sweep: '" + a.sweep->symbol + "' is also bound by --bind", kExitUsage);
  if (names_stdout(a.plot_path)) return fatal(cmd, "--plot needs a file, not standard output", kExitUsage);
  return check_outputs(cmd, a.model_path, {{"--json", a.json_path}, {"--csv", a.csv_path}, {"--plot", a.plot_path}});
}

// ---- quantities ----

using report::value_of;

// A cell: the value when concrete, else the expression ("?" when unknown).
inline std::string cell(const SymbolicDim& q, const Bindings& b) {
  const std::optional<int64_t> v = value_of(q, b);
  return v ? std::to_string(*v) : q.to_string();
}

using report::Unit;

// "6.74 MFLOP", "21.1 k", "565 KiB": three digits, powers of 1000 (1024 for bytes).
inline std::string human(int64_t v, Unit unit) {
  static const char* const kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const double base = unit == Unit::Bytes ? 1024.0 : 1000.0;
  double x = static_cast<double>(v);
  int i = 0;
  while (x >= base && i < 6) {
    x /= base;
    ++i;
  }
  const std::string prefix = unit == Unit::Bytes ? kBinary[i] : kPrefix[i];
  const std::string suffix = unit == Unit::Flop ? "FLOP" : unit == Unit::Bytes ? "B" : "";
  char buf[48];
  std::snprintf(buf, sizeof buf, i == 0 ? "%.0f" : "%.3g", x);
  const std::string tail = prefix + suffix;
  return tail.empty() ? std::string(buf) : std::string(buf) + " " + tail;
}

using report::total_rows;
using report::TotalRow;

// ---- sweep points ----

// The values of the swept symbol: every one from LO to HI when there are at
// most 16, else LO, the powers of two strictly between, and HI.
inline std::vector<int64_t> sweep_points(const Sweep& s) {
  std::vector<int64_t> out;
  if (s.hi - s.lo < 16) {
    for (int64_t v = s.lo; v <= s.hi; ++v) out.push_back(v);
    return out;
  }
  out.push_back(s.lo);
  for (int64_t p = 1; p > 0 && p < s.hi; p *= 2)
    if (p > s.lo) out.push_back(p);
  out.push_back(s.hi);
  return out;
}

// ---- JSON ----

// --json (report/profile_json.hpp).
inline std::string profile_json(const ProfileArgs& a, const profile::ModelProfile& p) {
  report::ProfileJsonOptions options{a.model_path, a.bindings, a.by, {}, {}};
  if (a.sweep) {
    options.sweep_symbol = a.sweep->symbol;
    options.sweep_values = sweep_points(*a.sweep);
  }
  return report::profile_json(p, options);
}

// ---- tables and CSV ----

inline std::string flops_cell(const profile::FlopCount& f, const Bindings& b) {
  if (f.kind == profile::FlopKind::NoArithmetic) return "-";
  return f.kind == profile::FlopKind::NotCounted ? "not counted" : cell(f.flops, b);
}

inline SymbolicDim output_bytes(const profile::NodeProfile& n) {
  SymbolicDim total(0);
  for (const profile::OutputProfile& o : n.outputs) total = total + o.bytes;
  return total;
}

// The share of the total FLOPs ("12.5%"), when both are concrete.
inline std::string share_cell(std::optional<int64_t> part, std::optional<int64_t> total) {
  if (!part || !total || *total <= 0) return "";
  char buf[24];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(*part) / static_cast<double>(*total));
  return buf;
}

// A body row of the node or group table and its FLOPs at the bindings (for
// the order and --top); by scope, its scope and the one holding it.
struct DetailRow {
  TableRow cells;
  std::optional<int64_t> flops;
  std::string scope, parent;
};

// Scope rows in tree order with the scopes of each level by FLOPs, largest
// first (group_profile gives the tree order, each level by first appearance).
inline std::vector<DetailRow> scope_tree_by_flops(std::vector<DetailRow> rows,
                                                  bool (*more_flops)(const DetailRow&, const DetailRow&)) {
  std::map<std::string, std::vector<std::size_t>> children;
  std::vector<std::size_t> tops;
  for (std::size_t i = 0; i < rows.size(); ++i)
    (rows[i].scope.empty() || rows[i].parent.empty() ? tops : children[rows[i].parent]).push_back(i);
  auto by_flops = [&](std::vector<std::size_t>& level) {
    std::stable_sort(level.begin(), level.end(),
                     [&](std::size_t x, std::size_t y) { return more_flops(rows[x], rows[y]); });
  };
  std::vector<DetailRow> out;
  std::vector<std::size_t> stack;
  by_flops(tops);
  stack.assign(tops.rbegin(), tops.rend());
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    out.push_back(std::move(rows[i]));
    auto kids = children.find(out.back().scope);
    if (out.back().scope.empty() || kids == children.end()) continue;
    by_flops(kids->second);
    stack.insert(stack.end(), kids->second.rbegin(), kids->second.rend());
  }
  return out;
}

// The rows of the tables in their order: op groups by FLOPs, largest first,
// when the bindings make every group's concrete (else in order of first
// appearance); scope groups in tree order, each level by FLOPs when they are
// concrete; nodes in graph order. --top N keeps the N with the most FLOPs
// (those without a value last) in that order; `left_out` counts the others.
inline std::vector<DetailRow> ordered(const ProfileArgs& a, std::vector<DetailRow> rows, std::size_t& left_out) {
  auto more_flops = [](const DetailRow& x, const DetailRow& y) {
    return x.flops.has_value() != y.flops.has_value() ? x.flops.has_value() : x.flops && *x.flops > *y.flops;
  };
  const bool all_known = std::all_of(rows.begin(), rows.end(), [](const DetailRow& r) { return r.flops.has_value(); });
  if (a.by == profile::GroupBy::Op && all_known) std::stable_sort(rows.begin(), rows.end(), more_flops);
  if (a.by == profile::GroupBy::Scope && all_known) rows = scope_tree_by_flops(std::move(rows), more_flops);
  left_out = 0;
  if (a.top && *a.top < rows.size()) {
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return more_flops(rows[x], rows[y]); });
    std::vector<bool> keep(rows.size(), false);
    for (std::size_t k = 0; k < *a.top; ++k) keep[order[k]] = true;
    std::vector<DetailRow> kept;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (keep[i]) kept.push_back(std::move(rows[i]));
    left_out = rows.size() - kept.size();
    rows = std::move(kept);
  }
  return rows;
}

// The shapes of a node's inputs or outputs, space-separated: at the
// bindings when there are any ("[1,128,64] [64,192]"), else symbolic; "?"
// for a value without a known shape, "-" for an absent optional input.
template <class Values>
inline std::string shapes_cell(const Values& values, const Bindings& b) {
  std::string out;
  for (const Value* v : values) {
    if (!out.empty()) out += ' ';
    if (!v) {
      out += '-';
    } else if (!v->type.is_tensor_like() || !v->type.shape().has_rank()) {
      out += '?';
    } else if (b.empty()) {
      out += v->type.shape().to_string();
    } else {
      std::optional<int64_t> count;
      out += concrete_shape(v->type.shape(), b, count);
    }
  }
  return out;
}

// A group's first cell: "(none)" for the nodes without a scope; a nested
// scope indented under the one holding it, by the rest of its name
// ("/blocks.3/attn" under "/blocks.3" is "  /attn").
inline std::string group_label(const profile::GroupRow& g) {
  if (g.key.empty()) return "(none)";
  if (g.parent.empty()) return g.key;
  return std::string(2 * static_cast<std::size_t>(g.depth), ' ') + g.key.substr(g.parent.size());
}

// The node rows (or the group rows with --by), header first; `csv` keeps
// expression and value in separate columns, the table has a "%" column of
// the total FLOPs when the bindings make it concrete. `left_out`: the rows
// --top leaves out.
inline std::vector<TableRow> detail_rows(const ProfileArgs& a, const profile::ModelProfile& p, bool csv,
                                         std::size_t* left_out = nullptr) {
  const Bindings& b = a.bindings;
  const std::optional<int64_t> total_flops = value_of(p.flops, b);
  const bool share = !csv && total_flops && *total_flops > 0;
  auto q = [&](TableRow& row, const SymbolicDim& x) {
    if (!csv) return row.push_back(cell(x, b));
    row.push_back(x.to_string());
    const std::optional<int64_t> v = value_of(x, b);
    row.push_back(v ? std::to_string(*v) : std::string());
  };
  TableRow header;
  std::vector<DetailRow> body;
  if (a.by) {
    header = csv ? TableRow{"group",       "nodes",        "not_counted",        "flops",
                            "flops_value", "output_bytes", "output_bytes_value", "params",
                            "params_value"}
                 : TableRow{a.by == profile::GroupBy::Op ? "op" : "scope", "nodes", "flops", "output bytes", "params"};
    const bool parent_column = csv && a.by == profile::GroupBy::Scope;
    if (parent_column) header.push_back("parent");
    for (const profile::GroupRow& g : profile::group_profile(p, *a.by)) {
      TableRow row{csv ? g.key : group_label(g), std::to_string(g.nodes)};
      if (csv) row.push_back(std::to_string(g.not_counted));
      q(row, g.flops);
      if (!csv && g.not_counted) row.back() += " (+" + std::to_string(g.not_counted) + " not counted)";
      if (share) row.push_back(share_cell(value_of(g.flops, b), total_flops));
      q(row, g.output_bytes);
      q(row, g.params);
      if (parent_column) row.push_back(g.parent);
      body.push_back({std::move(row), value_of(g.flops, b), g.key, g.parent});
    }
  } else {
    header = csv ? TableRow{"node",
                            "op_type",
                            "flops",
                            "flops_value",
                            "flops_note",
                            "output_bytes",
                            "output_bytes_value",
                            "params",
                            "params_value"}
                 : TableRow{"node", "op", "flops", "output bytes", "params"};
    // The table shows the shapes at the bindings, where they are short.
    const bool shapes = csv || !b.empty();
    if (shapes) header.insert(header.end(), {csv ? "input_shapes" : "inputs", csv ? "output_shapes" : "outputs"});
    if (!csv) header.push_back("note");
    for (const profile::NodeProfile& n : p.nodes) {
      TableRow row{n.name.empty() && !csv ? "-" : n.name, n.op_type};
      const bool counted = n.flops.kind == profile::FlopKind::Counted;
      if (csv) {
        q(row, n.flops.flops);
        row.push_back(n.flops.note);
      } else {
        row.push_back(flops_cell(n.flops, b));
      }
      if (share) row.push_back(counted ? share_cell(value_of(n.flops.flops, b), total_flops) : "");
      q(row, output_bytes(n));
      q(row, n.params);
      // Symbolic in the CSV, whose quantities have their own value columns.
      if (shapes) {
        row.push_back(shapes_cell(n.node->inputs, csv ? Bindings{} : b));
        row.push_back(shapes_cell(n.node->outputs, csv ? Bindings{} : b));
      }
      if (!csv) row.push_back(n.flops.kind == profile::FlopKind::NoArithmetic ? std::string() : n.flops.note);
      body.push_back({std::move(row), counted ? value_of(n.flops.flops, b) : std::nullopt, {}, {}});
    }
  }
  if (share) header.insert(header.begin() + 3, "%");
  std::size_t dropped = 0;
  std::vector<TableRow> rows{header};
  for (DetailRow& r : csv ? body : ordered(a, std::move(body), dropped)) rows.push_back(std::move(r.cells));
  if (left_out) *left_out = dropped;
  // The note column only when a node has a note.
  const bool notes =
      csv || a.by || std::any_of(rows.begin() + 1, rows.end(), [](const TableRow& r) { return !r.back().empty(); });
  if (!notes)
    for (TableRow& r : rows) r.pop_back();
  return rows;
}

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The sweep's table: the symbol's value, then each total (its value, or its
// expression where other symbols stay unbound).
inline std::vector<TableRow> sweep_rows(const ProfileArgs& a, const profile::ModelProfile& p) {
  const std::vector<TotalRow> totals = total_rows(p);
  std::vector<TableRow> rows{{a.sweep->symbol}};
  for (const TotalRow& t : totals) rows[0].push_back(t.name);
  for (int64_t point : sweep_points(*a.sweep)) {
    Bindings b = a.bindings;
    b[a.sweep->symbol] = point;
    TableRow row{std::to_string(point)};
    for (const TotalRow& t : totals) row.push_back(cell(*t.q, b));
    rows.push_back(row);
  }
  return rows;
}

// --csv: the node (or group) table, or with --sweep the sweep's table.
inline std::string profile_csv(const ProfileArgs& a, const profile::ModelProfile& p) {
  std::string out;
  for (const TableRow& row : a.sweep ? sweep_rows(a, p) : detail_rows(a, p, true)) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_field(row[i]);
    out += '\n';
  }
  return out;
}

// ---- sweep ----

// The totals at each point (the --bind values plus SYM = point); prints the
// table on `out` and, with --plot, writes the chart. Returns 0 or 1.
inline int run_sweep(const ProfileArgs& a, const profile::ModelProfile& p, FILE* out) {
  std::vector<TableRow> rows = sweep_rows(a, p);
  profile::PlotSpec plot;
  plot.x_label = a.sweep->symbol;
  plot.series = {{"FLOPs", "#1f77b4", {}, profile::PlotUnit::Count},
                 {"peak activation memory", "#d62728", {}, profile::PlotUnit::Bytes}};
  for (int64_t point : sweep_points(*a.sweep)) {
    Bindings b = a.bindings;
    b[a.sweep->symbol] = point;
    const std::optional<int64_t> flops = value_of(p.flops, b), peak = value_of(p.peak_activation_bytes, b);
    plot.x.push_back(static_cast<double>(point));
    plot.series[0].y.push_back(flops ? static_cast<double>(*flops) : NAN);
    plot.series[1].y.push_back(peak ? static_cast<double>(*peak) : NAN);
  }
  if (!a.quiet) {
    std::fprintf(out, "%s: the totals over %s%s\n", display_name(a.model_path).c_str(), a.sweep->symbol.c_str(),
                 a.bindings.empty() ? "" : (" at " + bindings_text(a.bindings)).c_str());
    ExprFit::for_output(out, a.full).fit_table(rows, {1, 2, 3, 4, 5});  // a total that stays an expression
    print_table(rows, out);
  }
  if (a.plot_path.empty()) return kExitOk;
  const std::string file = std::filesystem::path(display_name(a.model_path)).filename().string();
  plot.title = "FLOPs and peak activation memory of " + file + " against " + a.sweep->symbol;
  const std::map<std::string, int64_t> fixed(a.bindings.begin(), a.bindings.end());
  for (const auto& [name, value] : fixed)
    plot.subtitle += (plot.subtitle.empty() ? "at " : ", ") + name + "=" + std::to_string(value);
  Result<PreparedOutput> prepared = prepare_output(a.plot_path, symshape::bytes_writer(profile::svg_plot(plot)));
  Result<bool> done = prepared ? commit_output(prepared.value()) : Result<bool>::failure(prepared.error());
  if (!done) return fatal("profile", done.error());
  if (!a.quiet) std::fprintf(out, "wrote %s\n", a.plot_path.c_str());
  return kExitOk;
}

// ---- the command ----

// "node #97 '/h.1/attn/Softmax' (Softmax)", as diagnostics name a node.
inline std::string place_in_profile(const profile::ModelProfile& p, std::size_t index) {
  const profile::NodeProfile& n = p.nodes[index];
  return "node #" + std::to_string(index) + (n.name.empty() ? "" : " '" + n.name + "'") + " (" +
         qualified_op(n.domain, n.op_type) + ")";
}

// The candidate of the peak where it occurs at the bindings (the only one
// whatever the bindings when there is one); nothing when they leave it open.
inline std::optional<std::size_t> peak_winner(const profile::ModelProfile& p, const Bindings& b) {
  if (p.peak_candidates.size() == 1) return 0;
  return profile::largest_candidate_at(p.peak_candidates, b);
}

// The peak's expression cell when the Max of several candidates is cut:
// "max of N candidates, largest at bindings: TERM" (TERM cut to fit a line
// whose other text takes `used` columns), or "max of N candidates: MAX(..."
// when the bindings leave the largest open.
inline std::string cut_peak_cell(const profile::ModelProfile& p, std::optional<std::size_t> winner, const ExprFit& fit,
                                 std::size_t used) {
  const std::string label = "max of " + std::to_string(p.peak_candidates.size()) + " candidates" +
                            (winner ? ", largest at bindings: " : ": ");
  const std::string term =
      winner ? SymbolicDim(p.peak_candidates[*winner].bytes).to_string() : p.peak_activation_bytes.to_string();
  return label + fit.cut(term, used + display_width(label));
}

// The totals table (the expression last: it is the long column), cut to
// `fit`, and where the peak occurs.
inline void print_totals(const ProfileArgs& a, const profile::ModelProfile& p, const ExprFit& fit, FILE* out) {
  std::vector<TableRow> rows{{"total"}};
  if (!a.bindings.empty()) rows[0].insert(rows[0].end(), {"value", ""});
  rows[0].push_back("expression");
  for (const TotalRow& t : total_rows(p)) {
    TableRow row{t.name};
    if (!a.bindings.empty()) {
      const std::optional<int64_t> v = value_of(*t.q, a.bindings);
      row.push_back(v ? std::to_string(*v) : "?");
      row.push_back(v ? human(*v, t.unit) : "");
    }
    row.push_back(t.q->to_string());
    rows.push_back(row);
  }
  const std::size_t expr_column = rows[0].size() - 1;
  const std::size_t width = fit.column_widths(rows, {expr_column})[expr_column];
  const bool peak_cut = display_width(p.peak_activation_bytes.to_string()) > width;
  const std::size_t used = ExprFit::width_beside(rows, {expr_column});
  fit.fit_table(rows, {expr_column});
  const std::optional<std::size_t> winner = peak_winner(p, a.bindings);
  if (peak_cut && p.peak_candidates.size() > 1) rows.back().back() = cut_peak_cell(p, winner, fit, used);
  print_table(rows, out);
  if (winner) std::fprintf(out, "peak at %s\n", place_in_profile(p, p.peak_candidates[*winner].step).c_str());
}

inline void print_profile(const ProfileArgs& a, const profile::ModelProfile& p, FILE* out) {
  std::fprintf(out, "%s: %s, %zu not counted\n", display_name(a.model_path).c_str(),
               count_noun(p.nodes.size(), "node").c_str(), p.not_counted);
  if (!a.bindings.empty()) std::fprintf(out, "bindings: %s\n", bindings_text(a.bindings).c_str());
  const ExprFit fit = ExprFit::for_output(out, a.full);
  print_totals(a, p, fit, out);
  for (const std::string& note : p.notes) std::fprintf(out, "note: %s\n", note.c_str());
  std::fprintf(out, "\n");
  std::size_t left_out = 0;
  std::vector<TableRow> rows = detail_rows(a, p, false, &left_out);
  const bool share = rows[0].size() > 3 && rows[0][3] == "%";
  // flops, output bytes, params, and a node's input and output shapes
  const std::size_t shift = share ? 1 : 0;  // the "%" column after the flops
  std::vector<std::size_t> expr_columns{2, 3 + shift, 4 + shift};
  if (!a.by && !a.bindings.empty()) expr_columns.insert(expr_columns.end(), {5 + shift, 6 + shift});
  fit.fit_table(rows, expr_columns);
  print_table(rows, out);
  if (left_out)
    std::fprintf(out, "(%s with fewer FLOPs left out by --top)\n", count_noun(left_out, a.by ? "row" : "node").c_str());
  if (!a.by) std::fprintf(out, "flops '-': no arithmetic (data movement); '?': a dim it needs is unknown\n");
}

// Writes --json and --csv; 0, or 1 after printing the problem.
inline int write_profile_files(const ProfileArgs& a, const profile::ModelProfile& p) {
  const std::pair<const std::string*, std::string> files[] = {
      {&a.json_path, a.json_path.empty() ? "" : profile_json(a, p)},
      {&a.csv_path, a.csv_path.empty() ? "" : profile_csv(a, p)}};
  for (const auto& [path, text] : files) {
    if (path->empty()) continue;
    Result<PreparedOutput> prepared = prepare_output(*path, symshape::bytes_writer(text));
    Result<bool> done = prepared ? commit_output(prepared.value()) : Result<bool>::failure(prepared.error());
    if (!done) return fatal("profile", done.error());
  }
  return kExitOk;
}

inline int run_profile(const std::vector<std::string>& args) {
  const char* cmd = "profile";
  ProfileArgs a;
  if (const std::optional<int> done = parse_profile_args(args, a)) return *done;
  InferredRun run;
  if (const std::optional<int> bad =
          load_and_infer(cmd, a, {{"--json", a.json_path}, {"--csv", a.csv_path}, {"--plot", a.plot_path}}, false, run))
    return *bad;
  const Report& report = run.report;
  const std::vector<Assumption>& assumptions = run.assumptions;
  const std::set<std::string> symbols = inferred_symbols(run.model);
  if (const std::optional<int> bad = check_bindings(cmd, a, report, symbols)) return *bad;
  if (a.sweep)
    if (const std::optional<int> bad =
            check_bound_symbols(cmd, "--sweep", a.model_path, Bindings{{a.sweep->symbol, 0}}, symbols))
      return *bad;
  const bool fails_at_bindings = print_inference_problems(cmd, a, run);
  // The profile's sums and maxima are built under the facts of the inference.
  const Facts facts = facts_in(report.facts);
  const FactScope scope(facts);
  const profile::ModelProfile p = profile::profile_model(run.model, builtin_rule_table());
  if (!a.quiet) print_facts_line(names_stdout(a.json_path) || names_stdout(a.csv_path) ? stderr : stdout, report.facts);
  // With --json - or --csv -, stdout holds only that file.
  FILE* out = names_stdout(a.json_path) || names_stdout(a.csv_path) ? stderr : stdout;
  if (!a.quiet && a.assume_contracts) print_assumptions(out, report, assumptions, ExprFit::for_output(out, a.full));
  if (!a.quiet && !a.sweep) print_profile(a, p, out);  // --sweep prints its table only
  if (const int code = write_profile_files(a, p)) return code;
  if (a.sweep)
    if (const int code = run_sweep(a, p, out)) return code;
  if (std::fflush(stdout) != 0) return fatal(cmd, "cannot write to standard output");
  return end_without_teardown(report.ok() && !fails_at_bindings ? kExitOk : kExitInference);
}

}  // namespace symshape::cli
