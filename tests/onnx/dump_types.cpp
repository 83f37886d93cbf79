// Test helper for the command tests: checks an ONNX file with ONNX's own
// checker (onnx::checker::check_model), then prints one line per typed value
// of the main graph: "input|value|output NAME: ELEM[d0,d1,...]", with
// dim_value as integers, dim_param as written and '?' for anonymous dims.
// Exit 1 with a message if the file is not accepted by the checker.
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <exception>
#include <string>

#include "symshape/onnx/proto.hpp"

namespace {
std::string type_text(const ::onnx::TypeProto& t) {
  if (!t.has_tensor_type()) return "(not a tensor)";
  std::string out = std::to_string(t.tensor_type().elem_type());
  if (!t.tensor_type().has_shape()) return out + "?";
  out += "[";
  bool first = true;
  for (const auto& d : t.tensor_type().shape().dim()) {
    if (!first) out += ",";
    first = false;
    out += d.has_dim_value() ? std::to_string(d.dim_value()) : d.has_dim_param() ? d.dim_param() : "?";
  }
  return out + "]";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: onnx_dump_types MODEL.onnx\n", stderr);
    return 2;
  }
  symshape::Result<::onnx::ModelProto> m = symshape::onnx::read_model_proto(argv[1]);
  if (!m) {
    std::fprintf(stderr, "%s\n", m.error().c_str());
    return 1;
  }
  try {
    ::onnx::checker::check_model(*m);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "checker: %s\n", e.what());
    return 1;
  }
  const auto& g = m->graph();
  for (const auto& v : g.input()) std::printf("input %s: %s\n", v.name().c_str(), type_text(v.type()).c_str());
  for (const auto& v : g.value_info()) std::printf("value %s: %s\n", v.name().c_str(), type_text(v.type()).c_str());
  for (const auto& v : g.output()) std::printf("output %s: %s\n", v.name().c_str(), type_text(v.type()).c_str());
  return 0;
}
