// `symshape report`: one self-contained HTML page of a model (docs/report.md):
// the page's files (web/report/, compiled in by embed_web_files.cmake) with
// the model's data (report/report_data.hpp) in place of the template's
// placeholders; --json writes the data alone. The model is inferred and
// profiled as `symshape profile` does it (profile_commands.hpp).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profile_commands.hpp"
#include "report_page_files.hpp"  // generated: web::kReportHtml, kReportCss, kExprEvalJs, kReportJs
#include "symshape/report/report_data.hpp"

namespace symshape::cli {

inline constexpr const char* kReportUsage =
    "usage: symshape report MODEL.onnx|- [-o REPORT.html|-] [--json FILE|-] [--bind SYM=INT,...]...\n"
    "                       [--input-shape NAME=D0,D1,...]... [--policy skip|override|refine|strict]\n"
    "                       [--assume-contracts] [--assume FACT]... [--assume-nonempty] [--quiet]\n"
    "  Infers and profiles the model, then writes one self-contained HTML page of\n"
    "  it (no network, no file beside it): the graph with each value's symbolic\n"
    "  shape, one field per input symbol that evaluates every shape, byte size and\n"
    "  FLOP count in the page, the profile table, contracts, assumptions and\n"
    "  diagnostics (docs/report.md).\n"
    "  -o REPORT.html  the page ('-': standard output)\n"
    "  --json FILE     the page's data alone, JSON (docs/json.md: \"schema\":\n"
    "                  \"symshape/report/1\"); at least one of -o and --json is needed\n"
    "  --bind          the values the page starts with (integers >= 0; a symbol the\n"
    "                  model does not have is a usage error); the model is also\n"
    "                  inferred at the bound input dims, and an error there is\n"
    "                  reported (exit 3). The page also reads them from its URL:\n"
    "                  report.html#batch=2&seq=128\n"
    "  --input-shape, --policy, --assume-contracts  as for `symshape infer`: replace an\n"
    "              input's dims, how inferred types merge with the file's, assume the\n"
    "              contracts (the assumptions are listed in the page)\n"
    "  --quiet     (-q) print nothing but the diagnostics\n" SYMSHAPE_CLI_ASSUME_HELP
    "exit status: 0 ok; 1 unreadable or malformed input, or an output that cannot\n"
    "  be written; 2 bad usage; 3 inference reported errors (the page and the data\n"
    "  are still written, with the diagnostics).\n";

struct ReportArgs : InferRunArgs {
  std::string out_path, json_path;
  bool quiet = false;  // --quiet: nothing on stdout but the files
};

inline std::optional<int> parse_report_args(const std::vector<std::string>& args, ReportArgs& a) {
  const char* cmd = "report";
  ArgSpec spec{cmd,
               kReportUsage,
               {{{"-o", "--output"}, "REPORT.html", file_option(a.out_path, "-o")},
                {{"--json"}, "FILE", file_option(a.json_path, "--json")},
                {{"-q", "--quiet"}, nullptr, set_flag(a.quiet)}},
               one_positional(a.model_path)};
  for (Option& option : infer_run_options(a)) spec.options.push_back(std::move(option));
  if (const std::optional<int> done = parse_args(spec, args)) return done;
  if (a.model_path.empty())
    return fatal(cmd, "expected a model file (symshape report MODEL.onnx -o REPORT.html)", kExitUsage);
  if (a.out_path.empty() && a.json_path.empty())
    return fatal(cmd, "nothing to write: give -o REPORT.html, --json FILE, or both", kExitUsage);
  return check_outputs(cmd, a.model_path, {{"-o", a.out_path}, {"--json", a.json_path}});
}

// The data as the text of the page's <script type="application/json">
// element: "</" written "<\/" and "<!--" written "\u003c!--", so that nothing
// in it ends the element or changes how the HTML parser reads its text. Both
// occur only inside JSON strings, where the escapes mean the same characters.
inline std::string script_text(std::string_view json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && json.compare(i, 2, "</") == 0) {
      out += "<\\/";
      ++i;
    } else if (json[i] == '<' && json.compare(i, 4, "<!--") == 0) {
      out += "\\u003c!--";
      i += 3;
    } else {
      out += json[i];
    }
  }
  return out;
}

// The page: the template with the style, the scripts (the evaluator, then the
// page) and the data in place of its placeholders, each of which it holds
// once (embed_web_files.cmake checks it). What is put in is not searched
// again: report.js may name a placeholder itself.
inline std::string report_page(std::string_view data_json) {
  const std::string_view html = web::kReportHtml;
  const std::string js = std::string(web::kExprEvalJs) + "\n" + std::string(web::kReportJs);
  const std::string data = script_text(data_json);
  struct Piece {
    std::size_t at;
    std::string_view placeholder, content;
  };
  std::vector<Piece> pieces{{html.find("/*@REPORT_CSS@*/"), "/*@REPORT_CSS@*/", web::kReportCss},
                            {html.find("/*@REPORT_JS@*/"), "/*@REPORT_JS@*/", js},
                            {html.find("@REPORT_DATA@"), "@REPORT_DATA@", data}};
  std::sort(pieces.begin(), pieces.end(), [](const Piece& x, const Piece& y) { return x.at < y.at; });
  std::string page;
  page.reserve(html.size() + web::kReportCss.size() + js.size() + data.size());
  std::size_t from = 0;
  for (const Piece& p : pieces) {
    page.append(html.substr(from, p.at - from)).append(p.content);
    from = p.at + p.placeholder.size();
  }
  return page.append(html.substr(from));
}

// Writes `text` to `path`; 0, or 1 after printing the problem.
inline int write_report_file(const char* cmd, const std::string& path, std::string text) {
  Result<PreparedOutput> prepared = prepare_output(path, symshape::bytes_writer(std::move(text)));
  Result<bool> done = prepared ? commit_output(prepared.value()) : Result<bool>::failure(prepared.error());
  return done ? kExitOk : fatal(cmd, done.error());
}

inline int run_report(const std::vector<std::string>& args) {
  const char* cmd = "report";
  ReportArgs a;
  if (const std::optional<int> done = parse_report_args(args, a)) return *done;
  InferredRun run;
  if (const std::optional<int> bad = load_and_infer(cmd, a, {{"-o", a.out_path}, {"--json", a.json_path}}, true, run))
    return *bad;
  // Main-graph values as `show` and `infer --json` print them.
  const WrittenTypes types(run.splice->main_graph_value_infos());
  report::ReportData data(run.model, {a.model_path, a.options.policy, a.bindings, run.assumptions,
                                      [&types](const Value& v) { return types.of(v); }});
  if (const std::optional<int> bad = check_bindings(cmd, a, run.report, data.symbols())) return *bad;
  const bool fails_at_bindings = print_inference_problems(cmd, a, run);
  // The profile's sums and maxima are built under the facts of the inference.
  const Facts facts = facts_in(run.report.facts);
  const FactScope scope(facts);
  const profile::ModelProfile p = profile::profile_model(run.model, builtin_rule_table());
  const std::string json = data.json(run.report, p, builtin_rule_table());
  // With -o - or --json -, stdout holds only that file.
  FILE* out = names_stdout(a.out_path) || names_stdout(a.json_path) ? stderr : stdout;
  if (!a.quiet) {
    print_facts_line(out, run.report.facts);
    if (a.assume_contracts) print_assumptions(out, run.report, run.assumptions, ExprFit::for_output(out, false));
  }
  if (!a.json_path.empty())
    if (const int code = write_report_file(cmd, a.json_path, json)) return code;
  if (!a.out_path.empty())
    if (const int code = write_report_file(cmd, a.out_path, report_page(json))) return code;
  if (!a.quiet)
    for (const std::string* path : {&a.json_path, &a.out_path})
      if (!path->empty()) std::fprintf(out, "wrote %s\n", names_stdout(*path) ? "standard output" : path->c_str());
  if (std::fflush(stdout) != 0) return fatal(cmd, "cannot write to standard output");
  return end_without_teardown(run.report.ok() && !fails_at_bindings ? kExitOk : kExitInference);
}

}  // namespace symshape::cli
