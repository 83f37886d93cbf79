// A vector of trivially copyable elements (value pointers) that keeps up to
// N of them inline: most nodes have at most four inputs and two outputs, so
// loading a graph needs no heap allocation for them. Size and capacity are
// 32-bit (nothing in a model file, under 2 GB, has 2^32 elements), and the
// heap pointer shares its bytes with the inline elements: a node's input and
// output lists take 64 bytes, where 64-bit sizes and a pointer of its own
// would take 96.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <type_traits>

namespace symshape {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable elements only");
  static_assert(N > 0 && N <= UINT32_MAX, "SmallVector needs an inline capacity");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return capacity_; }
  T* data() { return is_inline() ? inline_ : heap_; }
  const T* data() const { return is_inline() ? inline_ : heap_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }

  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n > capacity_) grow_to(n);
  }
  void push_back(T v) {
    if (size_ == capacity_) grow_to(std::size_t{capacity_} * 2);
    data()[size_++] = v;
  }
  void resize(std::size_t n, T fill = T()) {
    reserve(n);
    T* d = data();
    for (std::size_t i = size_; i < n; ++i) d[i] = fill;
    size_ = static_cast<uint32_t>(n);  // n <= capacity_
  }
  iterator insert(const_iterator pos, T v) {
    const std::size_t at = static_cast<std::size_t>(pos - data());
    push_back(v);
    T* d = data();
    std::rotate(d + at, d + size_ - 1, d + size_);
    return d + at;
  }
  template <class It>
  void assign(It first, It last) {
    clear();
    reserve(static_cast<std::size_t>(std::distance(first, last)));
    T* d = data();
    for (; first != last; ++first) d[size_++] = *first;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  // The heap holds the elements once they outgrow N, and then only.
  bool is_inline() const { return capacity_ == N; }
  void grow_to(std::size_t n) {
    if (n > UINT32_MAX) {  // unreachable from a model file: a caller's bug (the core has no exceptions)
      std::fputs("symshape: SmallVector grown past 2^32 - 1 elements\n", stderr);
      std::abort();
    }
    T* bigger = std::allocator<T>().allocate(n);
    if (size_) std::memcpy(static_cast<void*>(bigger), static_cast<const void*>(data()), size_ * sizeof(T));
    release();
    heap_ = bigger;
    capacity_ = static_cast<uint32_t>(n);
  }
  void release() {
    if (!is_inline()) std::allocator<T>().deallocate(heap_, capacity_);
    capacity_ = N;
  }
  // Takes o's elements (copying inline ones) and leaves o empty.
  void take(SmallVector& o) {
    if (o.is_inline()) {
      std::memcpy(static_cast<void*>(inline_), static_cast<const void*>(o.inline_), o.size_ * sizeof(T));
    } else {
      heap_ = o.heap_;
      capacity_ = o.capacity_;
      o.capacity_ = N;
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = N;  // N: the elements are inline_; more: they are on the heap
  union {
    T inline_[N] = {};
    T* heap_;
  };
};

}  // namespace symshape
