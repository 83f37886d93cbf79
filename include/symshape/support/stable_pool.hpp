// Storage for a graph's values and nodes: elements live in a few large
// chunks (one allocation per chunk instead of one per element) and never
// move, so Value* and Node* stay valid while the graph grows. Iteration and
// operator[] give the element pointers in insertion order. There is no list
// of the elements: a chunk's elements are consecutive in insertion order, so
// the chunks are the index (a million-node graph saves 8 MB per pool).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace symshape {

template <class T>
class StablePool {
  struct Chunk {
    T* start;
    std::size_t slots;
    std::size_t first_index;  // index of the element in the first slot
    std::size_t filled;       // constructed elements, in the first slots
  };

 public:
  // Yields the element pointers in insertion order (by value: an input
  // iterator, for range-for and the standard algorithms).
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T*;
    using difference_type = std::ptrdiff_t;
    using pointer = T* const*;
    using reference = T*;

    const_iterator() = default;
    T* operator*() const { return chunk_->start + at_; }
    const_iterator& operator++() {
      if (++at_ == chunk_->filled) skip_to_filled(chunk_ + 1);
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.chunk_ == b.chunk_ && a.at_ == b.at_;
    }
    friend bool operator!=(const const_iterator& a, const const_iterator& b) { return !(a == b); }

   private:
    friend class StablePool;
    const_iterator(const Chunk* chunk, const Chunk* end) : end_(end) { skip_to_filled(chunk); }
    void skip_to_filled(const Chunk* c) {  // (a reserved chunk may have stayed empty)
      while (c != end_ && c->filled == 0) ++c;
      chunk_ = c;
      at_ = 0;
    }
    const Chunk* chunk_ = nullptr;
    const Chunk* end_ = nullptr;
    std::size_t at_ = 0;
  };

  StablePool() = default;
  StablePool(const StablePool&) = delete;
  StablePool& operator=(const StablePool&) = delete;
  StablePool(StablePool&& o) noexcept : chunks_(std::move(o.chunks_)), size_(o.size_), free_(o.free_), left_(o.left_) {
    o.chunks_.clear();
    o.size_ = 0;
    o.free_ = nullptr;
    o.left_ = 0;
  }
  StablePool& operator=(StablePool&&) = delete;
  ~StablePool() {
    for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c) {
      for (std::size_t i = c->filled; i-- > 0;) c->start[i].~T();
      std::allocator<T>().deallocate(c->start, c->slots);
    }
  }

  // A new default-initialized element (T must initialize all its members).
  T* add() {
    if (left_ == 0) new_chunk(std::max<std::size_t>(kMinChunk, size_));
    T* p = ::new (static_cast<void*>(free_)) T;  // default-initialized: no zeroing before the constructor
    ++free_;
    --left_;
    ++chunks_.back().filled;
    ++size_;
    return p;
  }
  // Room for `more` elements without further allocation.
  void reserve(std::size_t more) {
    if (left_ < more) new_chunk(std::max(kMinChunk, more));
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* operator[](std::size_t i) const {
    const Chunk& first = chunks_.front();  // the usual case: every element in the first chunk
    if (i < first.filled) return first.start + i;
    // The last chunk that starts at or before i (a chunk left empty has the
    // first_index of the next one, so it is never that chunk).
    const auto after = std::upper_bound(chunks_.begin(), chunks_.end(), i,
                                        [](std::size_t k, const Chunk& c) { return k < c.first_index; });
    const Chunk& c = *(after - 1);
    return c.start + (i - c.first_index);
  }
  T* back() const { return (*this)[size_ - 1]; }
  const_iterator begin() const { return const_iterator(chunks_.data(), chunks_.data() + chunks_.size()); }
  const_iterator end() const {
    const Chunk* e = chunks_.data() + chunks_.size();
    return const_iterator(e, e);
  }

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

  void new_chunk(std::size_t count) {
    chunks_.reserve(chunks_.size() + 1);
    T* chunk = std::allocator<T>().allocate(count);
    chunks_.push_back(Chunk{chunk, count, size_, 0});  // slots left in the previous chunk stay empty
    free_ = chunk;
    left_ = count;
  }

  std::vector<Chunk> chunks_;
  std::size_t size_ = 0;
  T* free_ = nullptr;  // next unconstructed slot of the last chunk
  std::size_t left_ = 0;
};

}  // namespace symshape
