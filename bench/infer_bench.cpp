// Google Benchmark: symshape's inference against ONNX's reference
// onnx::shape_inference::InferShapes on the same models (see
// docs/benchmarks.md, "Inference vs ONNX reference").
//
//   symshape/<model>   load_model_bytes (from the serialized model in memory,
//                      as the command reads a mapped file) + infer_shapes
//   load/<model>       load_model_bytes alone (the wire-format reading and IR
//                      conversion part of the symshape time)
//   onnx_ref/<model>   InferShapes on a fresh copy of the proto, data propagation
//                      on (the copy is made with the timer paused)
//
// Every model is stripped of value_info and output types first, so that both
// tools infer everything from the inputs. Counters: nodes, and per_node (time
// per node, shown in seconds with an SI prefix).
//
// Counter allocs_per_node: heap allocations (operator new calls) per node
// and iteration, counted by the replacement operator new of
// bench/allocation_counter.cpp; for
// onnx_ref it counts InferShapes alone (the proto copy is made and freed
// outside the count).
//
// Models: the nine light CNNs of ONNX's backend test data
// (SYMSHAPE_ONNX_LIGHT_DIR, --light=DIR) and the generated chains
// chain_1k/10k/100k and chain_const_10k (SYMSHAPE_INFER_MODELS_DIR, --models=DIR, written by
// bench/gen_infer_models.py at build time). Missing models are skipped with a
// message on stderr. --summary prints, instead of timing, what each tool
// infers on each model (values whose dims are all known, the output type),
// and exits 1 if symshape fails to load a model or reports an error on it.
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

#include "symshape/onnx/proto.hpp"
#include "symshape/symshape.hpp"

#ifndef SYMSHAPE_ONNX_LIGHT_DIR
#define SYMSHAPE_ONNX_LIGHT_DIR "tests/data/onnx-light"
#endif
#ifndef SYMSHAPE_INFER_MODELS_DIR
#define SYMSHAPE_INFER_MODELS_DIR "infer_models"
#endif

namespace fs = std::filesystem;

// Heap allocations of the process so far (bench/allocation_counter.cpp).
std::size_t allocation_count();

namespace {

struct BenchModel {
  std::string name;
  onnx::ModelProto proto;
  std::string bytes;  // proto, serialized: what symshape loads
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

void set_counters(benchmark::State& state, const BenchModel& m, std::size_t allocations = 0) {
  state.counters["nodes"] = static_cast<double>(m.nodes);
  if (state.iterations() > 0 && m.nodes > 0)
    state.counters["allocs_per_node"] =
        static_cast<double>(allocations) / static_cast<double>(state.iterations()) / static_cast<double>(m.nodes);
  state.counters["per_node"] = benchmark::Counter(
      static_cast<double>(m.nodes), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void bench_symshape(benchmark::State& state, const BenchModel* m) {
  std::size_t errors = 0;
  const std::size_t allocations_before = allocation_count();
  for (auto _ : state) {
    auto loaded = symshape::onnx::load_model_bytes(m->bytes, m->name);
    if (!loaded) {
      state.SkipWithError(("load: " + loaded.error()).c_str());
      break;
    }
    symshape::Report report = symshape::infer_shapes(loaded.value());
    errors = report.errors();
    benchmark::DoNotOptimize(report.diagnostics.data());
  }
  set_counters(state, *m, allocation_count() - allocations_before);
  state.counters["errors"] = static_cast<double>(errors);
}

void bench_load(benchmark::State& state, const BenchModel* m) {
  const std::size_t allocations_before = allocation_count();
  for (auto _ : state) {
    auto loaded = symshape::onnx::load_model_bytes(m->bytes, m->name);
    if (!loaded) {
      state.SkipWithError(("load: " + loaded.error()).c_str());
      break;
    }
    benchmark::DoNotOptimize(loaded.value().graph.get());
  }
  set_counters(state, *m, allocation_count() - allocations_before);
}

void bench_reference(benchmark::State& state, const BenchModel* m) {
  const onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0,
                                            /*enable_data_propagation=*/true};
  std::size_t allocations = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto copy = std::make_unique<onnx::ModelProto>(m->proto);
    state.ResumeTiming();
    const std::size_t before = allocation_count();
    try {
      onnx::shape_inference::InferShapes(*copy, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
    benchmark::DoNotOptimize(copy->graph().value_info_size());
    allocations += allocation_count() - before;
    state.PauseTiming();
    copy.reset();
    state.ResumeTiming();
  }
  set_counters(state, *m, allocations);
}

// --summary: what each tool infers on each model (how many node outputs get
// a shape with every dim known, the graph output type), so that the timings
// compare equivalent work.
std::string dims_text(const onnx::TypeProto& t) {
  if (!t.has_tensor_type()) return "?";
  if (!t.tensor_type().has_shape()) return "[?rank]";
  std::string s = "[";
  for (int i = 0; i < t.tensor_type().shape().dim_size(); ++i) {
    const auto& d = t.tensor_type().shape().dim(i);
    if (i) s += ",";
    s += d.has_dim_value() ? std::to_string(d.dim_value()) : d.has_dim_param() ? d.dim_param() : "?";
  }
  return s + "]";
}

// False when symshape fails to load the model or reports an error on it.
bool summarize(const BenchModel& m) {
  bool ok = false;
  int64_t sym_known = 0, sym_values = 0;
  std::string sym_out = "load failed";
  auto loaded = symshape::onnx::load_model_bytes(m.bytes, m.name);
  if (loaded) {
    symshape::Model& model = loaded.value();
    symshape::Report report = symshape::infer_shapes(model);
    for (const auto& n : model.graph->nodes)
      for (const symshape::Value* v : n->outputs)
        if (v) {
          ++sym_values;
          sym_known += v->type.is_tensor() && v->type.shape().has_rank();
          if (v->type.is_tensor() && v->type.shape().has_rank())
            for (const auto& d : v->type.shape().dims())
              sym_known -= d.is_unknown() || d.to_string().rfind("_d", 0) == 0 ? 1 : 0;
        }
    sym_out = model.graph->outputs.empty() || !model.graph->outputs[0]
                  ? "?"
                  : model.graph->outputs[0]->type.shape().to_string();
    sym_out += " (" + std::to_string(report.errors()) + " errors, " + std::to_string(report.warnings()) + " warnings)";
    ok = report.errors() == 0;
  }
  onnx::ModelProto copy = m.proto;
  int64_t ref_known = 0;
  std::string ref_out = "threw";
  try {
    onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions{false, 0, true});
    for (const auto& vi : copy.graph().value_info()) {
      if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) continue;
      bool all = true;
      for (const auto& d : vi.type().tensor_type().shape().dim())
        all = all && (d.has_dim_value() || (d.has_dim_param() && d.dim_param().rfind("unk__", 0) != 0));
      ref_known += all;
    }
    ref_out = copy.graph().output_size() ? dims_text(copy.graph().output(0).type()) : "?";
  } catch (const std::exception& e) {
    ref_out = std::string("threw: ") + e.what();
  }
  std::printf("%-14s %6lld values | symshape: %6lld with every dim known, output %s | reference: %6lld, output %s\n",
              m.name.c_str(), static_cast<long long>(sym_values), static_cast<long long>(sym_known), sym_out.c_str(),
              static_cast<long long>(ref_known), ref_out.c_str());
  return ok;
}

bool load(const fs::path& path, const std::string& name, std::vector<std::unique_ptr<BenchModel>>& out) {
  auto proto = symshape::onnx::read_model_proto(path.string());
  if (!proto) {
    std::fprintf(stderr, "infer_bench: skipping %s: %s\n", name.c_str(), proto.error().c_str());
    return false;
  }
  auto m = std::make_unique<BenchModel>();
  m->name = name;
  m->proto = std::move(proto.value());
  strip(*m->proto.mutable_graph());
  m->bytes = m->proto.SerializeAsString();
  m->nodes = count_nodes(m->proto.graph());
  out.push_back(std::move(m));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string light_dir = SYMSHAPE_ONNX_LIGHT_DIR;
  std::string models_dir = SYMSHAPE_INFER_MODELS_DIR;
  std::vector<char*> args;
  bool summary = false;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--summary") == 0)
      summary = true;
    else if (std::strncmp(argv[i], "--light=", 8) == 0)
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
  for (const char* chain : {"chain_1k", "chain_10k", "chain_100k", "chain_const_10k"}) {
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
  if (summary) {
    int failures = 0;
    for (const auto& m : models) failures += summarize(*m) ? 0 : 1;
    return failures ? 1 : 0;
  }
  for (const auto& m : models) {
    benchmark::RegisterBenchmark(("symshape/" + m->name).c_str(), bench_symshape, m.get())
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("load/" + m->name).c_str(), bench_load, m.get())->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("onnx_ref/" + m->name).c_str(), bench_reference, m.get())
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
