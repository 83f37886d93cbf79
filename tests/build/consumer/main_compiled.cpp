// A user of the precompiled mode (symshape::compiled): this translation unit
// sees only the declaration of infer_shapes (SYMSHAPE_COMPILED), which the
// library defines; it infers a small model and checks the result.
#include <cstdio>
#include <string>

#include "symshape/symshape.hpp"

#ifndef SYMSHAPE_COMPILED
#error "symshape::compiled must define SYMSHAPE_COMPILED for its users"
#endif

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
  std::printf("consumer_compiled: ok\n");
  return 0;
}
