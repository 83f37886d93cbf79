// Element types (with ONNX's TensorProto.DataType codes) and value types:
// tensors, sparse tensors, sequences, optionals and maps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "symshape/shape.hpp"

namespace symshape {

enum class DataType : int32_t {
  UNDEFINED = 0,
  FLOAT = 1,
  UINT8 = 2,
  INT8 = 3,
  UINT16 = 4,
  INT16 = 5,
  INT32 = 6,
  INT64 = 7,
  STRING = 8,
  BOOL = 9,
  FLOAT16 = 10,
  DOUBLE = 11,
  UINT32 = 12,
  UINT64 = 13,
  COMPLEX64 = 14,
  COMPLEX128 = 15,
  BFLOAT16 = 16,
  FLOAT8E4M3FN = 17,
  FLOAT8E4M3FNUZ = 18,
  FLOAT8E5M2 = 19,
  FLOAT8E5M2FNUZ = 20,
  UINT4 = 21,
  INT4 = 22,
  FLOAT4E2M1 = 23,
  FLOAT8E8M0 = 24,
  UINT2 = 25,
  INT2 = 26,
};

inline const char* to_string(DataType t) {
  static const char* const names[] = {
      "undefined", "float",      "uint8",      "int8",         "uint16",         "int16",      "int32",
      "int64",     "string",     "bool",       "float16",      "double",         "uint32",     "uint64",
      "complex64", "complex128", "bfloat16",   "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
      "uint4",     "int4",       "float4e2m1", "float8e8m0",   "uint2",          "int2"};
  const auto i = static_cast<int32_t>(t);
  return i >= 0 && i < static_cast<int32_t>(sizeof(names) / sizeof(names[0])) ? names[i] : "unknown";
}

inline bool is_valid_data_type(int32_t code) { return code >= 0 && code <= 26; }

// Size in bits of one element (0 for strings and undefined).
inline int element_bits(DataType t) {
  switch (t) {
    case DataType::BOOL:
    case DataType::UINT8:
    case DataType::INT8:
    case DataType::FLOAT8E4M3FN:
    case DataType::FLOAT8E4M3FNUZ:
    case DataType::FLOAT8E5M2:
    case DataType::FLOAT8E5M2FNUZ:
    case DataType::FLOAT8E8M0:
      return 8;
    case DataType::UINT16:
    case DataType::INT16:
    case DataType::FLOAT16:
    case DataType::BFLOAT16:
      return 16;
    case DataType::FLOAT:
    case DataType::INT32:
    case DataType::UINT32:
      return 32;
    case DataType::INT64:
    case DataType::UINT64:
    case DataType::DOUBLE:
    case DataType::COMPLEX64:
      return 64;
    case DataType::COMPLEX128:
      return 128;
    case DataType::UINT4:
    case DataType::INT4:
    case DataType::FLOAT4E2M1:
      return 4;
    case DataType::UINT2:
    case DataType::INT2:
      return 2;
    default:
      return 0;
  }
}

inline bool is_integer_type(DataType t) {
  switch (t) {
    case DataType::UINT8:
    case DataType::INT8:
    case DataType::UINT16:
    case DataType::INT16:
    case DataType::INT32:
    case DataType::INT64:
    case DataType::UINT32:
    case DataType::UINT64:
    case DataType::BOOL:
      return true;
    default:
      return false;
  }
}

class Type {
 public:
  enum class Kind : uint8_t { Unknown, Tensor, SparseTensor, Sequence, Optional, Map };

  Type() = default;  // unknown
  // The inner type is copied, not shared: it is rare (sequences, optionals,
  // maps), and a pointer of its own keeps every value's type 8 bytes smaller.
  Type(const Type& o)
      : kind_(o.kind_),
        elem_(o.elem_),
        shape_(o.shape_),
        inner_(o.inner_ ? std::make_unique<const Type>(*o.inner_) : nullptr) {}
  Type(Type&&) noexcept = default;
  Type& operator=(const Type& o) {
    if (this != &o) *this = Type(o);
    return *this;
  }
  Type& operator=(Type&&) noexcept = default;
  ~Type() = default;
  static Type tensor(DataType elem, Shape shape = {}) { return Type(Kind::Tensor, elem, std::move(shape)); }
  static Type sparse_tensor(DataType elem, Shape shape = {}) {
    return Type(Kind::SparseTensor, elem, std::move(shape));
  }
  static Type sequence(Type elem) { return wrap(Kind::Sequence, DataType::UNDEFINED, std::move(elem)); }
  static Type optional(Type elem) { return wrap(Kind::Optional, DataType::UNDEFINED, std::move(elem)); }
  static Type map(DataType key, Type value) { return wrap(Kind::Map, key, std::move(value)); }

  Kind kind() const { return kind_; }
  bool is_unknown() const { return kind_ == Kind::Unknown; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  bool is_tensor_like() const { return kind_ == Kind::Tensor || kind_ == Kind::SparseTensor; }
  // Tensor element type, or map key type.
  DataType elem_type() const { return elem_; }
  const Shape& shape() const { return shape_; }
  Shape& shape() { return shape_; }
  // Element type of a sequence or optional, value type of a map.
  const Type* inner() const { return inner_.get(); }

  std::string to_string() const {
    switch (kind_) {
      case Kind::Unknown:
        return "?";
      case Kind::Tensor:
        return std::string(symshape::to_string(elem_)) + shape_.to_string();
      case Kind::SparseTensor:
        return "sparse(" + std::string(symshape::to_string(elem_)) + shape_.to_string() + ")";
      case Kind::Sequence:
        return "seq(" + inner_->to_string() + ")";
      case Kind::Optional:
        return "optional(" + inner_->to_string() + ")";
      case Kind::Map:
        return "map(" + std::string(symshape::to_string(elem_)) + "," + inner_->to_string() + ")";
    }
    return "?";
  }

  friend bool operator==(const Type& a, const Type& b) {
    if (a.kind_ != b.kind_ || a.elem_ != b.elem_ || !(a.shape_ == b.shape_)) return false;
    if (!a.inner_ || !b.inner_) return a.inner_ == b.inner_;
    return *a.inner_ == *b.inner_;
  }
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  Type(Kind k, DataType elem, Shape shape) : kind_(k), elem_(elem), shape_(std::move(shape)) {}
  static Type wrap(Kind k, DataType elem, Type inner) {
    Type t(k, elem, Shape());
    t.inner_ = std::make_unique<const Type>(std::move(inner));
    return t;
  }
  Kind kind_ = Kind::Unknown;
  DataType elem_ = DataType::UNDEFINED;
  Shape shape_;
  std::unique_ptr<const Type> inner_;
};

}  // namespace symshape
