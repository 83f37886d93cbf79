// The compile-time index of a sorted operator table (rows sorted by (domain,
// op_type, since_version), as versioned_lookup.hpp says): a perfect hash of
// the distinct (domain, op_type) keys, built by "hash and displace" (Belazzougui,
// Botelho and Dietzfelbinger, "Hash, displace, and compress", ESA 2009) in a
// constant expression. Finding an operator hashes its two strings, reads two
// small arrays and compares the strings once with the one row the hash points
// to; the answer is the range of that operator's rows (its versions), or none.
//
//   inline constexpr auto kIndex = index_rows(kSortedTable);  // a RuleIndex<N>
//   KeyRows r = kIndex.view().find(kSortedTable.data(), "", "Conv");
//
// merge_rules and make_rules (registry.hpp) return the table with its index
// (IndexedTable), which is what the engine dispatches through.
//
// Building it costs GCC's constant evaluator little because it works on
// integers in built-in arrays (as registry.hpp's sort does): the keys' 64-bit
// hashes are computed once, and a bucket is placed by trying displacements
// until its keys land on free slots; with at least twice as many slots as
// rows, a few tries place most buckets.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "symshape/support/string_hash.hpp"

namespace symshape {

namespace detail {

// The hash of an operator's key: the domain unless it is "" (ai.onnx, almost
// every node's), then the op type, each with its size (so "a"+"b.c" and
// "a.b"+"c" differ). slot_of mixes it again, and fold_string's last multiply
// already spreads it over the high half that picks the bucket.
constexpr uint64_t op_key_hash(std::string_view domain, std::string_view op_type) {
  const uint64_t seed = 0x9e3779b97f4a7c15ULL;
  return fold_string(domain.empty() ? seed : fold_string(seed, domain), op_type);
}

// A key's bucket comes from the high half of its hash, its slot from the
// whole hash and its bucket's displacement: each displacement places the
// keys afresh, so keys that collide at one rarely collide at the next.
constexpr std::size_t bucket_of(uint64_t hash, std::size_t bucket_mask) {
  return static_cast<std::size_t>(hash >> 32) & bucket_mask;
}
constexpr std::size_t slot_of(uint64_t hash, uint16_t displacement, std::size_t slot_mask) {
  return static_cast<std::size_t>(mix64(hash + displacement * 0x9e3779b97f4a7c15ULL)) & slot_mask;
}

constexpr std::size_t power_of_two_at_least(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace detail

// The rows of one operator in a sorted table: [first, last), its versions in
// increasing since_version; `key` numbers the operator (0 to keys - 1, in
// table order). Empty when the table has no such operator.
struct KeyRows {
  std::size_t key = 0;
  std::size_t first = 0;
  std::size_t last = 0;
  constexpr explicit operator bool() const { return first < last; }
};

// An index without its size in its type: what RuleTable (registry.hpp) and
// the engine hold.
struct RuleIndexView {
  const uint16_t* displacement = nullptr;  // per bucket
  const uint16_t* slot_key = nullptr;      // per slot: 1 + the key there, 0 for none
  const uint16_t* key_first = nullptr;     // key k's rows are [key_first[k], key_first[k + 1])
  std::size_t bucket_mask = 0;
  std::size_t slot_mask = 0;
  std::size_t keys = 0;

  // The rows of (domain, op_type) in `rows`, the table indexed; `domain` is
  // canonical ("" for ai.onnx). One hash, one comparison of strings.
  template <class Row>
  constexpr KeyRows find(const Row* rows, std::string_view domain, std::string_view op_type) const {
    if (keys == 0) return {};
    const uint64_t hash = detail::op_key_hash(domain, op_type);
    const std::size_t slot = detail::slot_of(hash, displacement[detail::bucket_of(hash, bucket_mask)], slot_mask);
    if (slot_key[slot] == 0) return {};
    const std::size_t key = slot_key[slot] - 1u;
    const Row& row = rows[key_first[key]];
    if (std::string_view(row.op_type) != op_type || std::string_view(row.domain) != domain) return {};
    return {key, key_first[key], key_first[key + 1]};
  }
};

// The index of a sorted table of N rows. Its arrays are sized by N (a table
// has at most N keys): twice as many slots as rows, half as many buckets.
template <std::size_t N>
struct RuleIndex {
  static_assert(N < 0xffff, "row and key numbers are 16-bit");
  static constexpr std::size_t kSlots = detail::power_of_two_at_least(2 * N);
  static constexpr std::size_t kBuckets = detail::power_of_two_at_least((N + 1) / 2);
  uint16_t displacement[kBuckets] = {};
  uint16_t slot_key[kSlots] = {};
  uint16_t key_first[N + 1] = {};
  std::size_t keys = 0;
  bool complete = false;  // every key has its own slot (else a static_assert fails)

  constexpr RuleIndexView view() const {
    return RuleIndexView{displacement, slot_key, key_first, kBuckets - 1, kSlots - 1, complete ? keys : 0};
  }
};

// The index of `table`, sorted by (domain, op_type, since_version); rows of
// one (domain, op_type) must be neighbours, which sorting ensures.
template <class Row, std::size_t N>
constexpr RuleIndex<N> index_rows(const std::array<Row, N>& table) {
  using Index = RuleIndex<N>;
  constexpr std::size_t kMaxKeys = N > 0 ? N : 1;  // no arrays of size 0
  constexpr std::size_t kMaxDisplacement = 0xffff;
  Index out{};
  const Row* rows = table.data();
  uint64_t hashes[kMaxKeys] = {};
  std::size_t keys = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const std::string_view domain(rows[i].domain), op_type(rows[i].op_type);
    if (i > 0 && op_type == std::string_view(rows[i - 1].op_type) && domain == std::string_view(rows[i - 1].domain))
      continue;
    out.key_first[keys] = static_cast<uint16_t>(i);
    hashes[keys++] = detail::op_key_hash(domain, op_type);
  }
  out.key_first[keys] = static_cast<uint16_t>(N);
  out.keys = keys;

  // The keys grouped by bucket: bucket b's are by_bucket[start[b], start[b + 1]).
  std::size_t start[Index::kBuckets + 1] = {}, fill[Index::kBuckets] = {}, by_bucket[kMaxKeys] = {};
  for (std::size_t k = 0; k < keys; ++k) ++start[detail::bucket_of(hashes[k], Index::kBuckets - 1) + 1];
  for (std::size_t b = 0; b < Index::kBuckets; ++b) {
    start[b + 1] += start[b];
    fill[b] = start[b];
  }
  std::size_t largest = 0;
  for (std::size_t k = 0; k < keys; ++k) {
    const std::size_t b = detail::bucket_of(hashes[k], Index::kBuckets - 1);
    by_bucket[fill[b]++] = k;
    if (fill[b] - start[b] > largest) largest = fill[b] - start[b];
  }

  // Largest buckets first, while most slots are free.
  for (std::size_t size = largest; size > 0; --size)
    for (std::size_t b = 0; b < Index::kBuckets; ++b) {
      if (start[b + 1] - start[b] != size) continue;
      bool placed = false;
      for (std::size_t d = 0; d <= kMaxDisplacement && !placed; ++d) {
        std::size_t taken = 0;  // keys of the bucket put in a slot at this displacement
        for (; taken < size; ++taken) {
          const std::size_t k = by_bucket[start[b] + taken];
          const std::size_t slot = detail::slot_of(hashes[k], static_cast<uint16_t>(d), Index::kSlots - 1);
          if (out.slot_key[slot] != 0) break;
          out.slot_key[slot] = static_cast<uint16_t>(k + 1);
        }
        placed = taken == size;
        if (placed) {
          out.displacement[b] = static_cast<uint16_t>(d);
          continue;
        }
        while (taken-- > 0)  // take them out again
          out.slot_key[detail::slot_of(hashes[by_bucket[start[b] + taken]], static_cast<uint16_t>(d),
                                       Index::kSlots - 1)] = 0;
      }
      if (!placed) return out;  // two keys of one 64-bit hash: `complete` stays false
    }
  out.complete = true;
  return out;
}

// A sorted table and its index: an std::array of the rows (so that it is
// read, iterated and passed as one) with the index beside it.
template <class Row, std::size_t N>
struct IndexedTable : std::array<Row, N> {
  RuleIndex<N> index;

  constexpr KeyRows find(std::string_view domain, std::string_view op_type) const {
    return index.view().find(this->data(), domain, op_type);
  }
};

template <class Row, std::size_t N>
constexpr IndexedTable<Row, N> with_index(const std::array<Row, N>& sorted) {
  return IndexedTable<Row, N>{sorted, index_rows(sorted)};
}

// The row of `rows` (one operator's, from find) with the largest
// since_version <= version; nullptr when there is none.
template <class Row>
constexpr const Row* newest_in(const Row* table, KeyRows rows, int64_t version) {
  for (std::size_t i = rows.last; i > rows.first; --i)
    if (table[i - 1].since_version <= version) return &table[i - 1];
  return nullptr;
}

}  // namespace symshape
