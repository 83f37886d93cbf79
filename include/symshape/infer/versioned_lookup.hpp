// ONNX's versioning rule, written once: a node of an operator at the model's
// opset of its domain is served by the operator's version with the largest
// since_version <= that opset. Every table of operators in symshape (the rule
// table, the user rules, the schemas) is an array of rows sorted by (domain,
// op_type, since_version), each row with those three fields, and is searched
// by newest_at; a table built at compile time with its index (rule_index.hpp:
// the rule tables of merge_rules and make_rules) is searched by the index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace symshape {

// The row of (domain, op_type) with the largest since_version <= version;
// nullptr when there is none. `domain` is canonical ("" for ai.onnx).
template <class Row>
const Row* newest_at(const Row* rows, std::size_t size, std::string_view domain, std::string_view op_type,
                     int64_t version) {
  // The first row after (domain, op_type, version); the one before it is the answer if it has the same operator.
  std::size_t lo = 0, hi = size;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const Row& r = rows[mid];
    const int by_domain = std::string_view(r.domain).compare(domain);
    const int by_op = by_domain != 0 ? by_domain : std::string_view(r.op_type).compare(op_type);
    const bool not_after = by_op != 0 ? by_op < 0 : r.since_version <= version;
    if (not_after)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return nullptr;
  const Row& r = rows[lo - 1];
  return std::string_view(r.domain) == domain && std::string_view(r.op_type) == op_type ? &r : nullptr;
}

// The row of exactly (domain, op_type, since_version); nullptr when there is none.
template <class Row>
const Row* exact_version(const Row* rows, std::size_t size, std::string_view domain, std::string_view op_type,
                         int since_version) {
  const Row* r = newest_at(rows, size, domain, op_type, since_version);
  return r && r->since_version == since_version ? r : nullptr;
}

}  // namespace symshape
