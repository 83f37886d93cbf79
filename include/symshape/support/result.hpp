// A value or an error message, for a core that builds without exceptions.
#pragma once

#include <string>
#include <utility>

namespace symshape {

template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)), ok_(true) {}  // NOLINT: implicit by design
  static Result failure(std::string message) {
    Result r;
    r.error_ = std::move(message);
    return r;
  }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const T& value() const { return value_; }
  T& value() { return value_; }
  const T& operator*() const { return value_; }
  const T* operator->() const { return &value_; }
  const std::string& error() const { return error_; }

 private:
  Result() = default;
  T value_{};
  std::string error_;
  bool ok_ = false;
};

}  // namespace symshape
