// The peer process of bench/whole_process.py: what a C++ program built on
// ONNX does to infer a model's shapes. It reads the file, parses it with
// ModelProto::ParseFromString and runs onnx::shape_inference::InferShapes with
// the options of bench/infer_bench.cpp (check_type=false, error_mode=0,
// enable_data_propagation=true). Nothing is written.
//
//   onnx_ref_infer MODEL.onnx
//
// Exit status: 0 after inference, 1 if the file cannot be read or parsed or
// InferShapes throws, 2 on bad usage.
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: onnx_ref_infer MODEL.onnx\n");
    return 2;
  }
  std::string bytes;
  {
    std::ifstream in(argv[1], std::ios::binary | std::ios::ate);
    if (!in) {
      std::fprintf(stderr, "onnx_ref_infer: cannot open %s\n", argv[1]);
      return 1;
    }
    // One read into a buffer of the file's size, as a careful caller would do.
    bytes.resize(static_cast<std::size_t>(in.tellg()));
    in.seekg(0);
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      std::fprintf(stderr, "onnx_ref_infer: cannot read %s\n", argv[1]);
      return 1;
    }
  }
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) {
    std::fprintf(stderr, "onnx_ref_infer: %s is not a valid ModelProto\n", argv[1]);
    return 1;
  }
  const onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0,
                                            /*enable_data_propagation=*/true};
  try {
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "onnx_ref_infer: %s\n", e.what());
    return 1;
  }
  // Read the result so that the work cannot be skipped.
  return model.graph().value_info_size() >= 0 ? 0 : 1;
}
