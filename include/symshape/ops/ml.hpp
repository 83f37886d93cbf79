// ai.onnx.ml: the classic-ML operators (ArrayFeatureExtractor, Binarizer,
// CastMap, CategoryMapper, DictVectorizer, FeatureVectorizer, Imputer,
// LabelEncoder 1/2/4, LinearClassifier/Regressor, Normalizer, OneHotEncoder,
// SVMClassifier/Regressor, Scaler, TreeEnsembleClassifier/Regressor 1/3/5,
// TreeEnsemble 5, ZipMap). Most take X as [N, C] (or [C], one example).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace ml_detail {
// The batch dim N of X ([N, C] -> N, [C] -> 1); unknown when X's rank is
// unknown; nullopt after an error when X's rank is not 1 or 2.
inline std::optional<SymbolicDim> batch_dim(Context& ctx, const Node& n) {
  const Shape* x = shape_of(n.input(0));
  if (!x) return SymbolicDim();
  if (x->rank() == 1) return SymbolicDim(1);
  if (x->rank() == 2) return (*x)[0];
  ctx.record_error(n, {"X must be [N, C] or [C], got shape ", *x});
  return std::nullopt;
}

// Number of entries of a list attribute (ints, floats or strings), -1 when absent.
inline int64_t attr_len(const Node& n, const char* name) {
  const Attribute* a = n.attr(name);
  if (!a) return -1;
  switch (a->kind) {
    case Attribute::Kind::Ints:
      return static_cast<int64_t>(a->ints.size());
    case Attribute::Kind::Floats:
      return static_cast<int64_t>(a->floats.size());
    case Attribute::Kind::Strings:
      return static_cast<int64_t>(a->strings.size());
    default:
      return -1;
  }
}

// The lengths of a label list pair, `ints_attr` and classlabels_strings; -1
// for an absent one. With empty_is_absent a list given with no entries next
// to a non-empty one counts as absent: onnxruntime's LinearClassifier,
// TreeEnsembleClassifier and ZipMap run a model with an empty
// classlabels_ints/int64s next to classlabels_strings (and ZipMap the other
// way round; tests/ops/ort_check.sh), while its SVMClassifier kernel refuses
// an empty classlabels_strings next to classlabels_ints.
struct LabelLists {
  int64_t ints = -1, strs = -1;
};
enum class EmptyLabels { CountAsAbsent, CountAsGiven };  // a list given with no entries
inline LabelLists label_lists(const Node& n, const char* ints_attr,
                              EmptyLabels empty_is_absent = EmptyLabels::CountAsAbsent) {
  LabelLists l{attr_len(n, ints_attr), attr_len(n, "classlabels_strings")};
  if (empty_is_absent == EmptyLabels::CountAsAbsent && l.ints == 0 && l.strs > 0) l.ints = -1;
  if (empty_is_absent == EmptyLabels::CountAsAbsent && l.strs == 0 && l.ints > 0) l.strs = -1;
  return l;
}

// The classifiers' shared part: one input X ([N, C] or [C]), the labels'
// type and count E and the batch dim N. Labels are INT64 from `ints_attr`
// (classlabels_ints for LinearClassifier and SVMClassifier,
// classlabels_int64s for TreeEnsembleClassifier) or STRING from
// classlabels_strings, exactly one of them; nullopt after an error.
struct ClassifierInfo {
  DataType label_type = DataType::UNDEFINED;
  int64_t labels = 0;
  SymbolicDim batch;
};
inline Maybe<ClassifierInfo> classifier_info(Context& ctx, const Node& n, const char* ints_attr,
                                             EmptyLabels empty_is_absent = EmptyLabels::CountAsAbsent) {
  if (!check_inputs(ctx, n, 1, 1)) return std::nullopt;
  const LabelLists l = label_lists(n, ints_attr, empty_is_absent);
  if (l.ints >= 0 && l.strs >= 0) {
    ctx.record_error(n, {"only one of classlabels_strings and ", ints_attr, " may be set"});
    return std::nullopt;
  }
  if (l.ints < 0 && l.strs < 0) {
    ctx.usage_error(n, {"missing class labels (classlabels_strings or ", ints_attr, ")"});
    return std::nullopt;
  }
  const auto batch = batch_dim(ctx, n);
  if (!batch) return std::nullopt;
  return ClassifierInfo{l.strs >= 0 ? DataType::STRING : DataType::INT64, l.strs >= 0 ? l.strs : l.ints, *batch};
}

// The classifiers' outputs: Y labels [N], Z FLOAT scores [N, scores].
inline void classifier_outputs(Context& ctx, Node& n, const ClassifierInfo& info, int64_t scores) {
  ctx.set_shape_and_dtype(n.output(0), Shape({info.batch}), info.label_type);
  if (n.output(1)) ctx.set_shape_and_dtype(n.output(1), Shape({info.batch, SymbolicDim(scores)}), DataType::FLOAT);
}

// The regressors' output: [N, width] of type t.
inline void regressor_output(Context& ctx, Node& n, const SymbolicDim& width, DataType t) {
  const auto batch = batch_dim(ctx, n);
  if (!batch) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({*batch, width}), t);
}

// TreeEnsembleRegressor and TreeEnsemble: [N, n_targets] of type t;
// n_targets unknown when the attribute is absent.
inline void tree_ensemble_output(Context& ctx, Node& n, DataType t) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t targets = ctx.attr_int(n, "n_targets", -1);
  if (n.attr("n_targets") && targets < 1) return ctx.record_error(n, {"n_targets must be positive, got ", targets});
  regressor_output(ctx, n, targets > 0 ? SymbolicDim(targets) : SymbolicDim(), t);
}

// The element type and the number of entries of the first present
// attribute among `names` (list attributes, or a tensor attribute such as
// LabelEncoder 4's keys_tensor); UNDEFINED and 0 when none is present.
struct ListAttr {
  DataType type = DataType::UNDEFINED;
  int64_t count = 0;
};
inline ListAttr list_attr(const Node& n, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const Attribute* a = n.attr(name);
    if (!a) continue;
    switch (a->kind) {
      case Attribute::Kind::Ints:
        return {DataType::INT64, static_cast<int64_t>(a->ints.size())};
      case Attribute::Kind::Floats:
        return {DataType::FLOAT, static_cast<int64_t>(a->floats.size())};
      case Attribute::Kind::Strings:
        return {DataType::STRING, static_cast<int64_t>(a->strings.size())};
      case Attribute::Kind::Tensor: {
        if (a->tensors.empty()) continue;
        int64_t count = 1;
        for (int64_t d : a->tensors[0].dims) count *= d;
        return {a->tensors[0].dtype, count};
      }
      default:
        continue;
    }
  }
  return {};
}
}  // namespace ml_detail

// ArrayFeatureExtractor: X [..., C], indices Y (k of them) -> [..., k]; a
// 1-D X gives [1, k]; element type of X.
inline void infer_array_feature_extractor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* y = shape_of(n.input(1));
  SymbolicDim k;
  if (y) k = product(y->dims());
  const DataType t = dtype_of(n.input(0));
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), t);
    return;
  }
  if (x->rank() == 0) return ctx.record_error(n, "X must have rank >= 1, got a scalar");
  std::vector<SymbolicDim> d = x->rank() == 1 ? std::vector<SymbolicDim>{SymbolicDim(1)}
                                              : std::vector<SymbolicDim>(x->dims().begin(), x->dims().end() - 1);
  d.push_back(k);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), t);
}
SYMSHAPE_RULES(infer_array_feature_extractor, ai_onnx_ml("ArrayFeatureExtractor", 1));

// Binarizer, Imputer: the input's shape and type.
inline void infer_ml_same(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ml_same, ai_onnx_ml("Binarizer", 1), ai_onnx_ml("Imputer", 1));

// Scaler: the input's shape, FLOAT.
inline void infer_ml_same_float(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_ml_same_float, ai_onnx_ml("Scaler", 1));

// Normalizer: X [N, C] or [C] -> FLOAT of X's shape (onnxruntime's
// normalizer.cc rejects a rank above 2; the spec normalizes along C).
inline void infer_normalizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  if (!ml_detail::batch_dim(ctx, n)) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_normalizer, ai_onnx_ml("Normalizer", 1));

// CastMap: map(int64, string|float) -> [1, C] of cast_to's type; C =
// max_map for SPARSE packing, the map's size (unknown) for DENSE.
inline void infer_cast_map(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Type& in = type_of(n.input(0));
  if (!in.is_unknown() && (in.kind() != Type::Kind::Map || in.elem_type() != DataType::INT64))
    return ctx.record_error(n, {"input must be a map with int64 keys, got ", in});
  const std::string to = ctx.attr_string(n, "cast_to", "TO_FLOAT");
  DataType t;
  if (to == "TO_FLOAT") {
    t = DataType::FLOAT;
  } else if (to == "TO_STRING") {
    t = DataType::STRING;
  } else if (to == "TO_INT64") {
    t = DataType::INT64;
  } else {
    return ctx.record_error(n, {"cast_to must be TO_FLOAT, TO_STRING or TO_INT64, got '", to, "'"});
  }
  const std::string form = ctx.attr_string(n, "map_form", "DENSE");
  SymbolicDim c;
  if (form == "SPARSE") {
    const int64_t max_map = ctx.attr_int(n, "max_map", 1);
    if (max_map < 1) return ctx.record_error(n, {"max_map must be positive, got ", max_map});
    c = SymbolicDim(max_map);
  } else if (form != "DENSE")
    return ctx.record_error(n, {"map_form must be DENSE or SPARSE, got '", form, "'"});
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(1), c}), t);
}
SYMSHAPE_RULES(infer_cast_map, ai_onnx_ml("CastMap", 1));

namespace ml_detail {
// CategoryMapper, LabelEncoder 1: string -> int64 and int64 -> string, same shape.
inline void swap_string_and_int(Context& ctx, Node& n) {
  const DataType in = dtype_of(n.input(0));
  DataType t = DataType::UNDEFINED;
  if (in == DataType::STRING) {
    t = DataType::INT64;
  } else if (in == DataType::INT64) {
    t = DataType::STRING;
  } else if (in != DataType::UNDEFINED)
    return ctx.record_error(n, {"input must be string or int64, got ", to_string(in)});
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), t);
}
}  // namespace ml_detail

// CategoryMapper: string -> int64 and int64 -> string, same shape. Both
// cats_int64s and cats_strings are needed, of one length (ONNX's inference).
inline void infer_category_mapper(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t ints = ml_detail::attr_len(n, "cats_int64s");
  const int64_t strs = ml_detail::attr_len(n, "cats_strings");
  if (ints < 0 || strs < 0) return ctx.usage_error(n, "both cats_int64s and cats_strings must be set");
  if (ints != strs) return ctx.record_error(n, {"cats_int64s has ", ints, " entries but cats_strings ", strs});
  ml_detail::swap_string_and_int(ctx, n);
}
SYMSHAPE_RULES(infer_category_mapper, ai_onnx_ml("CategoryMapper", 1));

// DictVectorizer: map(K, V) -> [1, len(vocabulary)] of V.
inline void infer_dict_vectorizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t ints = ml_detail::attr_len(n, "int64_vocabulary");
  const int64_t strs = ml_detail::attr_len(n, "string_vocabulary");
  if ((ints >= 0) == (strs >= 0))
    return ctx.usage_error(n, "exactly one of string_vocabulary and int64_vocabulary must be set");
  const Type& in = type_of(n.input(0));
  DataType t = DataType::UNDEFINED;
  if (!in.is_unknown()) {
    if (in.kind() != Type::Kind::Map || !in.inner()) return ctx.record_error(n, {"input must be a map, got ", in});
    const DataType key = ints >= 0 ? DataType::INT64 : DataType::STRING;
    if (in.elem_type() != key) return ctx.record_error(n, {"the map's key type must match the vocabulary, got ", in});
    if (in.inner()->is_tensor()) t = in.inner()->elem_type();
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(1), SymbolicDim(ints >= 0 ? ints : strs)}), t);
}
SYMSHAPE_RULES(infer_dict_vectorizer, ai_onnx_ml("DictVectorizer", 1));

// FeatureVectorizer: inputs [N, C_i] -> FLOAT [N, sum(inputdimensions)].
inline void infer_feature_vectorizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const auto dims = ctx.attr_ints(n, "inputdimensions");
  SymbolicDim total;
  if (dims) {
    if (dims->size() != n.inputs.size())
      return ctx.record_error(n, {"inputdimensions has ", dims->size(), " entries for ", n.inputs.size(), " inputs"});
    total = SymbolicDim(0);
    for (int64_t d : *dims) {
      if (d < 0) return ctx.record_error(n, {"inputdimensions has a negative entry ", d});
      total = total + SymbolicDim(d);
    }
  }
  SymbolicDim batch;
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    const Shape* s = shape_of(n.input(i));
    if (s && s->rank() >= 1) {
      batch = s->rank() == 1 ? SymbolicDim(1) : (*s)[0];
      break;
    }
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({batch, total}), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_feature_vectorizer, ai_onnx_ml("FeatureVectorizer", 1));

// LabelEncoder 1: string <-> int64 (classes_strings), same shape.
inline void infer_label_encoder_1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  ml_detail::swap_string_and_int(ctx, n);
}
SYMSHAPE_RULES(infer_label_encoder_1, ai_onnx_ml("LabelEncoder", 1));

// LabelEncoder 2/4: the input's shape; the output's element type is that of
// the values_* attribute (values_tensor's element type at 4). The keys_*
// attribute must have the input's element type (ONNX's inference) and as
// many entries as values_* (ONNX 4's inference, onnxruntime's
// label_encoder.h at 2 and 4).
inline void infer_label_encoder(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  auto count_set = [&](std::initializer_list<const char*> names) {
    int set = 0;
    for (const char* name : names) set += n.attr(name) ? 1 : 0;
    return set;
  };
  const auto value_names = {"values_tensor", "values_strings", "values_int64s", "values_floats"};
  const auto key_names = {"keys_tensor", "keys_strings", "keys_int64s", "keys_floats"};
  if (const int set = count_set(value_names); set != 1)
    return ctx.usage_error(n, {"exactly one values_* attribute must be set, got ", set});
  if (const int set = count_set(key_names); set != 1)
    return ctx.usage_error(n, {"exactly one keys_* attribute must be set, got ", set});
  const ml_detail::ListAttr values = ml_detail::list_attr(n, value_names);
  const ml_detail::ListAttr keys = ml_detail::list_attr(n, key_names);
  const DataType in = dtype_of(n.input(0));
  if (in != DataType::UNDEFINED && keys.type != DataType::UNDEFINED && in != keys.type)
    return ctx.record_error(n, {"the keys are ", to_string(keys.type), " but the input is ", to_string(in)});
  if (keys.count != values.count) return ctx.record_error(n, {keys.count, " keys but ", values.count, " values"});
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), values.type);
}
SYMSHAPE_RULES(infer_label_encoder, ai_onnx_ml("LabelEncoder", 2, 4));

// LinearClassifier: labels [N], scores FLOAT [N, E] with E the number of
// intercepts, or 2 for one intercept and two labels (the binary case). Both
// onnxruntime's linearclassifier.cc and ONNX's inference count intercepts,
// not labels, and give 0 scores without intercepts.
inline void infer_linear_classifier(Context& ctx, Node& n) {
  const auto info = ml_detail::classifier_info(ctx, n, "classlabels_ints");
  if (!info) return;
  const int64_t intercepts = std::max<int64_t>(ml_detail::attr_len(n, "intercepts"), 0);
  ml_detail::classifier_outputs(ctx, n, *info, intercepts == 1 && info->labels == 2 ? 2 : intercepts);
}
SYMSHAPE_RULES(infer_linear_classifier, ai_onnx_ml("LinearClassifier", 1));

// SVMClassifier: labels [N], scores FLOAT [N, E] for E labels; in SVC mode
// (support vectors given through vectors_per_class) without prob_a/prob_b
// the scores are the E*(E-1)/2 pairwise votes, and 2 for E <= 2
// (onnxruntime's svmclassifier.cc, final_scores_per_batch).
inline void infer_svm_classifier(Context& ctx, Node& n) {
  const auto info = ml_detail::classifier_info(ctx, n, "classlabels_ints", ml_detail::EmptyLabels::CountAsGiven);
  if (!info) return;
  int64_t vectors = 0;
  if (const auto per_class = ctx.attr_ints(n, "vectors_per_class")) {
    for (int64_t v : *per_class) vectors += v;
  }
  const bool svc = vectors > 0;
  const bool probabilities = ml_detail::attr_len(n, "prob_a") > 0;
  const int64_t e = info->labels;
  ml_detail::classifier_outputs(ctx, n, *info, svc && !probabilities ? (e > 2 ? e * (e - 1) / 2 : 2) : e);
}
SYMSHAPE_RULES(infer_svm_classifier, ai_onnx_ml("SVMClassifier", 1));

// TreeEnsembleClassifier 1/3/5: labels [N] (classlabels_int64s or
// classlabels_strings), scores FLOAT [N, E], two in the binary case too
// (onnxruntime's tree_ensemble_common.h; ONNX 3's inference).
inline void infer_tree_ensemble_classifier(Context& ctx, Node& n) {
  const auto info = ml_detail::classifier_info(ctx, n, "classlabels_int64s");
  if (!info) return;
  ml_detail::classifier_outputs(ctx, n, *info, info->labels);
}
// Version 5 is deprecated in favour of TreeEnsemble, with the same inputs, attributes and outputs.
SYMSHAPE_RULES(infer_tree_ensemble_classifier, ai_onnx_ml("TreeEnsembleClassifier", 1, 3, 5));

// LinearRegressor: FLOAT [N, targets].
inline void infer_linear_regressor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t targets = ctx.attr_int(n, "targets", 1);
  if (targets < 1) return ctx.record_error(n, {"targets must be positive, got ", targets});
  ml_detail::regressor_output(ctx, n, SymbolicDim(targets), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_linear_regressor, ai_onnx_ml("LinearRegressor", 1));

// SVMRegressor: FLOAT [N, 1] (one target; onnxruntime's svmregressor.cc).
inline void infer_svm_regressor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  ml_detail::regressor_output(ctx, n, SymbolicDim(1), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_svm_regressor, ai_onnx_ml("SVMRegressor", 1));

// TreeEnsembleRegressor 1/3/5: FLOAT [N, n_targets].
inline void infer_tree_ensemble_regressor(Context& ctx, Node& n) {
  ml_detail::tree_ensemble_output(ctx, n, DataType::FLOAT);
}
SYMSHAPE_RULES(infer_tree_ensemble_regressor, ai_onnx_ml("TreeEnsembleRegressor", 1, 3, 5));

// TreeEnsemble 5: X [N, F] -> [N, n_targets] of X's element type.
inline void infer_tree_ensemble(Context& ctx, Node& n) {
  ml_detail::tree_ensemble_output(ctx, n, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_tree_ensemble, ai_onnx_ml("TreeEnsemble", 5));

// OneHotEncoder: FLOAT, X's shape + [number of categories].
inline void infer_one_hot_encoder(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t ints = ml_detail::attr_len(n, "cats_int64s");
  const int64_t strs = ml_detail::attr_len(n, "cats_strings");
  if ((ints >= 0) == (strs >= 0)) return ctx.usage_error(n, "exactly one of cats_int64s and cats_strings must be set");
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::FLOAT);
    return;
  }
  std::vector<SymbolicDim> d = s->dims();
  d.emplace_back(ints >= 0 ? ints : strs);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_one_hot_encoder, ai_onnx_ml("OneHotEncoder", 1));

// ZipMap: FLOAT [N, C] -> seq(map(string|int64, float)), the map values
// being scalars (ONNX's inference); C must equal the number of labels
// (onnxruntime's zipmap.cc).
inline void infer_zip_map(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const auto [ints, strs] = ml_detail::label_lists(n, "classlabels_int64s");
  if ((ints >= 0) == (strs >= 0))
    return ctx.usage_error(n, "exactly one of classlabels_strings and classlabels_int64s must be set");
  if (!ml_detail::batch_dim(ctx, n)) return;
  if (const Shape* s = shape_of(n.input(0))) {
    const SymbolicDim& c = (*s)[s->rank() - 1];
    const int64_t labels = ints >= 0 ? ints : strs;
    if (c.is_int() && c.value() != labels)
      return ctx.record_error(n, {"X has ", c.value(), " columns for ", labels, " labels"});
  }
  const DataType key = ints >= 0 ? DataType::INT64 : DataType::STRING;
  ctx.set_type(n.output(0), Type::sequence(Type::map(key, Type::tensor(DataType::FLOAT, Shape::scalar()))));
}
SYMSHAPE_RULES(infer_zip_map, ai_onnx_ml("ZipMap", 1));

inline constexpr auto kMlRules =
    family_rules<infer_array_feature_extractor_rules, infer_ml_same_rules, infer_ml_same_float_rules,
                 infer_normalizer_rules, infer_cast_map_rules, infer_category_mapper_rules, infer_dict_vectorizer_rules,
                 infer_feature_vectorizer_rules, infer_label_encoder_1_rules, infer_label_encoder_rules,
                 infer_linear_classifier_rules, infer_svm_classifier_rules, infer_tree_ensemble_classifier_rules,
                 infer_linear_regressor_rules, infer_svm_regressor_rules, infer_tree_ensemble_regressor_rules,
                 infer_tree_ensemble_rules, infer_one_hot_encoder_rules, infer_zip_map_rules>("symshape/ops/ml.hpp");

}  // namespace symshape::ops
