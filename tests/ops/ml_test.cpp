// ai.onnx.ml operators: shapes and element types of every rule.
#include "op_test_util.hpp"

namespace {

Attribute strs(const std::string& n, std::vector<std::string> v) { return Attribute::make_strings(n, std::move(v)); }
Type map_of(DataType key, DataType value) { return Type::map(key, Type::tensor(value)); }
}  // namespace

TEST(Ml, ArrayFeatureExtractor) {
  EXPECT_EQ(Op(kMl, "ArrayFeatureExtractor").infer({ts(FLOAT, {"N", 10}), ts(INT64, {3})}),
            (Types{ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(Op(kMl, "ArrayFeatureExtractor").infer({ts(STRING, {10}), ts(INT64, {"k"})}),
            (Types{ts(STRING, {1, "k"})}));
  EXPECT_ERROR(Op(kMl, "ArrayFeatureExtractor").run({ts(FLOAT, {}), ts(INT64, {3})}).report,
               "X must have rank >= 1, got a scalar");
}
TEST(Ml, BinarizerImputerKeepType) {
  EXPECT_EQ(Op(kMl, "Binarizer").infer({ts(DOUBLE, {"N", 4})}), (Types{ts(DOUBLE, {"N", 4})}));
  EXPECT_EQ(Op(kMl, "Imputer").infer({ts(INT64, {"N", 4})}), (Types{ts(INT64, {"N", 4})}));
  EXPECT_ERROR(Op(kMl, "Imputer").run({}).report, "missing required input 0");
}
TEST(Ml, NormalizerScalerGiveFloat) {
  EXPECT_EQ(Op(kMl, "Normalizer").infer({ts(INT32, {"N", 4})}), (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op(kMl, "Scaler").infer({ts(DOUBLE, {"N", 4})}), (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op(kMl, "Scaler").infer({ts(DOUBLE, {2, 3, 4})}), (Types{ts(FLOAT, {2, 3, 4})}));
}
TEST(Ml, NormalizerTakesNCOrC) {
  // onnxruntime normalizer.cc: "Rank of input to Normalized must be less than 2" for a rank above 2.
  EXPECT_ERROR(Op(kMl, "Normalizer").run({ts(FLOAT, {2, 3, 4})}).report, "X must be [N, C] or [C], got shape [2,3,4]");
  EXPECT_EQ(Op(kMl, "Normalizer").infer({ts(FLOAT, {4})}), (Types{ts(FLOAT, {4})}));
}
TEST(Ml, CastMap) {
  EXPECT_EQ(Op(kMl, "CastMap").infer({map_of(INT64, STRING)}), (Types{ts(FLOAT, {1, "_d0"})}));
  EXPECT_EQ(
      Op(kMl, "CastMap")
          .infer({map_of(INT64, FLOAT)}, {attr("cast_to", "TO_INT64"), attr("map_form", "SPARSE"), attr("max_map", 7)}),
      (Types{ts(INT64, {1, 7})}));
  EXPECT_EQ(Op(kMl, "CastMap").infer({map_of(INT64, FLOAT)}, {attr("cast_to", "TO_STRING")})[0].elem_type(), STRING);
  EXPECT_ERROR(Op(kMl, "CastMap").run({map_of(STRING, FLOAT)}).report, "input must be a map with int64 keys");
  EXPECT_ERROR(Op(kMl, "CastMap").run({map_of(INT64, FLOAT)}, {attr("cast_to", "TO_BOOL")}).report,
               "cast_to must be TO_FLOAT, TO_STRING or TO_INT64");
}
TEST(Ml, CategoryMapperSwapsStringAndInt) {
  const std::vector<Attribute> cats = {attr("cats_int64s", std::vector<int64_t>{1, 2}),
                                       strs("cats_strings", {"a", "b"})};
  EXPECT_EQ(Op(kMl, "CategoryMapper").infer({ts(STRING, {"N", 2})}, cats), (Types{ts(INT64, {"N", 2})}));
  EXPECT_EQ(Op(kMl, "CategoryMapper").infer({ts(INT64, {"N"})}, cats), (Types{ts(STRING, {"N"})}));
  EXPECT_ERROR(Op(kMl, "CategoryMapper").run({ts(FLOAT, {"N"})}, cats).report,
               "input must be string or int64, got float");
}
TEST(Ml, CategoryMapperNeedsBothCategoryLists) {
  // ONNX's CategoryMapper inference: "Attribute 'cats_strings' is required", and both of one length.
  EXPECT_ERROR(
      Op(kMl, "CategoryMapper").run({ts(STRING, {"N"})}, {attr("cats_int64s", std::vector<int64_t>{1, 2})}).report,
      "both cats_int64s and cats_strings must be set");
  EXPECT_ERROR(
      Op(kMl, "CategoryMapper")
          .run({ts(STRING, {"N"})}, {attr("cats_int64s", std::vector<int64_t>{1, 2}), strs("cats_strings", {"a"})})
          .report,
      "cats_int64s has 2 entries but cats_strings 1");
}
TEST(Ml, DictVectorizer) {
  EXPECT_EQ(Op(kMl, "DictVectorizer").infer({map_of(STRING, DOUBLE)}, {strs("string_vocabulary", {"a", "b", "c"})}),
            (Types{ts(DOUBLE, {1, 3})}));
  EXPECT_EQ(
      Op(kMl, "DictVectorizer").infer({map_of(INT64, STRING)}, {attr("int64_vocabulary", std::vector<int64_t>{4, 9})}),
      (Types{ts(STRING, {1, 2})}));
  EXPECT_ERROR(Op(kMl, "DictVectorizer").run({map_of(INT64, FLOAT)}, {strs("string_vocabulary", {"a"})}).report,
               "the map's key type must match the vocabulary");
  EXPECT_ERROR(Op(kMl, "DictVectorizer").run({map_of(INT64, FLOAT)}).report,
               "exactly one of string_vocabulary and int64_vocabulary must be set");
}
TEST(Ml, FeatureVectorizer) {
  EXPECT_EQ(
      Op(kMl, "FeatureVectorizer")
          .infer({ts(INT64, {"N", 2}), ts(DOUBLE, {"N", 3})}, {attr("inputdimensions", std::vector<int64_t>{2, 3})}),
      (Types{ts(FLOAT, {"N", 5})}));
  EXPECT_ERROR(Op(kMl, "FeatureVectorizer")
                   .run({ts(FLOAT, {"N", 2})}, {attr("inputdimensions", std::vector<int64_t>{2, 3})})
                   .report,
               "inputdimensions has 2 entries for 1 inputs");
}
TEST(Ml, LabelEncoderTypesFromAttributes) {
  EXPECT_EQ(Op(kMl, "LabelEncoder").domain_opset(1).infer({ts(STRING, {"N"})}, {strs("classes_strings", {"a", "b"})}),
            (Types{ts(INT64, {"N"})}));
  EXPECT_EQ(Op(kMl, "LabelEncoder")
                .domain_opset(2)
                .infer({ts(STRING, {"N", 2})}, {strs("keys_strings", {"a"}), attr_floats("values_floats", {1.5})}),
            (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(
      Op(kMl, "LabelEncoder")
          .domain_opset(2)
          .infer({ts(INT64, {"N"})}, {attr("keys_int64s", std::vector<int64_t>{1}), strs("values_strings", {"x"})}),
      (Types{ts(STRING, {"N"})}));
  EXPECT_EQ(Op(kMl, "LabelEncoder")
                .domain_opset(4)
                .infer({ts(INT64, {"N"})},
                       {Attribute::make_tensor("keys_tensor", Tensor::vector({1, 2})),
                        Attribute::make_tensor("values_tensor", Tensor::ints({3, 4}, {2}, DataType::INT32))}),
            (Types{ts(INT32, {"N"})}));
  // Lists still work at 4: int16 keys from a tensor, string values from a list.
  EXPECT_EQ(Op(kMl, "LabelEncoder")
                .domain_opset(4)
                .infer({ts(DataType::INT16, {3})},
                       {Attribute::make_tensor("keys_tensor", Tensor::ints({7}, {1}, DataType::INT16)),
                        strs("values_strings", {"x"})}),
            (Types{ts(STRING, {3})}));
  EXPECT_ERROR(Op(kMl, "LabelEncoder")
                   .domain_opset(2)
                   .run({ts(INT64, {"N"})}, {attr("keys_int64s", std::vector<int64_t>{1})})
                   .report,
               "exactly one values_* attribute must be set");
}
TEST(Ml, LabelEncoderKeysMatchInputAndValues) {
  // ONNX's LabelEncoder inference: exactly one keys_* attribute, of the input's element type.
  EXPECT_ERROR(Op(kMl, "LabelEncoder").domain_opset(2).run({ts(INT64, {"N"})}, {strs("values_strings", {"x"})}).report,
               "exactly one keys_* attribute must be set");
  EXPECT_ERROR(Op(kMl, "LabelEncoder")
                   .domain_opset(2)
                   .run({ts(INT64, {"N"})}, {strs("keys_strings", {"a"}), strs("values_strings", {"x"})})
                   .report,
               "the keys are string but the input is int64");
  EXPECT_ERROR(Op(kMl, "LabelEncoder")
                   .domain_opset(4)
                   .run({ts(INT32, {"N"})},
                        {Attribute::make_tensor("keys_tensor", Tensor::vector({1})), strs("values_strings", {"x"})})
                   .report,
               "the keys are int64 but the input is int32");
  // As many keys as values (ONNX 4's inference, onnxruntime's label_encoder.h).
  EXPECT_ERROR(Op(kMl, "LabelEncoder")
                   .domain_opset(2)
                   .run({ts(STRING, {"N"})}, {strs("keys_strings", {"a", "b"}), attr_floats("values_floats", {1.5})})
                   .report,
               "2 keys but 1 values");
}
// LinearClassifier's required coefficients (their count is not checked against the labels).
const Attribute kCoefficients = attr_floats("coefficients", {0, 0, 0, 0});

TEST(Ml, LinearClassifierScoresFollowIntercepts) {
  // onnxruntime linearclassifier.cc and ONNX's inference: Z is [N, number of intercepts], two for a single
  // intercept with two labels.
  EXPECT_EQ(Op(kMl, "LinearClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {attr("classlabels_ints", std::vector<int64_t>{0, 1, 2}),
                                               attr_floats("intercepts", {0, 0, 0}), kCoefficients}),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(Op(kMl, "LinearClassifier")
                .outputs(2)
                .infer({ts(DOUBLE, {4})},
                       {strs("classlabels_strings", {"a", "b"}), attr_floats("intercepts", {0.5}), kCoefficients}),
            (Types{ts(STRING, {1}), ts(FLOAT, {1, 2})}));
  EXPECT_EQ(Op(kMl, "LinearClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {attr("classlabels_ints", std::vector<int64_t>{0, 1, 2}),
                                               attr_floats("intercepts", {0}), kCoefficients})[1],
            ts(FLOAT, {"N", 1}));
  EXPECT_EQ(Op(kMl, "LinearClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {attr("classlabels_ints", std::vector<int64_t>{0, 1}), kCoefficients})[1],
            ts(FLOAT, {"N", 0}));
}
TEST(Ml, SvmClassifierScores) {
  const Attribute four_labels = attr("classlabels_ints", std::vector<int64_t>{0, 1, 2, 3});
  // Linear mode (no support vectors): one score per label.
  EXPECT_EQ(Op(kMl, "SVMClassifier").outputs(2).infer({ts(FLOAT, {"N", 4})}, {four_labels}),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 4})}));
  // onnxruntime svmclassifier.cc: SVC mode without prob_a gives the E*(E-1)/2 pairwise scores, 2 for E <= 2.
  EXPECT_EQ(
      Op(kMl, "SVMClassifier")
          .outputs(2)
          .infer({ts(FLOAT, {"N", 4})}, {four_labels, attr("vectors_per_class", std::vector<int64_t>{1, 2, 1, 1})})[1],
      ts(FLOAT, {"N", 6}));
  EXPECT_EQ(Op(kMl, "SVMClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {strs("classlabels_strings", {"a", "b"}),
                                               attr("vectors_per_class", std::vector<int64_t>{2, 3})}),
            (Types{ts(STRING, {"N"}), ts(FLOAT, {"N", 2})}));
  // With prob_a/prob_b the pairwise scores become one probability per label.
  EXPECT_EQ(Op(kMl, "SVMClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})},
                       {four_labels, attr("vectors_per_class", std::vector<int64_t>{1, 1, 1, 1}),
                        attr_floats("prob_a", {1, 1, 1, 1, 1, 1}), attr_floats("prob_b", {0, 0, 0, 0, 0, 0})})[1],
            ts(FLOAT, {"N", 4}));
}
TEST(Ml, TreeEnsembleClassifierScores) {
  // onnxruntime tree_ensemble_common.h: one score per label, two in the binary case as well.
  EXPECT_EQ(Op(kMl, "TreeEnsembleClassifier")
                .domain_opset(1)
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {attr("classlabels_int64s", std::vector<int64_t>{5, 6})}),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(Op(kMl, "TreeEnsembleClassifier")
                .outputs(2)
                .infer({ts(DOUBLE, {4})}, {strs("classlabels_strings", {"a", "b", "c"})}),
            (Types{ts(STRING, {1}), ts(FLOAT, {1, 3})}));
  // Deprecated at 5 (use TreeEnsemble), still the same node.
  EXPECT_EQ(Op(kMl, "TreeEnsembleClassifier")
                .domain_opset(5)
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {attr("classlabels_int64s", std::vector<int64_t>{5, 6, 7})}),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 3})}));
  // classlabels_ints belongs to LinearClassifier/SVMClassifier, not to this operator.
  EXPECT_ERROR(Op(kMl, "TreeEnsembleClassifier")
                   .outputs(2)
                   .run({ts(FLOAT, {"N", 4})}, {attr("classlabels_ints", std::vector<int64_t>{0, 1})})
                   .report,
               "unknown attribute 'classlabels_ints' for TreeEnsembleClassifier-3");
  EXPECT_ERROR(Op(kMl, "TreeEnsembleClassifier").outputs(2).run({ts(FLOAT, {"N", 4})}).report, "missing class labels");
}
TEST(Ml, ClassifierErrors) {
  for (const char* op : {"LinearClassifier", "SVMClassifier", "TreeEnsembleClassifier"}) {
    std::vector<Attribute> attrs;
    if (std::string(op) == "LinearClassifier") attrs.push_back(kCoefficients);
    EXPECT_ERROR(Op(kMl, op).outputs(2).run({ts(FLOAT, {"N", 4})}, attrs).report, "missing class labels") << op;
    attrs.push_back(strs("classlabels_strings", {"a"}));
    EXPECT_ERROR(Op(kMl, op).outputs(2).run({ts(FLOAT, {2, 3, 4})}, attrs).report,
                 "X must be [N, C] or [C], got shape [2,3,4]")
        << op;
  }
  EXPECT_ERROR(Op(kMl, "SVMClassifier")
                   .outputs(2)
                   .run({ts(FLOAT, {"N", 4})},
                        {strs("classlabels_strings", {"a"}), attr("classlabels_ints", std::vector<int64_t>{1})})
                   .report,
               "only one of classlabels_strings and classlabels_ints may be set");
}
// tests/ops/ort_check.sh (onnxruntime-node 1.30.0): a label list given with no
// entries next to a non-empty one. LinearClassifier, TreeEnsembleClassifier
// and ZipMap run with the non-empty list's labels (string labels [N], scores
// [N, 3]; seq(map(int64, float))); the SVMClassifier kernel refuses it ("One
// of classlabels_strings, classlabels_ints is required") and loading the
// OneHotEncoder fails ("Exactly one of 'cats_*' attributes must be provided").
TEST(Ml, EmptyLabelListNextToAnother) {
  const Attribute no_ints = attr("classlabels_ints", std::vector<int64_t>{});
  const Attribute no_int64s = attr("classlabels_int64s", std::vector<int64_t>{});
  EXPECT_EQ(Op(kMl, "LinearClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 4})}, {no_ints, strs("classlabels_strings", {"a", "b", "c"}),
                                               attr_floats("intercepts", {0, 0, 0}), kCoefficients}),
            (Types{ts(STRING, {"N"}), ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(Op(kMl, "TreeEnsembleClassifier")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 3})}, {no_int64s, strs("classlabels_strings", {"x", "y", "z"})}),
            (Types{ts(STRING, {"N"}), ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(Op(kMl, "ZipMap")
                .infer({ts(FLOAT, {"N", 3})},
                       {strs("classlabels_strings", {}), attr("classlabels_int64s", std::vector<int64_t>{4, 5, 6})}),
            (Types{Type::sequence(Type::map(INT64, Type::tensor(FLOAT, Shape::scalar())))}));
  EXPECT_ERROR(Op(kMl, "SVMClassifier")
                   .outputs(2)
                   .run({ts(FLOAT, {"N", 4})},
                        {strs("classlabels_strings", {}), attr("classlabels_ints", std::vector<int64_t>{0, 1, 2})})
                   .report,
               "only one of classlabels_strings and classlabels_ints may be set");
  EXPECT_ERROR(
      Op(kMl, "OneHotEncoder")
          .run({ts(INT64, {"N", 2})}, {strs("cats_strings", {}), attr("cats_int64s", std::vector<int64_t>{1, 3})})
          .report,
      "exactly one of cats_int64s and cats_strings must be set");
}
TEST(Ml, Regressors) {
  EXPECT_EQ(Op(kMl, "LinearRegressor").infer({ts(FLOAT, {"N", 4})}, {attr("targets", 2)}),
            (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(Op(kMl, "LinearRegressor").infer({ts(INT32, {4})}), (Types{ts(FLOAT, {1, 1})}));
  EXPECT_ERROR(Op(kMl, "LinearRegressor").run({ts(FLOAT, {"N", 4})}, {attr("targets", 0)}).report,
               "targets must be positive, got 0");
  EXPECT_EQ(Op(kMl, "SVMRegressor").infer({ts(DOUBLE, {"N", 4})}), (Types{ts(FLOAT, {"N", 1})}));
  EXPECT_EQ(Op(kMl, "TreeEnsembleRegressor").infer({ts(DOUBLE, {"N", 4})}, {attr("n_targets", 3)}),
            (Types{ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(Op(kMl, "TreeEnsembleRegressor").domain_opset(1).infer({ts(FLOAT, {"N", 4})}),
            (Types{ts(FLOAT, {"N", "_d0"})}));
  EXPECT_EQ(Op(kMl, "TreeEnsembleRegressor").domain_opset(5).infer({ts(INT64, {"N", 4})}, {attr("n_targets", 2)}),
            (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(Op(kMl, "TreeEnsemble").domain_opset(5).infer({ts(DOUBLE, {"N", 4})}, {attr("n_targets", 2)}),
            (Types{ts(DOUBLE, {"N", 2})}));
  EXPECT_ERROR(Op(kMl, "TreeEnsemble").domain_opset(5).run({ts(FLOAT, {"N", 4})}, {attr("n_targets", -1)}).report,
               "n_targets must be positive, got -1");
}
TEST(Ml, OneHotEncoder) {
  EXPECT_EQ(Op(kMl, "OneHotEncoder").infer({ts(STRING, {"N", 2})}, {strs("cats_strings", {"a", "b", "c"})}),
            (Types{ts(FLOAT, {"N", 2, 3})}));
  EXPECT_EQ(Op(kMl, "OneHotEncoder").infer({ts(INT64)}, {attr("cats_int64s", std::vector<int64_t>{1})}),
            (Types{ts(FLOAT)}));
  EXPECT_ERROR(Op(kMl, "OneHotEncoder").run({ts(INT64, {"N"})}).report,
               "exactly one of cats_int64s and cats_strings must be set");
}
TEST(Ml, ZipMap) {
  // ONNX's ZipMap inference: the map values are float scalars.
  const Type scalar = Type::tensor(FLOAT, Shape::scalar());
  EXPECT_EQ(Op(kMl, "ZipMap").infer({ts(FLOAT, {"N", 3})}, {strs("classlabels_strings", {"a", "b", "c"})}),
            (Types{Type::sequence(Type::map(STRING, scalar))}));
  EXPECT_EQ(Op(kMl, "ZipMap").infer({ts(FLOAT, {2})}, {attr("classlabels_int64s", std::vector<int64_t>{0, 1})}),
            (Types{Type::sequence(Type::map(INT64, scalar))}));
  EXPECT_ERROR(Op(kMl, "ZipMap").run({ts(FLOAT, {"N", 2})}).report,
               "exactly one of classlabels_strings and classlabels_int64s must be set");
  // onnxruntime zipmap.cc: "Input features_per_batch[2] != number of classlabels[3]".
  EXPECT_ERROR(Op(kMl, "ZipMap").run({ts(FLOAT, {"N", 2})}, {strs("classlabels_strings", {"a", "b", "c"})}).report,
               "X has 2 columns for 3 labels");
}
