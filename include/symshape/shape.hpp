// Shape: a rank (possibly unknown) and one SymbolicDim per axis.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "symshape/dim.hpp"
#include "symshape/expr.hpp"

namespace symshape {

class Shape {
 public:
  Shape() = default;                                                                 // unknown rank
  Shape(std::vector<SymbolicDim> dims) : dims_(std::move(dims)), has_rank_(true) {}  // NOLINT
  Shape(std::initializer_list<SymbolicDim> dims) : dims_(dims), has_rank_(true) {}
  static Shape of_rank(std::size_t rank) { return Shape(std::vector<SymbolicDim>(rank)); }
  static Shape scalar() { return Shape(std::vector<SymbolicDim>{}); }

  bool has_rank() const { return has_rank_; }
  int64_t rank() const { return has_rank_ ? static_cast<int64_t>(dims_.size()) : -1; }
  const std::vector<SymbolicDim>& dims() const { return dims_; }
  std::vector<SymbolicDim>& dims() { return dims_; }
  const SymbolicDim& operator[](std::size_t i) const { return dims_[i]; }
  SymbolicDim& operator[](std::size_t i) { return dims_[i]; }
  std::size_t size() const { return dims_.size(); }

  bool is_fully_known() const {
    if (!has_rank_) return false;
    for (const auto& d : dims_)
      if (d.is_unknown()) return false;
    return true;
  }
  bool is_static() const {
    if (!has_rank_) return false;
    for (const auto& d : dims_)
      if (!d.is_int()) return false;
    return true;
  }

  // Concrete dims at the given bindings.
  Result<std::vector<int64_t>> evaluate(const Bindings& bindings) const {
    if (!has_rank_) return Result<std::vector<int64_t>>::failure("unknown rank");
    std::vector<int64_t> out;
    out.reserve(dims_.size());
    for (std::size_t i = 0; i < dims_.size(); ++i) {
      if (dims_[i].is_unknown())
        return Result<std::vector<int64_t>>::failure("dim " + std::to_string(i) + " is unknown");
      Result<int64_t> v = symshape::evaluate(dims_[i].expr(), bindings);
      if (!v) return Result<std::vector<int64_t>>::failure("dim " + std::to_string(i) + ": " + v.error());
      out.push_back(*v);
    }
    return out;
  }

  // Dims are canonical on construction; simplify() re-canonicalises dims given
  // as text and exists for symmetry with the reference design.
  Shape simplify() const { return *this; }

  std::set<std::string> free_symbols() const {
    std::set<std::string> out;
    for (const auto& d : dims_)
      if (d.is_known())
        for (auto& s : symshape::free_symbols(d.expr())) out.insert(s);
    return out;
  }

  // "[batch,seq,768]", "[?,3]", or "?" for unknown rank.
  std::string to_string() const {
    if (!has_rank_) return "?";
    std::string out = "[";
    for (std::size_t i = 0; i < dims_.size(); ++i) {
      if (i) out += ',';
      out += dims_[i].to_string();
    }
    return out + "]";
  }

  friend bool operator==(const Shape& a, const Shape& b) { return a.has_rank_ == b.has_rank_ && a.dims_ == b.dims_; }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  std::vector<SymbolicDim> dims_;
  bool has_rank_ = false;
};

}  // namespace symshape
