// A user of the precompiled mode (symshape::compiled): this translation unit
// sees only the declaration of infer_shapes (SYMSHAPE_COMPILED), which the
// library defines; it infers a small model and checks the result, then has
// infer_api.cpp (which includes only symshape/api.hpp) infer another.
#include <cstddef>
#include <cstdio>
#include <string>

#include "symshape/symshape.hpp"

#ifndef SYMSHAPE_COMPILED
#error "symshape::compiled must define SYMSHAPE_COMPILED for its users"
#endif

std::size_t errors_after_inference(symshape::Model& model);  // infer_api.cpp

int main() {
  using namespace symshape;
  Model model;
  model.opset_imports[""] = 17;
  GraphBuilder b(*model.graph);
  b.input("x", Type::tensor(DataType::FLOAT, Shape({"batch", 4})));
  b.node("Transpose", {"x"}, {"t"}, {Attribute::make_ints("perm", {1, 0})});
  b.node("Relu", {"t"}, {"y"});
  b.output("y");
  const Report report = infer_shapes(model);
  const std::string got = model.graph->find("y")->type.to_string();
  if (!report.ok() || got != "float[4,batch]") {
    std::printf("FAIL: y is %s, %zu errors\n", got.c_str(), report.errors());
    return 1;
  }
  Model bad;  // Add of [2] and [3]: not broadcastable
  bad.opset_imports[""] = 17;
  GraphBuilder bb(*bad.graph);
  bb.input("a", Type::tensor(DataType::FLOAT, Shape({2})));
  bb.input("c", Type::tensor(DataType::FLOAT, Shape({3})));
  bb.node("Add", {"a", "c"}, {"s"});
  bb.output("s");
  if (errors_after_inference(bad) != 1) {
    std::printf("FAIL: infer_api.cpp's inference found no error in Add([2], [3])\n");
    return 1;
  }
  std::printf("consumer_compiled: ok\n");
  return 0;
}
