// A hash index of elements by a key they hold (HashIndex), and its most
// common kind, NameIndex, keyed on the element's own `name` (a graph's
// values by name): open addressing over element pointers, so no key is
// copied and a lookup or insertion allocates nothing (the table grows by
// doubling, ahead of time with reserve()).
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

// KeyOf says what an element's key is and how keys hash and compare:
//   using Key = ...;                          (a cheap view or a reference)
//   static Key key(const T& item);
//   static std::size_t hash(Key key);         (mixed: the low bits pick the slot)
//   static bool equal(Key a, Key b);
template <class T, class KeyOf>
class HashIndex {
 public:
  using Key = typename KeyOf::Key;

  // The element of key `key`, or nullptr.
  T* find(Key key) const {
    if (slots_.empty()) return nullptr;
    const std::size_t h = KeyOf::hash(key);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (!s.item) return nullptr;
      if (s.hash == h && KeyOf::equal(KeyOf::key(*s.item), key)) return s.item;
    }
  }
  bool contains(Key key) const { return find(key) != nullptr; }
  // Starts fetching the slot where `key` is looked for; changes nothing.
  void prefetch(Key key) const {
#if defined(__GNUC__) || defined(__clang__)
    if (slots_.empty()) return;
    const Slot* slot = &slots_[KeyOf::hash(key) & mask()];
    __builtin_prefetch(slot);
    // GCC 12 takes a function whose only effect is a prefetch for a pure one
    // and deletes the calls to it, the prefetch with them. An empty asm that
    // takes the address is an effect it keeps; it emits no instruction.
    asm volatile("" : : "r"(slot));
#else
    (void)key;
#endif
  }

  // Adds `item` under its key; if that key is taken, changes nothing and
  // returns the element that has it, else nullptr.
  T* insert(T* item) { return put(item, false); }
  // Adds `item` under its key, replacing any element of that key.
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

  std::size_t mask() const { return slots_.size() - 1; }

  T* put(T* item, bool replace) {
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    const Key key = KeyOf::key(*item);
    const std::size_t h = KeyOf::hash(key);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (!s.item) {
        s = Slot{h, item};
        ++size_;
        return nullptr;
      }
      if (s.hash == h && KeyOf::equal(KeyOf::key(*s.item), key)) {
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

// The key of a named element: its `name`, hashed by string_hash.
template <class T>
struct KeyedOnName {
  using Key = std::string_view;
  static Key key(const T& item) { return item.name; }
  static std::size_t hash(Key name) { return string_hash(name); }
  static bool equal(Key a, Key b) { return a == b; }
};

template <class T>
using NameIndex = HashIndex<T, KeyedOnName<T>>;

}  // namespace symshape
