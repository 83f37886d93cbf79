// SmallVector, StablePool and NameIndex: the containers behind Graph and Node.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "symshape/support/name_index.hpp"
#include "symshape/support/small_vector.hpp"
#include "symshape/support/stable_pool.hpp"

namespace {

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

// Size and capacity are 32-bit: asking for more stops the program with a
// message before anything is allocated (no model file can ask for it).
TEST(SmallVectorDeathTest, RefusesMoreThanItsSizeTypeHolds) {
  SmallVector<int, 2> v{1, 2, 3};
  EXPECT_DEATH(v.reserve(std::size_t{1} << 32), "SmallVector grown past 2\\^32 - 1 elements");
  v.reserve(1000);
  EXPECT_EQ(v.capacity(), 1000u);
  EXPECT_EQ(to_vector(v), (std::vector<int>{1, 2, 3}));
}

struct Counted {
  static int alive;
  std::string name;
  Counted() { ++alive; }
  ~Counted() { --alive; }
};
int Counted::alive = 0;

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

}  // namespace
