// The symshape command: shape inference over ONNX files (infer, show), their
// profile (FLOPs, parameters, memory), a report page of both (report) and
// dimension expressions (simplify, eval, prove).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "expr_commands.hpp"
#include "infer_commands.hpp"
#include "profile_commands.hpp"
#include "report_commands.hpp"

#ifndef SYMSHAPE_VERSION
#error "SYMSHAPE_VERSION is defined by tools/symshape/CMakeLists.txt (the CMake project version)"
#endif

namespace {
int usage(FILE* out) {
  std::fputs(
      "usage:\n"
      "  symshape infer MODEL.onnx|- [-o OUT.onnx|-] [--input-shape NAME=D0,D1,...]...\n"
      "                 [--policy skip|override|refine|strict] [--trace] [--json REPORT.json|-]\n"
      "                 [--allow-errors] [--external-data keep|copy|link] [--assume-contracts]\n"
      "                 [--assume FACT]... [--assume-nonempty]\n"
      "                 [--full] [--quiet]\n"
      "                                         infer every value's shape, print a summary; -o writes\n"
      "                                         the model with value_info, --json a report\n"
      "  symshape show MODEL.onnx|- [--bind SYM=INT,...] [--all] [--json FILE|-] [--assume FACT]...\n"
      "                 [--assume-nonempty] [--full] [--quiet]\n"
      "                                         print a table of every value's symbolic shape; with\n"
      "                                         --bind also the concrete shape and size in bytes\n"
      "  symshape profile MODEL.onnx|- [--bind SYM=INT,...] [--by op|scope] [--top N] [--json FILE|-]\n"
      "                 [--csv FILE|-] [--sweep SYM=LO..HI [--plot FILE.svg]] [--input-shape NAME=D0,D1,...]...\n"
      "                 [--policy skip|override|refine|strict] [--assume-contracts] [--assume FACT]...\n"
      "                 [--assume-nonempty] [--full] [--quiet]\n"
      "                                         FLOPs, parameters and memory as expressions of\n"
      "                                         the input dims, evaluated with --bind\n"
      "  symshape report MODEL.onnx|- [-o REPORT.html|-] [--json FILE|-] [--bind SYM=INT,...]\n"
      "                 [--input-shape NAME=D0,D1,...]... [--policy skip|override|refine|strict]\n"
      "                 [--assume-contracts] [--assume FACT]... [--assume-nonempty] [--quiet]\n"
      "                                         one self-contained HTML page of the model: its\n"
      "                                         graph with the symbolic shapes, evaluated in the\n"
      "                                         page at the symbols' values, and its profile\n"
      "  symshape simplify EXPR... [--file F|-] [--assume FACT]...\n"
      "                                         print each canonical form, one per line\n"
      "  symshape eval EXPR --bind SYM=INT,... [--assume FACT]...\n"
      "                                         print the value\n"
      "  symshape prove 'A >= B' [--assume FACT]...\n"
      "                                         print true, false (and a counterexample)\n"
      "                                         or unknown\n"
      "  symshape --version                     print the version\n"
      "  symshape COMMAND --help                the options of a command\n"
      "output: results and tables on stdout; every diagnostic (inference errors,\n"
      "  warnings, notes, fatal problems) on stderr, one line each, naming the file\n"
      "  and the node (#index, name, op type) or the position in an expression.\n"
      "  An expression longer than the room left by the terminal's width (60\n"
      "  characters when stdout is not a terminal) is cut, ending in '…'; --full\n"
      "  prints it whole. --json and --csv files always hold whole expressions.\n"
      "  '-' is standard input for MODEL and standard output for -o / --json (then\n"
      "  infer's summary goes to stderr, so stdout holds only that file).\n"
      "exit status: 0 success; 1 unreadable or malformed input (or an output that\n"
      "  cannot be written); 2 bad usage; 3 inference reported errors.\n"
      "  On a non-zero exit -o is neither created nor modified (--allow-errors writes\n"
      "  it despite inference errors, still exit 3); --json is written whenever\n"
      "  inference ran.\n",
      out);
  return out == stderr ? symshape::cli::kExitUsage : symshape::cli::kExitOk;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage(stderr);
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "-h" || cmd == "--help" || cmd == "help") return usage(stdout);
  if (cmd == "--version" || cmd == "-V") {
    std::printf("symshape %s\n", SYMSHAPE_VERSION);
    return symshape::cli::kExitOk;
  }
  if (cmd == "infer") return symshape::cli::run_infer(args);
  if (cmd == "show") return symshape::cli::run_show(args);
  if (cmd == "profile") return symshape::cli::run_profile(args);
  if (cmd == "report") return symshape::cli::run_report(args);
  if (cmd == "simplify") return symshape::cli::run_simplify(args);
  if (cmd == "eval") return symshape::cli::run_eval(args);
  if (cmd == "prove") return symshape::cli::run_prove(args);
  std::fprintf(stderr, "symshape: unknown command '%s' (try symshape --help)\n", symshape::cli::one_line(cmd).c_str());
  return symshape::cli::kExitUsage;
}
