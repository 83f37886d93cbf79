// The parser. Grammar, precedence low to high (as Python's for these tokens):
//   expr    := min_e ('^' min_e)*        '^' is max
//   min_e   := sum ('&' sum)*            '&' is min
//   sum     := product (('+'|'-') product)*
//   product := unary (('*'|'//'|'%') unary)*
//   unary   := ('+'|'-')* atom
//   atom    := INTEGER | NAME | '`' QUOTED '`' | '(' expr ')' | CALL
//   CALL    := ('CeilToInt' | 'Max' | 'max' | 'Min' | 'min') '(' expr (',' expr)* ')'
// Names are [A-Za-z_][A-Za-z0-9_]*; any other symbol name (an ONNX dim_param
// such as "H/2" or "p2o.DynamicDimension.0") is written between backticks,
// as the printer writes it, and holds no backtick. Errors name the 0-based
// position and what was expected; nesting deeper than kMaxParseDepth is an
// error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
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
    skip_space();
    Expr e = parse_max();
    if (failed_) return Result<Expr>::failure(error_);
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

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }

  // Takes a token of n characters and the spaces after it. Every token is
  // taken this way, so pos_ is always at a token or the end and looking ahead
  // skips nothing: each level of the grammar peeks, and skipping spaces there
  // was about 5% of `symshape simplify`'s instructions.
  void advance(std::size_t n) {
    pos_ += n;
    skip_space();
  }

  // The next character, or '\0' at the end (a '\0' in the text is no token
  // either, and parse_atom tells the two apart). Operators are told by this
  // one character: each level of the grammar looks once, rather than trying
  // its tokens one by one.
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  bool accept(char token) {
    if (peek() != token) return false;
    advance(1);
    return true;
  }

  // +1 for '+', -1 for '-' (taken), else 0.
  int accept_sign() {
    const char c = peek();
    if (c != '+' && c != '-') return 0;
    advance(1);
    return c == '+' ? 1 : -1;
  }

  SYMSHAPE_ALWAYS_INLINE static bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  SYMSHAPE_ALWAYS_INLINE static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // The vectors below are only built once a second operand appears: most
  // operands are single, and an allocation per level and atom was a large
  // part of parsing.
  Expr parse_max() {
    Expr first = parse_min();
    if (failed_ || peek() != '^') return first;
    return parse_max_rest(std::move(first));
  }

  // The expr whose first operand is `first`, at its first '^'.
  Expr parse_max_rest(Expr first) {
    ExprList args{std::move(first)};
    while (!failed_ && accept('^')) args.push_back(parse_min());
    return extremum(ExprKind::Max, args.data(), args.size());
  }

  // The levels below parse_max are inline, each with the rest of its work in
  // a function of its own (parse_min_rest, parse_sum_rest, ...) that only an
  // operator of the level calls: an operand without operators (most of them)
  // is read within parse_max's own call, where each level of the grammar had
  // cost a call, and a level of brackets takes two frames (parse_max and
  // parse_compound_atom) where it took six. Each function calls the level
  // below it from one place (a loop), since each call is a copy of the
  // levels below: about 1 KB of code.
  SYMSHAPE_ALWAYS_INLINE Expr parse_min() {
    Expr first = parse_sum();
    if (failed_ || peek() != '&') return first;
    return parse_min_rest(std::move(first));
  }

  // The min_e whose first operand is `first`, at its first '&'.
  Expr parse_min_rest(Expr first) {
    ExprList args{std::move(first)};
    while (!failed_ && accept('&')) args.push_back(parse_sum());
    return extremum(ExprKind::Min, args.data(), args.size());
  }

  SYMSHAPE_ALWAYS_INLINE Expr parse_sum() {
    int64_t coeff = 1;
    Expr first = parse_product(&coeff);
    const char c = peek();
    if (failed_ || (c != '+' && c != '-')) return coeff == 1 ? first : detail::scale(first, coeff);
    return parse_sum_rest(std::move(first), coeff);
  }

  // The sum whose first operand is `first` (of coefficient `coeff`, see
  // parse_product), at its first sign.
  Expr parse_sum_rest(Expr first, int64_t coeff) {
    int sign = accept_sign();
    // One n-ary sum of signed operands: long chains cost O(n log n), not
    // O(n^2), and a subtracted operand is not negated on its own first.
    detail::Terms terms;
    int64_t constant = 0;
    bool ok = true;
    Expr error;  // the first operand that is an Error (or whose negation overflows): the sum is that error
    // Takes e over: a monomial moves into the list.
    auto add = [&](Expr e, int64_t s) {
      if (error.is_error()) return;
      if (e.is_error()) {
        error = std::move(e);
        return;
      }
      bool scaled = true;
      // e is a monomial: scaled_monomial's (coefficient coeff), or a term
      // that is no sum (coefficient 1)
      if (coeff != 1 || (!e.is_int() && e.kind() != ExprKind::Add)) {
        int64_t sc = 0;
        if (!checked::mul(coeff, s, sc)) {
          error = detail::overflow_error();
          return;
        }
        terms.emplace_back(std::move(e), sc);
        return;
      }
      int64_t c = detail::for_each_term(e, [&](const Expr& t, int64_t tc) {
        int64_t sc = 0;
        scaled = scaled && checked::mul(tc, s, sc);
        terms.emplace_back(t, sc);
      });
      if (!scaled || !checked::mul(c, s, c)) {
        error = detail::overflow_error();
        return;
      }
      ok = ok && checked::add(constant, c, constant);
    };
    add(std::move(first), 1);
    while (!failed_) {
      coeff = 1;
      add(parse_product(&coeff), sign);
      if (failed_) break;
      sign = accept_sign();
      if (sign == 0) break;
    }
    if (failed_) return 0;
    if (error.is_error()) return error;
    if (!ok || !detail::normalise_terms(terms)) return detail::overflow_error();
    return detail::make_sum(constant, std::move(terms));
  }

  // With `coeff`, the result may be a monomial whose coefficient is in
  // *coeff (see scaled_monomial); else *coeff is left alone.
  SYMSHAPE_ALWAYS_INLINE Expr parse_product(int64_t* coeff = nullptr) {
    Expr single = parse_unary();
    const char op = peek();
    if (failed_ || (op != '*' && op != '/' && op != '%')) return single;
    return parse_product_rest(std::move(single), coeff);
  }

  // The product whose first operand is `single`, at its first operator.
  Expr parse_product_rest(Expr single, int64_t* coeff) {
    // Operands of consecutive '*', multiplied at once by product_of: no
    // quadratic cost on long runs such as a1*a2*...*a100000. While the run
    // has one operand it is `single` (no vector).
    ExprList run;
    auto take = [&]() {
      if (run.empty()) return std::move(single);
      Expr product = product_of_items(run.data(), run.size());
      run.clear();
      return product;
    };
    while (!failed_) {
      const char op = peek();
      if (op == '/') {
        if (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '/') {
          fail("'/' is not supported, use '//' for floor division");
          break;
        }
        advance(2);
      } else if (op == '*' || op == '%') {
        advance(1);
      } else {
        break;
      }
      // One call of the inline parse_unary for the three operators: each
      // call is a copy of the levels below.
      Expr operand = parse_unary();
      if (op == '*') {
        if (run.empty()) {
          run.reserve(4);
          run.push_back(std::move(single));
        }
        run.push_back(std::move(operand));
      } else {
        const Expr n = take();
        single = op == '/' ? floordiv(n, operand) : mod(n, operand);
      }
    }
    if (coeff && run.size() >= 2) return scaled_monomial(run, *coeff);
    return take();
  }

  // The run c1*c2*...*x of integers and one operand x that is no sum (the
  // most common term of a sum: `2*(x//3)`, `5*(D*W)`) as x with the
  // coefficient c1*c2*... set apart, so that the sum takes the term without
  // a scaled copy of x being built first: product_of would give c*x, the
  // same term. Any other run goes through product_of (coeff 1).
  Expr scaled_monomial(const ExprList& run, int64_t& coeff) {
    int64_t c = 1;
    const Expr* single = nullptr;
    for (const Expr& x : run) {
      if (x.is_int()) {
        if (!checked::mul(c, x.as_int(), c)) return product_of_items(run.data(), run.size());
      } else if (single || x.kind() == ExprKind::Add || x.is_error()) {
        return product_of_items(run.data(), run.size());
      } else {
        single = &x;
      }
    }
    if (!single || c == 0) return product_of_items(run.data(), run.size());
    coeff = c;
    return *single;
  }

  SYMSHAPE_ALWAYS_INLINE Expr parse_unary() {
    const char c = peek();
    return c == '+' || c == '-' ? parse_signed() : parse_atom();
  }

  Expr parse_signed() {
    bool negate = false;
    for (int sign = accept_sign(); sign != 0; sign = accept_sign())
      if (sign < 0) negate = !negate;
    Expr e = parse_atom();
    return negate ? -e : e;
  }

  // A number or a name that calls nothing (most atoms) is read in the caller;
  // brackets, backticks and errors go to parse_compound_atom.
  SYMSHAPE_ALWAYS_INLINE Expr parse_atom() {
    if (!failed_ && pos_ < text_.size()) {
      const char c = text_[pos_];
      if (is_digit(c)) return parse_number();
      if (is_name_start(c)) {
        const std::size_t start = pos_;
        std::size_t end = start + 1;  // a local index: the loop keeps it in a register
        while (end < text_.size() && (is_name_start(text_[end]) || is_digit(text_[end]))) ++end;
        const std::string_view name = text_.substr(start, end - start);
        advance(end - start);
        if (peek() != '(') return Expr::symbol(name);
        return parse_call(name, start);
      }
    }
    return parse_compound_atom();
  }

  Expr parse_number() {
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
    skip_space();
    return v;
  }

  // An atom in brackets or backticks, or an error.
  Expr parse_compound_atom() {
    if (failed_) return 0;
    const char c = peek();
    if (pos_ >= text_.size()) {
      fail("expected a number, a name or '(' but the text ended");
      return 0;
    }
    if (c == '(') {
      if (!enter()) return 0;
      advance(1);
      Expr e = parse_max();
      if (!failed_ && !accept(')')) fail("expected ')'");
      --depth_;
      return e;
    }
    if (c == '`') {
      const std::size_t close = text_.find('`', pos_ + 1);
      if (close == std::string_view::npos || close == pos_ + 1) {
        fail(close == std::string_view::npos ? "a quoted name has no closing '`'" : "empty quoted name");
        return 0;
      }
      std::string_view name = text_.substr(pos_ + 1, close - pos_ - 1);
      advance(close + 1 - pos_);
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
    advance(1);  // '('
    ExprList args{parse_max()};
    while (!failed_ && accept(',')) args.push_back(parse_max());
    if (!failed_ && !accept(')')) fail("expected ',' or ')' in call of " + std::string(name));
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
    return extremum(is_max ? ExprKind::Max : ExprKind::Min, args.data(), args.size());
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
