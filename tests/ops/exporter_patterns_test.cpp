// What exporters write, reduced to minimal models with their exact shapes:
// symbolic integers carried as floats (rotary positions, anchor grids,
// relative positions, frame counts), integer Div that truncates, Pad with
// partly known amounts, repeat_interleave's Loop over a sequence, and an If
// whose condition goes through Cast to BOOL. tests/exported/ has the torch
// exports these come from.
#include "infer/graph_test_util.hpp"

namespace {

Attribute axis0() { return attr("axis", int64_t{0}); }
Attribute to(DataType t) { return attr("to", static_cast<int64_t>(t)); }

// x:[dims...]; scalars d0, d1, ... = Gather(Shape(x), i).
struct DimsModel {
  Model model = make_model(17);
  GraphBuilder g{*model.graph};
  explicit DimsModel(std::vector<SymbolicDim> dims) {
    const std::size_t rank = dims.size();
    g.input("x", ts(FLOAT, std::move(dims)));
    g.node("Shape", {"x"}, {"shape"});
    for (std::size_t i = 0; i < rank; ++i) {
      const std::string k = "k" + std::to_string(i);
      g.initializer(k, Tensor::scalar(static_cast<int64_t>(i)));
      g.node("Gather", {"shape", k}, {"d" + std::to_string(i)}, {axis0()});
    }
  }
  Type infer(const std::string& out, InferenceOptions options = {}) {
    g.output(out);
    const Report r = infer_shapes(model, options);
    EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
    return type_of(*model.graph, out);
  }
};

}  // namespace

// torch.arange(N + 3, dtype=torch.float32): Range(0., Cast(N+3, float), 1.).
TEST(ExporterPatterns, RangeToACastExpression) {
  DimsModel m({"N", 4});
  m.g.initializer("three", Tensor::scalar(3));
  m.g.initializer("f0", Tensor::floats({0}, {}));
  m.g.initializer("f1", Tensor::floats({1}, {}));
  m.g.node("Add", {"d0", "three"}, {"n3"});
  m.g.node("Cast", {"n3"}, {"limit"}, {to(FLOAT)});
  m.g.node("Range", {"f0", "limit", "f1"}, {"r"});
  EXPECT_EQ(m.infer("r"), ts(FLOAT, {"N+3"}));
}

// Rotary positions of a decoder with a KV cache: arange(past, past+seq, dtype=float).
TEST(ExporterPatterns, RotaryPositionsFromPastToPastPlusSeq) {
  DimsModel m({"past", "seq"});
  m.g.initializer("f1", Tensor::floats({1}, {}));
  m.g.node("Add", {"d0", "d1"}, {"total"});
  m.g.node("Cast", {"d0"}, {"start"}, {to(FLOAT)});
  m.g.node("Cast", {"total"}, {"limit"}, {to(FLOAT)});
  m.g.node("Range", {"start", "limit", "f1"}, {"t"});
  m.g.initializer("ax1", Tensor::vector({1}));
  m.g.node("Unsqueeze", {"t", "ax1"}, {"t1"});
  m.g.initializer("inv_freq", Tensor::floats({1, 0.5, 0.25, 0.125}, {1, 4}));
  m.g.node("Mul", {"t1", "inv_freq"}, {"freqs"});
  EXPECT_EQ(m.infer("freqs"), ts(FLOAT, {"seq", 4}));
}

// Conformer relative positions: arange(seq - 1, -seq, -1.0).
TEST(ExporterPatterns, RelativePositionsCountDown) {
  auto positions = [](InferenceOptions options) {
    DimsModel m({"batch", "seq"});
    m.g.initializer("f1", Tensor::floats({1}, {}));
    m.g.initializer("fm1", Tensor::floats({-1}, {}));
    m.g.node("Cast", {"d1"}, {"s"}, {to(FLOAT)});
    m.g.node("Sub", {"s", "f1"}, {"start"});
    m.g.node("Neg", {"s"}, {"limit"});
    m.g.node("Range", {"start", "limit", "fm1"}, {"pos"});
    return m.infer("pos", options);
  };
  EXPECT_EQ(positions({}), ts(FLOAT, {"max(0,2*seq-1)"}));
  InferenceOptions nonempty;
  nonempty.assume_nonempty = true;
  EXPECT_EQ(positions(nonempty), ts(FLOAT, {"2*seq-1"}));
}

// Anchor-free grids: (arange(w, dtype=float) + 0.5) * stride, a Range of
// half-integers in between: arange(0.5, w + 0.5).
TEST(ExporterPatterns, AnchorCentersAndHalfIntegerRanges) {
  DimsModel m({"h", "w"});
  m.g.initializer("f0", Tensor::floats({0}, {}));
  m.g.initializer("half", Tensor::floats({0.5}, {}));
  m.g.initializer("f1", Tensor::floats({1}, {}));
  m.g.initializer("stride", Tensor::floats({8}, {}));
  m.g.node("Cast", {"d1"}, {"wf"}, {to(FLOAT)});
  m.g.node("Range", {"f0", "wf", "f1"}, {"cols"});
  m.g.node("Add", {"cols", "half"}, {"centers"});
  m.g.node("Mul", {"centers", "stride"}, {"xs"});
  m.g.node("Add", {"wf", "half"}, {"end"});
  m.g.node("Range", {"half", "end", "f1"}, {"halves"});
  m.g.output("xs");
  EXPECT_EQ(m.infer("halves"), ts(FLOAT, {"w"}));
  EXPECT_EQ(type_of(*m.model.graph, "xs"), ts(FLOAT, {"w"}));
}

// Frames of a waveform: (samples - 16) / 8 + 1 in int64 truncates toward
// zero, so it is floor only where samples >= 16; the count is exact either
// way, and readable under that fact.
TEST(ExporterPatterns, FrameCountFromATruncatingDiv) {
  auto frames = [](InferenceOptions options) {
    DimsModel m({"batch", "samples"});
    m.g.initializer("win", Tensor::scalar(16));
    m.g.initializer("hop", Tensor::scalar(8));
    m.g.initializer("i0", Tensor::scalar(0));
    m.g.initializer("i1", Tensor::scalar(1));
    m.g.node("Sub", {"d1", "win"}, {"span"});
    m.g.node("Div", {"span", "hop"}, {"q"});
    m.g.node("Add", {"q", "i1"}, {"n"});
    m.g.node("Range", {"i0", "n", "i1"}, {"idx"});
    return m.infer("idx", options);
  };
  EXPECT_EQ(frames({}), ts(INT64, {"max(0,max(0,samples-16)//8-max(0,16-samples)//8+1)"}));
  InferenceOptions facts;
  facts.assume = {"samples>=16"};
  EXPECT_EQ(frames(facts), ts(INT64, {"samples//8-1"}));
}

// F.pad with computed amounts for H and W only: batch and channels keep their dims.
TEST(ExporterPatterns, PadWithPartlyKnownAmounts) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", "C", "H", "W"}));
  g.input("p", ts(INT64, {4}));  // [h_begin, w_begin, h_end, w_end] from data
  g.initializer("z2", Tensor::vector({0, 0}));
  g.initializer("two", Tensor::vector({2, 2}));
  g.node("Split", {"p", "two"}, {"begins", "ends"}, {axis0()});
  g.node("Concat", {"z2", "begins", "z2", "ends"}, {"pads"}, {axis0()});
  g.node("Pad", {"x", "pads"}, {"y"});
  g.output("y");
  const Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  const Type y = type_of(*m.graph, "y");
  ASSERT_EQ(y.shape().rank(), 4);
  EXPECT_EQ(y.shape()[0], SymbolicDim("N"));
  EXPECT_EQ(y.shape()[1], SymbolicDim("C"));
  EXPECT_TRUE(y.shape()[2].is_unknown() || Context::fresh_index(y.shape()[2].to_string()));
}

// torch's repeat_interleave(x, 2, dim=1): the repeats Expand(2, [seq]) and x
// split into single rows by a ConstantOfShape of ones, a Loop that reads
// piece i and its repeat count, expands and inserts it, and a
// ConcatFromSequence of what the loop built.
TEST(ExporterPatterns, RepeatInterleaveLoopOverSequences) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"batch", "seq", 8}));
  g.initializer("two", Tensor::scalar(2));
  g.initializer("i1", Tensor::scalar(1));
  g.initializer("ax0", Tensor::vector({0}));
  g.initializer("true", Tensor::scalar(1, BOOL));
  g.node("Shape", {"x"}, {"shape"});
  g.node("Gather", {"shape", "i1"}, {"seq"}, {axis0()});
  g.node("Unsqueeze", {"seq", "ax0"}, {"seq1"});
  g.node("Expand", {"two", "seq1"}, {"repeats"});
  g.node("Shape", {"repeats"}, {"rshape"});
  g.node("ConstantOfShape", {"rshape"}, {"ones"}, {Attribute::make_tensor("value", Tensor::scalar(1))});
  g.node("SplitToSequence", {"repeats", "ones"}, {"rseq"}, {axis0()});
  g.node("SplitToSequence", {"x", "ones"}, {"xseq"}, {attr("axis", int64_t{1})});
  g.node("SequenceEmpty", {}, {"empty"}, {attr("dtype", int64_t{1})});
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("i", Type());
  b.input("cond_in", Type());
  b.input("acc", Type());
  b.initializer("ax2", Tensor::vector({2}));
  b.initializer("lead", Tensor::vector({1}));
  b.initializer("tail", Tensor::vector({8}));
  b.initializer("target", Tensor::vector({0, -1, 8}));
  b.node("SequenceAt", {"rseq", "i"}, {"r"});
  b.node("SequenceAt", {"xseq", "i"}, {"row"});
  b.node("Unsqueeze", {"row", "ax2"}, {"row4"});
  b.node("Concat", {"lead", "r", "tail"}, {"to"}, {axis0()});
  b.node("Expand", {"row4", "to"}, {"rep"});
  b.node("Reshape", {"rep", "target"}, {"piece"});
  b.node("SequenceInsert", {"acc", "piece"}, {"acc_out"});
  b.node("Cast", {"true"}, {"cond_out"}, {to(BOOL)});
  b.output("cond_out");
  b.output("acc_out");
  g.node("Loop", {"seq1", "true", "empty"}, {"pieces"}, {graph_attr("body", body)});
  g.node("ConcatFromSequence", {"pieces"}, {"y"}, {attr("axis", int64_t{1})});
  g.output("y");
  const Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {"batch", "2*seq", 8}));
  EXPECT_EQ(type_of(*body, "r"), ts(INT64, {1}));
  ASSERT_TRUE(body->find("r")->symbolic_value);
  EXPECT_EQ(*body->find("r")->symbolic_value, (std::vector<SymbolicDim>{2}));
}

// A scripted `if x.size(1) == 512:` becomes If(Cast(Equal(...), BOOL)): the
// condition is known, so only the branch taken is inferred, and the other's
// reshape to 256 samples is not the model's error.
TEST(ExporterPatterns, IfConditionThroughCastToBool) {
  DimsModel m({"batch", 512});
  m.g.initializer("n512", Tensor::scalar(512));
  m.g.node("Equal", {"d1", "n512"}, {"eq"});
  m.g.node("Cast", {"eq"}, {"c"}, {to(BOOL)});
  auto taken = make_subgraph(*m.model.graph, "then");
  GraphBuilder(*taken).node("Identity", {"x"}, {"t_out"});
  GraphBuilder(*taken).output("t_out");
  auto other = make_subgraph(*m.model.graph, "else");
  GraphBuilder e(*other);
  e.initializer("s256", Tensor::vector({0, 256}));
  e.node("Reshape", {"x", "s256"}, {"e_out"});
  e.output("e_out");
  m.g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", taken), graph_attr("else_branch", other)});
  EXPECT_EQ(m.infer("y"), ts(FLOAT, {"batch", 512}));
}
