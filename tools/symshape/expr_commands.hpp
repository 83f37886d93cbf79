// `symshape simplify`, `symshape eval` and `symshape prove`.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "args.hpp"
#include "symshape/expr.hpp"
#include "symshape/expr/facts.hpp"
#include "symshape/report/bindings_check.hpp"
#include "symshape/support/mapped_file.hpp"

namespace symshape::cli {

// Parses "a=1,b=2" into bindings; false with a message on bad input. Values
// are integers >= 0 (they stand for dims); a symbol bound twice, in one
// --bind or across several, is refused.
inline bool parse_bindings(const std::string& text, Bindings& out, std::string& error) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    if (!item.empty()) {
      const std::size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        error = "bad binding '" + item + "', expected NAME=INT";
        return false;
      }
      const std::string name = item.substr(0, eq);
      Result<Expr> value = parse_expr(item.substr(eq + 1));
      if (!value || !value->is_int()) {
        error = "bad value in binding '" + item + "', expected an integer";
        return false;
      }
      if (value->as_int() < 0) {
        error = "negative value in binding '" + item + "' (dims are never negative)";
        return false;
      }
      if (!out.emplace(name, value->as_int()).second) {
        error = "'" + name + "' is bound twice (binding '" + item + "')";
        return false;
      }
    }
    start = end + 1;
  }
  return true;
}

// The handler of --assume FACT (repeatable): a fact that cannot be parsed, or
// contradicts the ones before it, is a usage error naming the position.
inline auto assume_option(Facts& facts) {
  return [&facts](const std::string& text, std::string& error) {
    Result<bool> r = facts.add(text, "--assume");
    if (!r) error = "--assume '" + text + "': " + r.error();
    return r.ok();
  };
}

// The same for a command that infers a model (InferenceOptions::assume): the
// texts are kept, and checked together as they are given.
inline auto assume_text_option(std::vector<std::string>& texts) {
  return [&texts](const std::string& text, std::string& error) {
    Facts facts;
    for (const std::string& t : texts) facts.add(t);
    Result<bool> r = facts.add(text, "--assume");
    if (!r) error = "--assume '" + text + "': " + r.error();
    if (r) texts.push_back(text);
    return r.ok();
  };
}

using report::bindings_break_facts;
using report::facts_in;

// "assuming: seq <= 2048 (--assume), batch >= 1 (--assume-nonempty)"; nothing without facts.
inline void print_facts_line(FILE* out, const std::vector<Fact>& facts) {
  if (facts.empty()) return;
  std::string line = "assuming: ";
  for (std::size_t i = 0; i < facts.size(); ++i) line += (i ? ", " : "") + facts[i].text + " (" + facts[i].source + ")";
  std::fprintf(out, "%s\n", line.c_str());
}

#define SYMSHAPE_CLI_ASSUME_HELP                                                        \
  "  --assume FACT   a relation the runs of interest satisfy: 'seq<=2048', 'H>=32',\n"  \
  "                  '32<=H<=1024', 'past+seq<=64', 'H%32==0', 'total==past+seq'\n"     \
  "                  (repeatable); shapes are then exact for those runs and simpler.\n" \
  "                  Without facts they are exact for every run (dims >= 0).\n"         \
  "  --assume-nonempty  every input dim is >= 1 (a fact like the others)\n"

inline constexpr const char* kSimplifyUsage =
    "usage: symshape simplify [--assume FACT]... [--file FILE|-]... [--] EXPR...\n"
    "  Prints the canonical form of each expression on stdout, one per line, in the\n"
    "  order given. --file reads one expression per line from FILE ('-': standard\n"
    "  input; a final newline ends the last line, it does not start an empty one);\n"
    "  '#' starts a comment that ends with the line, and lines with no expression\n"
    "  (blank, or only a comment) print nothing.\n"
    "  An argument starting with '-' is an expression ('-a+b'), except -h/--help and\n"
    "  --file; after '--' every argument is one.\n"
    "  --assume FACT  simplify under the fact (see symshape prove --help)\n"
    "exit status: 0 ok; 1 an expression is malformed (one line on stderr naming the\n"
    "  expression, the position and, from a file, FILE:LINE) or a file cannot be read;\n"
    "  2 bad usage.\n";

inline constexpr const char* kProveUsage =
    "usage: symshape prove 'A REL B' [--assume FACT]...\n"
    "  REL is <=, <, >=, > or ==. Prints 'true' when the relation holds for every\n"
    "  binding (symbols >= 0) that satisfies the facts, 'false' and a binding that\n"
    "  breaks it (found among small values), or 'unknown' when neither is found.\n"
    "  --assume FACT  a relation the bindings satisfy (repeatable), written as REL\n"
    "              relations are, chains allowed: '32<=H<=1024', 'H%32==0'.\n"
    "exit status: 0 an answer was printed (true, false or unknown); 1 the relation\n"
    "  is malformed (one line on stderr naming the position); 2 bad usage.\n";

inline constexpr const char* kEvalUsage =
    "usage: symshape eval EXPR --bind SYM=INT,... [--bind ...] [--assume FACT]...\n"
    "  Prints the value of EXPR at the bindings on stdout. Values are integers >= 0\n"
    "  (dims are never negative); a symbol bound twice is a usage error. With\n"
    "  --assume, a symbol an equality defines ('total==past+seq') needs no binding,\n"
    "  and bindings that break a fact are refused (exit 1).\n"
    "exit status: 0 ok; 1 the expression is malformed or cannot be evaluated (unbound\n"
    "  symbol, division by zero, overflow; one line on stderr naming the expression\n"
    "  and the position); 2 bad usage (including a negative or repeated binding).\n";

// A text file's bytes ("-": standard input): a regular file is mapped, so
// that its pages come from the page cache without a copy (read into a growing
// string, a corpus of 400 KB touched about twice its size in fresh pages,
// a fault each); anything else is read.
inline bool read_text_file(const std::string& path, symshape::MappedFile& out, std::string& error) {
  Result<symshape::MappedFile> f = symshape::MappedFile::open(path, path, "a text file");
  if (!f) {
    error = f.error();
    return false;
  }
  // Mapped standard input counts as read, as a pipe would: a second "-" gets nothing.
  if (path == "-" && f->mapped()) ::lseek(STDIN_FILENO, 0, SEEK_END);
  out = std::move(f.value());
  return true;
}

// Output of simplify, written in large blocks: one fwrite per 64 KiB rather
// than one printf per expression.
class SimplifyOutput {
 public:
  ~SimplifyOutput() { flush(); }
  std::string& buffer() { return buffer_; }
  void line_done() {
    buffer_ += '\n';
    if (buffer_.size() >= (1 << 16)) flush();
  }
  bool flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), stdout) != buffer_.size()) ok_ = false;
    buffer_.clear();
    return ok_;
  }

 private:
  std::string buffer_;
  bool ok_ = true;
};

// Appends the canonical form of `text` to out; 0, or the exit code after the
// message, which starts "FILE:LINE: " for line `line` of file `path` (line 0:
// an argument). The prefix is only built for a message: building it for every
// line cost two allocations per expression.
inline int simplify_one(std::string_view text, SimplifyOutput& out, const Facts& facts, const std::string& path = {},
                        std::size_t line = 0) {
  const char* cmd = "simplify";
  Result<Expr> e = parse_expr(text);
  if (e && !facts.empty()) e = facts.apply(*e);
  auto where = [&] { return line == 0 ? std::string() : path + ":" + std::to_string(line) + ": "; };
  if (!e) return fatal(cmd, where() + "'" + std::string(text) + "': " + e.error());
  // A division by the integer 0 prints as "//0" or "%0": the walk of the
  // whole expression (a twentieth of the time) is only needed when one shows.
  std::string& buffer = out.buffer();
  const std::size_t start = buffer.size();
  print_to(*e, buffer);
  const std::string_view printed = std::string_view(buffer).substr(start);
  if ((printed.find("//0") != std::string_view::npos || printed.find("%0") != std::string_view::npos) &&
      divides_by_zero(*e)) {
    buffer.resize(start);
    return fatal(cmd, where() + "'" + std::string(text) + "': division by zero");
  }
  out.line_done();
  return kExitOk;
}

// The expression of a line of a --file: '#' starts a comment (no expression
// has one), which ends with the line; blanks around what is left are
// dropped. Empty when the line has no expression (blank, or only a comment).
inline std::string_view file_line_expression(std::string_view line) {
  line = line.substr(0, line.find('#'));
  const std::size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
}

// Every line of a file with an expression (blank lines and comment lines are
// skipped); a final newline does not start another line.
inline int simplify_file(const std::string& path, SimplifyOutput& out, const Facts& facts) {
  symshape::MappedFile text;
  std::string error;
  if (!read_text_file(path, text, error)) return fatal("simplify", error);
  const std::string_view all = text.bytes();
  std::size_t start = 0, line = 1;
  while (start < all.size()) {
    std::size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    const std::string_view expression = file_line_expression(all.substr(start, end - start));
    if (!expression.empty())
      if (const int code = simplify_one(expression, out, facts, path, line)) return code;
    start = end + 1;
    ++line;
  }
  return kExitOk;
}

inline int run_simplify(const std::vector<std::string>& args) {
  const char* cmd = "simplify";
  // Expressions and files in argument order: (is_file, text or path).
  std::vector<std::pair<bool, std::string>> inputs;
  auto file = [&inputs](const std::string& path, std::string& error) {
    if (path.empty()) {
      error = "--file needs FILE";
      return false;
    }
    inputs.emplace_back(true, path);
    return true;
  };
  Facts facts;
  const ArgSpec spec{cmd,
                     kSimplifyUsage,
                     {{{"--file"}, "FILE", file}, {{"--assume"}, "FACT", assume_option(facts)}},
                     [&inputs](const std::string& arg) {
                       inputs.emplace_back(false, arg);
                       return true;
                     },
                     /*dash_args_are_positional=*/true};
  if (const std::optional<int> done = parse_args(spec, args)) return *done;
  if (inputs.empty()) return fatal(cmd, "expected at least one expression or --file", kExitUsage);
  SimplifyOutput out;
  const FactScope scope(facts);
  for (const auto& [is_file, text] : inputs) {
    const int code = is_file ? simplify_file(text, out, facts) : simplify_one(text, out, facts);
    if (code != kExitOk) {
      out.flush();
      return code;
    }
  }
  return out.flush() && std::fflush(stdout) == 0 ? kExitOk : fatal(cmd, "cannot write to standard output");
}

inline int run_eval(const std::vector<std::string>& args) {
  const char* cmd = "eval";
  std::string expr_text;
  bool have_expr = false;
  Bindings bindings;
  auto bind = [&bindings](const std::string& value, std::string& error) {
    return parse_bindings(value, bindings, error);
  };
  // Unlike a model path, an empty expression takes the place (and fails to parse).
  auto expression = [&](const std::string& arg) {
    if (have_expr) return false;
    expr_text = arg;
    have_expr = true;
    return true;
  };
  Facts facts;
  const ArgSpec spec{cmd,
                     kEvalUsage,
                     {{{"--bind"}, "NAME=INT,...", bind}, {{"--assume"}, "FACT", assume_option(facts)}},
                     expression,
                     /*dash_args_are_positional=*/true};
  if (const std::optional<int> done = parse_args(spec, args)) return *done;
  if (!have_expr) return fatal(cmd, "expected an expression", kExitUsage);
  Result<Expr> e = parse_expr(expr_text);
  if (!e) return fatal(cmd, "'" + expr_text + "': " + e.error());
  if (!facts.empty()) {
    // The symbols that equalities define take their values from the others.
    for (const auto& [name, value] : facts.definitions())
      if (Result<int64_t> v = evaluate(value, bindings); v.ok()) bindings.emplace(name, *v);
    if (const std::string problem = bindings_break_facts(facts.list(), bindings); !problem.empty())
      return fatal(cmd, problem);
  }
  Result<int64_t> v = evaluate(*e, bindings);
  if (!v) return fatal(cmd, "'" + expr_text + "': " + v.error());
  std::printf("%lld\n", static_cast<long long>(*v));
  return std::fflush(stdout) == 0 ? kExitOk : fatal(cmd, "cannot write to standard output");
}

inline int run_prove(const std::vector<std::string>& args) {
  const char* cmd = "prove";
  std::string text;
  bool have_relation = false;
  Facts facts;
  auto relation = [&](const std::string& arg) {
    if (have_relation) return false;
    text = arg;
    have_relation = true;
    return true;
  };
  const ArgSpec spec{cmd,
                     kProveUsage,
                     {{{"--assume"}, "FACT", assume_option(facts)}},
                     relation,
                     /*dash_args_are_positional=*/true};
  if (const std::optional<int> done = parse_args(spec, args)) return *done;
  if (!have_relation) return fatal(cmd, "expected a relation such as 'A >= B'", kExitUsage);
  Result<ParsedRelation> r = parse_relation(text);
  if (!r) return fatal(cmd, "'" + text + "': " + r.error());
  const ProofOutcome outcome = prove_relation(r->lhs, r->rel, r->rhs, facts);
  if (outcome.verdict == ProofOutcome::Verdict::True) {
    std::printf("true\n");
  } else if (outcome.verdict == ProofOutcome::Verdict::Unknown) {
    std::printf("unknown\n");
  } else {
    std::vector<std::pair<std::string, int64_t>> sorted(outcome.counterexample.begin(), outcome.counterexample.end());
    std::sort(sorted.begin(), sorted.end());
    std::string binding;
    for (const auto& [name, value] : sorted)
      binding += (binding.empty() ? "" : ",") + name + "=" + std::to_string(value);
    std::printf("false: %s\n", binding.empty() ? "(no symbol)" : binding.c_str());
  }
  return std::fflush(stdout) == 0 ? kExitOk : fatal(cmd, "cannot write to standard output");
}

}  // namespace symshape::cli
