// ai.onnx.ml operators: shapes and element types of every rule.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
constexpr const char* ML = "ai.onnx.ml";

// One ai.onnx.ml node at the given ai.onnx.ml opset (run_node fixes it at 3).
Report run_ml(const std::string& op, const std::vector<Type>& inputs, std::vector<Attribute> attributes,
              int64_t ml_opset, Types& outputs, std::size_t num_outputs = 1) {
  Model m;
  m.opset_imports[""] = 18;
  m.opset_imports[ML] = ml_opset;
  GraphBuilder b(*m.graph);
  std::vector<std::string> in_names, out_names;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    in_names.push_back("in" + std::to_string(i));
    b.input(in_names.back(), inputs[i]);
  }
  for (std::size_t i = 0; i < num_outputs; ++i) out_names.push_back("out" + std::to_string(i));
  b.node(op, in_names, out_names, std::move(attributes), ML, "node");
  for (const auto& o : out_names) b.output(o);
  Report r = infer_shapes(m, InferenceOptions{});
  outputs.clear();
  for (Value* v : m.graph->outputs) outputs.push_back(v->type);
  return r;
}
Types ml_types(const std::string& op, const std::vector<Type>& inputs, std::vector<Attribute> attributes,
               int64_t ml_opset = 3, std::size_t num_outputs = 1) {
  Types out;
  run_ml(op, inputs, std::move(attributes), ml_opset, out, num_outputs);
  return out;
}
std::size_t ml_errors(const std::string& op, const std::vector<Type>& inputs, std::vector<Attribute> attributes,
                      int64_t ml_opset = 3, std::size_t num_outputs = 1) {
  Types out;
  return run_ml(op, inputs, std::move(attributes), ml_opset, out, num_outputs).errors();
}
Attribute strs(const std::string& n, std::vector<std::string> v) { return Attribute::make_strings(n, std::move(v)); }
Type map_of(DataType key, DataType value) { return Type::map(key, Type::tensor(value)); }
}  // namespace

TEST(Ml, ArrayFeatureExtractor) {
  EXPECT_EQ(run_shape_inference(ML, "ArrayFeatureExtractor", {ts(FLOAT, {"N", 10}), ts(INT64, {3})}), (Types{ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(run_shape_inference(ML, "ArrayFeatureExtractor", {ts(STRING, {10}), ts(INT64, {"k"})}), (Types{ts(STRING, {1, "k"})}));
  EXPECT_EQ(run_node(ML, "ArrayFeatureExtractor", {ts(FLOAT, {}), ts(INT64, {3})}).report.errors(), 1u);
}
TEST(Ml, BinarizerImputerKeepType) {
  EXPECT_EQ(run_shape_inference(ML, "Binarizer", {ts(DOUBLE, {"N", 4})}), (Types{ts(DOUBLE, {"N", 4})}));
  EXPECT_EQ(run_shape_inference(ML, "Imputer", {ts(INT64, {"N", 4})}), (Types{ts(INT64, {"N", 4})}));
  EXPECT_EQ(run_node(ML, "Imputer", {}).report.errors(), 1u);
}
TEST(Ml, NormalizerScalerGiveFloat) {
  EXPECT_EQ(run_shape_inference(ML, "Normalizer", {ts(INT32, {"N", 4})}), (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference(ML, "Scaler", {ts(DOUBLE, {"N", 4})}), (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference(ML, "Scaler", {ts(DOUBLE, {2, 3, 4})}), (Types{ts(FLOAT, {2, 3, 4})}));
}
TEST(Ml, NormalizerTakesNCOrC) {
  // onnxruntime normalizer.cc: "Rank of input to Normalized must be less than 2" for a rank above 2.
  EXPECT_EQ(run_node(ML, "Normalizer", {ts(FLOAT, {2, 3, 4})}).report.errors(), 1u);
  EXPECT_EQ(run_shape_inference(ML, "Normalizer", {ts(FLOAT, {4})}), (Types{ts(FLOAT, {4})}));
}
TEST(Ml, CastMap) {
  EXPECT_EQ(run_shape_inference(ML, "CastMap", {map_of(INT64, STRING)}), (Types{ts(FLOAT, {1, "_d0"})}));
  EXPECT_EQ(run_shape_inference(ML, "CastMap", {map_of(INT64, FLOAT)},
                                {attr("cast_to", "TO_INT64"), attr("map_form", "SPARSE"), attr("max_map", 7)}),
            (Types{ts(INT64, {1, 7})}));
  EXPECT_EQ(run_shape_inference(ML, "CastMap", {map_of(INT64, FLOAT)}, {attr("cast_to", "TO_STRING")})[0].elem_type(), STRING);
  EXPECT_EQ(run_node(ML, "CastMap", {map_of(STRING, FLOAT)}).report.errors(), 1u);
  EXPECT_EQ(run_node(ML, "CastMap", {map_of(INT64, FLOAT)}, {attr("cast_to", "TO_BOOL")}).report.errors(), 1u);
}
TEST(Ml, CategoryMapperSwapsStringAndInt) {
  const std::vector<Attribute> cats = {attr("cats_int64s", std::vector<int64_t>{1, 2}), strs("cats_strings", {"a", "b"})};
  EXPECT_EQ(run_shape_inference(ML, "CategoryMapper", {ts(STRING, {"N", 2})}, cats), (Types{ts(INT64, {"N", 2})}));
  EXPECT_EQ(run_shape_inference(ML, "CategoryMapper", {ts(INT64, {"N"})}, cats), (Types{ts(STRING, {"N"})}));
  EXPECT_EQ(run_node(ML, "CategoryMapper", {ts(FLOAT, {"N"})}, cats).report.errors(), 1u);
}
TEST(Ml, CategoryMapperNeedsBothCategoryLists) {
  // ONNX's CategoryMapper inference: "Attribute 'cats_strings' is required", and both of one length.
  EXPECT_EQ(run_node(ML, "CategoryMapper", {ts(STRING, {"N"})}, {attr("cats_int64s", std::vector<int64_t>{1, 2})}).report.errors(), 1u);
  EXPECT_EQ(run_node(ML, "CategoryMapper", {ts(STRING, {"N"})}, {attr("cats_int64s", std::vector<int64_t>{1, 2}), strs("cats_strings", {"a"})})
                .report.errors(),
            1u);
}
TEST(Ml, DictVectorizer) {
  EXPECT_EQ(run_shape_inference(ML, "DictVectorizer", {map_of(STRING, DOUBLE)}, {strs("string_vocabulary", {"a", "b", "c"})}),
            (Types{ts(DOUBLE, {1, 3})}));
  EXPECT_EQ(run_shape_inference(ML, "DictVectorizer", {map_of(INT64, STRING)}, {attr("int64_vocabulary", std::vector<int64_t>{4, 9})}),
            (Types{ts(STRING, {1, 2})}));
  EXPECT_EQ(run_node(ML, "DictVectorizer", {map_of(INT64, FLOAT)}, {strs("string_vocabulary", {"a"})}).report.errors(), 1u);
  EXPECT_EQ(run_node(ML, "DictVectorizer", {map_of(INT64, FLOAT)}).report.errors(), 1u);
}
TEST(Ml, FeatureVectorizer) {
  EXPECT_EQ(run_shape_inference(ML, "FeatureVectorizer", {ts(INT64, {"N", 2}), ts(DOUBLE, {"N", 3})},
                                {attr("inputdimensions", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {"N", 5})}));
  EXPECT_EQ(run_node(ML, "FeatureVectorizer", {ts(FLOAT, {"N", 2})}, {attr("inputdimensions", std::vector<int64_t>{2, 3})})
                .report.errors(),
            1u);
}
TEST(Ml, LabelEncoderTypesFromAttributes) {
  EXPECT_EQ(ml_types("LabelEncoder", {ts(STRING, {"N"})}, {strs("classes_strings", {"a", "b"})}, 1), (Types{ts(INT64, {"N"})}));
  EXPECT_EQ(ml_types("LabelEncoder", {ts(STRING, {"N", 2})},
                     {strs("keys_strings", {"a"}), attr_floats("values_floats", {1.5})}, 2),
            (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(ml_types("LabelEncoder", {ts(INT64, {"N"})}, {attr("keys_int64s", std::vector<int64_t>{1}), strs("values_strings", {"x"})}, 2),
            (Types{ts(STRING, {"N"})}));
  EXPECT_EQ(ml_types("LabelEncoder", {ts(INT64, {"N"})},
                     {Attribute::make_tensor("keys_tensor", Tensor::vector({1, 2})),
                      Attribute::make_tensor("values_tensor", Tensor::ints({3, 4}, {2}, DataType::INT32))},
                     4),
            (Types{ts(INT32, {"N"})}));
  // Lists still work at 4: int16 keys from a tensor, string values from a list.
  EXPECT_EQ(ml_types("LabelEncoder", {ts(DataType::INT16, {3})},
                     {Attribute::make_tensor("keys_tensor", Tensor::ints({7}, {1}, DataType::INT16)), strs("values_strings", {"x"})},
                     4),
            (Types{ts(STRING, {3})}));
  EXPECT_EQ(ml_errors("LabelEncoder", {ts(INT64, {"N"})}, {attr("keys_int64s", std::vector<int64_t>{1})}, 2), 1u);
}
TEST(Ml, LabelEncoderKeysMatchInputAndValues) {
  // ONNX's LabelEncoder inference: exactly one keys_* attribute, of the input's element type.
  EXPECT_EQ(ml_errors("LabelEncoder", {ts(INT64, {"N"})}, {strs("values_strings", {"x"})}, 2), 1u);
  EXPECT_EQ(ml_errors("LabelEncoder", {ts(INT64, {"N"})}, {strs("keys_strings", {"a"}), strs("values_strings", {"x"})}, 2), 1u);
  EXPECT_EQ(ml_errors("LabelEncoder", {ts(INT32, {"N"})},
                      {Attribute::make_tensor("keys_tensor", Tensor::vector({1})), strs("values_strings", {"x"})}, 4),
            1u);
  // As many keys as values (ONNX 4's inference, onnxruntime's label_encoder.h).
  EXPECT_EQ(ml_errors("LabelEncoder", {ts(STRING, {"N"})}, {strs("keys_strings", {"a", "b"}), attr_floats("values_floats", {1.5})}, 2),
            1u);
}
TEST(Ml, LinearClassifierScoresFollowIntercepts) {
  // onnxruntime linearclassifier.cc and ONNX's inference: Z is [N, number of intercepts], two for a single
  // intercept with two labels.
  EXPECT_EQ(run_shape_inference(ML, "LinearClassifier", {ts(FLOAT, {"N", 4})},
                                {attr("classlabels_ints", std::vector<int64_t>{0, 1, 2}), attr_floats("intercepts", {0, 0, 0})}, 18,
                                2),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(run_shape_inference(ML, "LinearClassifier", {ts(DOUBLE, {4})},
                                {strs("classlabels_strings", {"a", "b"}), attr_floats("intercepts", {0.5})}, 18, 2),
            (Types{ts(STRING, {1}), ts(FLOAT, {1, 2})}));
  EXPECT_EQ(run_shape_inference(ML, "LinearClassifier", {ts(FLOAT, {"N", 4})},
                                {attr("classlabels_ints", std::vector<int64_t>{0, 1, 2}), attr_floats("intercepts", {0})}, 18, 2)[1],
            ts(FLOAT, {"N", 1}));
  EXPECT_EQ(run_shape_inference(ML, "LinearClassifier", {ts(FLOAT, {"N", 4})}, {attr("classlabels_ints", std::vector<int64_t>{0, 1})},
                                18, 2)[1],
            ts(FLOAT, {"N", 0}));
}
TEST(Ml, SvmClassifierScores) {
  const Attribute four_labels = attr("classlabels_ints", std::vector<int64_t>{0, 1, 2, 3});
  // Linear mode (no support vectors): one score per label.
  EXPECT_EQ(run_shape_inference(ML, "SVMClassifier", {ts(FLOAT, {"N", 4})}, {four_labels}, 18, 2),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 4})}));
  // onnxruntime svmclassifier.cc: SVC mode without prob_a gives the E*(E-1)/2 pairwise scores, 2 for E <= 2.
  EXPECT_EQ(run_shape_inference(ML, "SVMClassifier", {ts(FLOAT, {"N", 4})},
                                {four_labels, attr("vectors_per_class", std::vector<int64_t>{1, 2, 1, 1})}, 18, 2)[1],
            ts(FLOAT, {"N", 6}));
  EXPECT_EQ(run_shape_inference(ML, "SVMClassifier", {ts(FLOAT, {"N", 4})},
                                {strs("classlabels_strings", {"a", "b"}), attr("vectors_per_class", std::vector<int64_t>{2, 3})}, 18,
                                2),
            (Types{ts(STRING, {"N"}), ts(FLOAT, {"N", 2})}));
  // With prob_a/prob_b the pairwise scores become one probability per label.
  EXPECT_EQ(run_shape_inference(ML, "SVMClassifier", {ts(FLOAT, {"N", 4})},
                                {four_labels, attr("vectors_per_class", std::vector<int64_t>{1, 1, 1, 1}),
                                 attr_floats("prob_a", {1, 1, 1, 1, 1, 1}), attr_floats("prob_b", {0, 0, 0, 0, 0, 0})},
                                18, 2)[1],
            ts(FLOAT, {"N", 4}));
}
TEST(Ml, TreeEnsembleClassifierScores) {
  // onnxruntime tree_ensemble_common.h: one score per label, two in the binary case as well.
  EXPECT_EQ(ml_types("TreeEnsembleClassifier", {ts(FLOAT, {"N", 4})}, {attr("classlabels_int64s", std::vector<int64_t>{5, 6})}, 1, 2),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(run_shape_inference(ML, "TreeEnsembleClassifier", {ts(DOUBLE, {4})}, {strs("classlabels_strings", {"a", "b", "c"})}, 18, 2),
            (Types{ts(STRING, {1}), ts(FLOAT, {1, 3})}));
  // Deprecated at 5 (use TreeEnsemble), still the same node.
  EXPECT_EQ(ml_types("TreeEnsembleClassifier", {ts(FLOAT, {"N", 4})}, {attr("classlabels_int64s", std::vector<int64_t>{5, 6, 7})}, 5, 2),
            (Types{ts(INT64, {"N"}), ts(FLOAT, {"N", 3})}));
  // classlabels_ints belongs to LinearClassifier/SVMClassifier, not to this operator.
  EXPECT_EQ(run_node(ML, "TreeEnsembleClassifier", {ts(FLOAT, {"N", 4})}, {attr("classlabels_ints", std::vector<int64_t>{0, 1})}, 18, 2)
                .report.errors(),
            1u);
}
TEST(Ml, ClassifierErrors) {
  for (const char* op : {"LinearClassifier", "SVMClassifier", "TreeEnsembleClassifier"}) {
    EXPECT_EQ(run_node(ML, op, {ts(FLOAT, {"N", 4})}).report.errors(), 1u) << op;
    EXPECT_EQ(run_node(ML, op, {ts(FLOAT, {2, 3, 4})}, {strs("classlabels_strings", {"a"})}).report.errors(), 1u) << op;
  }
  EXPECT_EQ(run_node(ML, "SVMClassifier", {ts(FLOAT, {"N", 4})},
                     {strs("classlabels_strings", {"a"}), attr("classlabels_ints", std::vector<int64_t>{1})})
                .report.errors(),
            1u);
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
  EXPECT_EQ(run_shape_inference(ML, "LinearClassifier", {ts(FLOAT, {"N", 4})},
                                {no_ints, strs("classlabels_strings", {"a", "b", "c"}), attr_floats("intercepts", {0, 0, 0})}, 18, 2),
            (Types{ts(STRING, {"N"}), ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(run_shape_inference(ML, "TreeEnsembleClassifier", {ts(FLOAT, {"N", 3})},
                                {no_int64s, strs("classlabels_strings", {"x", "y", "z"})}, 18, 2),
            (Types{ts(STRING, {"N"}), ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(run_shape_inference(ML, "ZipMap", {ts(FLOAT, {"N", 3})},
                                {strs("classlabels_strings", {}), attr("classlabels_int64s", std::vector<int64_t>{4, 5, 6})}),
            (Types{Type::sequence(Type::map(INT64, Type::tensor(FLOAT, Shape::scalar())))}));
  EXPECT_EQ(run_node(ML, "SVMClassifier", {ts(FLOAT, {"N", 4})},
                     {strs("classlabels_strings", {}), attr("classlabels_ints", std::vector<int64_t>{0, 1, 2})})
                .report.errors(),
            1u);
  EXPECT_EQ(run_node(ML, "OneHotEncoder", {ts(INT64, {"N", 2})},
                     {strs("cats_strings", {}), attr("cats_int64s", std::vector<int64_t>{1, 3})})
                .report.errors(),
            1u);
}
TEST(Ml, Regressors) {
  EXPECT_EQ(run_shape_inference(ML, "LinearRegressor", {ts(FLOAT, {"N", 4})}, {attr("targets", 2)}), (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(run_shape_inference(ML, "LinearRegressor", {ts(INT32, {4})}), (Types{ts(FLOAT, {1, 1})}));
  EXPECT_EQ(run_node(ML, "LinearRegressor", {ts(FLOAT, {"N", 4})}, {attr("targets", 0)}).report.errors(), 1u);
  EXPECT_EQ(run_shape_inference(ML, "SVMRegressor", {ts(DOUBLE, {"N", 4})}), (Types{ts(FLOAT, {"N", 1})}));
  EXPECT_EQ(run_shape_inference(ML, "TreeEnsembleRegressor", {ts(DOUBLE, {"N", 4})}, {attr("n_targets", 3)}),
            (Types{ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(ml_types("TreeEnsembleRegressor", {ts(FLOAT, {"N", 4})}, {}, 1), (Types{ts(FLOAT, {"N", "_d0"})}));
  EXPECT_EQ(ml_types("TreeEnsembleRegressor", {ts(INT64, {"N", 4})}, {attr("n_targets", 2)}, 5), (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(ml_types("TreeEnsemble", {ts(DOUBLE, {"N", 4})}, {attr("n_targets", 2)}, 5), (Types{ts(DOUBLE, {"N", 2})}));
  EXPECT_EQ(ml_errors("TreeEnsemble", {ts(FLOAT, {"N", 4})}, {attr("n_targets", -1)}, 5), 1u);
}
TEST(Ml, OneHotEncoder) {
  EXPECT_EQ(run_shape_inference(ML, "OneHotEncoder", {ts(STRING, {"N", 2})}, {strs("cats_strings", {"a", "b", "c"})}),
            (Types{ts(FLOAT, {"N", 2, 3})}));
  EXPECT_EQ(run_shape_inference(ML, "OneHotEncoder", {ts(INT64)}, {attr("cats_int64s", std::vector<int64_t>{1})}), (Types{ts(FLOAT)}));
  EXPECT_EQ(run_node(ML, "OneHotEncoder", {ts(INT64, {"N"})}).report.errors(), 1u);
}
TEST(Ml, ZipMap) {
  // ONNX's ZipMap inference: the map values are float scalars.
  const Type scalar = Type::tensor(FLOAT, Shape::scalar());
  EXPECT_EQ(run_shape_inference(ML, "ZipMap", {ts(FLOAT, {"N", 3})}, {strs("classlabels_strings", {"a", "b", "c"})}),
            (Types{Type::sequence(Type::map(STRING, scalar))}));
  EXPECT_EQ(run_shape_inference(ML, "ZipMap", {ts(FLOAT, {2})}, {attr("classlabels_int64s", std::vector<int64_t>{0, 1})}),
            (Types{Type::sequence(Type::map(INT64, scalar))}));
  EXPECT_EQ(run_node(ML, "ZipMap", {ts(FLOAT, {"N", 2})}).report.errors(), 1u);
  // onnxruntime zipmap.cc: "Input features_per_batch[2] != number of classlabels[3]".
  EXPECT_EQ(run_node(ML, "ZipMap", {ts(FLOAT, {"N", 2})}, {strs("classlabels_strings", {"a", "b", "c"})}).report.errors(), 1u);
}
