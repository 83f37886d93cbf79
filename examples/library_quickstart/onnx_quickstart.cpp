// The ONNX part of docs/library.md (its snippets come from this file, kept in
// sync by hand): load an .onnx file, infer, write the inferred types back
// into the file's ModelProto and save it. Needs the ONNX adapter
// (include/symshape/onnx/), so it links onnx_proto and protobuf.
// The ctest test example_library_quickstart_onnx runs it on
// examples/models/small_cnn.onnx and compares the output with
// expected_onnx_output.txt.
//
//   onnx_quickstart MODEL.onnx OUT.onnx   (MODEL has a value named `logits`)
#include <cstdio>
#include <string>

// [includes]
#include "symshape/onnx/proto.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"
// [includes]

using namespace symshape;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: onnx_quickstart MODEL.onnx OUT.onnx\n");
    return 2;
  }
  const std::string path = argv[1], out_path = argv[2];

  {
    // [load]
    Result<Model> model = symshape::onnx::load_model_file(path);  // nothing throws: errors are values
    if (!model) {
      std::fprintf(stderr, "%s\n", model.error().c_str());  // names the file, node and value
      return 1;
    }
    Report report = infer_shapes(model.value());
    std::printf("logits: %s\n", model->graph->find("logits")->type.to_string().c_str());
    // [load]
    if (!report.ok()) return 1;
  }

  // [save]
  Result<::onnx::ModelProto> proto = symshape::onnx::read_model_proto(path);
  if (!proto) {
    std::fprintf(stderr, "%s\n", proto.error().c_str());
    return 1;
  }
  Result<Model> model = symshape::onnx::load_model_proto(*proto);
  if (!model) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), model.error().c_str());
    return 1;
  }

  Report report = infer_shapes(model.value());
  symshape::onnx::write_inferred_types(*model, proto.value());  // value_info for every value, graph output types
  Result<bool> saved = symshape::onnx::save_model_file(*proto, out_path);  // atomic: OUT.tmp, then renamed
  if (!saved) {
    std::fprintf(stderr, "%s\n", saved.error().c_str());
    return 1;
  }
  // [save]
  if (!report.ok()) return 1;

  // The saved file carries the types: they load as existing types.
  Result<Model> again = symshape::onnx::load_model_file(out_path);
  if (!again) {
    std::fprintf(stderr, "%s\n", again.error().c_str());
    return 1;
  }
  for (const Value* v : again->graph->values)
    if (!v->initializer) std::printf("%-6s %s\n", v->name.c_str(), v->type.to_string().c_str());
  return 0;
}
