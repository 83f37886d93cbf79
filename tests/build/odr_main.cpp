// ODR test, first translation unit: includes every core header (sorted order)
// and links with odr_other.cpp, which includes them all in reverse order. A
// non-inline definition in a header fails the link with a duplicate symbol; a
// header that needs another one first fails to compile in one of the orders.
#include <cstdio>
#include <string>

#include "all_core_forward.hpp"

namespace odr_test {
std::string simplify_in_other(const std::string& text);
symshape::Expr parse_in_other(const std::string& text);
}  // namespace odr_test

int main() {
  int failures = 0;
  auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::printf("FAIL: %s\n", what);
      ++failures;
    }
  };

  check(odr_test::simplify_in_other("a + b - a") == "b", "simplify in the other unit");
  check(odr_test::simplify_in_other("2*batch//batch") == "2", "simplify in the other unit");

  // The same expression built in both units is the same value.
  symshape::Result<symshape::Expr> here = symshape::parse_expr("(H - 1)//2 + 1");
  const symshape::Expr there = odr_test::parse_in_other("(H - 1)//2 + 1");
  check(here.ok(), "parse here");
  check(here.ok() && *here == there, "equal across units");
  check(here.ok() && here->hash() == there.hash(), "same hash across units");
  check(here.ok() && symshape::to_string(*here) == symshape::to_string(there), "same text across units");

  symshape::Result<int64_t> value = symshape::evaluate(there, {{"H", 224}});
  check(value.ok() && *value == 112, "evaluate here what the other unit built");

  if (failures == 0) std::printf("odr: ok\n");
  return failures == 0 ? 0 : 1;
}
