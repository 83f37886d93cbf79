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

// ---- values of any rank, comparisons, logic ----

namespace {

using V = std::vector<SymbolicDim>;

// The one output value of a run, or an empty optional.
const std::optional<V>& value0(const RunResult& r) { return r.values[0]; }

Attribute fill(int64_t v) { return Attribute::make_tensor("value", Tensor::ints({v}, {1})); }

}  // namespace

TEST(DataPropagationValues, ComparisonsOfDimsAreDecidedByTheProver) {
  // Dims are >= 0: a dim is never -1, a+1 > a; a vs 3 is undecided.
  const In dims = sym_value(ts(INT64, {3}), {"a", -1, "a+1"});
  const In minus1 = constant(Tensor::vector({-1, -1, -1}));
  EXPECT_EQ(value0(Op("Equal").opset(13).run({dims, minus1})), (V{0, 1, 0}));
  EXPECT_EQ(value0(Op("Less").opset(13).run({dims, minus1})), (V{0, 0, 0}));
  EXPECT_EQ(value0(Op("Greater").opset(13).run({dims, minus1})), (V{1, 0, 1}));
  EXPECT_EQ(value0(Op("GreaterOrEqual").opset(16).run({dims, minus1})), (V{1, 1, 1}));
  EXPECT_EQ(value0(Op("LessOrEqual").opset(16).run({dims, minus1})), (V{0, 1, 0}));
  const In a = sym_value(ts(INT64, {1}), {"a"});
  EXPECT_EQ(value0(Op("Less").opset(13).run({a, sym_value(ts(INT64, {1}), {"a+1"})})), (V{1}));
  EXPECT_EQ(value0(Op("Equal").opset(13).run({a, sym_value(ts(INT64, {1}), {"a"})})), (V{1}));
  // Undecided: an unknown element, never a guess.
  const V unknown{SymbolicDim()};
  EXPECT_EQ(value0(Op("Equal").opset(13).run({a, constant(Tensor::vector({3}))})), unknown);
  EXPECT_EQ(value0(Op("Less").opset(13).run({a, constant(Tensor::vector({3}))})), unknown);
  EXPECT_EQ(value0(Op("Equal").opset(13).run({dims, constant(Tensor::vector({3}))})),
            (V{SymbolicDim(), 0, SymbolicDim()}));
  // a >= 0 is known, a >= 1 is not.
  EXPECT_EQ(value0(Op("GreaterOrEqual").opset(16).run({a, constant(Tensor::vector({0}))})), (V{1}));
  EXPECT_EQ(value0(Op("Greater").opset(13).run({a, constant(Tensor::vector({0}))})), unknown);
}

TEST(DataPropagationValues, LogicOnKnownBooleans) {
  const In p = sym_value(ts(BOOL, {4}), {1, 1, 0, 0});
  const In q = sym_value(ts(BOOL, {4}), {1, 0, 1, 0});
  EXPECT_EQ(value0(Op("And").opset(7).run({p, q})), (V{1, 0, 0, 0}));
  EXPECT_EQ(value0(Op("Or").opset(7).run({p, q})), (V{1, 1, 1, 0}));
  EXPECT_EQ(value0(Op("Xor").opset(7).run({p, q})), (V{0, 1, 1, 0}));
  EXPECT_EQ(value0(Op("Not").opset(1).run({p})), (V{0, 0, 1, 1}));
  // An unknown element: And decides where the other side is false.
  EXPECT_EQ(value0(Op("And").opset(7).run({p, sym_value(ts(BOOL, {4}), {1, SymbolicDim(), 1, 0})})),
            (V{1, SymbolicDim(), 0, 0}));
}

TEST(DataPropagationValues, ArithmeticBroadcastsValuesOfRank2) {
  // [2,1] + [1,2] -> [2,2], row-major.
  RunResult r =
      Op("Add").opset(14).run({sym_value(ts(INT64, {2, 1}), {"a", "b"}), constant(Tensor::ints({1, 2}, {1, 2}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2, 2}));
  EXPECT_EQ(value0(r), (V{"a+1", "a+2", "b+1", "b+2"}));
  // Shapes that do not broadcast give no value (and an error).
  EXPECT_FALSE(
      value0(Op("Mul").opset(14).run({sym_value(ts(INT64, {2}), {1, 2}), constant(Tensor::vector({1, 2, 3}))})));
}

TEST(DataPropagationValues, WhereOfRank2WithAPartlyKnownCondition) {
  RunResult r =
      Op("Where").opset(16).run({sym_value(ts(BOOL, {2, 1}), {1, 0}), sym_value(ts(INT64, {1, 2}), {"a", "b"}),
                                 sym_value(ts(INT64, {2, 2}), {1, 2, 3, 4})});
  EXPECT_EQ(value0(r), (V{"a", "b", 3, 4}));
  // An unknown condition element picks nothing unless both sides agree.
  RunResult u = Op("Where").opset(16).run({sym_value(ts(BOOL, {2}), {SymbolicDim(), SymbolicDim()}),
                                           sym_value(ts(INT64, {2}), {"a", 5}), sym_value(ts(INT64, {2}), {"a", 6})});
  ASSERT_TRUE(value0(u));
  EXPECT_EQ((*value0(u))[0], SymbolicDim("a"));
  EXPECT_TRUE((*value0(u))[1].is_unknown());
}

TEST(DataPropagationValues, SliceOfRank2WithNegativeStepToInt64Min) {
  // torch's F.pad: pairs [4,2] reversed with Slice(-1, INT64_MIN+1, axis 0, step -1).
  const In pairs = sym_value(ts(INT64, {4, 2}), {"a", "b", 1, 2, 3, 4, 5, 6});
  RunResult r =
      Op("Slice").opset(13).run({pairs, constant(Tensor::vector({-1})), constant(Tensor::vector({INT64_MIN + 1})),
                                 constant(Tensor::vector({0})), constant(Tensor::vector({-1}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {4, 2}));
  EXPECT_EQ(value0(r), (V{5, 6, 3, 4, 1, 2, "a", "b"}));
  // Along axis 1, from 1 to INT64_MAX: the second column.
  RunResult c = Op("Slice").opset(13).run(
      {pairs, constant(Tensor::vector({1})), constant(Tensor::vector({INT64_MAX})), constant(Tensor::vector({1}))});
  EXPECT_EQ(c.outputs[0], ts(INT64, {4, 1}));
  EXPECT_EQ(value0(c), (V{"b", 2, 4, 6}));
  // Rows 1..3 step 2 of a [4,2] value: only row 1.
  RunResult s = Op("Slice").opset(13).run({pairs, constant(Tensor::vector({1})), constant(Tensor::vector({3})),
                                           constant(Tensor::vector({0})), constant(Tensor::vector({2}))});
  EXPECT_EQ(value0(s), (V{1, 2}));
}

TEST(DataPropagationValues, TransposeConcatGatherOnAnyAxis) {
  const In m = sym_value(ts(INT64, {2, 3}), {"a", "b", "c", 1, 2, 3});
  RunResult t = Op("Transpose").opset(13).run({m}, {attr("perm", I64s{1, 0})});
  EXPECT_EQ(t.outputs[0], ts(INT64, {3, 2}));
  EXPECT_EQ(value0(t), (V{"a", 1, "b", 2, "c", 3}));
  RunResult c = Op("Concat").opset(13).run({m, sym_value(ts(INT64, {2, 1}), {7, 8})}, {attr("axis", int64_t{1})});
  EXPECT_EQ(c.outputs[0], ts(INT64, {2, 4}));
  EXPECT_EQ(value0(c), (V{"a", "b", "c", 7, 1, 2, 3, 8}));
  RunResult g = Op("Gather").opset(13).run({m, constant(Tensor::vector({2, -3}))}, {attr("axis", int64_t{1})});
  EXPECT_EQ(g.outputs[0], ts(INT64, {2, 2}));
  EXPECT_EQ(value0(g), (V{"c", "a", 3, 1}));
  EXPECT_ERROR(Op("Gather").opset(13).run({m, constant(Tensor::vector({3}))}, {attr("axis", int64_t{1})}).report,
               "out of range");
}

TEST(DataPropagationValues, ReduceOverOneAxisOfRank2) {
  const In m = sym_value(ts(INT64, {2, 3}), {"a", "b", "c", 1, 2, 3});
  RunResult p = Op("ReduceProd").opset(13).run({m}, {attr("axes", I64s{1}), attr("keepdims", int64_t{0})});
  EXPECT_EQ(value0(p), (V{"a*b*c", 6}));
  RunResult s = Op("ReduceSum").opset(13).run({m, constant(Tensor::vector({0}))});
  EXPECT_EQ(s.outputs[0], ts(INT64, {1, 3}));
  EXPECT_EQ(value0(s), (V{"a+1", "b+2", "c+3"}));
  RunResult mx = Op("ReduceMax").opset(18).run({m, constant(Tensor::vector({0}))}, {attr("keepdims", int64_t{0})});
  EXPECT_EQ(value0(mx), (V{"max(1,a)", "max(2,b)", "max(3,c)"}));
  // The prover settles what the bounds leave open: h//2 >= (h-1)//2.
  const In h = sym_value(ts(INT64, {2}), {"(h-1)//2", "h//2"});
  EXPECT_EQ(value0(Op("ReduceMax").opset(18).run({h}, {attr("keepdims", int64_t{0})})), (V{"h//2"}));
  EXPECT_EQ(value0(Op("ReduceMin").opset(18).run({h}, {attr("keepdims", int64_t{0})})), (V{"(h-1)//2"}));
}

// ---- fractional float values ----

TEST(DataPropagationFractions, ConstantCastMulFloorGivesExactFloor) {
  // floor(float(a) * 2.5) = (5*a)//2; ceil = (5*a+1)//2.
  RunResult c = Op("Constant").opset(13).run({}, {attr("value_float", 2.5)});
  ASSERT_TRUE(c.fractions[0]);
  EXPECT_EQ(c.fractions[0]->num, (V{5}));
  EXPECT_EQ(c.fractions[0]->den, 2);
  RunResult cast = Op("Cast").opset(13).run({sym_value(ts(INT64, {}), {"a"})}, {attr("to", int64_t{1})});
  EXPECT_EQ(value0(cast), (V{"a"}));
  RunResult mul = Op("Mul").opset(14).run({sym_value(ts(FLOAT, {}), {"a"}), constant(Tensor::floats({2.5}, {}))});
  ASSERT_TRUE(mul.fractions[0]);
  EXPECT_EQ(mul.fractions[0]->num, (V{"5*a"}));
  EXPECT_EQ(mul.fractions[0]->den, 2);
  EXPECT_FALSE(value0(mul));  // not a whole number: no integer value
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3, "H", "W"}));
  g.initializer("i2", Tensor::scalar(2));
  g.node("Shape", {"x"}, {"shape"});
  g.node("Gather", {"shape", "i2"}, {"h"}, {axis0()});
  g.node("Cast", {"h"}, {"hf"}, {attr("to", int64_t{1})});
  g.node("Constant", {}, {"scale"}, {attr("value_float", 2.5)});
  g.node("Mul", {"hf", "scale"}, {"scaled"});
  g.node("Cast", {"scaled"}, {"scaled2"}, {attr("to", int64_t{11})});
  g.node("Floor", {"scaled2"}, {"fl"});
  g.node("Ceil", {"scaled2"}, {"ce"});
  g.node("Cast", {"scaled"}, {"trunc"}, {attr("to", int64_t{7})});
  for (const char* o : {"fl", "ce", "trunc"}) g.output(o);
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(*find(m, "fl")->symbolic_value, (V{"(5*H)//2"}));
  EXPECT_EQ(*find(m, "ce")->symbolic_value, (V{"(5*H+1)//2"}));
  EXPECT_EQ(*find(m, "trunc")->symbolic_value, (V{"(5*H)//2"}));
}

TEST(DataPropagationFractions, DivByThreeAndInexactFloats) {
  RunResult d = Op("Div").opset(14).run({sym_value(ts(FLOAT, {2}), {"a", 4}), constant(Tensor::floats({3, -2}, {2}))});
  ASSERT_TRUE(d.fractions[0]);
  // (2*a, -12) / 6, reduced by the gcd of every coefficient.
  EXPECT_EQ(d.fractions[0]->num, (V{"a", -6}));
  EXPECT_EQ(d.fractions[0]->den, 3);
  RunResult f = Op("Floor").opset(13).run({sym_value(ts(FLOAT, {}), {"a"})});
  EXPECT_EQ(value0(f), (V{"a"}));
  // 0.1 is no p/2^k with k <= 10: no value, not a guess.
  RunResult t = Op("Constant").opset(13).run({}, {attr("value_float", 0.1)});
  EXPECT_FALSE(value0(t));
  EXPECT_FALSE(t.fractions[0]);
  // Integer ops never see fractions.
  EXPECT_FALSE(value0(Op("Mul").opset(14).run({sym_value(ts(FLOAT, {}), {"a"}), constant(Tensor::floats({0.1}, {}))})));
}

TEST(DataPropagationFractions, ResizeScalesFromAConstantNode) {
  // F.interpolate(scale_factor=2) with the scales in a Constant node, and
  // 2.5 / 0.5 / 1/3 scales.
  auto resize = [](std::vector<double> scales) {
    Model m;
    m.opset_imports[""] = 13;
    GraphBuilder g(*m.graph);
    g.input("x", ts(FLOAT, {"N", 3, "H", "W"}));
    g.node("Constant", {}, {"scales"}, {Attribute::make_tensor("value", Tensor::floats(std::move(scales), {4}))});
    g.node("Resize", {"x", "", "scales"}, {"y"});
    g.output("y");
    infer_shapes(m);
    return m.graph->find("y")->type;
  };
  EXPECT_EQ(resize({1, 1, 2, 2}), ts(FLOAT, {"N", 3, "2*H", "2*W"}));
  EXPECT_EQ(resize({1, 1, 2.5, 0.5}), ts(FLOAT, {"N", 3, "(5*H)//2", "W//2"}));
  // 1/3 is not exact in binary: the scales are not known, and the dims are
  // fresh symbols (no guess such as H//3).
  EXPECT_EQ(resize({1, 1, 1.0f / 3.0f, 1}).to_string(), "float[_d0,_d1,_d2,_d3]");
}

TEST(DataPropagationFractions, CastKeepsOrTruncatesFractions) {
  const In neg = constant(Tensor::floats({-2.5, 1.5}, {2}));
  RunResult d = Op("Cast").opset(13).run({neg}, {attr("to", int64_t{11})});
  ASSERT_TRUE(d.fractions[0]);
  EXPECT_EQ(d.fractions[0]->num, (V{-5, 3}));
  EXPECT_EQ(d.fractions[0]->den, 2);
  // A cast to an integer type truncates toward zero: -2.5 is -2, not floor's -3.
  EXPECT_EQ(value0(Op("Cast").opset(13).run({neg}, {attr("to", int64_t{7})})), (V{-2, 1}));
  EXPECT_EQ(value0(Op("Cast").opset(13).run({constant(Tensor::floats({2.5, 1.75}, {2}))}, {attr("to", int64_t{7})})),
            (V{2, 1}));
}

TEST(DataPropagationFractions, ConcatOfScalesBringsThemToOneDenominator) {
  RunResult c = Op("Concat").opset(13).run(
      {constant(Tensor::floats({1, 1}, {2})), constant(Tensor::floats({2.5, 0.25}, {2}))}, {axis0()});
  ASSERT_TRUE(c.fractions[0]);
  EXPECT_EQ(c.fractions[0]->num, (V{4, 4, 10, 1}));
  EXPECT_EQ(c.fractions[0]->den, 4);
}

TEST(DataPropagationFractions, ConcatOfEveryKindOfInput) {
  // Propagated values (a Constant node's fractions and whole numbers, read
  // where they are stored), an initializer's data (converted) and an input of
  // static shape without a value (an unknown element), along axis 1 of [2,k].
  Model m;
  m.opset_imports[""] = 13;
  GraphBuilder g(*m.graph);
  g.input("u", ts(FLOAT, {2, 1}));
  g.initializer("quarters", Tensor::floats({0.25, -1.75}, {2, 1}));
  g.node("Constant", {}, {"halves"}, {attr_floats("value_floats", {1.5, -0.5})});
  g.node("Constant", {}, {"whole"}, {attr_floats("value_floats", {2, 3})});
  g.initializer("rows", Tensor::vector({2, 1}));
  g.node("Reshape", {"halves", "rows"}, {"halves21"});
  g.node("Reshape", {"whole", "rows"}, {"whole21"});
  g.node("Concat", {"halves21", "whole21", "quarters", "u"}, {"all"}, {attr("axis", int64_t{1})});
  g.output("all");
  const Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  const Value* all = find(m, "all");
  EXPECT_EQ(all->type, ts(FLOAT, {2, 4}));
  ASSERT_TRUE(all->fraction);
  // Row by row: 1.5, 2, 0.25, ? and -0.5, 3, -1.75, ?, in quarters.
  EXPECT_EQ(all->fraction->num, (V{6, 8, 1, SymbolicDim(), -2, 12, -7, SymbolicDim()}));
  EXPECT_EQ(all->fraction->den, 4);
  // The inputs' stored values are untouched by the scaling.
  ASSERT_TRUE(find(m, "whole21")->symbolic_value);
  EXPECT_EQ(*find(m, "whole21")->symbolic_value, (V{2, 3}));
  ASSERT_TRUE(find(m, "halves21")->fraction);
  EXPECT_EQ(find(m, "halves21")->fraction->num, (V{3, -1}));
}

// ---- torch.onnx.export patterns, node by node ----

TEST(DataPropagationPatterns, TorchExpandWithMinusOne) {
  // x.expand(y.shape[0], -1, y.shape[1]): Where(Equal(shape, ConstantOfShape*-1), ones, shape).
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {1, "c", 1}));
  g.input("y", ts(FLOAT, {"a", "b"}));
  g.initializer("i0", Tensor::scalar(0));
  g.initializer("i1", Tensor::scalar(1));
  g.initializer("ax0", Tensor::vector({0}));
  g.initializer("minus1", Tensor::vector({-1}));
  g.initializer("m1", Tensor::scalar(-1));
  g.node("Shape", {"y"}, {"sy"});
  g.node("Gather", {"sy", "i0"}, {"a"}, {axis0()});
  g.node("Gather", {"sy", "i1"}, {"b"}, {axis0()});
  g.node("Unsqueeze", {"a", "ax0"}, {"a1"});
  g.node("Unsqueeze", {"b", "ax0"}, {"b1"});
  g.node("Concat", {"a1", "minus1", "b1"}, {"shape"}, {axis0()});
  g.node("Shape", {"shape"}, {"len"});
  g.node("ConstantOfShape", {"len"}, {"ones"}, {fill(1)});
  g.node("Mul", {"ones", "m1"}, {"neg"});
  g.node("Equal", {"shape", "neg"}, {"eq"});
  g.node("Where", {"eq", "ones", "shape"}, {"target"});
  g.node("Expand", {"x", "target"}, {"out"});
  g.output("out");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  EXPECT_EQ(*find(m, "eq")->symbolic_value, (V{0, 1, 0}));
  EXPECT_EQ(*find(m, "target")->symbolic_value, (V{"a", 1, "b"}));
  EXPECT_EQ(find(m, "out")->type, ts(FLOAT, {"a", "c", "b"}));
}

TEST(DataPropagationPatterns, TorchPadPairsReversedTransposedReshaped) {
  // F.pad(x, (0, (8 - W % 8) % 8, 1, 2)): pads [0, p, 1, 2, 0, 0, 0, 0] as
  // [4,2], rows reversed, transposed, flattened, cast.
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3, "H", "W"}));
  g.initializer("i3", Tensor::scalar(3));
  g.initializer("ax0", Tensor::vector({0}));
  g.initializer("eight", Tensor::scalar(8));
  g.initializer("zero", Tensor::vector({0}));
  g.initializer("rest", Tensor::vector({1, 2}));
  g.initializer("four", Tensor::vector({4}));
  g.initializer("shape42", Tensor::vector({-1, 2}));
  g.initializer("flat", Tensor::vector({-1}));
  g.initializer("start", Tensor::vector({-1}));
  g.initializer("end", Tensor::vector({-9223372036854775807}));
  g.initializer("step", Tensor::vector({-1}));
  g.node("Shape", {"x"}, {"sx"});
  g.node("Gather", {"sx", "i3"}, {"w"}, {axis0()});
  g.node("Mod", {"w", "eight"}, {"wm"});
  g.node("Sub", {"eight", "wm"}, {"d"});
  g.node("Mod", {"d", "eight"}, {"p"});
  g.node("Unsqueeze", {"p", "ax0"}, {"p1"});
  g.node("Concat", {"zero", "p1", "rest"}, {"given"}, {axis0()});
  g.node("ConstantOfShape", {"four"}, {"zeros"}, {fill(0)});
  g.node("Concat", {"given", "zeros"}, {"all"}, {axis0()});
  g.node("Reshape", {"all", "shape42"}, {"pairs"});
  g.node("Slice", {"pairs", "start", "end", "zero", "step"}, {"rev"});
  g.node("Transpose", {"rev"}, {"tr"}, {attr("perm", I64s{1, 0})});
  g.node("Reshape", {"tr", "flat"}, {"pads"});
  g.node("Cast", {"pads"}, {"pads64"}, {attr("to", int64_t{7})});
  g.node("Pad", {"x", "pads64"}, {"out"});
  g.output("out");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  EXPECT_EQ(find(m, "tr")->type, ts(INT64, {2, 4}));
  EXPECT_EQ(find(m, "out")->type, ts(FLOAT, {"N", 3, "H+3", "W+(8-W%8)%8"}));
}

TEST(DataPropagationPatterns, IfWithAKnownConditionGivesTheBranchValues) {
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"B", "T"}));
  g.node("Shape", {"x"}, {"sx"});
  g.initializer("t", Tensor::ints({1}, {}, DataType::BOOL));
  auto branch = [&m](const char* op) {
    auto b = std::make_shared<Graph>();
    b->parent = m.graph.get();  // sx is from the outer scope
    GraphBuilder bb(*b);
    bb.node(op, {"sx"}, {"r"});
    bb.output("r");
    return b;
  };
  g.node(
      "If", {"t"}, {"v"},
      {Attribute::make_graph("then_branch", branch("Identity")), Attribute::make_graph("else_branch", branch("Neg"))});
  g.node("Reshape", {"x", "v"}, {"y"});
  g.output("y");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  ASSERT_TRUE(find(m, "v")->symbolic_value);
  EXPECT_EQ(*find(m, "v")->symbolic_value, (V{"B", "T"}));
  EXPECT_EQ(find(m, "y")->type, ts(FLOAT, {"B", "T"}));
}

TEST(DataPropagationValues, ExpandTileOfValues) {
  const In col = sym_value(ts(INT64, {2, 1}), {"a", "b"});
  RunResult e = Op("Expand").opset(13).run({col, constant(Tensor::vector({2, 3}))});
  EXPECT_EQ(e.outputs[0], ts(INT64, {2, 3}));
  EXPECT_EQ(value0(e), (V{"a", "a", "a", "b", "b", "b"}));
  RunResult t = Op("Tile").opset(13).run({col, constant(Tensor::vector({2, 2}))});
  EXPECT_EQ(t.outputs[0], ts(INT64, {4, 2}));
  EXPECT_EQ(value0(t), (V{"a", "a", "b", "b", "a", "a", "b", "b"}));
  // A target too large for a value: the shape only.
  RunResult big = Op("Expand").opset(13).run({col, constant(Tensor::vector({2, 100}))});
  EXPECT_EQ(big.outputs[0], ts(INT64, {2, 100}));
  EXPECT_FALSE(value0(big));
}

TEST(DataPropagationValues, GatherElementsAndScattersOnShapeVectors) {
  const In shape = sym_value(ts(INT64, {4}), {"N", 3, "H", "W"});
  RunResult g = Op("GatherElements").opset(13).run({shape, constant(Tensor::vector({3, 0, -2}))});
  EXPECT_EQ(value0(g), (V{"W", "N", "H"}));
  const In m = sym_value(ts(INT64, {2, 2}), {"a", "b", "c", "d"});
  RunResult g2 =
      Op("GatherElements").opset(13).run({m, constant(Tensor::ints({1, 0, 0, 0}, {2, 2}))}, {attr("axis", int64_t{1})});
  EXPECT_EQ(value0(g2), (V{"b", "a", "c", "c"}));
  // shape[2] = -1 (torch's view with a computed -1).
  RunResult nd =
      Op("ScatterND").opset(18).run({shape, constant(Tensor::ints({2}, {1, 1})), constant(Tensor::vector({-1}))});
  EXPECT_EQ(value0(nd), (V{"N", 3, -1, "W"}));
  RunResult rows =
      Op("ScatterND").opset(18).run({m, constant(Tensor::ints({1}, {1, 1})), sym_value(ts(INT64, {1, 2}), {7, "H"})});
  EXPECT_EQ(value0(rows), (V{"a", "b", 7, "H"}));
  RunResult se =
      Op("ScatterElements").opset(18).run({shape, constant(Tensor::vector({-1, 0})), constant(Tensor::vector({5, 6}))});
  EXPECT_EQ(value0(se), (V{6, 3, "H", 5}));
  // With a reduction, no value; out of range, an error.
  EXPECT_FALSE(value0(Op("ScatterND")
                          .opset(18)
                          .run({shape, constant(Tensor::ints({2}, {1, 1})), constant(Tensor::vector({1}))},
                               {attr("reduction", "add")})));
  EXPECT_ERROR(
      Op("ScatterND").opset(18).run({shape, constant(Tensor::ints({4}, {1, 1})), constant(Tensor::vector({1}))}).report,
      "out of range");
}

TEST(DataPropagationValues, ConstantOfShapeSqueezeUnsqueezeKeepRank2Values) {
  RunResult c = Op("ConstantOfShape").opset(20).run({constant(Tensor::vector({2, 3}))}, {fill(7)});
  EXPECT_EQ(c.outputs[0], ts(INT64, {2, 3}));
  EXPECT_EQ(value0(c), (V{7, 7, 7, 7, 7, 7}));
  const In m = sym_value(ts(INT64, {2, 1}), {"a", "b"});
  RunResult s = Op("Squeeze").opset(13).run({m, constant(Tensor::vector({1}))});
  EXPECT_EQ(s.outputs[0], ts(INT64, {2}));
  EXPECT_EQ(value0(s), (V{"a", "b"}));
  RunResult u = Op("Unsqueeze").opset(13).run({m, constant(Tensor::vector({0}))});
  EXPECT_EQ(u.outputs[0], ts(INT64, {1, 2, 1}));
  EXPECT_EQ(value0(u), (V{"a", "b"}));
}

TEST(DataPropagationPatterns, CausalMaskBufferSlicedWithSymbolicBounds) {
  // mask[:, :, past:past+seq, :past+seq] of a [1,1,1024,1024] buffer: the
  // clamped lengths, exact for every P and S (0 rows once past >= 1024).
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder g(*m.graph);
  g.input("q", ts(FLOAT, {"B", 2, "S", 8}));
  g.input("past", ts(FLOAT, {"B", 2, "P", 8}));
  g.input("mask", ts(FLOAT, {1, 1, 1024, 1024}));
  g.initializer("i2", Tensor::scalar(2));
  g.initializer("ax0", Tensor::vector({0}));
  g.initializer("zero", Tensor::vector({0}));
  g.initializer("axes", Tensor::vector({2, 3}));
  g.node("Shape", {"q"}, {"sq"});
  g.node("Shape", {"past"}, {"sp"});
  g.node("Gather", {"sq", "i2"}, {"s"}, {axis0()});
  g.node("Gather", {"sp", "i2"}, {"p"}, {axis0()});
  g.node("Add", {"p", "s"}, {"end"});
  g.node("Unsqueeze", {"p", "ax0"}, {"p1"});
  g.node("Unsqueeze", {"end", "ax0"}, {"e1"});
  g.node("Concat", {"p1", "zero"}, {"starts"}, {axis0()});
  g.node("Concat", {"e1", "e1"}, {"ends"}, {axis0()});
  g.node("Slice", {"mask", "starts", "ends", "axes"}, {"out"});
  g.output("out");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  EXPECT_EQ(find(m, "out")->type, ts(FLOAT, {1, 1, "max(0,min(1024,P+S)-P)", "min(1024,P+S)"}));
}
