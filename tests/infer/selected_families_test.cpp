// Op-family selection (registry.hpp merge_rules): a table merged from chosen
// families infers their operators and reports the others as having no rule,
// in a translation unit that compiles only those families.
#include <gtest/gtest.h>

#include <string>

#include "symshape/infer/engine.hpp"
#include "symshape/ir/builder.hpp"
#include "symshape/ops/conv.hpp"
#include "symshape/ops/elementwise.hpp"
#include "symshape/ops/reshape.hpp"
#include "symshape/ops/schemas.hpp"

namespace {

using namespace symshape;

inline constexpr auto kSelected = merge_rules(ops::kConvRules, ops::kElementwiseRules, ops::kReshapeRules);
static_assert(valid_rule_table(kSelected), "three disjoint families make a valid table");
static_assert(kSelected.size() == ops::kConvRules.size() + ops::kElementwiseRules.size() + ops::kReshapeRules.size(),
              "every entry of each family is kept");
// Two copies of one family repeat every key.
static_assert(!valid_rule_table(merge_rules(ops::kConvRules, ops::kConvRules)), "a repeated family is refused");

Type tensor(std::initializer_list<SymbolicDim> dims) { return Type::tensor(DataType::FLOAT, Shape(dims)); }

// x[N,3,8,8] -Conv-> c -Add(c, c)-> a -Reshape([0,-1])-> flat -MatMul(flat, w)-> y -Relu-> z
Model cnn() {
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder b(*m.graph);
  b.input("x", tensor({"N", 3, 8, 8}));
  b.input("w", tensor({256, 10}));
  b.initializer("k", Tensor::floats(std::vector<double>(4 * 3 * 3 * 3, 1.0), {4, 3, 3, 3}));
  b.initializer("shape", Tensor::vector({0, -1}));
  b.node("Conv", {"x", "k"}, {"c"}, {Attribute::make_ints("pads", {1, 1, 1, 1})}, "", "conv");
  b.node("Add", {"c", "c"}, {"a"}, {}, "", "add");
  b.node("Reshape", {"a", "shape"}, {"flat"}, {}, "", "flatten");
  b.node("MatMul", {"flat", "w"}, {"y"}, {}, "", "classifier");
  b.node("Relu", {"y"}, {"z"}, {}, "", "relu");
  b.output("z");
  return m;
}

TEST(SelectedFamilies, TheirOperatorsAreInferred) {
  Model m = cnn();
  const Report r = infer_shapes_with(kSelected, m, {}, ops::kSchemas);
  EXPECT_EQ(m.graph->find("c")->type, tensor({"N", 4, 8, 8}));
  EXPECT_EQ(m.graph->find("a")->type, tensor({"N", 4, 8, 8}));
  EXPECT_EQ(m.graph->find("flat")->type, tensor({"N", 256}));
  EXPECT_EQ(r.errors(), 0u);
}

TEST(SelectedFamilies, OtherOperatorsHaveNoRule) {
  Model m = cnn();
  const Report r = infer_shapes_with(kSelected, m, {}, ops::kSchemas);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.kind, DiagnosticKind::MissingRule);
    EXPECT_EQ(d.severity, Severity::Warning);
  }
  EXPECT_EQ(r.diagnostics[0].node, "classifier");
  EXPECT_EQ(r.diagnostics[0].message, "no shape rule for ai.onnx::MatMul at opset 17; outputs left unknown");
  EXPECT_EQ(r.diagnostics[1].node, "relu");
  EXPECT_EQ(r.diagnostics[1].message, "no shape rule for ai.onnx::Relu at opset 17; outputs left unknown");
  EXPECT_TRUE(m.graph->find("y")->type.is_unknown());
  EXPECT_TRUE(m.graph->find("z")->type.is_unknown());
}

TEST(SelectedFamilies, LookupFindsOnlyTheSelectedOperators) {
  EXPECT_EQ(resolve_rule(kSelected, "", "Conv", 17).fn, &ops::infer_conv);
  EXPECT_EQ(resolve_rule(kSelected, "", "Reshape", 17).since_version, 14);
  EXPECT_FALSE(resolve_rule(kSelected, "", "MatMul", 17));
  EXPECT_FALSE(resolve_rule(kSelected, "", "Relu", 17));
}

}  // namespace
