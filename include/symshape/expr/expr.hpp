// The data model of dimension expressions: an immutable `Expr` handle of one
// word that is either an integer (no allocation below 2^62 in magnitude) or
// a shared, canonical node.
//
// Canonical form (built by the constructors in build.hpp, never by hand):
//   Add      c0 + sum(coeff_i * term_i), terms sorted, coefficients != 0
//   Mul      product of atoms with exponents, sorted (no constant inside)
//   FloorDiv, Mod   (numerator, divisor), both canonical
//   Max, Min        flattened, de-duplicated, sorted arguments
//   Symbol          a name
//   Error           a poison value (overflow, expression too deep) with a message
// Two equal expressions therefore compare equal structurally and hash equally.
//
// Threads: nodes carry a plain (non-atomic) reference count, so an expression
// and every copy of it belong to one thread at a time (symbols are interned
// per thread, so threads that build their own expressions share nothing).
// Define SYMSHAPE_ATOMIC_EXPR_COUNTS to 1 in every unit of a program whose
// threads copy the same expressions concurrently (the Python package does).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#if SYMSHAPE_ATOMIC_EXPR_COUNTS
#include <atomic>
#endif
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "symshape/support/sanitizers.hpp"

// The one-line accessors of Expr below are read in every loop of the engine;
// GCC's -O2 heuristics left some of them out of line in the larger builders
// (a call per coefficient read), so they are inlined always.
#if defined(__GNUC__) || defined(__clang__)
#define SYMSHAPE_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define SYMSHAPE_ALWAYS_INLINE inline
#endif
// The rewrites that rarely apply, and the work behind facts, are kept apart
// from the hot code (GCC's .text.unlikely): inlined into the builders they
// made the loops that run for every expression miss the instruction cache.
#if defined(__GNUC__) || defined(__clang__)
#define SYMSHAPE_RARELY_USED [[gnu::cold]]
#else
#define SYMSHAPE_RARELY_USED
#endif

namespace symshape {

enum class ExprKind : uint8_t { Integer, Symbol, Mul, FloorDiv, Mod, Max, Min, Add, Error };

// Interval of an expression's possible values; a missing side is unbounded.
struct Interval {
  int64_t lo = 0;
  int64_t hi = 0;
  bool has_lo = false;
  bool has_hi = false;
  static Interval point(int64_t v) { return {v, v, true, true}; }
  static Interval unbounded() { return {}; }
  static Interval at_least(int64_t v) { return {v, 0, true, false}; }
};

namespace detail {
struct Node;
struct NodeFactory;
inline void* allocate_block(std::size_t size);
inline void free_block(void* p, std::size_t size) noexcept;

// The allocator of the term and argument arrays: small ones are recycled per
// thread, as nodes are (RecycledBlocks below).
template <class T>
struct RecyclingAllocator {
  using value_type = T;
  RecyclingAllocator() = default;
  template <class U>
  RecyclingAllocator(const RecyclingAllocator<U>&) noexcept {}  // NOLINT: rebinding
  T* allocate(std::size_t n) {
    // A size that overflows is std::allocator's error (no exception of ours: the core builds without them).
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) return std::allocator<T>().allocate(n);
    return static_cast<T*>(allocate_block(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { free_block(p, n * sizeof(T)); }
  friend bool operator==(const RecyclingAllocator&, const RecyclingAllocator&) { return true; }
  friend bool operator!=(const RecyclingAllocator&, const RecyclingAllocator&) { return false; }
};
}  // namespace detail

class Expr;
// The (term, coefficient) or (factor, exponent) pairs of a sum or product, and
// the arguments of the other kinds (Expr::terms(), Expr::args()).
using TermList = std::vector<std::pair<Expr, int64_t>, detail::RecyclingAllocator<std::pair<Expr, int64_t>>>;
using ExprList = std::vector<Expr, detail::RecyclingAllocator<Expr>>;

class SymbolicDim;

class Expr {
 public:
  Expr() = default;
  Expr(int64_t value);                        // NOLINT: integers are expressions
  Expr(int value) : bits_(tag_int(value)) {}  // NOLINT
  Expr(const Expr& other) noexcept;
  Expr(Expr&& other) noexcept : bits_(other.bits_) { other.bits_ = kZero; }
  Expr& operator=(const Expr& other) noexcept;
  Expr& operator=(Expr&& other) noexcept;
  ~Expr();

  static Expr symbol(std::string_view name);
  static Expr error(std::string message);

  ExprKind kind() const;
  bool is_int() const;
  bool is_int(int64_t v) const { return is_int() && as_int() == v; }
  int64_t as_int() const;  // only meaningful when is_int()
  bool is_symbol() const { return kind() == ExprKind::Symbol; }
  bool is_error() const { return kind() == ExprKind::Error; }
  // Symbol name, or the message of an Error.
  const std::string& name() const;

  std::size_t hash() const;
  // Nesting depth (0 for integers and symbols) and node count, for caps.
  uint32_t depth() const;
  uint32_t size() const;
  // Bounds under the default assumption that every symbol is >= 0, computed
  // once when the node is built.
  Interval bounds() const;

  // For Add: the constant and (term, coefficient) pairs. For Mul:
  // (factor, exponent) pairs. For FloorDiv/Mod (numerator, divisor) and
  // Max/Min (arguments): args().
  int64_t add_constant() const;
  const TermList& terms() const;
  const ExprList& args() const;

  // The node, or null for an integer that needs none (|value| < 2^62).
  const detail::Node* node() const {
    return (bits_ & 1) != 0 ? nullptr : reinterpret_cast<const detail::Node*>(static_cast<uintptr_t>(bits_));
  }

  friend bool operator==(const Expr& a, const Expr& b);
  friend bool operator!=(const Expr& a, const Expr& b) { return !(a == b); }

 private:
  friend struct detail::NodeFactory;
  friend class SymbolicDim;
  // One word: a node's address (even), or an integer v as 2v + 1 when
  // |v| < 2^62; larger integers get a node of kind Integer. 0 is "no
  // expression", which only SymbolicDim makes (an unknown dim) and which
  // reads as the integer 0. Half the size of a value and a pointer: shapes
  // and sums of a million-node model are vectors of these. 64 bits on a
  // 32-bit target too (WebAssembly), where the integers need the room.
  using Bits = uint64_t;
  static_assert(sizeof(uintptr_t) <= sizeof(Bits), "an address fits in the word");
  static constexpr Bits kZero = 1;
  static constexpr int64_t kSmallLimit = int64_t{1} << 62;
  static constexpr bool fits_small(int64_t v) { return v >= -kSmallLimit && v < kSmallLimit; }
  static constexpr Bits tag_int(int64_t v) { return (static_cast<Bits>(v) << 1) | 1; }
  // Takes over a new node (count 1).
  explicit Expr(const detail::Node* node) : bits_(static_cast<Bits>(reinterpret_cast<uintptr_t>(node))) {}
  static Expr none() {
    Expr e;
    e.bits_ = 0;
    return e;
  }
  bool is_none() const { return bits_ == 0; }
  void release() noexcept;
  static void destroy(const detail::Node* n) noexcept;
  Bits bits_ = kZero;  // owns one count of the node, if it is one
};

// A total, deterministic order (by kind, then names and structure; never by
// hash): the order of terms in sums and of arguments of Max/Min.
int compare(const Expr& a, const Expr& b);
inline bool operator<(const Expr& a, const Expr& b) { return compare(a, b) < 0; }

struct ExprHash {
  std::size_t operator()(const Expr& e) const { return e.hash(); }
};

// The message of the Error expression that an int64 overflow gives.
inline constexpr const char* kOverflowMessage = "integer overflow";

// Deeper expressions are refused (they become an Error) so that every
// recursive walk stays far from the stack limit.
inline constexpr uint32_t kMaxExprDepth = 512;
// Larger expressions (node count, shared subexpressions counted each time they
// occur) are refused too: products of sums inside floor divisions can grow
// exponentially with the input, and printing or walking them did not finish
// (a 248-character dim gave 2.8 million nodes and 6.6 MB of text).
inline constexpr uint32_t kMaxExprSize = uint32_t{1} << 18;

namespace detail {

// The number of handles (Expr) that own a node. It is not part of the node's
// value: a copied or moved node starts with its own count of 1. It is 64
// bits wide: 2^32 handles of 8 bytes would fit in a large machine's memory.
struct NodeCount {
#if SYMSHAPE_ATOMIC_EXPR_COUNTS
  mutable std::atomic<uint64_t> n{1};
#else
  mutable uint64_t n = 1;
#endif
  NodeCount() = default;
  NodeCount(const NodeCount&) noexcept {}
  NodeCount& operator=(const NodeCount&) noexcept { return *this; }
};

struct Node {
  // Storage from the thread's recycled blocks (below).
  static void* operator new(std::size_t size);
  static void operator delete(void* p, std::size_t size) noexcept;

  NodeCount refs;  // mutable: nodes are otherwise immutable once built
  ExprKind kind = ExprKind::Error;
  std::size_t hash = 0;
  uint32_t depth = 0;
  uint32_t size = 1;
  Interval bounds;
  std::string name;      // Symbol name, Error message
  int64_t constant = 0;  // Add; the value of an Integer node
  TermList terms;        // Add: coefficients; Mul: exponents
  ExprList args;         // FloorDiv, Mod, Max, Min
};

// Recycled storage, one set of lists per thread, for nodes and for the
// arrays of their terms and arguments (and the builders' temporary ones, which
// become those arrays). Most of them live for one simplification, and a malloc
// and a free for each were a large part of `symshape simplify`. A freed block
// of at most kMaxRecycledBlock bytes goes on the freeing thread's list of its
// size class (multiples of kRecycleGranule), while the lists hold at most
// kMaxRecycledBytes in all, and that thread's next block of the class takes
// it. The lists are a plain thread_local, destroyed by nothing; a guard object
// drains them when their thread ends and closes them, so that blocks freed
// later (by objects destroyed after the guard, or static ones) go straight
// back to the heap. Under AddressSanitizer nothing is recycled, so that it
// still sees every use of freed storage; defining SYMSHAPE_RECYCLE_NODES (0 or
// 1) overrides it.
#ifndef SYMSHAPE_RECYCLE_NODES
#if SYMSHAPE_ADDRESS_SANITIZER
#define SYMSHAPE_RECYCLE_NODES 0
#else
#define SYMSHAPE_RECYCLE_NODES 1
#endif
#endif

inline constexpr std::size_t kRecycleGranule = 16;
inline constexpr std::size_t kMaxRecycledBlock = 256;
inline constexpr std::size_t kMaxRecycledBytes = std::size_t{1} << 20;

struct RecycledBlocks {
  static constexpr std::size_t kClasses = kMaxRecycledBlock / kRecycleGranule;
  struct Slot {
    Slot* next;
  };
  Slot* head[kClasses] = {};
  std::size_t bytes = 0;  // held by all the lists
  bool guarded = false;   // the guard of this thread exists (closed implies guarded)
  bool closed = false;    // the thread is ending: no more recycling
  // The class of a block of `size` bytes, 1 <= size <= kMaxRecycledBlock.
  static constexpr std::size_t size_class(std::size_t size) { return (size - 1) / kRecycleGranule; }
  static constexpr std::size_t class_bytes(std::size_t c) { return (c + 1) * kRecycleGranule; }
  void drain() noexcept {
    for (Slot*& list : head)
      while (list) ::operator delete(std::exchange(list, list->next));
    bytes = 0;
  }
};

inline RecycledBlocks& recycled_blocks() noexcept {
  thread_local RecycledBlocks lists;  // trivially destructible: usable until the thread's end
  return lists;
}

struct RecycledBlocksGuard {
  ~RecycledBlocksGuard() {
    RecycledBlocks& lists = recycled_blocks();
    lists.drain();
    lists.closed = true;
  }
};

// A block of at least `size` bytes (aligned as operator new aligns); a small
// one is a whole block of its class, so that any request of the class can
// take it when it is recycled.
inline void* allocate_block(std::size_t size) {
#if SYMSHAPE_RECYCLE_NODES
  if (size - 1 < kMaxRecycledBlock) {  // 1 <= size <= kMaxRecycledBlock
    RecycledBlocks& lists = recycled_blocks();
    const std::size_t c = RecycledBlocks::size_class(size);
    if (RecycledBlocks::Slot* slot = lists.head[c]) {
      lists.head[c] = slot->next;
      lists.bytes -= RecycledBlocks::class_bytes(c);
      return slot;
    }
    return ::operator new(RecycledBlocks::class_bytes(c));
  }
#endif
  return ::operator new(size);
}

// Frees a block of allocate_block(size).
inline void free_block(void* p, std::size_t size) noexcept {
#if SYMSHAPE_RECYCLE_NODES
  if (size - 1 < kMaxRecycledBlock) {
    RecycledBlocks& lists = recycled_blocks();
    if (!lists.guarded) {
      thread_local RecycledBlocksGuard guard;  // constructed once per thread, here
      lists.guarded = true;
    }
    const std::size_t c = RecycledBlocks::size_class(size);
    if (!lists.closed && lists.bytes + RecycledBlocks::class_bytes(c) <= kMaxRecycledBytes) {
      lists.head[c] = new (p) RecycledBlocks::Slot{lists.head[c]};
      lists.bytes += RecycledBlocks::class_bytes(c);
      return;
    }
  }
#else
  (void)size;  // known only to the recycling lists
#endif
  ::operator delete(p);
}

inline void* Node::operator new(std::size_t size) { return allocate_block(size); }
inline void Node::operator delete(void* p, std::size_t size) noexcept { free_block(p, size); }

inline std::size_t mix_hash(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

inline std::size_t integer_hash(int64_t v) {
  uint64_t x = static_cast<uint64_t>(v) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<std::size_t>(x ^ (x >> 31));
}

inline const TermList& empty_terms() {
  static const TermList empty;
  return empty;
}
inline const ExprList& empty_args() {
  static const ExprList empty;
  return empty;
}
inline const std::string& empty_name() {
  static const std::string empty;
  return empty;
}

// The only place that creates nodes; build.hpp calls it with canonical parts.
struct NodeFactory {
  // Takes a node built in place (no copy or move of its parts) and fills in
  // its depth, size and hash; an Error instead when it exceeds the caps.
  static Expr make(std::unique_ptr<Node> node);
  static Expr symbol(std::string_view name);
  static Expr make_symbol(std::string_view name);
  static Expr make_integer(int64_t value);
};

}  // namespace detail

inline Expr::Expr(int64_t value) : bits_(tag_int(value)) {
  if (!fits_small(value)) *this = detail::NodeFactory::make_integer(value);
}
inline Expr::Expr(const Expr& other) noexcept : bits_(other.bits_) {
  if (const detail::Node* n = node()) ++n->refs.n;
}
inline void Expr::release() noexcept {
  const detail::Node* n = node();
  if (n && --n->refs.n == 0) destroy(n);
}
// Out of line: inlined, a node's destructor (and its terms', recursively)
// was copied into every function that drops an expression.
[[gnu::noinline]] inline void Expr::destroy(const detail::Node* n) noexcept { delete n; }
inline Expr::~Expr() { release(); }
// Both assignments release the old node last, through the destructor of a
// handle that took it over: `other` may live inside that node (e = e.args()[0]).
inline Expr& Expr::operator=(const Expr& other) noexcept { return *this = Expr(other); }
inline Expr& Expr::operator=(Expr&& other) noexcept {
  if (this != &other) {
    const Expr old(std::move(*this));
    bits_ = other.bits_;
    other.bits_ = kZero;
  }
  return *this;
}

SYMSHAPE_ALWAYS_INLINE bool Expr::is_int() const {
  const detail::Node* n = node();
  return !n || n->kind == ExprKind::Integer;
}
SYMSHAPE_ALWAYS_INLINE int64_t Expr::as_int() const {
  const detail::Node* n = node();
  return n ? n->constant : static_cast<int64_t>(bits_) >> 1;  // (an arithmetic shift)
}
SYMSHAPE_ALWAYS_INLINE ExprKind Expr::kind() const {
  const detail::Node* n = node();
  return n ? n->kind : ExprKind::Integer;
}
inline const std::string& Expr::name() const {
  const detail::Node* n = node();
  return n ? n->name : detail::empty_name();
}
SYMSHAPE_ALWAYS_INLINE std::size_t Expr::hash() const {
  const detail::Node* n = node();
  return n ? n->hash : detail::integer_hash(as_int());
}
SYMSHAPE_ALWAYS_INLINE uint32_t Expr::depth() const {
  const detail::Node* n = node();
  return n ? n->depth : 0;
}
SYMSHAPE_ALWAYS_INLINE uint32_t Expr::size() const {
  const detail::Node* n = node();
  return n ? n->size : 1;
}
SYMSHAPE_ALWAYS_INLINE Interval Expr::bounds() const {
  const detail::Node* n = node();
  return n ? n->bounds : Interval::point(as_int());
}
SYMSHAPE_ALWAYS_INLINE int64_t Expr::add_constant() const {
  const ExprKind k = kind();
  return k == ExprKind::Add || k == ExprKind::Integer ? as_int() : 0;
}
SYMSHAPE_ALWAYS_INLINE const TermList& Expr::terms() const {
  const detail::Node* n = node();
  return n ? n->terms : detail::empty_terms();
}
SYMSHAPE_ALWAYS_INLINE const ExprList& Expr::args() const {
  const detail::Node* n = node();
  return n ? n->args : detail::empty_args();
}

inline int compare(const Expr& a, const Expr& b) {
  const detail::Node* x = a.node();
  const detail::Node* y = b.node();
  if (x && x == y) return 0;
  ExprKind ka = a.kind(), kb = b.kind();
  if (ka != kb) return ka < kb ? -1 : 1;
  switch (ka) {
    case ExprKind::Integer:
      return a.as_int() < b.as_int() ? -1 : a.as_int() > b.as_int() ? 1 : 0;
    case ExprKind::Symbol:
    case ExprKind::Error: {
      int c = x->name.compare(y->name);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    case ExprKind::Add:
    case ExprKind::Mul: {
      std::size_t n = std::min(x->terms.size(), y->terms.size());
      for (std::size_t i = 0; i < n; ++i) {
        int c = compare(x->terms[i].first, y->terms[i].first);
        if (c != 0) return c;
        if (x->terms[i].second != y->terms[i].second) return x->terms[i].second < y->terms[i].second ? -1 : 1;
      }
      if (x->terms.size() != y->terms.size()) return x->terms.size() < y->terms.size() ? -1 : 1;
      if (x->constant != y->constant) return x->constant < y->constant ? -1 : 1;
      return 0;
    }
    default: {
      std::size_t n = std::min(x->args.size(), y->args.size());
      for (std::size_t i = 0; i < n; ++i) {
        int c = compare(x->args[i], y->args[i]);
        if (c != 0) return c;
      }
      if (x->args.size() != y->args.size()) return x->args.size() < y->args.size() ? -1 : 1;
      return 0;
    }
  }
}

inline bool operator==(const Expr& a, const Expr& b) {
  const detail::Node* x = a.node();
  const detail::Node* y = b.node();
  if (x == y) return x != nullptr || a.as_int() == b.as_int();
  // An integer has one form (small, or a node beyond 2^62), so a small one
  // never equals a node.
  if (x == nullptr || y == nullptr) return false;
  if (x->hash != y->hash) return false;
  return compare(a, b) == 0;
}

namespace detail {

inline std::size_t kind_hash(ExprKind kind) { return static_cast<std::size_t>(kind) * 0x100000001b3ULL; }

// The hash of a Symbol or Error node (NodeFactory::make hashes the others
// while it walks their parts).
inline std::size_t name_node_hash(const Node& n) {
  return mix_hash(kind_hash(n.kind), std::hash<std::string>{}(n.name));
}

inline Expr NodeFactory::make(std::unique_ptr<Node> node) {
  // Depth, size and hash in one walk of the parts: Add and Mul hash their
  // constant and (part, coefficient or exponent) pairs, the others their arguments.
  uint32_t depth = 0;
  uint64_t size = 1;
  std::size_t hash = kind_hash(node->kind);
  if (node->kind == ExprKind::Add || node->kind == ExprKind::Mul) hash = mix_hash(hash, integer_hash(node->constant));
  for (const auto& t : node->terms) {
    depth = std::max(depth, t.first.depth() + 1);
    size += t.first.size();
    // The coefficient enters by one multiply: integer_hash's three took 1%
    // of `symshape simplify`.
    hash = mix_hash(hash, t.first.hash() ^ static_cast<std::size_t>(t.second) * 0x9e3779b97f4a7c15ULL);
  }
  for (const auto& a : node->args) {
    depth = std::max(depth, a.depth() + 1);
    size += a.size();
    hash = mix_hash(hash, a.hash());
  }
  if (depth > kMaxExprDepth) return Expr::error("expression nested deeper than " + std::to_string(kMaxExprDepth));
  if (size > kMaxExprSize) return Expr::error("expression larger than " + std::to_string(kMaxExprSize) + " nodes");
  node->depth = depth;
  node->size = size > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(size);
  node->hash = hash;
  return Expr(node.release());
}

}  // namespace detail

inline Expr Expr::error(std::string message) {
  std::unique_ptr<detail::Node> n(new detail::Node);
  n->kind = ExprKind::Error;
  n->name = std::move(message);
  n->hash = detail::name_node_hash(*n);
  return Expr(n.release());
}

namespace detail {

// What the facts in force on this thread say (expr/facts.hpp builds it, and
// FactScope makes it active). The engine reads it in two places only: a
// symbol's node takes its bounds and modulus from it when it is built, and
// the non-negativity test behind Max/Min dominance and proofs falls back to
// its linear relations (expr/linear_facts.hpp). With no facts the pointer is
// null and both cost one test.
struct FactContext {
  struct SymbolFact {
    std::string name;
    Interval bounds = Interval::at_least(0);
    int64_t multiple_of = 1;
  };
  std::vector<SymbolFact> symbols;  // sorted by name
  std::vector<Expr> nonnegative;    // relations g >= 0 beyond a symbol's own bounds
  const SymbolFact* find(std::string_view name) const {
    auto it = std::lower_bound(symbols.begin(), symbols.end(), name,
                               [](const SymbolFact& f, std::string_view n) { return f.name < n; });
    return it != symbols.end() && it->name == name ? &*it : nullptr;
  }
};

inline const FactContext*& active_facts() noexcept {
  thread_local const FactContext* facts = nullptr;
  return facts;
}

// The modulus a symbol is known to be a multiple of (1 when none).
inline int64_t symbol_multiple(const Expr& e) {
  const Node* n = e.node();
  return n && n->kind == ExprKind::Symbol && n->constant > 1 ? n->constant : 1;
}

// Symbols are interned per thread: one node per name, so that building a
// symbol allocates nothing after its first use and equal symbols are one
// pointer (compare and == stop at once). The table (open addressing on the
// node's own name and hash) is emptied when it holds kMaxInternedSymbols
// names; expressions holding its symbols stay valid, they share the nodes.
inline constexpr std::size_t kMaxInternedSymbols = std::size_t{1} << 16;

// FNV-1a: names are short.
inline std::size_t name_hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return static_cast<std::size_t>(h);
}

struct SymbolTable {
  std::vector<Expr> slots = std::vector<Expr>(256);  // integers (null nodes) are free slots
  std::size_t count = 0;
};

inline SymbolTable& symbol_table() {
  thread_local SymbolTable table;
  return table;
}

}  // namespace detail

inline Expr detail::NodeFactory::symbol(std::string_view name) {
  SymbolTable& table = symbol_table();
  const std::size_t h = name_hash(name);
  std::size_t mask = table.slots.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const Expr& slot = table.slots[i];
    if (slot.node() == nullptr) break;
    if (slot.node()->name == name) return slot;
  }
  if (table.count >= kMaxInternedSymbols) {
    table = SymbolTable();
  } else if (2 * (table.count + 1) > table.slots.size()) {
    std::vector<Expr> old(table.slots.size() * 2);
    old.swap(table.slots);
    mask = table.slots.size() - 1;
    for (Expr& e : old) {
      if (e.node() == nullptr) continue;
      std::size_t i = name_hash(e.node()->name) & mask;
      while (table.slots[i].node() != nullptr) i = (i + 1) & mask;
      table.slots[i] = std::move(e);
    }
  }
  mask = table.slots.size() - 1;
  Expr e = make_symbol(name);
  std::size_t i = h & mask;
  while (table.slots[i].node() != nullptr) i = (i + 1) & mask;
  table.slots[i] = e;
  ++table.count;
  return e;
}

inline Expr detail::NodeFactory::make_symbol(std::string_view name) {
  std::unique_ptr<Node> n(new Node);
  n->kind = ExprKind::Symbol;
  n->name = std::string(name);
  n->bounds = Interval::at_least(0);
  // Under facts (expr/facts.hpp) a symbol's node carries what they say of it:
  // its bounds, and in `constant` a modulus it is a multiple of (0: none).
  if (const FactContext* facts = active_facts())
    if (const FactContext::SymbolFact* f = facts->find(name)) {
      n->bounds = f->bounds;
      n->constant = f->multiple_of > 1 ? f->multiple_of : 0;
    }
  n->hash = name_node_hash(*n);
  return Expr(n.release());
}

inline Expr Expr::symbol(std::string_view name) { return detail::NodeFactory::symbol(name); }

inline Expr detail::NodeFactory::make_integer(int64_t value) {
  std::unique_ptr<Node> n(new Node);
  n->kind = ExprKind::Integer;
  n->constant = value;
  n->bounds = Interval::point(value);
  n->hash = integer_hash(value);
  return Expr(n.release());
}

}  // namespace symshape
