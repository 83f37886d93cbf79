// SmallVector, StablePool, HashIndex (NameIndex) and the boxed fields: the
// containers behind Graph, Node, Value and Attribute; Maybe, the rules' optional.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/support/boxed.hpp"
#include "symshape/support/maybe.hpp"
#include "symshape/support/name_index.hpp"
#include "symshape/support/small_vector.hpp"
#include "symshape/support/stable_pool.hpp"
#include "symshape/support/string_hash.hpp"

namespace {

using symshape::BoxedOptional;
using symshape::BoxedString;
using symshape::BoxedVector;
using symshape::Maybe;
using symshape::NameIndex;
using symshape::SmallVector;
using symshape::StablePool;

std::vector<int> to_vector(const SmallVector<int, 2>& v) { return std::vector<int>(v.begin(), v.end()); }

TEST(SmallVector, StaysInlineUpToItsCapacity) {
  SmallVector<int, 2> v;
  const int* inline_storage = v.data();
  v.push_back(1);
  v.push_back(2);
  EXPECT_EQ(v.data(), inline_storage);
  EXPECT_EQ(to_vector(v), (std::vector<int>{1, 2}));
}

TEST(SmallVector, GrowsOntoTheHeapKeepingItsElements) {
  SmallVector<int, 2> v{1, 2};
  v.push_back(3);
  v.push_back(4);
  v.push_back(5);
  EXPECT_GE(v.capacity(), 5u);
  EXPECT_EQ(to_vector(v), (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(SmallVector, CopiesAndMovesInlineAndHeapContents) {
  SmallVector<int, 2> small{7};
  SmallVector<int, 2> big{1, 2, 3};
  SmallVector<int, 2> small_copy = small, big_copy = big;
  EXPECT_EQ(to_vector(small_copy), (std::vector<int>{7}));
  EXPECT_EQ(to_vector(big_copy), (std::vector<int>{1, 2, 3}));
  SmallVector<int, 2> moved_small = std::move(small), moved_big = std::move(big);
  EXPECT_EQ(to_vector(moved_small), (std::vector<int>{7}));
  EXPECT_EQ(to_vector(moved_big), (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(small.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_TRUE(big.empty());    // NOLINT(bugprone-use-after-move)
  moved_small = moved_big;     // heap contents into an inline vector
  EXPECT_EQ(to_vector(moved_small), (std::vector<int>{1, 2, 3}));
  big_copy = SmallVector<int, 2>{9};  // inline contents into a heap vector
  EXPECT_EQ(to_vector(big_copy), (std::vector<int>{9}));
}

TEST(SmallVector, InsertsResizesAndCompares) {
  SmallVector<int, 2> v{2, 3};
  v.insert(v.begin(), 1);
  EXPECT_EQ(to_vector(v), (std::vector<int>{1, 2, 3}));
  v.resize(5, 0);
  EXPECT_EQ(to_vector(v), (std::vector<int>{1, 2, 3, 0, 0}));
  v.resize(1);
  EXPECT_EQ(v, (SmallVector<int, 2>{1}));
  EXPECT_NE(v, (SmallVector<int, 2>{2}));
}

// The heap pointer shares its bytes with the inline elements: a node's two
// lists cost their elements and two 32-bit counts, nothing more.
TEST(SmallVector, IsItsInlineElementsAndTwoCounts) {
  static_assert(sizeof(SmallVector<void*, 2>) == 2 * sizeof(void*) + 2 * sizeof(uint32_t));
  static_assert(sizeof(SmallVector<void*, 4>) == 4 * sizeof(void*) + 2 * sizeof(uint32_t));
  SmallVector<int64_t, 1> v{5};
  EXPECT_EQ(v.capacity(), 1u);
  v.push_back(6);  // onto the heap: the pointer takes the inline element's place
  EXPECT_GE(v.capacity(), 2u);
  EXPECT_EQ(v[0], 5);
  EXPECT_EQ(v[1], 6);
  v.assign(v.begin(), v.begin());  // emptied, the heap block is kept
  EXPECT_TRUE(v.empty());
  v = SmallVector<int64_t, 1>{7};
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v.back(), 7);
}

// Size and capacity are 32-bit: asking for more stops the program with a
// message before anything is allocated (no model file can ask for it).
TEST(SmallVectorDeathTest, RefusesMoreThanItsSizeTypeHolds) {
  SmallVector<int, 2> v{1, 2, 3};
  EXPECT_DEATH(v.reserve(std::size_t{1} << 32), "SmallVector grown past 2\\^32 - 1 elements");
  v.reserve(1000);
  EXPECT_EQ(v.capacity(), 1000u);
  EXPECT_EQ(to_vector(v), (std::vector<int>{1, 2, 3}));
}

TEST(BoxedOptional, StartsEmptyInOnePointer) {
  static_assert(sizeof(BoxedOptional<std::vector<int>>) == sizeof(void*));
  BoxedOptional<std::vector<int>> b;
  EXPECT_FALSE(b.has_value());
  EXPECT_FALSE(b);
  EXPECT_EQ(std::optional<std::vector<int>>(b), std::nullopt);
}

TEST(BoxedOptional, AssignsFromValuesOptionalsAndNullopt) {
  BoxedOptional<std::vector<int>> b;
  b = std::vector<int>{1, 2};
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (std::vector<int>{1, 2}));
  EXPECT_EQ(b->size(), 2u);
  b = std::optional<std::vector<int>>(std::vector<int>{});  // an empty vector is still a value
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b.value().empty());
  b = std::nullopt;
  EXPECT_FALSE(b);
  b = std::optional<std::vector<int>>();
  EXPECT_FALSE(b);
  b.emplace(3, 7);
  EXPECT_EQ(std::optional<std::vector<int>>(b), (std::vector<int>{7, 7, 7}));
  b.reset();
  EXPECT_FALSE(b);
}

TEST(BoxedOptional, CopiesDeeplyAndMovesByStealing) {
  BoxedOptional<std::vector<int>> a = std::vector<int>{1, 2, 3};
  BoxedOptional<std::vector<int>> copy = a;
  copy->push_back(4);
  EXPECT_EQ(*a, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(*copy, (std::vector<int>{1, 2, 3, 4}));
  const int* elements = a->data();
  BoxedOptional<std::vector<int>> moved = std::move(a);
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(moved->data(), elements);
  copy = moved;
  EXPECT_EQ(*copy, (std::vector<int>{1, 2, 3}));
  copy = BoxedOptional<std::vector<int>>();
  EXPECT_FALSE(copy);
  EXPECT_TRUE(moved);
}

TEST(BoxedOptionalDeathTest, ValueOfAnEmptyBoxStops) {
  const BoxedOptional<int> b;
  EXPECT_DEATH((void)b.value(), "value\\(\\) of an empty BoxedOptional");
}

TEST(BoxedVector, EmptyBoxReadsAsAnEmptyVector) {
  static_assert(sizeof(BoxedVector<std::string>) == sizeof(void*));
  BoxedVector<std::string> b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.begin(), b.end());
  const std::vector<std::string>& as_vector = b;
  EXPECT_TRUE(as_vector.empty());
  int visited = 0;
  for (std::string& s : b) visited += static_cast<int>(s.size());
  EXPECT_EQ(visited, 0);
  EXPECT_EQ(b, std::vector<std::string>{});
}

TEST(BoxedVector, GrowsLikeAVector) {
  BoxedVector<std::string> b;
  b.reserve(2);
  b.push_back("a");
  b.emplace_back(2, 'b').append("!");
  EXPECT_EQ(b.size(), 2u);
  EXPECT_EQ(b.front(), "a");
  EXPECT_EQ(b.back(), "bb!");
  b[0] = "z";
  EXPECT_EQ(b, (std::vector<std::string>{"z", "bb!"}));
  EXPECT_NE(b, (std::vector<std::string>{"z"}));
  b.clear();
  EXPECT_TRUE(b.empty());
  const std::vector<std::string> source{"x", "y"};
  b.assign(source.begin(), source.end());
  EXPECT_EQ(b.get(), source);
}

TEST(BoxedVector, AssignsFromVectorsByCopyAndByMove) {
  BoxedVector<int> b;
  std::vector<int> v{1, 2};
  b = v;
  v.push_back(3);
  EXPECT_EQ(b, (std::vector<int>{1, 2}));
  const int* elements = v.data();
  b = std::move(v);
  EXPECT_EQ(b.get().data(), elements);  // the vector's buffer, not a copy
  EXPECT_EQ(b, (std::vector<int>{1, 2, 3}));
  b = std::vector<int>{};
  EXPECT_TRUE(b.empty());
  std::vector<int> out = BoxedVector<int>{4, 5};
  EXPECT_EQ(out, (std::vector<int>{4, 5}));
}

TEST(BoxedVector, CopiesDeeplyAndMovesByStealing) {
  BoxedVector<int> a{1, 2};
  BoxedVector<int> copy = a;
  copy.push_back(3);
  EXPECT_EQ(a, (std::vector<int>{1, 2}));
  EXPECT_EQ(copy, (std::vector<int>{1, 2, 3}));
  BoxedVector<int> moved = std::move(copy);
  EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(moved, (std::vector<int>{1, 2, 3}));
  a = moved;
  moved[0] = 9;
  EXPECT_EQ(a, (std::vector<int>{1, 2, 3}));
  EXPECT_NE(a, moved);
  a = BoxedVector<int>();
  EXPECT_EQ(a, BoxedVector<int>());
}

TEST(BoxedString, ReadsAsAStringAndAView) {
  BoxedString s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(std::string_view(s), "");
  s = "concat_axis";
  EXPECT_EQ(s, "concat_axis");
  EXPECT_EQ(std::string("concat_axis"), s);
  EXPECT_EQ(std::string_view(s).substr(7), "axis");
  BoxedString copy = s;
  s = std::string();
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(copy.get(), "concat_axis");
}

// The boxed fields are what keeps a million-node model small: these sizes
// are those of libstdc++ on x86-64 (Value was 176 bytes, Attribute 288,
// Node 200), as docs/benchmarks.md ("Memory") gives them.
TEST(BoxedFields, ShrinkValueAndAttribute) {
#if defined(__x86_64__) && defined(__GLIBCXX__)
  EXPECT_EQ(sizeof(symshape::Value), 120u);  // with a 48-byte Type (its inner type behind one pointer)
  EXPECT_EQ(sizeof(symshape::Type), 48u);
  EXPECT_EQ(sizeof(symshape::Shape), 32u);       // up to 3 dims held inline
  EXPECT_EQ(sizeof(symshape::Attribute), 152u);  // its string value boxed
  EXPECT_EQ(sizeof(symshape::Node), 160u);       // its domain boxed ("" for almost every node)
  EXPECT_EQ(sizeof(symshape::Tensor), 168u);
#else
  GTEST_SKIP() << "sizes are checked on x86-64 with libstdc++";
#endif
}

// A shape of `rank` symbolic dims (reference-counted expressions, so that a
// dim copied or dropped twice shows under the sanitizers): "s0+1", "s1+2", ...
symshape::Shape symbolic_shape(std::size_t rank) {
  std::vector<symshape::SymbolicDim> dims;
  for (std::size_t i = 0; i < rank; ++i) dims.emplace_back("s" + std::to_string(i) + "+" + std::to_string(i + 1));
  return symshape::Shape(std::move(dims));
}

std::string dims_text(const symshape::Shape& s) { return s.to_string(); }

TEST(ShapeStorage, InlineAndHeapDimsCopyMoveAndAssign) {
  using symshape::Shape;
  for (std::size_t rank = 0; rank <= 6; ++rank) {
    const Shape made = symbolic_shape(rank);
    ASSERT_TRUE(made.has_rank());
    ASSERT_EQ(made.rank(), static_cast<int64_t>(rank));
    const std::string text = dims_text(made);
    if (rank > 0) {
      EXPECT_EQ(made[rank - 1].to_string(), "s" + std::to_string(rank - 1) + "+" + std::to_string(rank));
    }
    Shape copy = made;
    EXPECT_EQ(copy, made);
    Shape moved = std::move(copy);
    EXPECT_EQ(dims_text(moved), text);
    EXPECT_FALSE(copy.has_rank());  // NOLINT(bugprone-use-after-move): a moved-from shape has an unknown rank
    for (std::size_t other = 0; other <= 6; ++other) {  // over shapes held inline and on the heap
      Shape target = symbolic_shape(other);
      target = made;
      EXPECT_EQ(target, made) << rank << " over " << other;
      Shape moved_over = symbolic_shape(other);
      Shape source = made;
      moved_over = std::move(source);
      EXPECT_EQ(dims_text(moved_over), text) << rank << " over " << other;
    }
    Shape self = made;
    const Shape& alias = self;
    self = alias;
    EXPECT_EQ(self, made);
    // Changing a dim in place through dims() changes that shape only.
    if (rank > 0) {
      Shape changed = made;
      changed.dims()[0] = symshape::SymbolicDim(int64_t{7});
      EXPECT_EQ(changed[0].to_string(), "7");
      EXPECT_NE(changed, made);
      EXPECT_EQ(dims_text(made), text);
    }
    const std::vector<symshape::SymbolicDim> as_vector = made.dims();
    EXPECT_EQ(as_vector.size(), rank);
    EXPECT_EQ(Shape(as_vector), made);
  }
  // The unknown rank and the scalar stay apart through copies and moves.
  Shape unknown;
  Shape scalar = Shape::scalar();
  EXPECT_NE(unknown, scalar);
  Shape unknown_copy = unknown;
  EXPECT_FALSE(unknown_copy.has_rank());
  Shape scalar_moved = std::move(scalar);
  EXPECT_EQ(scalar_moved.rank(), 0);
  EXPECT_EQ(Shape::of_rank(5).to_string(), "[?,?,?,?,?]");
  EXPECT_EQ(Shape::of_rank(2).to_string(), "[?,?]");
  // Shapes of different ranks, or a rank against none, differ.
  EXPECT_NE(symbolic_shape(3), symbolic_shape(4));
  EXPECT_NE(Shape::of_rank(0), Shape());
}

TEST(BoxedFields, AttributeFactoriesAndCopiesKeepTheirContents) {
  using symshape::Attribute;
  Attribute floats = Attribute::make_floats("scales", {1.0, 2.5});
  Attribute strings = Attribute::make_strings("names", {"a", "b"});
  Attribute type = Attribute::make_type("t", symshape::Type());
  Attribute copy = floats;
  copy.floats.push_back(4.0);
  EXPECT_EQ(floats.floats, (std::vector<double>{1.0, 2.5}));
  EXPECT_EQ(copy.floats.size(), 3u);
  EXPECT_EQ(strings.strings, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(type.types.size(), 1u);
  EXPECT_TRUE(type.tensors.empty() && type.graphs.empty() && type.ref_attr_name.empty());
}

struct Counted {
  static int alive;
  std::string name;
  Counted() { ++alive; }
  ~Counted() { --alive; }
};
int Counted::alive = 0;

TEST(Maybe, HoldsAValueOrNothing) {
  const Maybe<std::string> empty;
  EXPECT_FALSE(empty);
  EXPECT_FALSE(empty.has_value());
  const Maybe<std::string> none = std::nullopt;
  EXPECT_FALSE(none);
  Maybe<std::string> some = std::string("pads");
  ASSERT_TRUE(some);
  EXPECT_EQ(*some, "pads");
  EXPECT_EQ(some->size(), 4u);
  some->append("_begin");
  EXPECT_EQ(*some, "pads_begin");
  some = std::nullopt;
  EXPECT_FALSE(some);
}

TEST(Maybe, ComparesLikeAnOptional) {
  const Maybe<int> two = 2;
  EXPECT_EQ(two, 2);
  EXPECT_NE(two, 3);
  EXPECT_NE(two, std::nullopt);
  EXPECT_EQ(Maybe<int>(), std::nullopt);
  EXPECT_EQ(Maybe<int>(), Maybe<int>(std::nullopt));
  // An empty Maybe holds a T{} that takes no part in the comparison.
  EXPECT_NE(Maybe<int>(), Maybe<int>(0));
}

// Counts the copies made of it.
struct CopyCounter {
  int* copies = nullptr;
  CopyCounter() = default;
  explicit CopyCounter(int* c) : copies(c) {}
  CopyCounter(const CopyCounter& o) : copies(o.copies) { ++*copies; }
  CopyCounter(CopyCounter&& o) noexcept = default;
  CopyCounter& operator=(const CopyCounter& o) {
    copies = o.copies;
    ++*copies;
    return *this;
  }
  CopyCounter& operator=(CopyCounter&& o) noexcept = default;
  ~CopyCounter() = default;
};

Maybe<CopyCounter> returned_local(int* copies) {
  CopyCounter c(copies);
  return c;  // moved, as into a std::optional
}

TEST(Maybe, ReturnedLocalIsMovedNotCopied) {
  int copies = 0;
  const Maybe<CopyCounter> m = returned_local(&copies);
  ASSERT_TRUE(m);
  EXPECT_EQ(copies, 0);
}

TEST(Maybe, MovesItsValueOut) {
  Maybe<std::vector<int>> v = std::vector<int>{1, 2, 3};
  const std::vector<int> taken = *std::move(v);
  EXPECT_EQ(taken, (std::vector<int>{1, 2, 3}));
}

TEST(StablePool, KeepsAddressesAndOrderAcrossChunks) {
  StablePool<Counted> pool;
  std::vector<Counted*> added;
  for (int i = 0; i < 100; ++i) {  // several chunks: 16, 16, 32, 64
    Counted* c = pool.add();
    c->name = std::to_string(i);
    added.push_back(c);
  }
  ASSERT_EQ(pool.size(), 100u);
  for (std::size_t i = 0; i < added.size(); ++i) {
    EXPECT_EQ(pool[i], added[i]);
    EXPECT_EQ(pool[i]->name, std::to_string(i));
    EXPECT_EQ(pool.index_of(added[i]), i);
  }
  EXPECT_EQ(std::vector<Counted*>(pool.begin(), pool.end()), added);
}

TEST(StablePool, IndexOfRejectsForeignAndUnfilledAddresses) {
  StablePool<Counted> pool, other;
  pool.reserve(10);
  Counted* first = pool.add();
  Counted* foreign = other.add();
  EXPECT_EQ(pool.index_of(first), 0u);
  EXPECT_EQ(pool.index_of(foreign), StablePool<Counted>::npos);
  EXPECT_EQ(pool.index_of(first + 1), StablePool<Counted>::npos);  // reserved, not yet constructed
}

TEST(StablePool, ReserveStartsAFreshChunkAndIndicesStayExact) {
  StablePool<Counted> pool;
  Counted* a = pool.add();  // first chunk of 16, 15 slots left
  pool.reserve(40);         // needs a new chunk
  Counted* b = pool.add();
  EXPECT_EQ(pool.index_of(a), 0u);
  EXPECT_EQ(pool.index_of(b), 1u);
}

// Chunks left empty by reserve() (twice in a row, or at the end) hold no
// element: iteration, operator[] and back() pass over them.
TEST(StablePool, EmptyChunksAreSkipped) {
  StablePool<Counted> pool;
  EXPECT_TRUE(pool.begin() == pool.end());
  pool.reserve(20);
  EXPECT_TRUE(pool.begin() == pool.end());
  pool.reserve(50);  // the chunk of 20 stays empty
  std::vector<Counted*> added;
  for (int i = 0; i < 60; ++i) added.push_back(pool.add());  // 50, then a chunk for the rest
  pool.reserve(100);                                         // 0 of 100 used
  pool.reserve(300);                                         // the chunk of 100 stays empty
  for (int i = 0; i < 5; ++i) added.push_back(pool.add());
  pool.reserve(1000);  // an empty last chunk
  ASSERT_EQ(pool.size(), added.size());
  EXPECT_EQ(std::vector<Counted*>(pool.begin(), pool.end()), added);
  for (std::size_t i = 0; i < added.size(); ++i) {
    EXPECT_EQ(pool[i], added[i]) << i;
    EXPECT_EQ(pool.index_of(added[i]), i);
  }
  EXPECT_EQ(pool.back(), added.back());
}

TEST(StablePool, DestroysEveryElement) {
  {
    StablePool<Counted> pool;
    for (int i = 0; i < 40; ++i) pool.add();
    EXPECT_EQ(Counted::alive, 40);
    StablePool<Counted> moved = std::move(pool);
    EXPECT_EQ(Counted::alive, 40);
    EXPECT_EQ(moved.size(), 40u);
    EXPECT_TRUE(pool.empty());  // NOLINT(bugprone-use-after-move)
  }
  EXPECT_EQ(Counted::alive, 0);
}

struct Named {
  std::string name;
};

TEST(NameIndex, FindsInsertedNamesOnly) {
  NameIndex<Named> index;
  Named a{"a"}, b{"gpu_0/res2_0_branch2a_w_0"};
  EXPECT_EQ(index.find("a"), nullptr);
  EXPECT_EQ(index.insert(&a), nullptr);
  EXPECT_EQ(index.insert(&b), nullptr);
  EXPECT_EQ(index.find("a"), &a);
  EXPECT_EQ(index.find("gpu_0/res2_0_branch2a_w_0"), &b);
  EXPECT_EQ(index.find("b"), nullptr);
  EXPECT_TRUE(index.contains("a"));
  EXPECT_EQ(index.size(), 2u);
}

TEST(NameIndex, InsertKeepsTheFirstAndAssignReplaces) {
  NameIndex<Named> index;
  Named first{"x"}, second{"x"};
  EXPECT_EQ(index.insert(&first), nullptr);
  EXPECT_EQ(index.insert(&second), &first);
  EXPECT_EQ(index.find("x"), &first);
  index.assign(&second);
  EXPECT_EQ(index.find("x"), &second);
  EXPECT_EQ(index.size(), 1u);
}

TEST(NameIndex, GrowsPastManyNames) {
  NameIndex<Named> index;
  std::vector<Named> names(5000);
  for (std::size_t i = 0; i < names.size(); ++i) {
    names[i].name = "v" + std::to_string(i);
    ASSERT_EQ(index.insert(&names[i]), nullptr);
  }
  for (std::size_t i = 0; i < names.size(); ++i) ASSERT_EQ(index.find("v" + std::to_string(i)), &names[i]);
  EXPECT_EQ(index.find("v5000"), nullptr);
  EXPECT_EQ(index.size(), 5000u);
}

// Any key: here a pair of numbers whose hash is the first only, so that keys
// of one hash share a probe sequence and only the comparison tells them apart
// (EncodedTypes keys its types this way, on the type itself).
struct Cell {
  int row = 0;
  int col = 0;
};
struct KeyedOnCell {
  using Key = const Cell&;
  static Key key(const Cell& c) { return c; }
  static std::size_t hash(const Cell& c) { return static_cast<std::size_t>(c.row); }
  static bool equal(const Cell& a, const Cell& b) { return a.row == b.row && a.col == b.col; }
};

TEST(HashIndex, ComparesKeysOfTheSameHash) {
  symshape::HashIndex<const Cell, KeyedOnCell> index;
  std::vector<Cell> cells;
  for (int row = 0; row < 20; ++row)
    for (int col = 0; col < 10; ++col) cells.push_back({row, col});
  for (const Cell& c : cells) ASSERT_EQ(index.insert(&c), nullptr);
  EXPECT_EQ(index.size(), cells.size());  // grown past 16 slots several times
  for (const Cell& c : cells) ASSERT_EQ(index.find(Cell{c.row, c.col}), &c);
  EXPECT_EQ(index.find(Cell{3, 10}), nullptr);  // a hash in the table, a key not
  EXPECT_EQ(index.find(Cell{20, 0}), nullptr);  // a hash not in the table
  const Cell again{7, 7};
  EXPECT_EQ(index.insert(&again), &cells[77]);  // the first element of the key stays
  index.assign(&again);
  EXPECT_EQ(index.find(Cell{7, 7}), &again);
  EXPECT_EQ(index.size(), cells.size());
}

// The rule index is built at compile time and looked up at run time with the
// same hash: both must agree, for every size of name (each takes another
// branch: 0, 1-3, 4-7 bytes, 8, and longer with an overlapping last word).
constexpr std::size_t kConvHash = symshape::string_hash("Conv");
constexpr std::size_t kLongHash = symshape::string_hash("LayerNormalization");

TEST(StringHash, CompileTimeAndRunTimeAgree) {
  EXPECT_EQ(symshape::string_hash(std::string("Conv")), kConvHash);
  EXPECT_EQ(symshape::string_hash(std::string("LayerNormalization")), kLongHash);
  const std::string text = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::vector<std::size_t> seen;
  for (std::size_t n = 0; n <= text.size(); ++n) {
    const std::string name = text.substr(0, n);
    const std::size_t h = symshape::string_hash(name);
    EXPECT_EQ(h, symshape::string_hash(std::string_view(name.data(), n))) << n;
    // A change of the first, middle or last byte changes the hash.
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      if (n == 0) break;
      std::string changed = name;
      changed[at] = '#';
      EXPECT_NE(symshape::string_hash(changed), h) << n << " " << at;
    }
    seen.push_back(h);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end()) << "prefixes of another size hash apart";
}

}  // namespace
