// The rule registry. Built-in rules are constexpr arrays of
// {domain, op_type, since_version, function}, one array per op family
// (ops/*.hpp), sorted at compile time and merged into one table
// (ops/all.hpp) whose order and uniqueness are checked by static_assert.
// Lookup picks the largest since_version <= the model's opset of the domain.
// Custom rules are added at run time through RuleRegistrar and take
// precedence over built-ins of the same key.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/infer/context.hpp"

namespace symshape {

using InferFn = void (*)(Context&, Node&);

struct RuleEntry {
  std::string_view domain;  // "" is ai.onnx
  std::string_view op_type;
  int since_version = 1;
  InferFn fn = nullptr;
  std::string_view rule = {};  // the function's name, for docs/operators.md
};

namespace detail {

constexpr int compare_keys(const RuleEntry& a, const RuleEntry& b) {
  int c = a.domain.compare(b.domain);
  if (c != 0) return c;
  c = a.op_type.compare(b.op_type);
  if (c != 0) return c;
  return a.since_version < b.since_version ? -1 : a.since_version > b.since_version ? 1 : 0;
}

// Insertion sort for one family (tens of entries: far below constexpr limits).
template <std::size_t N>
constexpr std::array<RuleEntry, N> sorted_rules(std::array<RuleEntry, N> a) {
  for (std::size_t i = 1; i < N; ++i) {
    RuleEntry x = a[i];
    std::size_t j = i;
    while (j > 0 && compare_keys(a[j - 1], x) > 0) {
      a[j] = a[j - 1];
      --j;
    }
    a[j] = x;
  }
  return a;
}

// Linear merge of two sorted tables.
template <std::size_t N, std::size_t M>
constexpr std::array<RuleEntry, N + M> merge_rules(const std::array<RuleEntry, N>& a,
                                                   const std::array<RuleEntry, M>& b) {
  std::array<RuleEntry, N + M> out{};
  std::size_t i = 0, j = 0, k = 0;
  while (i < N && j < M) out[k++] = compare_keys(a[i], b[j]) <= 0 ? a[i++] : b[j++];
  while (i < N) out[k++] = a[i++];
  while (j < M) out[k++] = b[j++];
  return out;
}

template <std::size_t N>
constexpr std::array<RuleEntry, N> merge_all(const std::array<RuleEntry, N>& a) {
  return a;
}
template <std::size_t N, std::size_t M, class... Rest>
constexpr auto merge_all(const std::array<RuleEntry, N>& a, const std::array<RuleEntry, M>& b, const Rest&... rest) {
  return merge_all(merge_rules(a, b), rest...);
}

template <std::size_t N>
constexpr bool strictly_sorted(const std::array<RuleEntry, N>& a) {
  for (std::size_t i = 1; i < N; ++i)
    if (compare_keys(a[i - 1], a[i]) >= 0) return false;
  return true;
}

// Checked at compile time; non-null functions are checked by a test, since
// comparing function pointers is not a constant expression under -fsanitize=null.
template <std::size_t N>
constexpr bool all_versions_valid(const std::array<RuleEntry, N>& a) {
  for (std::size_t i = 0; i < N; ++i)
    if (a[i].since_version < 1 || a[i].op_type.empty()) return false;
  return true;
}

}  // namespace detail

// A family's rule list, sorted at compile time:
//   inline constexpr auto kFamilyRules = make_rules({RuleEntry{"", "Add", 7, &infer_add, "infer_add"}, ...});
template <std::size_t N>
constexpr std::array<RuleEntry, N> make_rules(const RuleEntry (&entries)[N]) {
  std::array<RuleEntry, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = entries[i];
  return detail::sorted_rules(a);
}

struct CustomRule {
  std::string domain;
  std::string op_type;
  int since_version;
  InferFn fn;
};

// Rules added by users. The storage is a function-local static, so it exists
// before any registrar runs; never query it from another static initialiser.
inline std::vector<CustomRule>& custom_rules() {
  static std::vector<CustomRule> rules;
  return rules;
}

// Header-safe registration of a custom rule:
//   inline const symshape::RuleRegistrar my_rule{"com.acme", "MyOp", 1, &infer_my_op};
// In a static library, a registrar that nothing references may be dropped by
// the linker: reference it, or call register_rule() from main.
inline void register_rule(std::string domain, std::string op_type, int since_version, InferFn fn) {
  if (domain == "ai.onnx") domain.clear();  // one spelling of the default domain
  custom_rules().push_back({std::move(domain), std::move(op_type), since_version, fn});
}

struct RuleRegistrar {
  RuleRegistrar(std::string domain, std::string op_type, int since_version, InferFn fn) {
    register_rule(std::move(domain), std::move(op_type), since_version, fn);
  }
};

// A resolved rule: the function and the since_version that was chosen.
struct ResolvedRule {
  InferFn fn = nullptr;
  int since_version = 0;
  bool custom = false;
  explicit operator bool() const { return fn != nullptr; }
};

// A sorted built-in table, as a pointer and a length.
struct RuleTable {
  const RuleEntry* entries = nullptr;
  std::size_t size = 0;
  template <std::size_t N>
  constexpr RuleTable(const std::array<RuleEntry, N>& a) : entries(a.data()), size(N) {}  // NOLINT
  constexpr RuleTable() = default;
};

// The rule for (domain, op_type) at `opset`: a custom rule first, else the
// built-in with the largest since_version <= opset.
inline ResolvedRule resolve_rule(RuleTable table, std::string_view domain, std::string_view op_type, int64_t opset) {
  if (domain == "ai.onnx") domain = "";
  ResolvedRule best;
  for (const auto& r : custom_rules()) {
    if (r.domain == domain && r.op_type == op_type && r.since_version <= opset && r.since_version >= best.since_version)
      best = {r.fn, r.since_version, true};
  }
  if (best) return best;
  // Binary search for the last entry with key <= (domain, op_type, opset).
  const RuleEntry key{domain, op_type, static_cast<int>(opset > 1000000 ? 1000000 : opset), nullptr};
  std::size_t lo = 0, hi = table.size;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (detail::compare_keys(table.entries[mid], key) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return best;
  const RuleEntry& e = table.entries[lo - 1];
  if (e.domain == domain && e.op_type == op_type) return {e.fn, e.since_version, false};
  return best;
}

}  // namespace symshape
