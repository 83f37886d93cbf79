// Shape: a rank (possibly unknown) and one SymbolicDim per axis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "symshape/dim.hpp"
#include "symshape/expr.hpp"

namespace symshape {

// A view of a shape's dims (Shape::dims()): a pointer and a length, with
// what the rules use of a vector (iteration, size, indexing) and a copy as
// a std::vector when one is wanted (`std::vector<SymbolicDim> d = s.dims();`).
// Through a non-const shape the dims can be changed in place; the view never
// changes the rank.
template <class T>  // SymbolicDim or const SymbolicDim
class DimRange {
 public:
  using value_type = SymbolicDim;
  using iterator = T*;
  using const_iterator = const SymbolicDim*;

  DimRange(T* data, std::size_t size) : data_(data), size_(size) {}
  operator DimRange<const SymbolicDim>() const { return {data_, size_}; }                               // NOLINT
  operator std::vector<SymbolicDim>() const { return std::vector<SymbolicDim>(data_, data_ + size_); }  // NOLINT

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() const { return data_; }
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  T& front() const { return data_[0]; }
  T& back() const { return data_[size_ - 1]; }

 private:
  T* data_;
  std::size_t size_;
};

class Shape {
 public:
  Shape() noexcept {}                                                                   // unknown rank
  Shape(const std::vector<SymbolicDim>& dims) { copy_from(dims.data(), dims.size()); }  // NOLINT
  Shape(std::vector<SymbolicDim>&& dims) {                                              // NOLINT
    SymbolicDim* to = allocate(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i) new (to + i) SymbolicDim(std::move(dims[i]));
  }
  Shape(std::initializer_list<SymbolicDim> dims) { copy_from(dims.begin(), dims.size()); }
  Shape(const Shape& o) {
    if (o.has_rank_) copy_from(o.data(), o.size_);
  }
  Shape(Shape&& o) noexcept { take(o); }
  Shape& operator=(const Shape& o) {
    if (this != &o) {
      Shape copy(o);
      destroy();
      take(copy);
    }
    return *this;
  }
  Shape& operator=(Shape&& o) noexcept {
    if (this != &o) {
      destroy();
      take(o);
    }
    return *this;
  }
  ~Shape() { destroy(); }

  static Shape of_rank(std::size_t rank) {
    Shape s;
    SymbolicDim* to = s.allocate(rank);
    for (std::size_t i = 0; i < rank; ++i) new (to + i) SymbolicDim();
    return s;
  }
  static Shape scalar() { return Shape(std::vector<SymbolicDim>{}); }

  bool has_rank() const { return has_rank_; }
  int64_t rank() const { return has_rank_ ? static_cast<int64_t>(size_) : -1; }
  DimRange<const SymbolicDim> dims() const { return {data(), size_}; }
  DimRange<SymbolicDim> dims() { return {data(), size_}; }
  const SymbolicDim& operator[](std::size_t i) const { return data()[i]; }
  SymbolicDim& operator[](std::size_t i) { return data()[i]; }
  std::size_t size() const { return size_; }

  bool is_fully_known() const {
    if (!has_rank_) return false;
    for (const auto& d : dims())
      if (d.is_unknown()) return false;
    return true;
  }
  bool is_static() const {
    if (!has_rank_) return false;
    for (const auto& d : dims())
      if (!d.is_int()) return false;
    return true;
  }

  // Concrete dims at the given bindings.
  Result<std::vector<int64_t>> evaluate(const Bindings& bindings) const {
    if (!has_rank_) return Result<std::vector<int64_t>>::failure("unknown rank");
    std::vector<int64_t> out;
    out.reserve(size_);
    for (std::size_t i = 0; i < size_; ++i) {
      const SymbolicDim& d = (*this)[i];
      if (d.is_unknown()) return Result<std::vector<int64_t>>::failure("dim " + std::to_string(i) + " is unknown");
      Result<int64_t> v = symshape::evaluate(d.expr(), bindings);
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
    for (const auto& d : dims())
      if (d.is_known())
        for (auto& s : symshape::free_symbols(d.expr())) out.insert(s);
    return out;
  }

  // "[batch,seq,768]", "[?,3]", or "?" for unknown rank.
  std::string to_string() const {
    if (!has_rank_) return "?";
    std::string out = "[";
    for (std::size_t i = 0; i < size_; ++i) {
      if (i) out += ',';
      out += (*this)[i].to_string();
    }
    return out + "]";
  }

  friend bool operator==(const Shape& a, const Shape& b) {
    if (a.has_rank_ != b.has_rank_ || a.size_ != b.size_) return false;
    const SymbolicDim* x = a.data();  // (operator[] would ask where the dims are at every step)
    const SymbolicDim* y = b.data();
    for (std::size_t i = 0; i < a.size_; ++i)
      if (x[i] != y[i]) return false;
    return true;
  }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  // Up to kInlineDims dims are held in the Shape itself, more in one heap
  // block: most tensors have rank 3 or less, so most shapes allocate nothing
  // (a million-value graph's shapes were a million heap blocks as a
  // std::vector), and a Shape stays 32 bytes.
  static constexpr std::size_t kInlineDims = 3;
  union {
    alignas(SymbolicDim) unsigned char inline_[kInlineDims * sizeof(SymbolicDim)];
    SymbolicDim* heap_ = nullptr;  // (initialized: compilers cannot tell that it is read only when set)
  };
  uint32_t size_ = 0;
  bool has_rank_ = false;

  bool is_inline() const { return size_ <= kInlineDims; }
  SymbolicDim* data() { return is_inline() ? std::launder(reinterpret_cast<SymbolicDim*>(inline_)) : heap_; }
  const SymbolicDim* data() const {
    return is_inline() ? std::launder(reinterpret_cast<const SymbolicDim*>(inline_)) : heap_;
  }
  // Room for n dims (not constructed yet), on an empty Shape; gives it a rank.
  SymbolicDim* allocate(std::size_t n) {
    if (n > UINT32_MAX) {  // unreachable from a model file (its ranks are counts of its bytes): a caller's bug
      std::fputs("symshape: a Shape of 2^32 or more dims\n", stderr);
      std::abort();
    }
    if (n > kInlineDims) heap_ = std::allocator<SymbolicDim>().allocate(n);
    size_ = static_cast<uint32_t>(n);
    has_rank_ = true;
    return data();
  }
  void copy_from(const SymbolicDim* from, std::size_t n) {
    SymbolicDim* to = allocate(n);
    for (std::size_t i = 0; i < n; ++i) new (to + i) SymbolicDim(from[i]);
  }
  // Takes o's dims, leaving o of unknown rank.
  void take(Shape& o) noexcept {
    size_ = o.size_;
    has_rank_ = o.has_rank_;
    if (o.is_inline()) {
      SymbolicDim* to = data();
      SymbolicDim* from = o.data();
      for (std::size_t i = 0; i < size_; ++i) {
        new (to + i) SymbolicDim(std::move(from[i]));
        from[i].~SymbolicDim();
      }
    } else {
      heap_ = o.heap_;
    }
    o.size_ = 0;
    o.has_rank_ = false;
  }
  void destroy() noexcept {
    SymbolicDim* d = data();
    for (std::size_t i = 0; i < size_; ++i) d[i].~SymbolicDim();
    if (!is_inline()) std::allocator<SymbolicDim>().deallocate(heap_, size_);
    size_ = 0;
    has_rank_ = false;
  }
};

}  // namespace symshape
