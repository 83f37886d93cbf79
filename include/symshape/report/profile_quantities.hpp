// The quantities of a profile (include/symshape/profile/) as reports show
// them: a quantity's value at bindings, and the model's totals by name, each
// with the unit its human-readable value is in.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "symshape/dim.hpp"
#include "symshape/expr/evaluate.hpp"
#include "symshape/profile/profile.hpp"

namespace symshape::report {

// The value of a quantity at the bindings, when they make it concrete.
inline std::optional<int64_t> value_of(const SymbolicDim& q, const Bindings& b) {
  if (q.is_unknown()) return std::nullopt;
  Result<int64_t> v = evaluate(q.expr(), b);
  return v ? std::optional<int64_t>(*v) : std::nullopt;
}

// The unit of a quantity.
enum class Unit { Flop, Count, Bytes };

// One total: its name in reports, the quantity and its unit.
struct TotalRow {
  const char* name;
  const SymbolicDim* q;
  Unit unit;  // of the human-readable value
};

// The totals in the order reports list them.
inline std::vector<TotalRow> total_rows(const profile::ModelProfile& p) {
  return {{"flops", &p.flops, Unit::Flop},
          {"params", &p.params, Unit::Count},
          {"param_bytes", &p.param_bytes, Unit::Bytes},
          {"activation_bytes", &p.activation_bytes, Unit::Bytes},
          {"peak_activation_bytes", &p.peak_activation_bytes, Unit::Bytes}};
}

}  // namespace symshape::report
