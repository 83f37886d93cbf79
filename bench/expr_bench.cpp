// Google Benchmark of the expression engine over the generated corpus
// (bench/data/expr_corpus.txt, see bench/gen_expr_corpus.py).
//
//   parse_simplify/<category>  parse_expr + to_string of every expression of
//                              one category per iteration
//   parse_simplify/all         the same over the whole corpus
//   evaluate/all               evaluate() of every (already parsed) expression
//                              at fixed bindings
// items_per_second is expressions per second.
//
// The corpus path is SYMSHAPE_EXPR_CORPUS (the environment variable, else the
// path compiled in), or --corpus=PATH before the Google Benchmark flags.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "expr_corpus.hpp"
#include "symshape/expr.hpp"

#ifndef SYMSHAPE_EXPR_CORPUS
#define SYMSHAPE_EXPR_CORPUS "bench/data/expr_corpus.txt"
#endif

namespace {

using symshape::bench::CorpusLine;

void parse_simplify(benchmark::State& state, const std::vector<std::string>* texts) {
  for (auto _ : state) {
    for (const std::string& text : *texts) {
      symshape::Result<symshape::Expr> e = symshape::parse_expr(text);
      std::string out = e ? symshape::to_string(*e) : e.error();
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(texts->size()));
}

struct EvalCase {
  std::vector<symshape::Expr> exprs;
  symshape::Bindings bindings;
};

void evaluate_all(benchmark::State& state, const EvalCase* c) {
  int64_t failures = 0;
  for (auto _ : state) {
    for (const symshape::Expr& e : c->exprs) {
      symshape::Result<int64_t> v = symshape::evaluate(e, c->bindings);
      if (v) {
        benchmark::DoNotOptimize(*v);
      } else {
        ++failures;
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(c->exprs.size()));
  state.counters["failed_per_pass"] =
      static_cast<double>(failures) / static_cast<double>(state.iterations() > 0 ? state.iterations() : 1);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = SYMSHAPE_EXPR_CORPUS;
  if (const char* env = std::getenv("SYMSHAPE_EXPR_CORPUS")) path = env;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--corpus=", 0) == 0) {
      path = arg.substr(9);
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());

  std::vector<CorpusLine> corpus;
  std::string error;
  if (!symshape::bench::read_corpus(path, corpus, error) || corpus.empty()) {
    std::fprintf(stderr, "expr_bench: %s\n", error.empty() ? ("empty corpus '" + path + "'").c_str() : error.c_str());
    return 1;
  }

  // Texts by category, in corpus order; these live until main returns.
  static std::map<std::string, std::vector<std::string>> by_category;
  static std::vector<std::string> all;
  std::vector<std::string> order;
  for (const CorpusLine& line : corpus) {
    if (by_category.find(line.category) == by_category.end()) order.push_back(line.category);
    by_category[line.category].push_back(line.text);
    all.push_back(line.text);
  }
  for (const std::string& category : order)
    benchmark::RegisterBenchmark(("parse_simplify/" + category).c_str(), parse_simplify, &by_category[category]);
  benchmark::RegisterBenchmark("parse_simplify/all", parse_simplify, &all);

  // Evaluate every expression that parses at one deterministic binding of
  // each symbol to a value in [1, 64].
  static EvalCase eval_case;
  for (const std::string& text : all) {
    symshape::Result<symshape::Expr> e = symshape::parse_expr(text);
    if (!e) continue;
    for (const std::string& name : symshape::free_symbols(*e)) {
      if (eval_case.bindings.count(name) != 0) continue;
      eval_case.bindings[name] = 1 + static_cast<int64_t>(std::hash<std::string>{}(name) % 64);
    }
    eval_case.exprs.push_back(*e);
  }
  benchmark::RegisterBenchmark("evaluate/all", evaluate_all, &eval_case);

  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
