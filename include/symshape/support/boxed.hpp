// Fields that cost one pointer while they hold nothing: the data-propagation
// fields of Value and the list fields of Attribute are empty for almost every
// value and attribute of a model, so their contents live on the heap only when
// set. BoxedOptional mirrors the std::optional subset the IR uses,
// BoxedContainer (BoxedVector, BoxedString) the std::vector / std::string
// subset; copies are deep, a move steals the contents and leaves the source
// empty.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace symshape {

// A std::optional<T> that keeps its value on the heap: null is no value.
template <class T>
class BoxedOptional {
 public:
  using value_type = T;

  BoxedOptional() = default;
  BoxedOptional(std::nullopt_t) {}                           // NOLINT(google-explicit-constructor): as std::optional
  BoxedOptional(const T& v) : p_(std::make_unique<T>(v)) {}  // NOLINT(google-explicit-constructor)
  BoxedOptional(T&& v) : p_(std::make_unique<T>(std::move(v))) {}  // NOLINT(google-explicit-constructor)
  BoxedOptional(const std::optional<T>& o) { *this = o; }          // NOLINT(google-explicit-constructor)
  BoxedOptional(const BoxedOptional& o) { *this = o; }
  BoxedOptional(BoxedOptional&& o) noexcept = default;
  ~BoxedOptional() = default;

  BoxedOptional& operator=(const BoxedOptional& o) {
    if (this != &o) o ? assign(*o) : reset();
    return *this;
  }
  BoxedOptional& operator=(BoxedOptional&& o) noexcept = default;
  BoxedOptional& operator=(std::nullopt_t) {
    reset();
    return *this;
  }
  BoxedOptional& operator=(const T& v) {
    assign(v);
    return *this;
  }
  BoxedOptional& operator=(T&& v) {
    assign(std::move(v));
    return *this;
  }
  BoxedOptional& operator=(const std::optional<T>& o) {
    o ? assign(*o) : reset();
    return *this;
  }
  BoxedOptional& operator=(std::optional<T>&& o) {
    o ? assign(std::move(*o)) : reset();
    return *this;
  }

  // A copy as a std::optional, for code that returns or stores one.
  operator std::optional<T>() const {  // NOLINT(google-explicit-constructor)
    return p_ ? std::optional<T>(*p_) : std::nullopt;
  }

  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }
  // Like std::optional::value, but the core has no exceptions: reading an
  // empty box is a caller's bug and stops the program.
  T& value() {
    if (!p_) empty_value();
    return *p_;
  }
  const T& value() const {
    if (!p_) empty_value();
    return *p_;
  }

  void reset() { p_.reset(); }
  template <class... Args>
  T& emplace(Args&&... args) {
    p_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *p_;
  }

 private:
  // Reuses the allocation when there is one.
  template <class U>
  void assign(U&& v) {
    if (p_)
      *p_ = std::forward<U>(v);
    else
      p_ = std::make_unique<T>(std::forward<U>(v));
  }
  [[noreturn]] static void empty_value() {
    std::fputs("symshape: value() of an empty BoxedOptional\n", stderr);
    std::abort();
  }

  std::unique_ptr<T> p_;
};

// A container C on the heap, null while it holds nothing (an empty box reads
// as an empty C). It converts to const C& for code that takes the container.
template <class C>
class BoxedContainer {
 public:
  using container_type = C;
  using value_type = typename C::value_type;
  using size_type = std::size_t;
  using reference = value_type&;
  using const_reference = const value_type&;
  using iterator = typename C::iterator;
  using const_iterator = typename C::const_iterator;

  BoxedContainer() = default;
  BoxedContainer(const C& c) { *this = c; }        // NOLINT(google-explicit-constructor): as C
  BoxedContainer(C&& c) { *this = std::move(c); }  // NOLINT(google-explicit-constructor)
  BoxedContainer(std::initializer_list<value_type> init) { assign(init.begin(), init.end()); }
  BoxedContainer(const BoxedContainer& o) { *this = o.get(); }
  BoxedContainer(BoxedContainer&& o) noexcept = default;
  ~BoxedContainer() = default;

  BoxedContainer& operator=(const BoxedContainer& o) {
    if (this != &o) *this = o.get();
    return *this;
  }
  BoxedContainer& operator=(BoxedContainer&& o) noexcept = default;
  BoxedContainer& operator=(const C& c) {
    if (c.empty())
      p_.reset();
    else if (p_)
      *p_ = c;
    else
      p_ = std::make_unique<C>(c);
    return *this;
  }
  BoxedContainer& operator=(C&& c) {
    if (c.empty())
      p_.reset();
    else
      p_ = std::make_unique<C>(std::move(c));
    return *this;
  }

  // The contents as a C (a shared empty one for an empty box).
  const C& get() const { return p_ ? *p_ : empty_container(); }
  operator const C&() const { return get(); }  // NOLINT(google-explicit-constructor)

  std::size_t size() const { return p_ ? p_->size() : 0; }
  bool empty() const { return !p_ || p_->empty(); }
  const_iterator begin() const { return get().begin(); }
  const_iterator end() const { return get().end(); }
  // Value-initialized iterators compare equal: an empty range without a box.
  iterator begin() { return p_ ? p_->begin() : iterator(); }
  iterator end() { return p_ ? p_->end() : iterator(); }
  reference operator[](std::size_t i) { return (*p_)[i]; }
  const_reference operator[](std::size_t i) const { return (*p_)[i]; }
  reference front() { return p_->front(); }
  const_reference front() const { return p_->front(); }
  reference back() { return p_->back(); }
  const_reference back() const { return p_->back(); }

  void clear() { p_.reset(); }
  void reserve(std::size_t n) {
    if (n > 0) box().reserve(n);
  }
  void push_back(const value_type& v) { box().push_back(v); }
  void push_back(value_type&& v) { box().push_back(std::move(v)); }
  template <class... Args>
  reference emplace_back(Args&&... args) {
    return box().emplace_back(std::forward<Args>(args)...);
  }
  template <class It>
  void assign(It first, It last) {
    if (first == last)
      p_.reset();
    else
      box().assign(first, last);
  }

  friend bool operator==(const BoxedContainer& a, const BoxedContainer& b) { return a.get() == b.get(); }
  friend bool operator==(const BoxedContainer& a, const C& b) { return a.get() == b; }
  friend bool operator==(const C& a, const BoxedContainer& b) { return a == b.get(); }
  friend bool operator!=(const BoxedContainer& a, const BoxedContainer& b) { return !(a == b); }
  friend bool operator!=(const BoxedContainer& a, const C& b) { return !(a == b); }
  friend bool operator!=(const C& a, const BoxedContainer& b) { return !(a == b); }

 private:
  static const C& empty_container() {
    static const C empty;
    return empty;
  }
  C& box() {
    if (!p_) p_ = std::make_unique<C>();
    return *p_;
  }

  std::unique_ptr<C> p_;
};

template <class T>
using BoxedVector = BoxedContainer<std::vector<T>>;

// A string that costs one pointer while empty; it also reads as a
// std::string_view, as the names it holds are looked up by view.
class BoxedString : public BoxedContainer<std::string> {
 public:
  using BoxedContainer::BoxedContainer;
  using BoxedContainer::operator=;
  operator std::string_view() const { return get(); }  // NOLINT(google-explicit-constructor)
};

}  // namespace symshape
