// product() in infer/helpers.hpp gives one canonical dim whatever the order
// of its factors, so the dims rules write print the same for the same product.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"

using namespace symshape;

namespace {

// s1 + s2 + ... + sk, a sum of k symbols named `prefix`1..k.
SymbolicDim sum_of_symbols(const std::string& prefix, int k) {
  std::string text;
  for (int i = 1; i <= k; ++i) text += (i > 1 ? "+" : "") + prefix + std::to_string(i);
  return SymbolicDim(text);
}

}  // namespace

TEST(Product, EmptyIsOne) { EXPECT_EQ(product({}).to_string(), "1"); }

TEST(Product, UnknownFactorGivesUnknown) {
  EXPECT_TRUE(product({SymbolicDim("a"), SymbolicDim(), SymbolicDim(3)}).is_unknown());
}

TEST(Product, RangeOfDims) {
  const std::vector<SymbolicDim> dims = {SymbolicDim("B"), SymbolicDim("T"), SymbolicDim(768)};
  EXPECT_EQ(product(dims, 0, 2).to_string(), "B*T");
  EXPECT_EQ(product(dims, 1).to_string(), "768*T");
}

TEST(Product, SmallSumsDoNotDependOnOrder) {
  const std::vector<SymbolicDim> dims = {SymbolicDim("a+1"), SymbolicDim("b+2"), SymbolicDim("c+3")};
  std::vector<SymbolicDim> reversed(dims.rbegin(), dims.rend());
  EXPECT_TRUE(product(dims) == product(reversed));
  EXPECT_EQ(product(dims).to_string(), product(reversed).to_string());
}

// Sums whose expanded product is too large to expand (see kMaxExpandedTerms
// in expr/build.hpp): folding left to right expanded the first pair only, so
// the printed product depended on which pair came first.
TEST(Product, LargeSumsDoNotDependOnOrder) {
  const std::vector<SymbolicDim> dims = {sum_of_symbols("a", 9), sum_of_symbols("b", 9), sum_of_symbols("c", 9),
                                         SymbolicDim("n")};
  const SymbolicDim first = product(dims);
  ASSERT_TRUE(first.is_symbolic());
  // Every order of the four factors.
  std::vector<int> order = {0, 1, 2, 3};
  do {
    std::vector<SymbolicDim> permuted;
    for (int i : order) permuted.push_back(dims[static_cast<std::size_t>(i)]);
    const SymbolicDim p = product(permuted);
    EXPECT_TRUE(p == first) << p.to_string() << " vs " << first.to_string();
  } while (std::next_permutation(order.begin(), order.end()));
  // The product still parses back to itself.
  EXPECT_TRUE(SymbolicDim(first.to_string()) == first);
}
