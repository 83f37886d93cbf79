#include "op_test_util.hpp"

constexpr DataType UINT32 = DataType::UINT32;

inline In i32_scalar(int64_t v) { return constant(Tensor::scalar(v, DataType::INT32)); }

// ContribOperators.md ExpandDims: a dim of 1 inserted at `axis` (int32 scalar input).
TEST(MicrosoftTensor, ExpandDims) {
  EXPECT_EQ(Op(kMs, "ExpandDims").infer({ts(FLOAT, {"N", 3}), i32_scalar(-1)}), (Types{ts(FLOAT, {"N", 3, 1})}));
  EXPECT_EQ(Op(kMs, "ExpandDims").infer({ts(FLOAT, {"N", 3}), i32_scalar(0)}), (Types{ts(FLOAT, {1, "N", 3})}));
  EXPECT_EQ(Op(kMs, "ExpandDims").infer({ts(FLOAT, {"N", 3}), ts(INT32, {})}),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2"})}));
  EXPECT_ERROR(Op(kMs, "ExpandDims").run({ts(FLOAT, {"N", 3}), i32_scalar(3)}).report,
               "axis 3 is out of range [-3, 2]");
}
TEST(MicrosoftTensor, PadWithPadsInput) {
  EXPECT_EQ(Op(kMs, "Pad").infer({ts(FLOAT, {"N", 5}), vec({0, 2, 0, 1})}), (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(Op(kMs, "Pad")
                .infer({ts(FLOAT, {"N", 5}), constant(Tensor::ints({1, 0, 1, 0}, {1, 4}))}, {attr("mode", "reflect")}),
            (Types{ts(FLOAT, {"N+2", 5})}));
  EXPECT_ERROR(Op(kMs, "Pad").run({ts(FLOAT, {"N", 5}), vec({0, 2})}).report, "pads has 2 entries; expected 4");
  EXPECT_ERROR(Op(kMs, "Pad").run({ts(FLOAT, {"N", 5}), vec({0, 2, 0, 1})}, {attr("mode", "wrap")}).report,
               "mode must be constant, reflect or edge");
}
TEST(MicrosoftTensor, RangeDeltaIsOptional) {
  EXPECT_EQ(Op(kMs, "Range").infer({constant(Tensor::scalar(2)), constant(Tensor::scalar(7))}),
            (Types{ts(INT64, {5})}));
  EXPECT_EQ(Op(kMs, "Range")
                .infer({constant(Tensor::scalar(0)), sym_value(ts(INT64, {}), {"N"}), constant(Tensor::scalar(2))}),
            (Types{ts(INT64, {"max((N+1)//2,0)"})}));
  EXPECT_ERROR(Op(kMs, "Range").run({ts(INT64, {2}), ts(INT64, {})}).report, "input 0 must be a scalar");
}
TEST(MicrosoftTensor, GatherNDGridSampleTrilu) {
  EXPECT_EQ(Op(kMs, "GatherND").infer({ts(FLOAT, {"A", "B", "C"}), ts(INT64, {"N", 2})}),
            (Types{ts(FLOAT, {"N", "C"})}));
  EXPECT_ERROR(Op(kMs, "GatherND").run({ts(FLOAT, {"A", "B"}), ts(INT64, {"N", 3})}).report,
               "last indices dim 3 must be in [1, rank(data) - batch_dims]");
  EXPECT_EQ(Op(kMs, "GridSample").infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {"N", 5, 7, 2})}),
            (Types{ts(FLOAT, {"N", 3, 5, 7})}));
  EXPECT_ERROR(Op(kMs, "GridSample").run({ts(FLOAT, {"N", 3, "D", "H", "W"}), ts(FLOAT, {"N", 5, 7, 1, 3})}).report,
               "X must be 4-D");
  EXPECT_EQ(Op(kMs, "Trilu").infer({ts(FLOAT, {"B", 4, 4}), constant(Tensor::scalar(1))}),
            (Types{ts(FLOAT, {"B", 4, 4})}));
  EXPECT_ERROR(Op(kMs, "Trilu").run({ts(FLOAT, {4})}).report, "input must have rank >= 2");
}
TEST(MicrosoftTensor, UniqueIs1D) {
  EXPECT_EQ(Op(kMs, "Unique").outputs(3).infer({ts(INT64, {"N"})}),
            (Types{ts(INT64, {"_d0"}), ts(INT64, {"N"}), ts(INT64, {"_d0"})}));
  EXPECT_ERROR(Op(kMs, "Unique").outputs(3).run({ts(FLOAT, {2, 3})}).report, "x must be 1-D");
}
TEST(MicrosoftTensor, InverseAndCDist) {
  EXPECT_EQ(Op(kMs, "Inverse").infer({ts(DOUBLE, {"B", "M", "M"})}), (Types{ts(DOUBLE, {"B", "M", "M"})}));
  EXPECT_ERROR(Op(kMs, "Inverse").run({ts(FLOAT, {3, 4})}).report, "square matrices");
  EXPECT_EQ(Op(kMs, "CDist").infer({ts(FLOAT, {"M", 8}), ts(FLOAT, {"K", 8})}, {attr("metric", "euclidean")}),
            (Types{ts(FLOAT, {"M", "K"})}));
  EXPECT_ERROR(Op(kMs, "CDist").run({ts(FLOAT, {"M", 8}), ts(FLOAT, {"K", 4})}).report, "differ in dim 1");
}
// ContribOperators.md UnfoldTensor: dim `dim` becomes (sizedim - size) / step + 1; a dim of `size` is appended.
TEST(MicrosoftTensor, UnfoldTensor) {
  EXPECT_EQ(
      Op(kMs, "UnfoldTensor").infer({ts(FLOAT, {"B", 10, 4})}, {attr("dim", 1), attr("size", 3), attr("step", 2)}),
      (Types{ts(FLOAT, {"B", 4, 4, 3})}));
  EXPECT_EQ(Op(kMs, "UnfoldTensor").infer({ts(FLOAT, {"B", "L"})}, {attr("size", 4)}),
            (Types{ts(FLOAT, {"B", "L-3", 4})}));
  EXPECT_ERROR(Op(kMs, "UnfoldTensor").run({ts(FLOAT, {"B", 2})}, {attr("size", 3)}).report, "size 3 exceeds dim 2");
  EXPECT_ERROR(Op(kMs, "UnfoldTensor").run({ts(FLOAT, {"B", 2})}).report, "missing required attribute 'size'");
}
TEST(MicrosoftTensor, CropAndResize) {
  EXPECT_EQ(Op(kMs, "CropAndResize")
                .infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {"R", 4}), ts(INT32, {"R"}),
                        constant(Tensor::ints({7, 5}, {2}, DataType::INT32))}),
            (Types{ts(FLOAT, {"R", 3, 7, 5})}));
  EXPECT_ERROR(Op(kMs, "CropAndResize")
                   .run({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {"R", 5}), ts(INT32, {"R"}), ts(INT32, {2})})
                   .report,
               "rois must be [num_rois, 4]");
}
TEST(MicrosoftTensor, TorchEmbedding) {
  EXPECT_EQ(Op(kMs, "TorchEmbedding").infer({ts(FLOAT, {1000, 64}), ts(INT64, {"B", "S"})}),
            (Types{ts(FLOAT, {"B", "S", 64})}));
  EXPECT_ERROR(Op(kMs, "TorchEmbedding").run({ts(FLOAT, {1000}), ts(INT64, {"B", "S"})}).report,
               "weight has unexpected rank");
}
TEST(MicrosoftTensor, SampleOpIsAllFiniteMurmurHash) {
  EXPECT_EQ(Op(kMs, "SampleOp").infer({ts(FLOAT, {"N", 2})}), (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_ERROR(Op(kMs, "SampleOp").run({}).report, "missing required input 0");
  EXPECT_EQ(Op(kMs, "IsAllFinite").infer({ts(FLOAT, {"N"}), ts(FLOAT16, {3, 4})}), (Types{ts(BOOL, {})}));
  EXPECT_ERROR(Op(kMs, "IsAllFinite").run({}).report, "missing required input 0");
  EXPECT_EQ(Op(kMs, "MurmurHash3").infer({ts(STRING, {"N"})}), (Types{ts(UINT32, {"N"})}));
  EXPECT_EQ(Op(kMs, "MurmurHash3").infer({ts(INT64, {"N", 2})}, {attr("positive", 0)}), (Types{ts(INT32, {"N", 2})}));
  EXPECT_ERROR(Op(kMs, "MurmurHash3").run({ts(INT64, {"N"})}, {attr("positive", 2)}).report, "positive must be 0 or 1");
}
// ContribOperators.md Rfft: "output tensor of size (n//2 + 1) in the signal dim and 2 in the last dimension";
// Irfft inverts it: n = 2 * (bins - 1).
TEST(MicrosoftTensor, RfftAndIrfft) {
  EXPECT_EQ(Op(kMs, "Rfft").infer({ts(FLOAT, {"B", 16})}, {attr("signal_ndim", 1)}), (Types{ts(FLOAT, {"B", 9, 2})}));
  EXPECT_EQ(Op(kMs, "Rfft").infer({ts(FLOAT, {"B", "N"})}), (Types{ts(FLOAT, {"B", "N//2+1", 2})}));
  EXPECT_ERROR(Op(kMs, "Rfft").run({ts(FLOAT, {"B", 16})}, {attr("onesided", 0)}).report,
               "only normalized=0 and onesided=1");
  EXPECT_EQ(Op(kMs, "Irfft").infer({ts(FLOAT, {"B", 9, 2})}, {attr("signal_ndim", 1)}), (Types{ts(FLOAT, {"B", 16})}));
  EXPECT_EQ(Op(kMs, "Irfft").infer({ts(FLOAT, {"B", "M", 2})}, {attr("signal_ndim", 1)}),
            (Types{ts(FLOAT, {"B", "2*M-2"})}));
  EXPECT_ERROR(Op(kMs, "Irfft").run({ts(FLOAT, {"B", 9, 2})}).report, "missing required attribute 'signal_ndim'");
  EXPECT_ERROR(Op(kMs, "Irfft").run({ts(FLOAT, {"B", 9, 3})}, {attr("signal_ndim", 1)}).report,
               "the last dim must be 2");
}
TEST(MicrosoftTensor, DynamicTimeWarping) {
  EXPECT_EQ(Op(kMs, "DynamicTimeWarping").infer({ts(FLOAT, {1, "M", "N"})}), (Types{ts(INT32, {2, "_d0"})}));
  EXPECT_ERROR(Op(kMs, "DynamicTimeWarping").run({ts(FLOAT, {"M"})}).report, "input must be [M, N] or [1, M, N]");
}
// EPContext and Snpe carry compiled payloads: no output shape can be read from the node.
TEST(MicrosoftTensor, OpaquePayloadsLeaveOutputsUnknown) {
  EXPECT_EQ(Op(kMs, "EPContext").infer({ts(FLOAT, {1, 3})}, {attr("ep_cache_context", "blob")}), (Types{Type()}));
  EXPECT_ERROR(Op(kMs, "EPContext").run({ts(FLOAT, {1, 3})}, {attr("embed_mode", 2)}).report,
               "embed_mode must be 0 or 1");
  EXPECT_EQ(Op(kMs, "Snpe").infer({ts(UINT8, {1, 3})}, {attr("DLC", "payload")}), (Types{Type()}));
  EXPECT_ERROR(Op(kMs, "Snpe").run({ts(UINT8, {1, 3})}).report, "missing required attribute 'DLC'");
}
