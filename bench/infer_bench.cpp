// Google Benchmark: symshape's inference against ONNX's reference
// onnx::shape_inference::InferShapes on the same models (see
// docs/benchmarks.md, "Inference vs ONNX reference").
//
//   symshape/<model>   load_model_proto (from the in-memory proto) + infer_shapes
//   load/<model>       load_model_proto alone (the IR conversion part of the
//                      symshape time)
//   onnx_ref/<model>   InferShapes on a fresh copy of the proto, data propagation
//                      on (the copy is made with the timer paused)
//
// Every model is stripped of value_info and output types first, so that both
// tools infer everything from the inputs. Counters: nodes, and per_node (time
// per node, shown in seconds with an SI prefix).
//
// Models: the nine light CNNs of ONNX's backend test data
// (SYMSHAPE_ONNX_LIGHT_DIR, --light=DIR) and the generated chains
// chain_1k/10k/100k (SYMSHAPE_INFER_MODELS_DIR, --models=DIR, written by
// bench/gen_infer_models.py at build time). Missing models are skipped with a
// message on stderr.
#include <benchmark/benchmark.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "symshape/onnx/load.hpp"
#include "symshape/symshape.hpp"

#ifndef SYMSHAPE_ONNX_LIGHT_DIR
#define SYMSHAPE_ONNX_LIGHT_DIR "../shared/data/onnx-light"
#endif
#ifndef SYMSHAPE_INFER_MODELS_DIR
#define SYMSHAPE_INFER_MODELS_DIR "infer_models"
#endif

namespace fs = std::filesystem;

namespace {

struct BenchModel {
  std::string name;
  onnx::ModelProto proto;
  int64_t nodes = 0;
};

int64_t count_nodes(const onnx::GraphProto& g) {
  int64_t n = g.node_size();
  for (const auto& node : g.node())
    for (const auto& a : node.attribute()) {
      if (a.has_g()) n += count_nodes(a.g());
      for (const auto& sub : a.graphs()) n += count_nodes(sub);
    }
  return n;
}

void strip(onnx::GraphProto& g) {
  g.clear_value_info();
  for (auto& o : *g.mutable_output()) o.clear_type();
}

void set_counters(benchmark::State& state, const BenchModel& m) {
  state.counters["nodes"] = static_cast<double>(m.nodes);
  state.counters["per_node"] = benchmark::Counter(static_cast<double>(m.nodes),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

void bench_symshape(benchmark::State& state, const BenchModel* m) {
  std::size_t errors = 0;
  for (auto _ : state) {
    auto loaded = symshape::io::load_model_proto(m->proto);
    if (!loaded) {
      state.SkipWithError(("load: " + loaded.error()).c_str());
      break;
    }
    symshape::Report report = symshape::infer_shapes(loaded.value());
    errors = report.errors();
    benchmark::DoNotOptimize(report.diagnostics.data());
  }
  set_counters(state, *m);
  state.counters["errors"] = static_cast<double>(errors);
}

void bench_load(benchmark::State& state, const BenchModel* m) {
  for (auto _ : state) {
    auto loaded = symshape::io::load_model_proto(m->proto);
    if (!loaded) {
      state.SkipWithError(("load: " + loaded.error()).c_str());
      break;
    }
    benchmark::DoNotOptimize(loaded.value().graph.get());
  }
  set_counters(state, *m);
}

void bench_reference(benchmark::State& state, const BenchModel* m) {
  const onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0,
                                            /*enable_data_propagation=*/true};
  for (auto _ : state) {
    state.PauseTiming();
    auto copy = std::make_unique<onnx::ModelProto>(m->proto);
    state.ResumeTiming();
    try {
      onnx::shape_inference::InferShapes(*copy, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
    benchmark::DoNotOptimize(copy->graph().value_info_size());
    state.PauseTiming();
    copy.reset();
    state.ResumeTiming();
  }
  set_counters(state, *m);
}

bool load(const fs::path& path, const std::string& name, std::vector<std::unique_ptr<BenchModel>>& out) {
  auto proto = symshape::io::read_model_proto(path.string());
  if (!proto) {
    std::fprintf(stderr, "infer_bench: skipping %s: %s\n", name.c_str(), proto.error().c_str());
    return false;
  }
  auto m = std::make_unique<BenchModel>();
  m->name = name;
  m->proto = std::move(proto.value());
  strip(*m->proto.mutable_graph());
  m->nodes = count_nodes(m->proto.graph());
  out.push_back(std::move(m));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string light_dir = SYMSHAPE_ONNX_LIGHT_DIR;
  std::string models_dir = SYMSHAPE_INFER_MODELS_DIR;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--light=", 8) == 0)
      light_dir = argv[i] + 8;
    else if (std::strncmp(argv[i], "--models=", 9) == 0)
      models_dir = argv[i] + 9;
    else
      args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());

  std::vector<std::unique_ptr<BenchModel>> models;
  if (fs::is_directory(light_dir)) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(light_dir))
      if (e.path().extension() == ".onnx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string name = f.stem().string();
      if (name.rfind("light_", 0) == 0) name = name.substr(6);
      load(f, name, models);
    }
  } else {
    std::fprintf(stderr, "infer_bench: skipping the light CNNs: %s not found\n", light_dir.c_str());
  }
  for (const char* chain : {"chain_1k", "chain_10k", "chain_100k"}) {
    fs::path p = fs::path(models_dir) / (std::string(chain) + ".onnx");
    if (fs::exists(p))
      load(p, chain, models);
    else
      std::fprintf(stderr,
                   "infer_bench: skipping %s: %s not found (generate it with "
                   "/usr/bin/python3 bench/gen_infer_models.py --out %s)\n",
                   chain, p.string().c_str(), models_dir.c_str());
  }
  if (models.empty()) {
    std::fprintf(stderr, "infer_bench: no models to run\n");
    return 1;
  }
  for (const auto& m : models) {
    benchmark::RegisterBenchmark(("symshape/" + m->name).c_str(), bench_symshape, m.get())->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("load/" + m->name).c_str(), bench_load, m.get())->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("onnx_ref/" + m->name).c_str(), bench_reference, m.get())->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
