// A hash of names a word at a time, usable at compile time: the rule index
// (infer/rule_index.hpp) is built by the constant evaluator and looked up at
// run time with the same hash, and a graph's names (name_index.hpp) use it
// too. Names of values run to 20-60 characters and std::hash (libstdc++'s
// byte-wise murmur) was 4% of a whole `symshape infer` of a transformer;
// operator names are short, where a byte-wise FNV took a multiply per byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace symshape {

namespace detail {

// The little-endian values of the 8 and the 4 bytes at p, written byte by
// byte so that the constant evaluator can run them; GCC 12 turns each into
// one load.
constexpr uint64_t byte_at(const char* p, std::size_t i) {
  return static_cast<uint64_t>(static_cast<unsigned char>(p[i]));
}
constexpr uint64_t le32(const char* p) {
  return byte_at(p, 0) | byte_at(p, 1) << 8 | byte_at(p, 2) << 16 | byte_at(p, 3) << 24;
}
constexpr uint64_t le64(const char* p) { return le32(p) | le32(p + 4) << 32; }

// Folds s into h: its size, then its bytes in words of 8 (the last word ends
// at s's end and may overlap the one before), or for a shorter s two
// overlapping words of 4, or its first, middle and last byte. With the size
// folded in first, every string of a size is told apart by those words.
constexpr uint64_t fold_string(uint64_t h, std::string_view s) {
  const auto fold = [&h](uint64_t w) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
  };
  const char* p = s.data();
  std::size_t n = s.size();
  fold(n);
  if (n >= 8) {
    for (; n > 8; p += 8, n -= 8) fold(le64(p));
    fold(le64(p + n - 8));
  } else if (n >= 4) {
    fold(le32(p) | le32(p + n - 4) << 32);
  } else if (n > 0) {
    fold(byte_at(p, 0) | byte_at(p, n / 2) << 8 | byte_at(p, n - 1) << 16);
  }
  return h;
}

// The finaliser of MurmurHash3 (public domain): every bit of the result
// depends on every bit of h, so the low bits that pick a table's slot do.
constexpr uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace detail

// A name's hash for a table: fold_string from a fixed seed, then mixed so
// that the low bits depend on every byte.
constexpr std::size_t string_hash(std::string_view s) {
  return static_cast<std::size_t>(detail::mix64(detail::fold_string(0x9e3779b97f4a7c15ULL, s)));
}

}  // namespace symshape
