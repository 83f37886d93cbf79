// The rule registry. Each built-in rule is registered beside its function
// (ops/*.hpp):
//   inline void infer_conv(Context& ctx, Node& n) { ... }
//   SYMSHAPE_RULES(infer_conv, ai_onnx("Conv", 1, 11, 22));
// names the operators it serves and every since_version; the macro defines
// `infer_conv_rules`, and the family header ends with
//   inline constexpr auto kConvRules = family_rules<infer_conv_rules, ...>("symshape/ops/conv.hpp");
// which expands the registrations into {domain, op_type, since_version,
// function, cost} entries. An operator's `.cost(count_fn)` names its FLOP
// count (infer/cost.hpp), copied into each of its entries. ops/all.hpp merges
// the families into one table, sorted at compile time, whose order and
// uniqueness are checked by static_assert. merge_rules and make_rules also
// build the table's index at compile time (rule_index.hpp, a perfect hash of
// the (domain, op_type) keys): lookup hashes the node's strings, compares them
// once with the row the hash points to, and picks among that operator's rows
// the largest since_version <= the model's opset of the domain. Rules added at
// run time are a UserRules table that InferenceOptions points to, consulted
// before the built-ins (a binary search, versioned_lookup.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/infer/context.hpp"
#include "symshape/infer/cost.hpp"
#include "symshape/infer/rule_index.hpp"
#include "symshape/infer/versioned_lookup.hpp"

namespace symshape {

using InferFn = void (*)(Context&, Node&);

struct RuleEntry {
  std::string_view domain;  // "" is ai.onnx
  std::string_view op_type;
  int since_version = 1;
  InferFn fn = nullptr;
  std::string_view rule = {};    // the function's name, for docs/operators.md
  std::string_view header = {};  // the header that defines it, relative to include/
  CostFn cost = nullptr;         // its FLOP count; none: `symshape profile` says "not counted"
};

// A rule table sorted by (domain, op_type, since_version) with its
// compile-time index (rule_index.hpp): what merge_rules and make_rules return
// and what dispatch looks operators up in. It is an std::array of its entries.
template <std::size_t N>
using SortedRules = IndexedTable<RuleEntry, N>;

// One operator of one domain and the since_versions a rule serves it at.
struct OpVersions {
  static constexpr std::size_t kMaxVersions = 16;
  std::string_view domain;  // "" is ai.onnx
  std::string_view op_type;
  std::array<int, kMaxVersions> versions{};
  std::size_t count = 0;
  CostFn cost_fn = nullptr;
  // The same operator with its FLOP count: ai_onnx("Conv", 1, 11, 22).cost(count_conv).
  constexpr OpVersions cost(CostFn fn) const {
    OpVersions with = *this;
    with.cost_fn = fn;
    return with;
  }
};

// OpVersions of each domain: ai_onnx("Conv", 1, 11, 22).
template <class... V>
constexpr OpVersions op_versions(std::string_view domain, std::string_view op_type, V... versions) {
  static_assert(sizeof...(V) >= 1 && sizeof...(V) <= OpVersions::kMaxVersions, "1 to 16 since_versions per operator");
  return OpVersions{domain, op_type, {static_cast<int>(versions)...}, sizeof...(V)};
}
template <class... V>
constexpr OpVersions ai_onnx(std::string_view op_type, V... versions) {
  return op_versions("", op_type, versions...);
}
template <class... V>
constexpr OpVersions ai_onnx_ml(std::string_view op_type, V... versions) {
  return op_versions("ai.onnx.ml", op_type, versions...);
}
template <class... V>
constexpr OpVersions ai_onnx_preview_training(std::string_view op_type, V... versions) {
  return op_versions("ai.onnx.preview.training", op_type, versions...);
}
template <class... V>
constexpr OpVersions com_microsoft(std::string_view op_type, V... versions) {
  return op_versions("com.microsoft", op_type, versions...);
}

// A rule function's registration: the operators it serves.
template <std::size_t N>
struct RuleRegistration {
  InferFn fn = nullptr;
  std::string_view rule;
  std::array<OpVersions, N> ops{};
  constexpr std::size_t entry_count() const {
    std::size_t c = 0;
    for (const auto& o : ops) c += o.count;
    return c;
  }
  // Every operator's since_versions are >= 1 and strictly increasing.
  constexpr bool versions_valid() const {
    for (const auto& o : ops) {
      if (o.op_type.empty() || o.count == 0 || o.versions[0] < 1) return false;
      for (std::size_t i = 1; i < o.count; ++i)
        if (o.versions[i] <= o.versions[i - 1]) return false;
    }
    return true;
  }
};

template <class... Ops>
constexpr RuleRegistration<sizeof...(Ops)> register_rule_fn(InferFn fn, std::string_view rule, Ops... ops) {
  return RuleRegistration<sizeof...(Ops)>{fn, rule, {ops...}};
}

// Registers FN (an inline function with external linkage, so that its address
// is the same in every translation unit) for the operators listed after it;
// the function's name is taken from FN itself.
#define SYMSHAPE_RULES(FN, ...) inline constexpr auto FN##_rules = ::symshape::register_rule_fn(&FN, #FN, __VA_ARGS__)

namespace detail {

constexpr int compare_keys(const RuleEntry& a, const RuleEntry& b) {
  int c = a.domain.compare(b.domain);
  if (c != 0) return c;
  c = a.op_type.compare(b.op_type);
  if (c != 0) return c;
  return a.since_version < b.since_version ? -1 : a.since_version > b.since_version ? 1 : 0;
}

// Sorting at compile time. GCC's constant evaluator compares two integers far
// faster than two string_views and copies a small key faster than an entry of
// six fields: sorting entry by entry took a seventh of a unit that includes
// every rule. So entries are sorted through keys, the first 8 bytes of domain
// and op_type as big-endian integers padded with zeros. Integers that differ
// order as the strings do (where one string ends its 0 is below the other's
// byte); keys that tie, and domains of 8 bytes or more ("ai.onnx.ml" and
// "ai.onnx.preview.training" share their first 8), compare the whole entries.
constexpr uint64_t name_prefix(std::string_view s) {
  uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0u);
  return v;
}

struct SortKey {
  uint64_t domain = 0;
  uint64_t op_type = 0;
  std::size_t index = 0;  // of the entry
};

constexpr int compare_sort_keys(const SortKey& a, const SortKey& b, const RuleEntry* entries) {
  if (a.domain != b.domain) return a.domain < b.domain ? -1 : 1;
  const bool domain_whole = (a.domain & 0xff) == 0;  // shorter than 8 bytes: the keys hold the equal domains whole
  if (domain_whole && a.op_type != b.op_type) return a.op_type < b.op_type ? -1 : 1;
  return compare_keys(entries[a.index], entries[b.index]);
}

// A stable natural merge sort: the runs already in order (such as a table of
// make_rules among those merge_all is given) are found first, then
// neighbouring runs are merged pass after pass, so each key is copied about
// log2(runs) times. The work arrays are built-in arrays reached through
// pointers: GCC evaluates each std::array::operator[] as a constexpr call,
// which made the sort twice as slow.
template <std::size_t N>
constexpr std::array<RuleEntry, N> sorted_rules(const std::array<RuleEntry, N>& table) {
  constexpr std::size_t kSize = N > 0 ? N : 1;  // no arrays of size 0
  const RuleEntry* entries = table.data();
  SortKey keys_a[kSize] = {}, keys_b[kSize] = {};
  std::size_t bounds[kSize + 1] = {};  // run r is [bounds[r], bounds[r + 1])
  SortKey* cur = keys_a;
  SortKey* next = keys_b;
  for (std::size_t i = 0; i < N; ++i) cur[i] = {name_prefix(entries[i].domain), name_prefix(entries[i].op_type), i};
  std::size_t runs = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (i == 0 || compare_sort_keys(cur[i - 1], cur[i], entries) > 0) bounds[runs++] = i;
  bounds[runs] = N;
  while (runs > 1) {
    std::size_t merged = 0;
    for (std::size_t r = 0; r < runs; r += 2) {
      const std::size_t lo = bounds[r], mid = bounds[r + 1], hi = r + 2 <= runs ? bounds[r + 2] : mid;
      std::size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) next[k++] = compare_sort_keys(cur[i], cur[j], entries) <= 0 ? cur[i++] : cur[j++];
      while (i < mid) next[k++] = cur[i++];
      while (j < hi) next[k++] = cur[j++];
      bounds[merged++] = lo;  // r / 2 <= r: the bounds still to read are untouched
    }
    bounds[merged] = N;
    runs = merged;
    SortKey* const done = next;
    next = cur;
    cur = done;
  }
  std::array<RuleEntry, N> out{};
  RuleEntry* out_entries = out.data();
  for (std::size_t i = 0; i < N; ++i) out_entries[i] = entries[cur[i].index];
  return out;
}

// Tables merged into one sorted table, with its index. They need not be
// sorted: the families' tables are not, so that the entries are sorted once, here.
template <std::size_t... Ns>
constexpr SortedRules<(Ns + ...)> merge_all(const std::array<RuleEntry, Ns>&... tables) {
  std::array<RuleEntry, (Ns + ...)> all{};
  std::size_t size = 0;
  auto append = [&](const auto& table) {
    for (const RuleEntry& e : table) all[size++] = e;
  };
  (append(tables), ...);
  return with_index(sorted_rules(all));
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

// A rule list written as entries, sorted at compile time (for tests and
// users who build a table of their own):
//   constexpr auto kRules = make_rules({RuleEntry{"", "Add", 7, &infer_add, "infer_add"}, ...});
template <std::size_t N>
constexpr SortedRules<N> make_rules(const RuleEntry (&entries)[N]) {
  std::array<RuleEntry, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = entries[i];
  return with_index(detail::sorted_rules(a));
}

// A family's table, from the registrations of its header (each a
// SYMSHAPE_RULES variable), in their order: merge_rules sorts it with the
// other families chosen. Fails to compile when a
// registration lists no operator or since_versions that do not increase.
template <const auto&... Registrations>
constexpr auto family_rules(std::string_view header) {
  static_assert((Registrations.versions_valid() && ...),
                "a SYMSHAPE_RULES registration has an empty operator or since_versions that are not increasing");
  constexpr std::size_t n = (Registrations.entry_count() + ... + 0);
  std::array<RuleEntry, n> out{};
  std::size_t k = 0;
  auto append = [&](const auto& reg) {
    for (const OpVersions& o : reg.ops)
      for (std::size_t i = 0; i < o.count; ++i)
        out[k++] = RuleEntry{o.domain, o.op_type, o.versions[i], reg.fn, reg.rule, header, o.cost_fn};
  };
  (append(Registrations), ...);
  return out;
}

// The rule table of chosen op families, merged and sorted at compile time, for
// builds that compile only the families they need (docs/library.md, "Choosing
// op families"):
//   #include "symshape/ops/conv.hpp"
//   #include "symshape/ops/elementwise.hpp"
//   inline constexpr auto kMyRules = symshape::merge_rules(symshape::ops::kConvRules,
//                                                          symshape::ops::kElementwiseRules);
//   static_assert(symshape::valid_rule_table(kMyRules));
//   symshape::infer_shapes_with(kMyRules, model, options, symshape::ops::kSchemas);
// Operators of the other families are then reported as having no rule.
template <std::size_t... Ns>
constexpr auto merge_rules(const std::array<RuleEntry, Ns>&... tables) {
  return detail::merge_all(tables...);
}

// Sorted without a repeated (domain, op_type, since_version), each entry with
// an op type and a since_version >= 1: what resolve_rule expects of a table.
template <std::size_t N>
constexpr bool valid_rule_table(const std::array<RuleEntry, N>& table) {
  return detail::strictly_sorted(table) && detail::all_versions_valid(table);
}
// ... and its index gives every operator a slot of its own.
template <std::size_t N>
constexpr bool valid_rule_table(const SortedRules<N>& table) {
  return valid_rule_table(static_cast<const std::array<RuleEntry, N>&>(table)) && table.index.complete;
}

// Rules a user adds at run time (C++ rules of custom operators, Python
// rules), consulted before the built-ins: for a node they serve at the
// model's opset they win over a built-in of the same operator. Passed to
// inference through InferenceOptions::user_rules; nothing is global.
//   symshape::UserRules rules;
//   rules.add("com.acme", "MyOp", 1, &infer_my_op);
//   options.user_rules = &rules;
class UserRules {
 public:
  // Adds the rule, or replaces the one of the same (domain, op_type, since_version).
  void add(std::string_view domain, std::string_view op_type, int since_version, InferFn fn) {
    domain = canonical_domain(domain);
    for (RuleEntry& e : entries_)
      if (e.domain == domain && e.op_type == op_type && e.since_version == since_version) {
        e.fn = fn;
        return;
      }
    const std::string_view d = names_.emplace_back(domain);
    const std::string_view op = names_.emplace_back(op_type);
    const RuleEntry entry{d, op, since_version, fn, "user rule", ""};
    entries_.insert(
        std::upper_bound(entries_.begin(), entries_.end(), entry,
                         [](const RuleEntry& a, const RuleEntry& b) { return detail::compare_keys(a, b) < 0; }),
        entry);
  }
  // Removes the rule of exactly that key; false when there is none.
  bool remove(std::string_view domain, std::string_view op_type, int since_version) {
    const RuleEntry* e =
        exact_version(entries_.data(), entries_.size(), canonical_domain(domain), op_type, since_version);
    if (!e) return false;
    entries_.erase(entries_.begin() + (e - entries_.data()));
    return true;  // (the names stay in names_: a handful of strings)
  }
  const RuleEntry* newest_at(std::string_view domain, std::string_view op_type, int64_t opset) const {
    return symshape::newest_at(entries_.data(), entries_.size(), canonical_domain(domain), op_type, opset);
  }
  const std::vector<RuleEntry>& entries() const { return entries_; }  // sorted by key
  bool empty() const { return entries_.empty(); }

 private:
  std::deque<std::string> names_;  // the entries' domains and op types (a deque: views into it stay valid)
  std::vector<RuleEntry> entries_;
};

// A resolved rule: the function and the since_version that was chosen.
struct ResolvedRule {
  InferFn fn = nullptr;
  int since_version = 0;
  bool user = false;  // from UserRules (not checked against a schema)
  explicit operator bool() const { return fn != nullptr; }
};

// A sorted built-in table with its index, as pointers and a length.
struct RuleTable {
  const RuleEntry* entries = nullptr;
  std::size_t size = 0;
  RuleIndexView index;
  template <std::size_t N>
  constexpr RuleTable(const SortedRules<N>& a) : entries(a.data()), size(N), index(a.index.view()) {}  // NOLINT
  constexpr RuleTable() = default;

  // The entries of (domain, op_type): one hash and one comparison of strings.
  constexpr KeyRows find(std::string_view domain, std::string_view op_type) const {
    return index.find(entries, domain, op_type);
  }
  const RuleEntry* newest_at(std::string_view domain, std::string_view op_type, int64_t opset) const {
    return newest_in(entries, find(domain, op_type), opset);
  }
};

// The rule for (domain, op_type) at `opset`: a user rule first, else the
// built-in with the largest since_version <= opset.
inline ResolvedRule resolve_rule(RuleTable table, const UserRules* user, std::string_view domain,
                                 std::string_view op_type, int64_t opset) {
  domain = canonical_domain(domain);
  if (user)
    if (const RuleEntry* e = user->newest_at(domain, op_type, opset)) return {e->fn, e->since_version, true};
  if (const RuleEntry* e = table.newest_at(domain, op_type, opset)) return {e->fn, e->since_version, false};
  return {};
}
// The built-in rule alone.
inline ResolvedRule resolve_rule(RuleTable table, std::string_view domain, std::string_view op_type, int64_t opset) {
  return resolve_rule(table, nullptr, domain, op_type, opset);
}

}  // namespace symshape
