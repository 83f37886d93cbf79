// Op-family selection for embedded builds (docs/library.md, "Choosing op
// families"): only the conv, unary and reshape families are compiled into
// this program; the rule table is merged from them at compile time. Their
// operators are inferred; MatMul, of a family left out, is reported as having
// no rule and its output stays unknown.
//
//   x[N,3,32,32] --Conv(8x3x3x3, pads 1)--> c[N,8,32,32] --Relu--> r
//                --Reshape([0,-1])--------> flat[N,8192] --MatMul(w)--> y (no rule)
#include <cstdio>

#include "symshape/infer/engine.hpp"
#include "symshape/ir/builder.hpp"
#include "symshape/ops/conv.hpp"
#include "symshape/ops/reshape.hpp"
#include "symshape/ops/schemas.hpp"
#include "symshape/ops/unary.hpp"

using namespace symshape;

// [select]
inline constexpr auto kSelectedRules = merge_rules(ops::kConvRules, ops::kUnaryRules, ops::kReshapeRules);
static_assert(valid_rule_table(kSelectedRules), "the families overlap");
// [select]

int main() {
  Model model;
  model.opset_imports[""] = 17;
  GraphBuilder b(*model.graph);
  b.input("x", Type::tensor(DataType::FLOAT, Shape({"N", 3, 32, 32})));
  b.input("w", Type::tensor(DataType::FLOAT, Shape({8 * 32 * 32, 10})));
  b.initializer("k", Tensor::floats(std::vector<double>(8 * 3 * 3 * 3, 0.5), {8, 3, 3, 3}));
  b.initializer("shape", Tensor::vector({0, -1}));
  b.node("Conv", {"x", "k"}, {"c"}, {Attribute::make_ints("pads", {1, 1, 1, 1})}, "", "conv");
  b.node("Relu", {"c"}, {"r"}, {}, "", "relu");
  b.node("Reshape", {"r", "shape"}, {"flat"}, {}, "", "flatten");
  b.node("MatMul", {"flat", "w"}, {"y"}, {}, "", "classifier");
  b.output("y");

  // [infer]
  const Report report = infer_shapes_with(kSelectedRules, model, InferenceOptions(), ops::kSchemas);
  // [infer]
  for (const char* name : {"c", "r", "flat", "y"})
    std::printf("%-5s %s\n", name, model.graph->find(name)->type.to_string().c_str());
  for (const Diagnostic& d : report.diagnostics)
    std::printf("%s node '%s': %s\n", d.severity == Severity::Error ? "error" : "warning", d.node.c_str(),
                d.message.c_str());
  return report.ok() ? 0 : 1;
}
