// End to end: shape arithmetic through Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape (and friends) yields exact symbolic shapes.
#include "op_test_util.hpp"

namespace {

Attribute axis0() { return attr("axis", int64_t{0}); }

// x:[B,T,768]; b = Gather(Shape(x), 0), t = Gather(Shape(x), 1) as scalars
// and as 1-element vectors (Unsqueeze with axes input, opset 13+).
void add_dims(GraphBuilder& g) {
  g.input("x", ts(FLOAT, {"B", "T", 768}));
  g.initializer("i0", Tensor::scalar(0));
  g.initializer("i1", Tensor::scalar(1));
  g.initializer("ax0", Tensor::vector({0}));
  g.node("Shape", {"x"}, {"shape"});
  g.node("Gather", {"shape", "i0"}, {"b"}, {axis0()});
  g.node("Gather", {"shape", "i1"}, {"t"}, {axis0()});
  g.node("Unsqueeze", {"b", "ax0"}, {"b1"});
  g.node("Unsqueeze", {"t", "ax0"}, {"t1"});
}

const Value* find(const Model& m, const std::string& name) { return m.graph->find(name); }

}  // namespace

TEST(DataPropagation, ShapeGatherUnsqueezeConcatReshape) {
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  add_dims(g);
  g.initializer("heads", Tensor::vector({12, 64}));
  g.node("Concat", {"b1", "t1", "heads"}, {"target"}, {axis0()});
  g.node("Reshape", {"x", "target"}, {"y"});
  g.output("y");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(find(m, "b")->type, ts(INT64, {}));
  EXPECT_EQ(find(m, "target")->type, ts(INT64, {4}));
  ASSERT_TRUE(find(m, "target")->symbolic_value);
  EXPECT_EQ(*find(m, "target")->symbolic_value, (std::vector<SymbolicDim>{"B", "T", 12, 64}));
  EXPECT_EQ(find(m, "y")->type, ts(FLOAT, {"B", "T", 12, 64}));
}

TEST(DataPropagation, DivOfGatheredDimAndMinusOne) {
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  add_dims(g);
  g.initializer("two", Tensor::vector({2}));
  g.initializer("minus1", Tensor::vector({-1}));
  g.node("Div", {"t1", "two"}, {"half"});
  g.node("Concat", {"b1", "half", "minus1"}, {"target"}, {axis0()});
  g.node("Reshape", {"x", "target"}, {"y"});
  g.output("y");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  // The -1 dim is 768*T//(T//2): 1536 for even T, but e.g. 2304 for T = 3
  // (a valid reshape of [B,3,768] to [B,1,2304]), so it is not folded to 1536.
  EXPECT_EQ(find(m, "y")->type, ts(FLOAT, {"B", "T//2", "768*T//(T//2)"}));
}

TEST(DataPropagation, DivOfEvenDim) {
  // With an even sequence dim (2*S), T//2 = S and -1 is exactly 1536.
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"B", "2*S", 768}));
  g.initializer("i1", Tensor::scalar(1));
  g.initializer("i0", Tensor::scalar(0));
  g.initializer("ax0", Tensor::vector({0}));
  g.initializer("two", Tensor::scalar(2));
  g.initializer("minus1", Tensor::vector({-1}));
  g.node("Shape", {"x"}, {"shape"});
  g.node("Gather", {"shape", "i0"}, {"b"}, {axis0()});
  g.node("Gather", {"shape", "i1"}, {"t"}, {axis0()});
  g.node("Div", {"t", "two"}, {"half"});
  g.node("Unsqueeze", {"b", "ax0"}, {"b1"});
  g.node("Unsqueeze", {"half", "ax0"}, {"h1"});
  g.node("Concat", {"b1", "h1", "minus1"}, {"target"}, {axis0()});
  g.node("Reshape", {"x", "target"}, {"y"});
  g.output("y");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(find(m, "y")->type, ts(FLOAT, {"B", "S", 1536}));
}

TEST(DataPropagation, SliceOfShapeAndConstantOfShape) {
  Model m;
  m.opset_imports[""] = 13;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"B", "T", 768}));
  g.initializer("s0", Tensor::vector({0}));
  g.initializer("s2", Tensor::vector({2}));
  g.node("Shape", {"x"}, {"shape"});
  g.node("Slice", {"shape", "s0", "s2"}, {"bt"});
  g.node("ConstantOfShape", {"bt"}, {"mask"});
  g.node("Expand", {"x", "shape"}, {"xe"});
  g.output("mask");
  g.output("xe");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(find(m, "bt")->type, ts(INT64, {2}));
  EXPECT_EQ(find(m, "mask")->type, ts(FLOAT, {"B", "T"}));
  EXPECT_EQ(find(m, "xe")->type, ts(FLOAT, {"B", "T", 768}));
}

TEST(DataPropagation, RangeOverGatheredDim) {
  Model m;
  m.opset_imports[""] = 13;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"B", "T", 768}));
  g.initializer("i1", Tensor::scalar(1));
  g.initializer("zero", Tensor::scalar(0));
  g.initializer("one", Tensor::scalar(1));
  g.node("Shape", {"x"}, {"shape"});
  g.node("Gather", {"shape", "i1"}, {"t"}, {axis0()});
  g.node("Range", {"zero", "t", "one"}, {"pos"});
  g.output("pos");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(find(m, "pos")->type, ts(INT64, {"T"}));
}

TEST(DataPropagation, ConcatOfPastAndNew) {
  Model m;
  m.opset_imports[""] = 13;
  GraphBuilder g(*m.graph);
  g.input("past", ts(FLOAT, {"B", 12, "P", 64}));
  g.input("new", ts(FLOAT, {"B", 12, "S", 64}));
  g.node("Concat", {"past", "new"}, {"kv"}, {attr("axis", int64_t{2})});
  g.node("Shape", {"kv"}, {"kvs"});
  g.initializer("i2", Tensor::scalar(2));
  g.node("Gather", {"kvs", "i2"}, {"total"}, {axis0()});
  g.node("Cast", {"total"}, {"total32"}, {attr("to", int64_t{6})});
  g.node("Identity", {"total32"}, {"total_id"});
  g.output("kv");
  g.output("total_id");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(find(m, "kv")->type, ts(FLOAT, {"B", 12, "P+S", 64}));
  ASSERT_TRUE(find(m, "total_id")->symbolic_value);
  EXPECT_EQ(*find(m, "total_id")->symbolic_value, (std::vector<SymbolicDim>{"P+S"}));
  EXPECT_EQ(find(m, "total_id")->type, ts(INT32, {}));
}
