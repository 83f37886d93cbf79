// A value or nothing, for the rules' own helper results (a parsed window
// spec, a loop's arity, einsum labels). It mirrors the std::optional subset
// those helpers use. Why not std::optional: GCC 12 spends about 5 ms and
// 1 MB in every unit that includes the rules on each distinct std::optional<T>
// (its constructors are constrained templates), and the rule headers are
// included whole by every header-only user; Maybe<T> costs a tenth of that
// (docs/benchmarks.md, "Build cost"). The public API keeps std::optional.
//
// T must be default-constructible: an empty Maybe holds a T{} that is never
// read.
#pragma once

#include <optional>
#include <utility>

namespace symshape {

template <class T>
class Maybe {
 public:
  using value_type = T;

  Maybe() = default;
  Maybe(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): as std::optional
  // Copies from lvalues, moves from rvalues (a returned local moves).
  Maybe(const T& value) : value_(value), has_value_(true) {}        // NOLINT(google-explicit-constructor)
  Maybe(T&& value) : value_(std::move(value)), has_value_(true) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const { return has_value_; }
  explicit operator bool() const { return has_value_; }

  // Like std::optional's, these expect a value.
  T& operator*() & { return value_; }
  const T& operator*() const& { return value_; }
  T&& operator*() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }

  // Equal when both are empty or both hold equal values; a T or std::nullopt
  // on either side converts to a Maybe.
  friend bool operator==(const Maybe& a, const Maybe& b) {
    return a.has_value_ == b.has_value_ && (!a.has_value_ || a.value_ == b.value_);
  }
  friend bool operator!=(const Maybe& a, const Maybe& b) { return !(a == b); }

 private:
  T value_{};
  bool has_value_ = false;
};

}  // namespace symshape
