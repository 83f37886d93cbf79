// ODR test, second translation unit: every core header in reverse order.
#include <string>

#include "all_core_reverse.hpp"

namespace odr_test {

std::string simplify_in_other(const std::string& text) {
  symshape::Result<symshape::Expr> e = symshape::parse_expr(text);
  return e ? symshape::to_string(*e) : "error: " + e.error();
}

symshape::Expr parse_in_other(const std::string& text) {
  symshape::Result<symshape::Expr> e = symshape::parse_expr(text);
  return e ? *e : symshape::Expr::error(e.error());
}

}  // namespace odr_test
