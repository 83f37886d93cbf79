// Storage for a graph's values and nodes: elements live in a few large
// chunks (one allocation per chunk instead of one per element) and never
// move, so Value* and Node* stay valid while the graph grows. Iteration and
// operator[] give the element pointers in insertion order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace symshape {

template <class T>
class StablePool {
 public:
  using const_iterator = typename std::vector<T*>::const_iterator;

  StablePool() = default;
  StablePool(const StablePool&) = delete;
  StablePool& operator=(const StablePool&) = delete;
  StablePool(StablePool&& o) noexcept
      : items_(std::move(o.items_)), chunks_(std::move(o.chunks_)), free_(o.free_), left_(o.left_) {
    o.items_.clear();
    o.chunks_.clear();
    o.free_ = nullptr;
    o.left_ = 0;
  }
  StablePool& operator=(StablePool&&) = delete;
  ~StablePool() {
    for (auto it = items_.rbegin(); it != items_.rend(); ++it) (*it)->~T();
    for (const Chunk& c : chunks_) std::allocator<T>().deallocate(c.start, c.slots);
  }

  // A new default-initialized element (T must initialize all its members).
  T* add() {
    if (left_ == 0) new_chunk(std::max<std::size_t>(kMinChunk, items_.size()));
    // Grow the index before constructing (may throw); then push_back cannot.
    if (items_.size() == items_.capacity()) items_.reserve(std::max(kMinChunk, 2 * items_.capacity()));
    T* p = ::new (static_cast<void*>(free_)) T;  // default-initialized: no zeroing before the constructor
    ++free_;
    --left_;
    ++chunks_.back().filled;
    items_.push_back(p);
    return p;
  }
  // Room for `more` elements without further allocation.
  void reserve(std::size_t more) {
    items_.reserve(items_.size() + more);
    if (left_ < more) new_chunk(std::max(kMinChunk, more));
  }

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  T* operator[](std::size_t i) const { return items_[i]; }
  T* back() const { return items_.back(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }

  // The position of p in insertion order, or npos when p is not an element
  // of this pool. Cost: one range test per chunk (usually one chunk).
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t index_of(const T* p) const {
    for (const Chunk& c : chunks_)
      if (!std::less<const T*>()(p, c.start) && std::less<const T*>()(p, c.start + c.filled))
        return c.first_index + static_cast<std::size_t>(p - c.start);
    return npos;
  }

 private:
  static constexpr std::size_t kMinChunk = 16;

  struct Chunk {
    T* start;
    std::size_t slots;
    std::size_t first_index;  // index of the element in the first slot
    std::size_t filled;       // constructed elements, in the first slots
  };

  void new_chunk(std::size_t count) {
    chunks_.reserve(chunks_.size() + 1);
    T* chunk = std::allocator<T>().allocate(count);
    chunks_.push_back(Chunk{chunk, count, items_.size(), 0});  // slots left in the previous chunk stay empty
    free_ = chunk;
    left_ = count;
  }

  std::vector<T*> items_;
  std::vector<Chunk> chunks_;
  T* free_ = nullptr;  // next unconstructed slot of the last chunk
  std::size_t left_ = 0;
};

}  // namespace symshape
