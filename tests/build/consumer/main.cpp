// A user of symshape: simplifies and evaluates expressions, checks the results.
#include <cstdio>
#include <string>

#include "symshape/expr.hpp"

int main() {
  int failures = 0;
  const struct {
    const char* text;
    const char* canonical;
  } cases[] = {{"a + b - a", "b"}, {"2*batch//batch", "2"}, {"past + seq - past", "seq"}};
  for (const auto& c : cases) {
    symshape::Result<std::string> s = symshape::simplify_expression(c.text);
    const std::string got = s ? *s : "error: " + s.error();
    if (got != c.canonical) {
      std::printf("FAIL: %s -> %s, expected %s\n", c.text, got.c_str(), c.canonical);
      ++failures;
    }
  }

  symshape::Result<symshape::Expr> conv = symshape::parse_expr("(H + 2*pad - kernel)//stride + 1");
  symshape::Result<int64_t> size =
      conv ? symshape::evaluate(*conv, {{"H", 224}, {"pad", 3}, {"kernel", 7}, {"stride", 2}})
           : symshape::Result<int64_t>::failure(conv.error());
  if (!size || *size != 112) {
    std::printf("FAIL: conv output size: %s\n", size ? std::to_string(*size).c_str() : size.error().c_str());
    ++failures;
  }

  if (failures == 0) std::printf("consumer: ok\n");
  return failures == 0 ? 0 : 1;
}
