// The parser. Grammar, precedence low to high (as Python's for these tokens):
//   expr    := min_e ('^' min_e)*        '^' is max
//   min_e   := sum ('&' sum)*            '&' is min
//   sum     := product (('+'|'-') product)*
//   product := unary (('*'|'//'|'%') unary)*
//   unary   := ('+'|'-')* atom
//   atom    := INTEGER | NAME | '(' expr ')' | CALL
//   CALL    := ('CeilToInt' | 'Max' | 'max' | 'Min' | 'min') '(' expr (',' expr)* ')'
// Names are [A-Za-z_][A-Za-z0-9_]*. Errors name the 0-based position and what
// was expected; nesting deeper than kMaxParseDepth is an error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/expr/build.hpp"
#include "symshape/expr/expr.hpp"
#include "symshape/support/checked_int.hpp"
#include "symshape/support/result.hpp"

namespace symshape {

inline constexpr int kMaxParseDepth = 200;

Result<Expr> parse_expr(std::string_view text);

namespace detail {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<Expr> run() {
    Expr e = parse_max();
    if (failed_) return Result<Expr>::failure(error_);
    skip_space();
    if (pos_ < text_.size()) {
      fail(std::string("unexpected '") + text_[pos_] + "', expected an operator or the end");
      return Result<Expr>::failure(error_);
    }
    if (e.is_error()) return Result<Expr>::failure(e.name() + " in '" + std::string(text_) + "'");
    return e;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
  std::string error_;

  void fail(const std::string& what) {
    if (failed_) return;
    failed_ = true;
    error_ = "position " + std::to_string(pos_) + ": " + what;
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) == token) {
      pos_ += token.size();
      return true;
    }
    return false;
  }

  static bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  Expr parse_max() {
    std::vector<Expr> args{parse_min()};
    while (!failed_ && accept("^")) args.push_back(parse_min());
    return args.size() == 1 ? args[0] : max_of(std::move(args));
  }

  Expr parse_min() {
    std::vector<Expr> args{parse_sum()};
    while (!failed_ && accept("&")) args.push_back(parse_sum());
    return args.size() == 1 ? args[0] : min_of(std::move(args));
  }

  Expr parse_sum() {
    std::vector<Expr> terms{parse_product()};
    while (!failed_) {
      if (accept("+")) {
        terms.push_back(parse_product());
      } else if (accept("-")) {
        terms.push_back(-parse_product());
      } else {
        break;
      }
    }
    // One n-ary sum: long chains cost O(n log n), not O(n^2).
    return terms.size() == 1 ? terms[0] : sum_of(terms);
  }

  Expr parse_product() {
    // Operands of consecutive '*', multiplied at once by product_of: no
    // quadratic cost on long runs such as a1*a2*...*a100000.
    std::vector<Expr> run{parse_unary()};
    while (!failed_) {
      skip_space();
      if (accept("//")) {
        Expr d = parse_unary();
        run = {floordiv(product_of(run), d)};
      } else if (text_.substr(pos_, 1) == "/") {
        fail("'/' is not supported, use '//' for floor division");
      } else if (accept("*")) {
        run.push_back(parse_unary());
      } else if (accept("%")) {
        Expr d = parse_unary();
        run = {mod(product_of(run), d)};
      } else {
        break;
      }
    }
    return run.size() == 1 ? run[0] : product_of(run);
  }

  Expr parse_unary() {
    bool negate = false;
    while (!failed_) {
      if (accept("-")) {
        negate = !negate;
      } else if (!accept("+")) {
        break;
      }
    }
    Expr e = parse_atom();
    return negate ? -e : e;
  }

  Expr parse_atom() {
    if (failed_) return 0;
    skip_space();
    if (pos_ >= text_.size()) {
      fail("expected a number, a name or '(' but the text ended");
      return 0;
    }
    const char c = text_[pos_];
    if (is_digit(c)) {
      int64_t v = 0;
      const std::size_t start = pos_;
      while (pos_ < text_.size() && is_digit(text_[pos_])) {
        if (!checked::mul(v, 10, v) || !checked::add(v, text_[pos_] - '0', v)) {
          pos_ = start;
          fail("integer does not fit in int64");
          return 0;
        }
        ++pos_;
      }
      return v;
    }
    if (c == '(') {
      if (!enter()) return 0;
      ++pos_;
      Expr e = parse_max();
      if (!failed_ && !accept(")")) fail("expected ')'");
      --depth_;
      return e;
    }
    if (is_name_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && (is_name_start(text_[pos_]) || is_digit(text_[pos_]))) ++pos_;
      std::string_view name = text_.substr(start, pos_ - start);
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == '(') return parse_call(name, start);
      return Expr::symbol(name);
    }
    fail(std::string("unexpected '") + c + "', expected a number, a name or '('");
    return 0;
  }

  Expr parse_call(std::string_view name, std::size_t name_pos) {
    const bool is_ceil = name == "CeilToInt";
    const bool is_max = name == "Max" || name == "max";
    const bool is_min = name == "Min" || name == "min";
    if (!is_ceil && !is_max && !is_min) {
      pos_ = name_pos;
      fail("unknown function '" + std::string(name) + "' (known: CeilToInt, Max, max, Min, min)");
      return 0;
    }
    if (!enter()) return 0;
    ++pos_;  // '('
    std::vector<Expr> args{parse_max()};
    while (!failed_ && accept(",")) args.push_back(parse_max());
    if (!failed_ && !accept(")")) fail("expected ',' or ')' in call of " + std::string(name));
    --depth_;
    if (failed_) return 0;
    if (is_ceil) {
      if (args.size() != 2) {
        pos_ = name_pos;
        fail("CeilToInt takes 2 arguments, got " + std::to_string(args.size()));
        return 0;
      }
      return ceil_to_int(args[0], args[1]);
    }
    return is_max ? max_of(std::move(args)) : min_of(std::move(args));
  }

  bool enter() {
    if (++depth_ > kMaxParseDepth) {
      fail("nesting deeper than " + std::to_string(kMaxParseDepth));
      return false;
    }
    return true;
  }
};

}  // namespace detail

inline Result<Expr> parse_expr(std::string_view text) { return detail::Parser(text).run(); }

}  // namespace symshape
