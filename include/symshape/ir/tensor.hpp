// Small constant tensors: the IR keeps the values of tensors of a few
// elements, which is what shape rules read (shapes, axes, pads, indices,
// Resize scales; the limit is in onnx/load.hpp), never the bulk of weights.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/support/checked_int.hpp"
#include "symshape/support/small_vector.hpp"
#include "symshape/types.hpp"

namespace symshape {

struct Tensor {
  std::string name;
  DataType dtype = DataType::UNDEFINED;
  SmallVector<int64_t, 4> dims;  // inline up to rank 4: no allocation for most tensors
  // Values, when kept: integer and bool tensors in int_data, floating ones in
  // float_data, string tensors in string_data.
  bool has_data = false;
  std::vector<int64_t> int_data;
  std::vector<double> float_data;
  std::vector<std::string> string_data;
  bool external = false;  // data lives in an external file, not read

  // Number of elements, or nullopt on overflow or a negative dim.
  std::optional<int64_t> element_count() const {
    int64_t n = 1;
    for (int64_t d : dims)
      if (d < 0 || !checked::mul(n, d, n)) return std::nullopt;
    return n;
  }

  static Tensor ints(std::vector<int64_t> values, std::vector<int64_t> dims, DataType t = DataType::INT64) {
    Tensor x;
    x.dtype = t;
    x.dims.assign(dims.begin(), dims.end());
    x.int_data = std::move(values);
    x.has_data = true;
    return x;
  }
  // A 1-D int64 tensor.
  static Tensor vector(std::vector<int64_t> values) {
    const auto n = static_cast<int64_t>(values.size());
    return ints(std::move(values), {n});
  }
  static Tensor scalar(int64_t v, DataType t = DataType::INT64) { return ints({v}, {}, t); }
  static Tensor floats(std::vector<double> values, std::vector<int64_t> dims, DataType t = DataType::FLOAT) {
    Tensor x;
    x.dtype = t;
    x.dims.assign(dims.begin(), dims.end());
    x.float_data = std::move(values);
    x.has_data = true;
    return x;
  }

  Type type() const {
    std::vector<SymbolicDim> d(dims.begin(), dims.end());
    return Type::tensor(dtype, Shape(std::move(d)));
  }
};

}  // namespace symshape
