// libFuzzer target for the expression parser and printer.
//
// For every input that parses: print it, parse the printed text again and
// require the same expression (structure and hash) and the same text
// (simplifying twice changes nothing); rebuilding it through the canonical
// constructors (substitute with no mapping) must give it back; and at a fixed
// non-negative binding the original, the reparsed and the rebuilt forms must
// evaluate alike, inside the cached bounds, and agree with prove_ge(e, 0).
// Any mismatch aborts with the texts involved. Inputs that do not parse must
// come with an error message. Built and run by run_fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "symshape/expr.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "fuzz_parse: %s\n  input: %.*s\n  first: %s\n  second: %s\n", what,
               static_cast<int>(input.size()), input.data(), a.c_str(), b.c_str());
  std::abort();
}

bool within(const symshape::Interval& iv, int64_t v) {
  return (!iv.has_lo || iv.lo <= v) && (!iv.has_hi || v <= iv.hi);
}

std::string describe(const symshape::Result<int64_t>& r) { return r.ok() ? std::to_string(*r) : "error: " + r.error(); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const symshape::Result<symshape::Expr> parsed = symshape::parse_expr(text);
  if (!parsed) {
    if (parsed.error().empty()) fail("a parse error without a message", text, "", "");
    return 0;
  }
  const symshape::Expr& e = *parsed;
  const std::string printed = symshape::to_string(e);

  const symshape::Result<symshape::Expr> back = symshape::parse_expr(printed);
  if (!back) fail("the printed form does not parse", text, printed, back.error());
  if (!(*back == e) || back->hash() != e.hash())
    fail("round trip changed the expression", text, printed, symshape::to_string(*back));
  if (symshape::to_string(*back) != printed)
    fail("printing the reparsed expression changed the text", text, printed, symshape::to_string(*back));

  const symshape::Expr rebuilt = symshape::substitute(e, {});
  if (!(rebuilt == e))
    fail("rebuilding through the constructors changed the expression", text, printed, symshape::to_string(rebuilt));

  // A fixed non-negative binding: symbol i (in sorted order) gets (i*5 + 3) % 11.
  symshape::Bindings bindings;
  int64_t i = 0;
  for (const std::string& name : symshape::free_symbols(e)) bindings[name] = (i++ * 5 + 3) % 11;
  const symshape::Result<int64_t> v = symshape::evaluate(e, bindings);
  const symshape::Result<int64_t> w = symshape::evaluate(*back, bindings);
  if (v.ok() != w.ok() || (v.ok() && *v != *w))
    fail("the reparsed form evaluates differently", text, describe(v), describe(w));
  if (v.ok()) {
    if (!within(e.bounds(), *v)) fail("the value lies outside the cached bounds", text, printed, describe(v));
    if (*v < 0 && symshape::prove_ge(e, 0))
      fail("prove_ge(e, 0) but the value is negative", text, printed, describe(v));
    if (*v > 0 && symshape::prove_ge(0, e))
      fail("prove_ge(0, e) but the value is positive", text, printed, describe(v));
  }
  return 0;
}
