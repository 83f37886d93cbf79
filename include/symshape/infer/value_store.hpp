// The known values of small tensors as rules propagate them (partial data
// propagation: Shape -> Gather -> Concat -> Reshape), as integers, symbolic
// dims or fractions, and the element bounds of longer integer tensors.
// Context derives from it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <vector>

#include "symshape/dim.hpp"
#include "symshape/ir/graph.hpp"

namespace symshape {

class ValueStore {
 public:
  // ---- element bounds ----
  // The smallest and largest element of an integer tensor too long to list
  // (a Range of symbolic length: `past` and `past+seq-1`), for the rows a
  // Gather of it reads. Few values have them: they are kept here, not in
  // every Value.
  struct ElementBounds {
    SymbolicDim lo, hi;
  };
  void set_element_bounds(const Value* v, const SymbolicDim& lo, const SymbolicDim& hi) {
    if (v && lo.is_known() && hi.is_known()) element_bounds_[v] = ElementBounds{lo, hi};
  }
  // For rules that keep the elements (Unsqueeze, Reshape, Cast to int64,
  // Expand, ...): the output has the bounds of the input.
  void keep_element_bounds(const Value* from, const Value* to) {
    if (!from || !to) return;
    auto it = element_bounds_.find(from);
    if (it != element_bounds_.end()) element_bounds_[to] = it->second;
  }
  const ElementBounds* element_bounds(const Value* v) const {
    auto it = element_bounds_.find(v);
    return it == element_bounds_.end() ? nullptr : &it->second;
  }
  // A value inferred again (a subgraph's) starts without bounds.
  void forget_element_bounds(const Value* v) { element_bounds_.erase(v); }

  // ---- partial data propagation ----
  // Known element values of a small integer tensor: the propagated symbolic
  // value, else the data of a constant initializer.
  std::optional<std::vector<SymbolicDim>> symbolic_value(const Value* v) const {
    if (!v) return std::nullopt;
    if (v->symbolic_value) {
      if (v->fraction) return std::nullopt;  // a fraction: rational_value only
      return v->symbolic_value;
    }
    if (const std::vector<int64_t>* data = small_int_initializer(v))
      return std::vector<SymbolicDim>(data->begin(), data->end());
    return std::nullopt;
  }
  // Only integer values, or nullopt. (Read in place: going through
  // symbolic_value would copy the dims first.)
  std::optional<std::vector<int64_t>> int_values(const Value* v) const {
    if (!v) return std::nullopt;
    if (v->symbolic_value) {
      if (v->fraction) return std::nullopt;
      std::vector<int64_t> out;
      out.reserve(v->symbolic_value->size());
      for (const auto& d : *v->symbolic_value) {
        if (!d.is_int()) return std::nullopt;
        out.push_back(d.value());
      }
      return out;
    }
    if (const std::vector<int64_t>* data = small_int_initializer(v)) return *data;
    return std::nullopt;
  }
  // The data of v's constant integer initializer, when it is small enough to
  // be propagated as a value.
  static const std::vector<int64_t>* small_int_initializer(const Value* v) {
    const Tensor* t = v->initializer;
    if (!t || !t->has_data || !is_integer_type(t->dtype) || t->int_data.size() > kMaxSymbolicValueSize) return nullptr;
    return &t->int_data;
  }
  void set_symbolic_value(Value* v, std::vector<SymbolicDim> data) { set_rational_value(v, {std::move(data), 1}); }

  // Known values of a float tensor as fractions with one common positive
  // denominator: element i is num[i] / den (den = 1 for whole numbers, which
  // symbolic_value also gives). Floats in initializers count when each is
  // p / 2^k with k <= 10 (exact in binary floating point).
  using Rationals = symshape::Rationals;
  // Whether v has data a value can come from (a propagated value, or a
  // constant initializer's); rational_value and symbolic_value are nullopt
  // without it, and cost nothing to skip.
  static bool carries_data(const Value* v) {
    return v && (v->symbolic_value || (v->initializer && v->initializer->has_data));
  }
  // v's propagated value read in place, where rational_value would copy it:
  // its numerators (null when v has no propagated value, which includes a
  // constant initializer's data: rational_value converts those) and its
  // denominator.
  struct StoredRationals {
    const std::vector<SymbolicDim>* num = nullptr;
    int64_t den = 1;
  };
  static StoredRationals stored_rationals(const Value* v) {
    if (!v || !v->symbolic_value) return {};
    if (!v->fraction) return {&*v->symbolic_value, 1};
    if (v->fraction->num.size() != v->symbolic_value->size()) return {};
    return {&v->fraction->num, v->fraction->den};
  }
  // v's rationals, read in place where they are stored, else converted by
  // rational_value into `held`, which must outlive the result; a null num
  // when v has none.
  StoredRationals read_rationals(const Value* v, std::optional<Rationals>& held) const {
    if (StoredRationals stored = stored_rationals(v); stored.num) return stored;
    held = rational_value(v);
    if (!held) return {};
    return {&held->num, held->den};
  }
  std::optional<Rationals> rational_value(const Value* v) const {
    if (!carries_data(v)) return std::nullopt;
    if (const StoredRationals stored = stored_rationals(v); stored.num) return Rationals{*stored.num, stored.den};
    if (auto s = symbolic_value(v)) return Rationals{std::move(*s), 1};  // a constant initializer's integers
    if (!v->initializer || !v->initializer->has_data || v->initializer->int_data.size() > 0) return std::nullopt;
    if (v->initializer->float_data.size() > kMaxSymbolicValueSize) return std::nullopt;
    return exact_rationals(v->initializer->float_data);
  }
  // `data` as Rationals when every element is p / 2^k with k <= 10 and |p| < 2^53.
  static std::optional<Rationals> exact_rationals(const std::vector<double>& data) {
    // Weights are rarely such fractions: one pass rules them out. If x * den is
    // whole for some den <= 1024, so is x * 1024 (den divides 1024).
    for (double x : data)
      if (!(x * 1024.0 == std::floor(x * 1024.0))) return std::nullopt;
    for (int64_t den = 1; den <= 1024; den *= 2) {
      Rationals r{{}, den};
      for (double x : data) {
        const double p = x * static_cast<double>(den);  // exact: den is a power of two
        if (!(p == std::floor(p)) || !(std::fabs(p) < 9007199254740992.0)) break;
        r.num.emplace_back(static_cast<int64_t>(p));
      }
      if (r.num.size() == data.size()) return r;
    }
    return std::nullopt;
  }
  // Stores `r` reduced (integer numerators and the denominator divided by
  // their gcd; den = 1 makes it a plain symbolic value). A denominator <= 0
  // stores nothing.
  void set_rational_value(Value* v, Rationals r) {
    if (!v || !data_propagation_ || r.num.size() > kMaxSymbolicValueSize || r.den <= 0) return;
    // A symbolic numerator gives up the gcd of its coefficients ((4*N+2)/2 is 2*N+1).
    int64_t g = r.den;
    for (const auto& d : r.num) {
      if (g == 1) break;
      if (d.is_int())
        g = std::gcd(g, d.value() == INT64_MIN ? int64_t{1} : d.value());
      else
        g = d.is_known() ? detail::content_gcd(d.expr(), g) : 1;
    }
    if (g > 1)
      for (auto& d : r.num) d = d.is_int() ? SymbolicDim(d.value() / g) : d / SymbolicDim(g);
    r.den /= g;
    if (r.den == 1) {
      v->symbolic_value = std::move(r.num);
      v->fraction.reset();
    } else {
      v->symbolic_value = std::vector<SymbolicDim>(r.num.size());  // unknown placeholders
      v->fraction = std::move(r);
    }
  }
  void set_data_propagation(bool on) { data_propagation_ = on; }
  static constexpr std::size_t kMaxSymbolicValueSize = 64;

 private:
  bool data_propagation_ = true;
  std::map<const Value*, ElementBounds> element_bounds_;
};

}  // namespace symshape
