#include <gtest/gtest.h>

#include "symshape/expr.hpp"

TEST(ExprSmoke, Simplifies) { EXPECT_EQ(*symshape::simplify_expression("a + b - a"), "b"); }
