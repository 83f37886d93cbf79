// A hash index of named elements (a graph's values by name): open
// addressing over element pointers, keyed on the element's own `name`, so
// no name is copied and a lookup or insertion allocates nothing (the table
// grows by doubling, ahead of time with reserve()).
//
// A table of a million names does not fit in the caches, so each lookup is
// a memory access of its own; prefetch(name) issued a few lookups ahead lets
// those accesses overlap (the loader links a node's inputs while the slots of
// the inputs of a node further on are on their way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "symshape/support/string_hash.hpp"

namespace symshape {

// How many lookups ahead a loop prefetches (enough to keep several memory
// accesses in flight, few enough that the slots are still cached when used).
inline constexpr std::size_t kPrefetchDistance = 8;

template <class T>
class NameIndex {
 public:
  // The element named `name`, or nullptr.
  T* find(std::string_view name) const {
    if (slots_.empty()) return nullptr;
    const std::size_t h = hash(name);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (!s.item) return nullptr;
      if (s.hash == h && s.item->name == name) return s.item;
    }
  }
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  // Starts fetching the slot where `name` is looked for; changes nothing.
  void prefetch(std::string_view name) const {
#if defined(__GNUC__) || defined(__clang__)
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash(name) & mask()]);
#else
    (void)name;
#endif
  }

  // Adds `item` under item->name; if that name is taken, changes nothing and
  // returns the element that has it, else nullptr.
  T* insert(T* item) { return put(item, false); }
  // Adds `item` under item->name, replacing any element of that name.
  void assign(T* item) { put(item, true); }

  std::size_t size() const { return size_; }
  void reserve(std::size_t n) {
    std::size_t want = 16;
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) rehash(want);
  }

 private:
  struct Slot {
    std::size_t hash = 0;
    T* item = nullptr;
  };

  static std::size_t hash(std::string_view s) { return string_hash(s); }
  std::size_t mask() const { return slots_.size() - 1; }

  T* put(T* item, bool replace) {
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    const std::size_t h = hash(item->name);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (!s.item) {
        s = Slot{h, item};
        ++size_;
        return nullptr;
      }
      if (s.hash == h && s.item->name == item->name) {
        T* old = s.item;
        if (replace) s.item = item;
        return replace ? nullptr : old;
      }
    }
  }

  void rehash(std::size_t count) {  // count: a power of two
    std::vector<Slot> old(count);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (!s.item) continue;
      std::size_t i = s.hash & mask();
      while (slots_[i].item) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace symshape
