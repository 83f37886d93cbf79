// symshape_expr_corpus: the C++ side of bench/sympy_compare.py.
//
//   symshape_expr_corpus time CORPUS [--min-time SECONDS]
//       parse + print (parse_expr then to_string) every expression of CORPUS,
//       repeated until SECONDS (default 0.5) of process CPU time have passed;
//       prints `exprs=N passes=P seconds=CPU wall_seconds=W exprs_per_second=X`
//       (X = N*P/CPU).
//   symshape_expr_corpus canon CORPUS
//       one line per expression: its canonical form, or `error: MESSAGE`.
//       Also checks that printing round-trips (parse(print(e)) == e) and that
//       simplifying twice changes nothing; any failure goes to stderr and
//       makes the exit status 1.
//   symshape_expr_corpus eval < REQUESTS
//       each request line is `EXPR<TAB>a=1,b=2<TAB>a=3,b=4...`; each answer
//       line holds, for each binding (tab-separated), `V|W`: V the value of
//       the parsed (canonical) expression, W the value of its printed form
//       parsed again; either is `error:MESSAGE` where evaluation fails
//       (division by zero, overflow) or the text does not parse.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "expr_corpus.hpp"
#include "symshape/expr.hpp"

namespace {

using symshape::Bindings;
using symshape::Expr;
using symshape::Result;

int usage() {
  std::fputs(
      "usage:\n"
      "  symshape_expr_corpus time CORPUS [--min-time SECONDS]\n"
      "  symshape_expr_corpus canon CORPUS\n"
      "  symshape_expr_corpus eval < REQUESTS   (lines: EXPR<TAB>a=1,b=2<TAB>...)\n",
      stderr);
  return 2;
}

bool load(const std::string& path, std::vector<symshape::bench::CorpusLine>& lines) {
  std::string error;
  if (!symshape::bench::read_corpus(path, lines, error)) {
    std::fprintf(stderr, "symshape_expr_corpus: %s\n", error.c_str());
    return false;
  }
  return true;
}

int run_time(const std::string& path, double min_time) {
  std::vector<symshape::bench::CorpusLine> lines;
  if (!load(path, lines)) return 1;
  // Process CPU time, so that other jobs on the machine disturb the figure
  // less; wall time is printed too.
  std::size_t sink = 0;
  long passes = 0;
  const auto wall_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  double seconds = 0;
  do {
    for (const auto& line : lines) {
      Result<Expr> e = symshape::parse_expr(line.text);
      sink += e ? symshape::to_string(*e).size() : e.error().size();
    }
    ++passes;
    seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  } while (seconds < min_time);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double n = static_cast<double>(lines.size()) * static_cast<double>(passes);
  std::printf("exprs=%zu passes=%ld seconds=%.6f wall_seconds=%.6f exprs_per_second=%.1f sink=%zu\n", lines.size(),
              passes, seconds, wall, n / seconds, sink);
  return 0;
}

int run_canon(const std::string& path) {
  std::vector<symshape::bench::CorpusLine> lines;
  if (!load(path, lines)) return 1;
  int bad = 0;
  for (const auto& line : lines) {
    Result<Expr> e = symshape::parse_expr(line.text);
    if (!e) {
      std::printf("error:%s\n", e.error().c_str());
      continue;
    }
    const std::string text = symshape::to_string(*e);
    std::printf("%s\n", text.c_str());
    Result<Expr> again = symshape::parse_expr(text);
    if (!again) {
      std::fprintf(stderr, "round-trip: '%s' prints as '%s', which does not parse: %s\n", line.text.c_str(),
                   text.c_str(), again.error().c_str());
      ++bad;
    } else if (!(*again == *e)) {
      std::fprintf(stderr, "round-trip: '%s' prints as '%s', which parses to '%s'\n", line.text.c_str(), text.c_str(),
                   symshape::to_string(*again).c_str());
      ++bad;
    }
  }
  return bad == 0 ? 0 : 1;
}

bool parse_bindings(const std::string& text, Bindings& out) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::size_t eq = text.find('=', start);
    if (eq == std::string::npos || eq >= end) return false;
    char* stop = nullptr;
    const std::string value = text.substr(eq + 1, end - eq - 1);
    const long long v = std::strtoll(value.c_str(), &stop, 10);
    if (value.empty() || *stop != '\0') return false;
    out[text.substr(start, eq - start)] = v;
    start = end + 1;
  }
  return true;
}

int run_eval() {
  std::ios::sync_with_stdio(false);
  std::string line;
  std::string out;
  while (std::getline(std::cin, line)) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
      const std::size_t tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    Result<Expr> e = symshape::parse_expr(fields[0]);
    Result<Expr> printed = e ? symshape::parse_expr(symshape::to_string(*e)) : e;
    out.clear();
    for (std::size_t i = 1; i < fields.size(); ++i) {
      if (i > 1) out += '\t';
      Bindings b;
      if (!parse_bindings(fields[i], b)) {
        std::fprintf(stderr, "symshape_expr_corpus eval: bad bindings '%s'\n", fields[i].c_str());
        return 2;
      }
      if (!e) {
        out += "error:parse: " + e.error();
        continue;
      }
      Result<int64_t> v = symshape::evaluate(*e, b);
      out += v ? std::to_string(*v) : "error:" + v.error();
      out += '|';
      if (!printed) {
        out += "error:printed form does not parse: " + printed.error();
        continue;
      }
      Result<int64_t> w = symshape::evaluate(*printed, b);
      out += w ? std::to_string(*w) : "error:" + w.error();
    }
    std::cout << out << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage();
  if (args[0] == "time" && (args.size() == 2 || (args.size() == 4 && args[2] == "--min-time")))
    return run_time(args[1], args.size() == 4 ? std::atof(args[3].c_str()) : 0.5);
  if (args[0] == "canon" && args.size() == 2) return run_canon(args[1]);
  if (args[0] == "eval" && args.size() == 1) return run_eval();
  return usage();
}
