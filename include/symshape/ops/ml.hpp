// ai.onnx.ml: the classic-ML operators (ArrayFeatureExtractor, Binarizer,
// CastMap, CategoryMapper, DictVectorizer, FeatureVectorizer, Imputer,
// LabelEncoder 1/2/4, LinearClassifier/Regressor, Normalizer, OneHotEncoder,
// SVMClassifier/Regressor, Scaler, TreeEnsembleClassifier/Regressor 1/3,
// TreeEnsemble 5, ZipMap). Most take X as [N, C] (or [C], one example).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"

namespace symshape::ops {

namespace ml_detail {
// The batch dim N of X ([N, C] -> N, [C] -> 1); unknown when X's rank is
// unknown. False (after an error) when X's rank is not 1 or 2.
inline bool batch_dim(Context& ctx, const Node& n, SymbolicDim& out) {
  const Shape* x = shape_of(n.input(0));
  out = SymbolicDim();
  if (!x) return true;
  if (x->rank() == 1) {
    out = SymbolicDim(1);
  } else if (x->rank() == 2) {
    out = (*x)[0];
  } else {
    ctx.record_error(n, "X must be [N, C] or [C], got shape " + x->to_string());
    return false;
  }
  return true;
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

// Classifier labels: INT64 from classlabels_ints / classlabels_int64s,
// STRING from classlabels_strings; E = the number of labels (-1 if none).
inline bool class_labels(Context& ctx, const Node& n, DataType& t, int64_t& count) {
  const int64_t ints = std::max(attr_len(n, "classlabels_ints"), attr_len(n, "classlabels_int64s"));
  const int64_t strs = attr_len(n, "classlabels_strings");
  if (ints >= 0 && strs >= 0) {
    ctx.record_error(n, "only one of the classlabels_* attributes may be set");
    return false;
  }
  if (ints < 0 && strs < 0) {
    ctx.usage_error(n, "missing class labels (classlabels_strings or classlabels_int64s)");
    return false;
  }
  t = strs >= 0 ? DataType::STRING : DataType::INT64;
  count = strs >= 0 ? strs : ints;
  return true;
}

// Classifiers: Y labels [N], Z float scores [N, E].
inline void classifier_outputs(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  DataType t;
  int64_t e;
  if (!class_labels(ctx, n, t, e)) return;
  SymbolicDim batch;
  if (!batch_dim(ctx, n, batch)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({batch}), t);
  if (n.output(1)) ctx.set_shape_and_dtype(n.output(1), Shape({batch, SymbolicDim(e)}), DataType::FLOAT);
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
  if (x->rank() == 0) {
    ctx.record_error(n, "X must have rank >= 1, got a scalar");
    return;
  }
  std::vector<SymbolicDim> d = x->rank() == 1 ? std::vector<SymbolicDim>{SymbolicDim(1)}
                                              : std::vector<SymbolicDim>(x->dims().begin(), x->dims().end() - 1);
  d.push_back(k);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), t);
}

// Binarizer, Imputer: the input's shape and type.
inline void infer_ml_same(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  propagate_type(ctx, n);
}

// Normalizer, Scaler: the input's shape, FLOAT.
inline void infer_ml_same_float(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), DataType::FLOAT);
}

// CastMap: map(int64, string|float) -> [1, C] of cast_to's type; C =
// max_map for SPARSE packing, the map's size (unknown) for DENSE.
inline void infer_cast_map(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Type& in = type_of(n.input(0));
  if (!in.is_unknown() && (in.kind() != Type::Kind::Map || in.elem_type() != DataType::INT64)) {
    ctx.record_error(n, "input must be a map with int64 keys, got " + in.to_string());
    return;
  }
  const std::string to = n.attr_string("cast_to", "TO_FLOAT");
  DataType t;
  if (to == "TO_FLOAT") {
    t = DataType::FLOAT;
  } else if (to == "TO_STRING") {
    t = DataType::STRING;
  } else if (to == "TO_INT64") {
    t = DataType::INT64;
  } else {
    ctx.record_error(n, "cast_to must be TO_FLOAT, TO_STRING or TO_INT64, got '" + to + "'");
    return;
  }
  const std::string form = n.attr_string("map_form", "DENSE");
  SymbolicDim c;
  if (form == "SPARSE") {
    const int64_t max_map = n.attr_int("max_map", 1);
    if (max_map < 1) {
      ctx.record_error(n, "max_map must be positive, got " + std::to_string(max_map));
      return;
    }
    c = SymbolicDim(max_map);
  } else if (form != "DENSE") {
    ctx.record_error(n, "map_form must be DENSE or SPARSE, got '" + form + "'");
    return;
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(1), c}), t);
}

// CategoryMapper: string -> int64 and int64 -> string, same shape.
inline void infer_category_mapper(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const DataType in = dtype_of(n.input(0));
  DataType t = DataType::UNDEFINED;
  if (in == DataType::STRING) {
    t = DataType::INT64;
  } else if (in == DataType::INT64) {
    t = DataType::STRING;
  } else if (in != DataType::UNDEFINED) {
    ctx.record_error(n, std::string("input must be string or int64, got ") + to_string(in));
    return;
  }
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), t);
}

// DictVectorizer: map(K, V) -> [1, len(vocabulary)] of V.
inline void infer_dict_vectorizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t ints = ml_detail::attr_len(n, "int64_vocabulary");
  const int64_t strs = ml_detail::attr_len(n, "string_vocabulary");
  if ((ints >= 0) == (strs >= 0)) {
    ctx.usage_error(n, "exactly one of string_vocabulary and int64_vocabulary must be set");
    return;
  }
  const Type& in = type_of(n.input(0));
  DataType t = DataType::UNDEFINED;
  if (!in.is_unknown()) {
    if (in.kind() != Type::Kind::Map || !in.inner()) {
      ctx.record_error(n, "input must be a map, got " + in.to_string());
      return;
    }
    const DataType key = ints >= 0 ? DataType::INT64 : DataType::STRING;
    if (in.elem_type() != key) {
      ctx.record_error(n, "the map's key type must match the vocabulary, got " + in.to_string());
      return;
    }
    if (in.inner()->is_tensor()) t = in.inner()->elem_type();
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(1), SymbolicDim(ints >= 0 ? ints : strs)}), t);
}

// FeatureVectorizer: inputs [N, C_i] -> FLOAT [N, sum(inputdimensions)].
inline void infer_feature_vectorizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const auto dims = n.attr_ints("inputdimensions");
  SymbolicDim total;
  if (dims) {
    if (dims->size() != n.inputs.size()) {
      ctx.record_error(n, "inputdimensions has " + std::to_string(dims->size()) + " entries for " +
                              std::to_string(n.inputs.size()) + " inputs");
      return;
    }
    total = SymbolicDim(0);
    for (int64_t d : *dims) {
      if (d < 0) {
        ctx.record_error(n, "inputdimensions has a negative entry " + std::to_string(d));
        return;
      }
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

// LabelEncoder 1: string <-> int64 (classes_strings), same shape.
inline void infer_label_encoder_1(Context& ctx, Node& n) { infer_category_mapper(ctx, n); }

// LabelEncoder 2/4: the output's element type is that of the values_*
// attribute (values_tensor's element type at 4), same shape.
inline void infer_label_encoder(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  DataType t = DataType::UNDEFINED;
  int set = 0;
  if (n.attr("values_strings")) { t = DataType::STRING; ++set; }
  if (n.attr("values_int64s")) { t = DataType::INT64; ++set; }
  if (n.attr("values_floats")) { t = DataType::FLOAT; ++set; }
  if (const Attribute* a = n.attr("values_tensor"); a && a->kind == Attribute::Kind::Tensor && !a->tensors.empty()) {
    t = a->tensors[0].dtype;
    ++set;
  }
  if (set != 1) {
    ctx.usage_error(n, "exactly one values_* attribute must be set, got " + std::to_string(set));
    return;
  }
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), t);
}

// LinearClassifier, SVMClassifier, TreeEnsembleClassifier: labels [N]
// (int64 or string), scores FLOAT [N, number of classes].
inline void infer_ml_classifier(Context& ctx, Node& n) { ml_detail::classifier_outputs(ctx, n); }

// LinearRegressor: FLOAT [N, targets].
inline void infer_linear_regressor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t targets = n.attr_int("targets", 1);
  if (targets < 1) {
    ctx.record_error(n, "targets must be positive, got " + std::to_string(targets));
    return;
  }
  SymbolicDim batch;
  if (!ml_detail::batch_dim(ctx, n, batch)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({batch, SymbolicDim(targets)}), DataType::FLOAT);
}

// SVMRegressor: FLOAT [N, 1].
inline void infer_svm_regressor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  SymbolicDim batch;
  if (!ml_detail::batch_dim(ctx, n, batch)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({batch, SymbolicDim(1)}), DataType::FLOAT);
}

// TreeEnsembleRegressor: FLOAT [N, n_targets].
inline void infer_tree_ensemble_regressor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t targets = n.attr_int("n_targets", -1);
  if (n.attr("n_targets") && targets < 1) {
    ctx.record_error(n, "n_targets must be positive, got " + std::to_string(targets));
    return;
  }
  SymbolicDim batch;
  if (!ml_detail::batch_dim(ctx, n, batch)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({batch, targets > 0 ? SymbolicDim(targets) : SymbolicDim()}),
                          DataType::FLOAT);
}

// TreeEnsemble 5: X [N, F] -> [N, n_targets] of X's element type.
inline void infer_tree_ensemble(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t targets = n.attr_int("n_targets", -1);
  if (n.attr("n_targets") && targets < 1) {
    ctx.record_error(n, "n_targets must be positive, got " + std::to_string(targets));
    return;
  }
  SymbolicDim batch;
  if (!ml_detail::batch_dim(ctx, n, batch)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({batch, targets > 0 ? SymbolicDim(targets) : SymbolicDim()}),
                          dtype_of(n.input(0)));
}

// OneHotEncoder: FLOAT, X's shape + [number of categories].
inline void infer_one_hot_encoder(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t ints = ml_detail::attr_len(n, "cats_int64s");
  const int64_t strs = ml_detail::attr_len(n, "cats_strings");
  if ((ints >= 0) == (strs >= 0)) {
    ctx.usage_error(n, "exactly one of cats_int64s and cats_strings must be set");
    return;
  }
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::FLOAT);
    return;
  }
  std::vector<SymbolicDim> d = s->dims();
  d.emplace_back(ints >= 0 ? ints : strs);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), DataType::FLOAT);
}

// ZipMap: FLOAT [N, C] -> seq(map(string|int64, float)).
inline void infer_zip_map(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t ints = ml_detail::attr_len(n, "classlabels_int64s");
  const int64_t strs = ml_detail::attr_len(n, "classlabels_strings");
  if ((ints >= 0) == (strs >= 0)) {
    ctx.usage_error(n, "exactly one of classlabels_strings and classlabels_int64s must be set");
    return;
  }
  if (const Shape* s = shape_of(n.input(0)); s && s->rank() != 1 && s->rank() != 2) {
    ctx.record_error(n, "X must be [N, C] or [C], got shape " + s->to_string());
    return;
  }
  const DataType key = ints >= 0 ? DataType::INT64 : DataType::STRING;
  ctx.set_type(n.output(0), Type::sequence(Type::map(key, Type::tensor(DataType::FLOAT))));
}

inline constexpr auto kMlRules = make_rules({
    RuleEntry{"ai.onnx.ml", "ArrayFeatureExtractor", 1, &infer_array_feature_extractor, "infer_array_feature_extractor"},
    RuleEntry{"ai.onnx.ml", "Binarizer", 1, &infer_ml_same, "infer_ml_same"},
    RuleEntry{"ai.onnx.ml", "CastMap", 1, &infer_cast_map, "infer_cast_map"},
    RuleEntry{"ai.onnx.ml", "CategoryMapper", 1, &infer_category_mapper, "infer_category_mapper"},
    RuleEntry{"ai.onnx.ml", "DictVectorizer", 1, &infer_dict_vectorizer, "infer_dict_vectorizer"},
    RuleEntry{"ai.onnx.ml", "FeatureVectorizer", 1, &infer_feature_vectorizer, "infer_feature_vectorizer"},
    RuleEntry{"ai.onnx.ml", "Imputer", 1, &infer_ml_same, "infer_ml_same"},
    RuleEntry{"ai.onnx.ml", "LabelEncoder", 1, &infer_label_encoder_1, "infer_label_encoder_1"},
    RuleEntry{"ai.onnx.ml", "LabelEncoder", 2, &infer_label_encoder, "infer_label_encoder"},
    RuleEntry{"ai.onnx.ml", "LabelEncoder", 4, &infer_label_encoder, "infer_label_encoder"},
    RuleEntry{"ai.onnx.ml", "LinearClassifier", 1, &infer_ml_classifier, "infer_ml_classifier"},
    RuleEntry{"ai.onnx.ml", "LinearRegressor", 1, &infer_linear_regressor, "infer_linear_regressor"},
    RuleEntry{"ai.onnx.ml", "Normalizer", 1, &infer_ml_same_float, "infer_ml_same_float"},
    RuleEntry{"ai.onnx.ml", "OneHotEncoder", 1, &infer_one_hot_encoder, "infer_one_hot_encoder"},
    RuleEntry{"ai.onnx.ml", "SVMClassifier", 1, &infer_ml_classifier, "infer_ml_classifier"},
    RuleEntry{"ai.onnx.ml", "SVMRegressor", 1, &infer_svm_regressor, "infer_svm_regressor"},
    RuleEntry{"ai.onnx.ml", "Scaler", 1, &infer_ml_same_float, "infer_ml_same_float"},
    RuleEntry{"ai.onnx.ml", "TreeEnsemble", 5, &infer_tree_ensemble, "infer_tree_ensemble"},
    RuleEntry{"ai.onnx.ml", "TreeEnsembleClassifier", 1, &infer_ml_classifier, "infer_ml_classifier"},
    RuleEntry{"ai.onnx.ml", "TreeEnsembleClassifier", 3, &infer_ml_classifier, "infer_ml_classifier"},
    RuleEntry{"ai.onnx.ml", "TreeEnsembleRegressor", 1, &infer_tree_ensemble_regressor, "infer_tree_ensemble_regressor"},
    RuleEntry{"ai.onnx.ml", "TreeEnsembleRegressor", 3, &infer_tree_ensemble_regressor, "infer_tree_ensemble_regressor"},
    RuleEntry{"ai.onnx.ml", "ZipMap", 1, &infer_zip_map, "infer_zip_map"},
});

}  // namespace symshape::ops
