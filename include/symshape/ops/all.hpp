// The built-in rule table: every op family's rule list, merged and sorted at
// compile time, and the one header that includes every family. Adding a
// family: write ops/<family>.hpp (com.microsoft: ops/microsoft/<family>.hpp)
// with its rules, each registered by SYMSHAPE_RULES beside its function, and
// a closing `kFamilyRules = family_rules<...>("symshape/ops/<family>.hpp")`
// list; include it here and add it to merge_all below (docs/adding-a-rule.md).
#pragma once

#include "symshape/infer/registry.hpp"
#include "symshape/ops/attention.hpp"
#include "symshape/ops/cast.hpp"
#include "symshape/ops/concat_split.hpp"
#include "symshape/ops/constant.hpp"
#include "symshape/ops/control_flow.hpp"
#include "symshape/ops/conv.hpp"
#include "symshape/ops/detection.hpp"
#include "symshape/ops/elementwise.hpp"
#include "symshape/ops/expand_tile_pad.hpp"
#include "symshape/ops/gather_scatter.hpp"
#include "symshape/ops/image.hpp"
#include "symshape/ops/loss.hpp"
#include "symshape/ops/matmul.hpp"
#include "symshape/ops/microsoft/attention.hpp"
#include "symshape/ops/microsoft/fused.hpp"
#include "symshape/ops/microsoft/generation.hpp"
#include "symshape/ops/microsoft/misc.hpp"
#include "symshape/ops/microsoft/norm.hpp"
#include "symshape/ops/microsoft/quant.hpp"
#include "symshape/ops/microsoft/quant_matmul.hpp"
#include "symshape/ops/microsoft/recurrent.hpp"
#include "symshape/ops/microsoft/tensor.hpp"
#include "symshape/ops/microsoft/text.hpp"
#include "symshape/ops/misc_tensor.hpp"
#include "symshape/ops/ml.hpp"
#include "symshape/ops/normalization.hpp"
#include "symshape/ops/optional.hpp"
#include "symshape/ops/pool.hpp"
#include "symshape/ops/quantize.hpp"
#include "symshape/ops/random.hpp"
#include "symshape/ops/range.hpp"
#include "symshape/ops/reduce.hpp"
#include "symshape/ops/reshape.hpp"
#include "symshape/ops/resize.hpp"
#include "symshape/ops/rnn.hpp"
#include "symshape/ops/sequence.hpp"
#include "symshape/ops/shape_ops.hpp"
#include "symshape/ops/signal.hpp"
#include "symshape/ops/slice.hpp"
#include "symshape/ops/string_ops.hpp"
#include "symshape/ops/training.hpp"
#include "symshape/ops/unary.hpp"

namespace symshape::ops {

inline constexpr auto kBuiltinRules = symshape::detail::merge_all(
    kElementwiseRules, kControlFlowRules, kSequenceRules, kOptionalRules, kShapeOpsRules, kReshapeRules,
    kConcatSplitRules, kGatherScatterRules, kSliceRules, kExpandTilePadRules, kConstantRules, kCastRules, kRangeRules,
    kMiscTensorRules, kUnaryRules, kReduceRules, kMatMulRules, kConvRules, kPoolRules, kNormalizationRules,
    kResizeRules, kRnnRules, kAttentionRules, kImageRules, kQuantizeRules, kSignalRules, kStringOpsRules, kRandomRules,
    kLossRules, kMlRules, kTrainingRules, kDetectionRules, kMicrosoftAttentionRules, kMicrosoftMiscRules,
    kMicrosoftNormRules, kMicrosoftQuantRules, kMicrosoftQuantMatMulRules, kMicrosoftFusedRules, kMicrosoftTensorRules,
    kMicrosoftTextRules, kMicrosoftGenerationRules, kMicrosoftRecurrentRules);

static_assert(symshape::detail::strictly_sorted(kBuiltinRules),
              "two built-in rules share a (domain, op_type, since_version)");
static_assert(symshape::detail::all_versions_valid(kBuiltinRules),
              "a built-in rule has no op type or a since_version below 1");
static_assert(kBuiltinRules.index.complete, "the index of the built-in rules could not give each operator a slot");

}  // namespace symshape::ops
