// Facts about symbols: relations every binding of interest satisfies, such as
// `seq<=2048`, `H>=32`, `past+seq<=64`, `H%32==0` or `total==past+seq`.
//
// By default the engine knows only that symbols are >= 0, and everything it
// builds holds for every such binding. Under facts it may use them: a
// FactScope makes a Facts active on its thread, and while it lives
//   - symbols built get the facts' bounds and modulus (their nodes carry them),
//     so `min(seq, 4096)` is `seq` when `seq<=2048`, `H%32` is 0 when `H%32==0`;
//   - the dominance test of Max/Min and the prover use the linear relations
//     (expr/linear_facts.hpp): `min(64, past+seq)` is `past+seq` when
//     `past+seq<=64`;
//   - Facts::apply substitutes equalities whose one side is a symbol
//     (`total==past+seq` replaces total).
// What is built or proved under facts holds for every binding that satisfies
// them (and may be false for others): expressions built in a scope keep the
// facts' bounds in their nodes after it ends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "symshape/expr/build.hpp"
#include "symshape/expr/evaluate.hpp"
#include "symshape/expr/expr.hpp"
#include "symshape/expr/fact.hpp"
#include "symshape/expr/parse.hpp"
#include "symshape/expr/print.hpp"
#include "symshape/expr/prove.hpp"
#include "symshape/expr/transform.hpp"
#include "symshape/support/result.hpp"

namespace symshape {

// A relation between two expressions, as a fact states it.
enum class Relation { LessEqual, GreaterEqual, Less, Greater, Equal };

class Facts {
 public:
  // Adds the fact(s) of `text`: relations between expressions (`<=`, `<`,
  // `>=`, `>`, `==`), chained as in `32 <= H <= 1024`. An error names the
  // position in `text` (0-based) and what was expected; the facts are then
  // unchanged.
  Result<bool> add(std::string_view text, const std::string& source = "--assume");
  // Adds `lhs rel rhs`; an error when it contradicts the facts already held.
  Result<bool> add(const Expr& lhs, Relation rel, const Expr& rhs, const std::string& source);

  bool empty() const { return listed_.empty(); }
  const std::vector<Fact>& list() const { return listed_; }
  // e rebuilt under these facts: the symbols that equalities define replaced
  // (`total` by `past+seq`) and, inside a FactScope, every symbol made again
  // so that its node carries the facts (a node built before has none).
  Expr apply(const Expr& e) const;
  const Substitution& definitions() const { return definitions_; }
  // Whether a binding satisfies every fact (a symbol it leaves out fails).
  bool holds_at(const Bindings& b) const;
  // Every symbol the facts name, those that equalities define included.
  std::set<std::string> symbols() const;
  // What the engine reads while a FactScope is active.
  const detail::FactContext& context() const { return context_; }

 private:
  std::vector<Fact> listed_;
  // Every fact as `g >= 0` or `g == 0` (after the definitions), for holds_at.
  std::vector<std::pair<Expr, bool>> relations_;  // (g, is_equality)
  Substitution definitions_;
  detail::FactContext context_;

  Result<bool> add_nonnegative(const Expr& g, bool equality);
  detail::FactContext::SymbolFact& symbol_fact(const std::string& name);
};

// Makes `facts` the ones in force on this thread until the scope ends (scopes
// nest). Symbols are interned afresh inside, so that their nodes carry the
// facts; the table of before comes back at the end. `facts` must outlive it.
class FactScope {
 public:
  explicit FactScope(const Facts& facts)
      : saved_facts_(std::exchange(detail::active_facts(), facts.empty() ? nullptr : &facts.context())),
        active_(!facts.empty()) {
    if (active_) saved_symbols_ = std::exchange(detail::symbol_table(), detail::SymbolTable());
  }
  ~FactScope() {
    if (active_) detail::symbol_table() = std::move(saved_symbols_);
    detail::active_facts() = saved_facts_;
  }
  FactScope(const FactScope&) = delete;
  FactScope& operator=(const FactScope&) = delete;

 private:
  const detail::FactContext* saved_facts_;
  bool active_;
  detail::SymbolTable saved_symbols_;
};

// The answer of prove_relation: true, false (with a binding that satisfies
// the facts and breaks the relation) or unknown.
struct ProofOutcome {
  enum class Verdict { True, False, Unknown };
  Verdict verdict = Verdict::Unknown;
  Bindings counterexample;  // for False
};

// Whether `lhs rel rhs` holds for every binding (symbols >= 0) that satisfies
// `facts`. True is a proof; False comes with a counterexample found by trying
// small values; Unknown is neither.
ProofOutcome prove_relation(const Expr& lhs, Relation rel, const Expr& rhs, const Facts& facts = {});

// Parses `A <= B` (one relation, no chain) for `symshape prove`; the error
// names the position.
struct ParsedRelation {
  Expr lhs;
  Relation rel = Relation::Equal;
  Expr rhs;
};
Result<ParsedRelation> parse_relation(std::string_view text);

namespace detail {

inline const char* relation_text(Relation r) {
  switch (r) {
    case Relation::LessEqual:
      return "<=";
    case Relation::GreaterEqual:
      return ">=";
    case Relation::Less:
      return "<";
    case Relation::Greater:
      return ">";
    case Relation::Equal:
      return "==";
  }
  return "==";
}

// The relational operators of a fact's text at bracket depth 0, in order.
struct RelationSplit {
  std::vector<std::string_view> parts;
  std::vector<std::size_t> offsets;  // of each part in the text
  std::vector<Relation> relations;   // between parts i and i+1
};

inline RelationSplit split_relations(std::string_view text) {
  RelationSplit out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth != 0 || (c != '<' && c != '>' && c != '=')) continue;
    const bool two = i + 1 < text.size() && text[i + 1] == '=';
    Relation r = Relation::Equal;
    if (c == '<') r = two ? Relation::LessEqual : Relation::Less;
    if (c == '>') r = two ? Relation::GreaterEqual : Relation::Greater;
    out.parts.push_back(text.substr(start, i - start));
    out.offsets.push_back(start);
    out.relations.push_back(r);
    i += two ? 1 : 0;  // a single '=' reads as '=='
    start = i + 1;
  }
  out.parts.push_back(text.substr(start));
  out.offsets.push_back(start);
  return out;
}

// parse_expr of a part of a longer text, its error position counted in the
// whole text.
inline Result<Expr> parse_part(std::string_view part, std::size_t offset) {
  Result<Expr> e = parse_expr(part);
  if (e.ok()) return e;
  const std::string& msg = e.error();
  static constexpr std::string_view kPosition = "position ";
  if (msg.compare(0, kPosition.size(), kPosition) == 0) {
    const std::size_t at = std::strtoull(msg.c_str() + kPosition.size(), nullptr, 10);
    const std::size_t rest = msg.find(':');
    return Result<Expr>::failure("position " + std::to_string(at + offset) + msg.substr(rest));
  }
  return e;
}

// g >= 0 (or g == 0) for `lhs rel rhs`, over integers.
inline Expr relation_as_nonnegative(const Expr& lhs, Relation rel, const Expr& rhs) {
  switch (rel) {
    case Relation::LessEqual:
      return rhs - lhs;
    case Relation::Less:
      return rhs - lhs - Expr(1);
    case Relation::GreaterEqual:
    case Relation::Equal:
      return lhs - rhs;
    case Relation::Greater:
      return lhs - rhs - Expr(1);
  }
  return lhs - rhs;
}

// ceil(x/m) for m > 0.
inline int64_t ceil_div(int64_t x, int64_t m) {
  int64_t q = 0;
  checked::floordiv(x, m, q);
  return q * m == x ? q : q + 1;  // q*m lies in (x-m, x]: no overflow
}

// The least multiple of m > 0 that is >= x; false when it exceeds int64.
inline bool round_up(int64_t x, int64_t m, int64_t& out) { return checked::mul(ceil_div(x, m), m, out); }

}  // namespace detail

inline Result<ParsedRelation> parse_relation(std::string_view text) {
  const detail::RelationSplit split = detail::split_relations(text);
  if (split.relations.size() != 1)
    return Result<ParsedRelation>::failure(
        split.relations.empty()
            ? "position " + std::to_string(text.size()) + ": expected a relation (<=, <, >=, >, ==)"
            : "position " + std::to_string(split.offsets[2] - 1) + ": one relation expected, found a chain");
  Result<Expr> lhs = detail::parse_part(split.parts[0], split.offsets[0]);
  if (!lhs) return Result<ParsedRelation>::failure(lhs.error());
  Result<Expr> rhs = detail::parse_part(split.parts[1], split.offsets[1]);
  if (!rhs) return Result<ParsedRelation>::failure(rhs.error());
  return ParsedRelation{*lhs, split.relations[0], *rhs};
}

inline Result<bool> Facts::add(std::string_view text, const std::string& source) {
  const detail::RelationSplit split = detail::split_relations(text);
  if (split.relations.empty())
    return Result<bool>::failure("position " + std::to_string(text.size()) +
                                 ": expected a relation (<=, <, >=, >, ==) in the fact '" + std::string(text) + "'");
  std::vector<Expr> sides;
  for (std::size_t i = 0; i < split.parts.size(); ++i) {
    Result<Expr> e = detail::parse_part(split.parts[i], split.offsets[i]);
    if (!e) return Result<bool>::failure(e.error() + " in the fact '" + std::string(text) + "'");
    sides.push_back(*e);
  }
  const Facts before = *this;
  for (std::size_t i = 0; i < split.relations.size(); ++i) {
    Result<bool> r = add(sides[i], split.relations[i], sides[i + 1], source);
    if (!r) {
      *this = before;
      return r;
    }
  }
  return true;
}

inline detail::FactContext::SymbolFact& Facts::symbol_fact(const std::string& name) {
  auto& symbols = context_.symbols;
  auto it = std::lower_bound(symbols.begin(), symbols.end(), name,
                             [](const detail::FactContext::SymbolFact& f, const std::string& n) { return f.name < n; });
  if (it == symbols.end() || it->name != name) it = symbols.insert(it, detail::FactContext::SymbolFact{name});
  return *it;
}

inline Result<bool> Facts::add(const Expr& lhs_in, Relation rel, const Expr& rhs_in, const std::string& source) {
  const Expr lhs = apply(lhs_in), rhs = apply(rhs_in);
  if (lhs.is_error() || rhs.is_error())
    return Result<bool>::failure((lhs.is_error() ? lhs : rhs).name() + " in a fact");
  listed_.push_back(Fact{to_string(lhs_in) + " " + detail::relation_text(rel) + " " + to_string(rhs_in), source});
  // x%m == 0 for a symbol x and a constant m > 1: x is a multiple of m.
  for (const auto& [side, other] : {std::pair<const Expr&, const Expr&>{lhs, rhs}, {rhs, lhs}}) {
    if (rel == Relation::Equal && other.is_int(0) && side.kind() == ExprKind::Mod && side.args()[0].is_symbol() &&
        side.args()[1].is_int() && side.args()[1].as_int() > 1) {
      auto& f = symbol_fact(side.args()[0].name());
      const int64_t m = side.args()[1].as_int(), g = checked::gcd(f.multiple_of, m);
      int64_t l = 0;
      if (!checked::mul(f.multiple_of / g, m, l)) return Result<bool>::failure("modulus too large in a fact");
      f.multiple_of = l;
      if (f.bounds.has_lo && !detail::round_up(f.bounds.lo, l, f.bounds.lo))
        return Result<bool>::failure("a bound too large in a fact");
      relations_.emplace_back(side, true);
      return true;
    }
  }
  // An equality with a symbol side that the other side does not hold defines it.
  if (rel == Relation::Equal) {
    auto defines = [](const Expr& s, const Expr& e) {
      if (!s.is_symbol()) return false;
      for (const auto& name : free_symbols(e))
        if (name == s.name()) return false;
      return true;
    };
    const bool l = defines(lhs, rhs), r = !l && defines(rhs, lhs);
    if (l || r) {
      const Expr& s = l ? lhs : rhs;
      const Expr& value = l ? rhs : lhs;
      const Substitution one{{s.name(), value}};
      for (auto& [name, v] : definitions_) v = substitute(v, one);
      definitions_.emplace(s.name(), value);
      // The defined symbol is >= 0 like every dim: its value must be too.
      return add_nonnegative(value, false);
    }
  }
  return add_nonnegative(detail::relation_as_nonnegative(lhs, rel, rhs), rel == Relation::Equal);
}

inline Result<bool> Facts::add_nonnegative(const Expr& g, bool equality) {
  if (g.is_error()) return Result<bool>::failure(g.name() + " in a fact");
  if (g.is_int()) {
    if (g.as_int() < 0 || (equality && g.as_int() != 0))
      return Result<bool>::failure("the fact '" + listed_.back().text + "' is false");
    return true;
  }
  relations_.emplace_back(g, equality);
  // c*s + k >= 0 bounds the symbol s.
  const bool single =
      g.is_symbol() || (g.kind() == ExprKind::Add && g.terms().size() == 1 && g.terms()[0].first.is_symbol());
  if (single) {
    const Expr& s = g.is_symbol() ? g : g.terms()[0].first;
    const int64_t c = g.is_symbol() ? 1 : g.terms()[0].second, k = g.add_constant();
    auto& f = symbol_fact(s.name());
    const int64_t m = f.multiple_of;
    int64_t lo = 0, hi = 0, minus_k = 0, abs_c = 0;
    if (!checked::neg(k, minus_k) || !checked::neg(c < 0 ? c : -c, abs_c))
      return Result<bool>::failure("a constant too large in the fact '" + listed_.back().text + "'");
    const bool up = c > 0 || equality, down = c < 0 || equality;
    if (up) {  // s >= ceil(-k/c) when c > 0, or (equality) s == -k/c
      lo = c > 0 ? detail::ceil_div(minus_k, abs_c) : detail::ceil_div(k, abs_c);
      lo = std::max<int64_t>(lo, 0);
      if (!detail::round_up(lo, m, lo))
        return Result<bool>::failure("a bound too large in the fact '" + listed_.back().text + "'");
      if (!f.bounds.has_lo || lo > f.bounds.lo) f.bounds.lo = lo, f.bounds.has_lo = true;
    }
    if (down) {  // s <= floor(k/-c) when c < 0
      checked::floordiv(c < 0 ? k : minus_k, abs_c, hi);
      hi = hi >= 0 ? hi / m * m : hi;
      if (!f.bounds.has_hi || hi < f.bounds.hi) f.bounds.hi = hi, f.bounds.has_hi = true;
    }
    if (f.bounds.has_hi && f.bounds.hi < f.bounds.lo)
      return Result<bool>::failure("the fact '" + listed_.back().text + "' contradicts the facts before it (" +
                                   s.name() + " has no value left)");
    return true;
  }
  context_.nonnegative.push_back(g);
  if (equality) context_.nonnegative.push_back(-g);
  // A contradiction the prover sees: g >= 0 while the earlier facts prove g < 0.
  detail::FactContext earlier = context_;
  earlier.nonnegative.resize(context_.nonnegative.size() - (equality ? 2 : 1));
  if (detail::LinearSystem(earlier).proves_nonnegative(Expr(-1) - g))
    return Result<bool>::failure("the fact '" + listed_.back().text + "' contradicts the facts before it");
  return true;
}

inline Expr Facts::apply(const Expr& e) const {
  if (empty()) return e;
  auto fresh_symbols = [](const Expr& x) {
    Substitution fresh;
    for (const auto& name : free_symbols(x)) fresh.emplace(name, Expr::symbol(name));
    return fresh;
  };
  Substitution mapping = fresh_symbols(e);
  for (auto& [name, value] : mapping)
    if (auto it = definitions_.find(name); it != definitions_.end())
      value = substitute(it->second, fresh_symbols(it->second));
  return substitute(e, mapping);
}

inline std::set<std::string> Facts::symbols() const {
  std::set<std::string> names;
  for (const auto& [name, value] : definitions_) {
    names.insert(name);
    detail::collect_symbols(value, names);
  }
  for (const Expr& r : context_.nonnegative) detail::collect_symbols(r, names);
  for (const auto& f : context_.symbols) names.insert(f.name);
  return names;
}

inline bool Facts::holds_at(const Bindings& b) const {
  for (const auto& [name, value] : definitions_) {
    Result<int64_t> v = evaluate(value, b);
    auto it = b.find(name);
    if (!v.ok() || (it != b.end() && it->second != *v)) return false;
  }
  for (const auto& [g, equality] : relations_) {
    Result<int64_t> v = evaluate(g, b);
    if (!v.ok() || *v < 0 || (equality && *v != 0)) return false;
  }
  return true;
}

namespace detail {

// Small values to try for a symbol: its bounds' ends and a few near 0, each
// rounded to its modulus.
inline std::vector<int64_t> candidate_values(const std::string& name, const FactContext& facts) {
  FactContext::SymbolFact f{name};
  if (const FactContext::SymbolFact* known = facts.find(name)) f = *known;
  std::vector<int64_t> out;
  const int64_t lo = f.bounds.has_lo ? f.bounds.lo : 0;
  for (int64_t step : {0, 1, 2, 3, 7, 64}) {
    int64_t v = 0;
    if (checked::add(lo, step, v) && round_up(v, f.multiple_of, v)) out.push_back(v);
  }
  if (f.bounds.has_hi) out.push_back(f.bounds.hi);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (f.bounds.has_hi)
    out.erase(std::remove_if(out.begin(), out.end(), [&](int64_t v) { return v > f.bounds.hi; }), out.end());
  return out;
}

}  // namespace detail

inline ProofOutcome prove_relation(const Expr& lhs_in, Relation rel, const Expr& rhs_in, const Facts& facts) {
  ProofOutcome out;
  const FactScope scope(facts);
  const Expr lhs = facts.apply(lhs_in), rhs = facts.apply(rhs_in);
  if (lhs.is_error() || rhs.is_error()) return out;
  const Expr g = detail::relation_as_nonnegative(lhs, rel, rhs);
  auto nonnegative = [](const Expr& e) {
    return detail::provably_nonnegative_quick(e) || detail::nonnegative_by_elimination(e);
  };
  // A symbol s >= L > 0 written as s' + L with s' >= 0 (a name no text can
  // spell): products such as a*b - a become visibly non-negative (a*b').
  auto shifted = [&facts](const Expr& e) {
    Substitution shift;
    for (const auto& name : free_symbols(e))
      if (const auto* f = facts.context().find(name); f && f->bounds.has_lo && f->bounds.lo > 0)
        shift.emplace(name, Expr::symbol(name + "'") + Expr(f->bounds.lo));
    return shift.empty() ? Expr(-1) : substitute(e, shift);
  };
  auto nonnegative_or_shifted = [&](const Expr& e) { return nonnegative(e) || nonnegative(shifted(e)); };
  if (rel == Relation::Equal ? g.is_int(0) || (nonnegative_or_shifted(g) && nonnegative_or_shifted(-g))
                             : nonnegative_or_shifted(g)) {
    out.verdict = ProofOutcome::Verdict::True;
    return out;
  }
  // A counterexample among small values of the symbols (at most 4 of them:
  // the search is exhaustive over the candidates).
  // (A symbol that an equality defines is computed from the others.)
  std::set<std::string> names = facts.symbols();
  for (const Expr* e : {&g, &lhs_in, &rhs_in}) detail::collect_symbols(*e, names);
  for (const auto& definition : facts.definitions()) names.erase(definition.first);
  if (names.size() > 4) return out;
  const std::vector<std::string> order(names.begin(), names.end());
  std::vector<std::vector<int64_t>> values;
  for (const auto& n : order) values.push_back(detail::candidate_values(n, facts.context()));
  std::vector<std::size_t> index(order.size(), 0);
  for (;;) {
    Bindings b;
    for (std::size_t i = 0; i < order.size(); ++i) b[order[i]] = values[i][index[i]];
    for (const auto& [name, value] : facts.definitions())
      if (Result<int64_t> v = evaluate(value, b); v.ok()) b[name] = *v;
    Result<int64_t> v = evaluate(g, b);
    if (v.ok() && facts.holds_at(b) && (*v < 0 || (rel == Relation::Equal && *v != 0))) {
      out.verdict = ProofOutcome::Verdict::False;
      out.counterexample = std::move(b);
      return out;
    }
    std::size_t i = 0;
    while (i < index.size() && ++index[i] == values[i].size()) index[i++] = 0;
    if (i == index.size()) break;
  }
  return out;
}

}  // namespace symshape
