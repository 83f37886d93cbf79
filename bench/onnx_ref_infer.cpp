// The peer process of bench/whole_process.py: what a C++ program built on
// ONNX does to infer a model's shapes. It reads the file, parses it with
// ModelProto::ParseFromString and runs onnx::shape_inference::InferShapes with
// the options of bench/infer_bench.cpp (check_type=false, error_mode=0,
// enable_data_propagation=true). Nothing is written.
//
//   onnx_ref_infer [--time] MODEL.onnx
//
// --time also prints, on standard output, how long each step took inside the
// process: `registry_ms=R read_ms=F parse_ms=P infer_ms=I again_parse_ms=P2
// again_infer_ms=I2`. The schema registry is then built first (R), as a
// Python user has it built once per interpreter; P + I is ONNX's in-process
// parse plus InferShapes, and P2 + I2 the same done again in the process
// (its memory then reused, as in an interpreter that has loaded a model
// before): the baselines bench/whole_process.py divides by.
//
// Exit status: 0 after inference, 1 if the file cannot be read or parsed or
// InferShapes throws, 2 on bad usage.
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Parses `bytes` and infers the model's shapes, timing each; false after
// printing the problem.
bool parse_and_infer(const std::string& bytes, const char* path, double& parse_ms, double& infer_ms) {
  auto t = Clock::now();
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) {
    std::fprintf(stderr, "onnx_ref_infer: %s is not a valid ModelProto\n", path);
    return false;
  }
  parse_ms = ms_since(t);
  t = Clock::now();
  const onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0,
                                            /*enable_data_propagation=*/true};
  try {
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "onnx_ref_infer: %s\n", e.what());
    return false;
  }
  infer_ms = ms_since(t);
  // Read the result so that the work cannot be skipped.
  return model.graph().value_info_size() >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool timed = argc == 3 && std::strcmp(argv[1], "--time") == 0;
  if (argc != 2 && !timed) {
    std::fprintf(stderr, "usage: onnx_ref_infer [--time] MODEL.onnx\n");
    return 2;
  }
  const char* path = argv[argc - 1];
  auto t = Clock::now();
  double registry_ms = 0;
  if (timed) {
    // Looking up a schema builds the whole registry.
    if (!onnx::OpSchemaRegistry::Schema("Relu", 14, "")) {
      std::fprintf(stderr, "onnx_ref_infer: no schema registry\n");
      return 1;
    }
    registry_ms = ms_since(t);
    t = Clock::now();
  }
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
      std::fprintf(stderr, "onnx_ref_infer: cannot open %s\n", path);
      return 1;
    }
    // One read into a buffer of the file's size, as a careful caller would do.
    bytes.resize(static_cast<std::size_t>(in.tellg()));
    in.seekg(0);
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      std::fprintf(stderr, "onnx_ref_infer: cannot read %s\n", path);
      return 1;
    }
  }
  const double read_ms = ms_since(t);
  double parse_ms = 0, infer_ms = 0;
  if (!parse_and_infer(bytes, path, parse_ms, infer_ms)) return 1;
  if (timed) {
    // Again in the same process: the memory the first model took is free
    // again, as in an interpreter that has loaded models before.
    double again_parse_ms = 0, again_infer_ms = 0;
    if (!parse_and_infer(bytes, path, again_parse_ms, again_infer_ms)) return 1;
    std::printf("registry_ms=%.4f read_ms=%.4f parse_ms=%.4f infer_ms=%.4f again_parse_ms=%.4f again_infer_ms=%.4f\n",
                registry_ms, read_ms, parse_ms, infer_ms, again_parse_ms, again_infer_ms);
  }
  return 0;
}
