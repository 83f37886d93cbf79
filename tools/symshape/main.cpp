// The symshape command: shape inference over ONNX files (infer, show) and
// dimension expressions (simplify, eval).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "expr_commands.hpp"
#include "infer_commands.hpp"

namespace {
int usage(FILE* out) {
  std::fputs(
      "usage:\n"
      "  symshape infer MODEL.onnx [-o OUT.onnx] [--input-shape NAME=D0,D1,...]...\n"
      "                 [--policy skip|override|refine|strict] [--trace] [--json REPORT.json]\n"
      "                                         infer every value's shape, print a summary and the\n"
      "                                         diagnostics; -o writes the model with value_info\n"
      "  symshape show MODEL.onnx [--bind SYM=INT,...] [--all]\n"
      "                                         print a table of every value's symbolic shape; with\n"
      "                                         --bind also the concrete shape and size in bytes\n"
      "  symshape simplify EXPR...              print each canonical form, one per line\n"
      "  symshape eval EXPR --bind SYM=INT,...  print the value\n"
      "exit status: 0 ok, 1 unreadable/malformed input or failed write, 2 bad usage,\n"
      "             3 inference reported errors\n",
      out);
  return out == stderr ? 2 : 0;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage(stderr);
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "-h" || cmd == "--help" || cmd == "help") return usage(stdout);
  if (cmd == "infer") return symshape::cli::run_infer(args);
  if (cmd == "show") return symshape::cli::run_show(args);
  if (cmd == "simplify") return symshape::cli::run_simplify(args);
  if (cmd == "eval") return symshape::cli::run_eval(args);
  std::fprintf(stderr, "symshape: unknown command '%s' (try symshape --help)\n", cmd.c_str());
  return 2;
}
