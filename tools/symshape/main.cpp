// The symshape command: simplify and evaluate dimension expressions.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "expr_commands.hpp"

namespace {
int usage(FILE* out) {
  std::fputs(
      "usage:\n"
      "  symshape simplify EXPR...              print each canonical form, one per line\n"
      "  symshape eval EXPR --bind SYM=INT,...  print the value\n",
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
  if (cmd == "simplify") return symshape::cli::run_simplify(args);
  if (cmd == "eval") return symshape::cli::run_eval(args);
  std::fprintf(stderr, "symshape: unknown command '%s'\n", cmd.c_str());
  return usage(stderr);
}
