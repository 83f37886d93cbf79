// Soundness of value propagation (the known elements of small tensors that
// shape rules read) against a direct computation of what a runtime gives.
// Each scenario is a chain of nodes from the dims `a` and `b` of an input
// x:[a,b] (Shape, Gather) through the ops under test to one value. It is
// inferred once; every element of that value (a whole number or a fraction)
// is then evaluated for each assignment of a and b in {0, 1, 2, 3, 5, 7, 16,
// 17} and must equal the direct computation (float32 arithmetic, casts that
// truncate, C-style integer Div), or be unknown (counted). The direct side
// gives NaN for an element the runtime leaves to data the model does not
// know (And of an unknown boolean): a known inferred element there fails.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "op_test_util.hpp"

namespace {

const int64_t kValues[] = {0, 1, 2, 3, 5, 7, 16, 17};
const double kNotDetermined = std::numeric_limits<double>::quiet_NaN();

// Builds the nodes of one scenario in a graph of scalars a and b.
class Chain {
 public:
  explicit Chain(Graph& graph) : g_(graph) {}
  std::string node(const std::string& op, const std::vector<std::string>& in, std::vector<Attribute> attrs = {}) {
    std::string out = fresh();
    g_.node(op, in, {out}, std::move(attrs));
    return out;
  }
  std::string i(int64_t v) { return named(Tensor::scalar(v)); }
  std::string f(double v) { return named(Tensor::floats({v}, {})); }
  std::string unknown_bool() {
    std::string name = fresh();
    g_.input(name, ts(BOOL, {}));
    return name;
  }
  std::string cast(const std::string& x, DataType to) {
    return node("Cast", {x}, {attr("to", static_cast<int64_t>(to))});
  }
  std::string vec(const std::string& x) { return node("Unsqueeze", {x, named(Tensor::vector({0}))}); }
  GraphBuilder& builder() { return g_; }

 private:
  std::string fresh() { return "t" + std::to_string(counter_++); }
  std::string named(Tensor t) {
    std::string name = fresh();
    g_.initializer(name, std::move(t));
    return name;
  }
  GraphBuilder g_;
  int counter_ = 0;
};

using Build = std::function<std::string(Chain&, const std::string& a, const std::string& b)>;
using Direct = std::function<std::vector<double>(int64_t a, int64_t b)>;

struct Tally {
  std::string rule;
  uint64_t elements = 0, exact = 0, unknown = 0;
  explicit Tally(std::string r) : rule(std::move(r)) {}
  void print() const {
    std::printf("[value soundness] %-14s elements checked %llu: exact %llu, unknown %llu\n", rule.c_str(),
                static_cast<unsigned long long>(elements), static_cast<unsigned long long>(exact),
                static_cast<unsigned long long>(unknown));
    EXPECT_EQ(exact + unknown, elements);
    EXPECT_GT(exact, 0u) << rule << ": nothing was checked exactly";
  }
};

// Infers the scenario once, then checks its value at every assignment.
void check(const std::string& label, const Build& build, const Direct& direct, Tally& t) {
  SCOPED_TRACE(label);
  Model m;
  m.opset_imports[""] = 17;
  Chain c(*m.graph);
  c.builder().input("x", ts(FLOAT, {"a", "b"}));
  const std::string shape = c.node("Shape", {"x"});
  const std::string a = c.node("Gather", {shape, c.i(0)}, {attr("axis", int64_t{0})});
  const std::string b = c.node("Gather", {shape, c.i(1)}, {attr("axis", int64_t{0})});
  const std::string out = build(c, a, b);
  c.builder().output(out);
  const Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u) << diagnostics_text(r);
  const Value* v = m.graph->find(out);
  ASSERT_TRUE(v);
  std::vector<SymbolicDim> nums;
  int64_t den = 1;
  if (v->fraction) {
    nums = v->fraction->num;
    den = v->fraction->den;
  } else if (v->symbolic_value) {
    nums = *v->symbolic_value;
  }
  for (int64_t x : kValues)
    for (int64_t y : kValues) {
      const std::vector<double> want = direct(x, y);
      if (nums.empty()) {  // no value at all: every element unknown
        t.elements += want.size();
        t.unknown += want.size();
        continue;
      }
      ASSERT_EQ(nums.size(), want.size()) << "a=" << x << " b=" << y;
      const Bindings bindings{{"a", x}, {"b", y}};
      for (std::size_t k = 0; k < want.size(); ++k) {
        ++t.elements;
        if (nums[k].is_unknown()) {
          ++t.unknown;
          continue;
        }
        Result<int64_t> num = evaluate(nums[k].expr(), bindings);
        ASSERT_TRUE(num.ok()) << nums[k].to_string() << ": " << num.error();
        const double got = static_cast<double>(*num) / static_cast<double>(den);
        EXPECT_EQ(got, want[k]) << "element " << k << " = (" << nums[k].to_string() << ")/" << den << " at a=" << x
                                << " b=" << y;
        if (got == want[k]) ++t.exact;
      }
    }
}

float to_float(int64_t v) { return static_cast<float>(v); }
// What a runtime's Cast from float to an integer type gives: truncation.
double trunc_cast(float v) { return std::trunc(static_cast<double>(v)); }
// C-style integer division and remainder (ONNX Div; Mod with fmod=1).
double c_div(int64_t p, int64_t q) { return static_cast<double>(p / q); }
double c_mod(int64_t p, int64_t q) { return static_cast<double>(p % q); }
// Python-style remainder (ONNX Mod with fmod=0): the sign of the divisor.
double py_mod(int64_t p, int64_t q) {
  const int64_t r = p % q;
  return static_cast<double>(r != 0 && ((r < 0) != (q < 0)) ? r + q : r);
}

}  // namespace

TEST(ValueSoundness, CastToFloatAndBack) {
  Tally t("Cast");
  check(
      "float(a-b)",
      [](Chain& c, auto a, auto b) {
        return c.cast(c.node("Sub", {a, b}), FLOAT);
      },
      [](int64_t a, int64_t b) { return std::vector<double>{to_float(a - b)}; }, t);
  check(
      "float(a+b) as double",
      [](Chain& c, auto a, auto b) {
        return c.cast(c.cast(c.node("Add", {a, b}), FLOAT), DOUBLE);
      },
      [](int64_t a, int64_t b) { return std::vector<double>{to_float(a + b)}; }, t);
  check(
      "int64(float(a-b) / 4)",
      [](Chain& c, auto a, auto b) {
        return c.cast(c.node("Div", {c.cast(c.node("Sub", {a, b}), FLOAT), c.f(4)}), INT64);
      },
      [](int64_t a, int64_t b) { return std::vector<double>{trunc_cast(to_float(a - b) / 4.0f)}; }, t);
  check(
      "int32(float(b-a) + 0.5)",
      [](Chain& c, auto a, auto b) {
        return c.cast(c.node("Add", {c.cast(c.node("Sub", {b, a}), FLOAT), c.f(0.5)}), INT32);
      },
      [](int64_t a, int64_t b) { return std::vector<double>{trunc_cast(to_float(b - a) + 0.5f)}; }, t);
  check(
      "int64(float(a) * 2.5 - float(b))",
      [](Chain& c, auto a, auto b) {
        return c.cast(c.node("Sub", {c.node("Mul", {c.cast(a, FLOAT), c.f(2.5)}), c.cast(b, FLOAT)}), INT64);
      },
      [](int64_t a, int64_t b) { return std::vector<double>{trunc_cast(to_float(a) * 2.5f - to_float(b))}; }, t);
  t.print();
}

TEST(ValueSoundness, FloatRounding) {
  Tally t("Floor/Ceil/Round");
  check(
      "floor((float(a) - 16) / 8)",
      [](Chain& c, auto a, auto) {
        return c.node("Floor", {c.node("Div", {c.node("Sub", {c.cast(a, FLOAT), c.f(16)}), c.f(8)})});
      },
      [](int64_t a, int64_t) { return std::vector<double>{std::floor((to_float(a) - 16.0f) / 8.0f)}; }, t);
  check(
      "ceil(float(b) * 2.5 - float(a))",
      [](Chain& c, auto a, auto b) {
        return c.node("Ceil", {c.node("Sub", {c.node("Mul", {c.cast(b, FLOAT), c.f(2.5)}), c.cast(a, FLOAT)})});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{std::ceil(to_float(b) * 2.5f - to_float(a))}; }, t);
  // Round is half to even (std::nearbyint in the default rounding mode).
  for (double scale : {0.5, 0.25, 1.5}) {
    check(
        "round(float(a - b) * " + std::to_string(scale) + ")",
        [scale](Chain& c, auto a, auto b) {
          return c.node("Round", {c.node("Mul", {c.cast(c.node("Sub", {a, b}), FLOAT), c.f(scale)})});
        },
        [scale](int64_t a, int64_t b) {
          return std::vector<double>{std::nearbyint(to_float(a - b) * static_cast<float>(scale))};
        },
        t);
  }
  check(
      "round(float(a - b) / 3)",
      [](Chain& c, auto a, auto b) {
        return c.node("Round", {c.node("Div", {c.cast(c.node("Sub", {a, b}), FLOAT), c.f(3)})});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{std::nearbyint(to_float(a - b) / 3.0f)}; }, t);
  t.print();
}

TEST(ValueSoundness, FloatNegAbsAndElementPicking) {
  Tally t("Neg/Abs/Gather");
  check(
      "-float(a) - 1, |float(a) - 3|",
      [](Chain& c, auto a, auto) {
        const std::string fa = c.cast(a, FLOAT);
        return c.node(
            "Concat",
            {c.vec(c.node("Sub", {c.node("Neg", {fa}), c.f(1)})), c.vec(c.node("Abs", {c.node("Sub", {fa, c.f(3)})}))},
            {attr("axis", int64_t{0})});
      },
      [](int64_t a, int64_t) {
        return std::vector<double>{-to_float(a) - 1.0f, std::fabs(to_float(a) - 3.0f)};
      },
      t);
  // [a + 0.5, b] expanded to [2, 2], its columns gathered in reverse, flattened, and a slice of it.
  check(
      "gather(expand([a + 0.5, b]))",
      [](Chain& c, auto a, auto b) {
        const std::string pair =
            c.node("Concat", {c.vec(c.node("Add", {c.cast(a, FLOAT), c.f(0.5)})), c.vec(c.cast(b, FLOAT))},
                   {attr("axis", int64_t{0})});
        c.builder().initializer("shape22", Tensor::vector({2, 2}));
        const std::string e = c.node("Expand", {pair, "shape22"});
        c.builder().initializer("rows", Tensor::vector({1, 0}));
        const std::string g = c.node("Gather", {e, "rows"}, {attr("axis", int64_t{1})});
        c.builder().initializer("flat4", Tensor::vector({4}));
        const std::string flat = c.node("Reshape", {g, "flat4"});
        c.builder().initializer("from1", Tensor::vector({1}));
        c.builder().initializer("to3", Tensor::vector({3}));
        return c.node("Concat", {flat, c.node("Slice", {flat, "from1", "to3"})}, {attr("axis", int64_t{0})});
      },
      [](int64_t a, int64_t b) {
        const double x = to_float(a) + 0.5f, y = to_float(b);
        return std::vector<double>{y, x, y, x, x, y};
      },
      t);
  t.print();
}

TEST(ValueSoundness, RangeOnFloats) {
  Tally t("Range");
  // The length of each range, read back through Shape.
  auto length_of = [](Chain& c, const std::string& start, const std::string& limit, const std::string& delta) {
    return c.node("Shape", {c.node("Range", {start, limit, delta})});
  };
  auto count = [](float start, float limit, float delta) { return std::max(std::ceil((limit - start) / delta), 0.0f); };
  check(
      "range(float(a), float(a+b), 1)",
      [&](Chain& c, auto a, auto b) {
        return length_of(c, c.cast(a, FLOAT), c.cast(c.node("Add", {a, b}), FLOAT), c.f(1));
      },
      [&](int64_t a, int64_t b) { return std::vector<double>{count(to_float(a), to_float(a + b), 1)}; }, t);
  check(
      "range(float(a) - 1, -float(a), -1)",
      [&](Chain& c, auto a, auto) {
        const std::string fa = c.cast(a, FLOAT);
        return length_of(c, c.node("Sub", {fa, c.f(1)}), c.node("Neg", {fa}), c.f(-1));
      },
      [&](int64_t a, int64_t) { return std::vector<double>{count(to_float(a) - 1, -to_float(a), -1)}; }, t);
  check(
      "range(0.5, float(a) + 0.25, 0.5)",
      [&](Chain& c, auto a, auto) {
        return length_of(c, c.f(0.5), c.node("Add", {c.cast(a, FLOAT), c.f(0.25)}), c.f(0.5));
      },
      [&](int64_t a, int64_t) { return std::vector<double>{count(0.5f, to_float(a) + 0.25f, 0.5f)}; }, t);
  check(
      "range(float(b), float(a) * 1.5, -2.5)",
      [&](Chain& c, auto a, auto b) {
        return length_of(c, c.cast(b, FLOAT), c.node("Mul", {c.cast(a, FLOAT), c.f(1.5)}), c.f(-2.5));
      },
      [&](int64_t a, int64_t b) { return std::vector<double>{count(to_float(b), to_float(a) * 1.5f, -2.5f)}; }, t);
  // The elements of a short range of fractions.
  check(
      "range(float(a) + 0.5, float(a) + 3, 1)",
      [&](Chain& c, auto a, auto) {
        const std::string fa = c.cast(a, FLOAT);
        return c.node("Range", {c.node("Add", {fa, c.f(0.5)}), c.node("Add", {fa, c.f(3)}), c.f(1)});
      },
      [&](int64_t a, int64_t) {
        const float s = to_float(a) + 0.5f;
        return std::vector<double>{s, s + 1, s + 2};
      },
      t);
  t.print();
}

TEST(ValueSoundness, IntegerDivAndMod) {
  Tally t("Div/Mod");
  for (int64_t q : {2, 3, -3}) {
    check(
        "(a-b) / " + std::to_string(q),
        [q](Chain& c, auto a, auto b) {
          return c.node("Div", {c.node("Sub", {a, b}), c.i(q)});
        },
        [q](int64_t a, int64_t b) { return std::vector<double>{c_div(a - b, q)}; }, t);
    check(
        "(a-b) fmod " + std::to_string(q),
        [q](Chain& c, auto a, auto b) {
          return c.node("Mod", {c.node("Sub", {a, b}), c.i(q)}, {attr("fmod", int64_t{1})});
        },
        [q](int64_t a, int64_t b) { return std::vector<double>{c_mod(a - b, q)}; }, t);
    check(
        "(a-b) mod " + std::to_string(q),
        [q](Chain& c, auto a, auto b) {
          return c.node("Mod", {c.node("Sub", {a, b}), c.i(q)});
        },
        [q](int64_t a, int64_t b) { return std::vector<double>{py_mod(a - b, q)}; }, t);
  }
  check(
      "(a - 16) / (b + 1)",
      [](Chain& c, auto a, auto b) {
        return c.node("Div", {c.node("Sub", {a, c.i(16)}), c.node("Add", {b, c.i(1)})});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{c_div(a - 16, b + 1)}; }, t);
  check(
      "(a - 16) fmod (b + 1)",
      [](Chain& c, auto a, auto b) {
        return c.node("Mod", {c.node("Sub", {a, c.i(16)}), c.node("Add", {b, c.i(1)})}, {attr("fmod", int64_t{1})});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{c_mod(a - 16, b + 1)}; }, t);
  check(
      "-a / 4",
      [](Chain& c, auto a, auto) {
        return c.node("Div", {c.node("Neg", {a}), c.i(4)});
      },
      [](int64_t a, int64_t) { return std::vector<double>{c_div(-a, 4)}; }, t);
  t.print();
}

TEST(ValueSoundness, BooleansWithAnUnknownSide) {
  Tally t("And/Or/Xor/Not");
  // a > a+b is false for every run; a <= a+b and a < a+1 are true.
  check(
      "and(a > a+b, u)",
      [](Chain& c, auto a, auto b) {
        return c.node("And", {c.node("Greater", {a, c.node("Add", {a, b})}), c.unknown_bool()});
      },
      [](int64_t, int64_t) { return std::vector<double>{0}; }, t);
  check(
      "or(a <= a+b, u)",
      [](Chain& c, auto a, auto b) {
        return c.node("Or", {c.unknown_bool(), c.node("LessOrEqual", {a, c.node("Add", {a, b})})});
      },
      [](int64_t, int64_t) { return std::vector<double>{1}; }, t);
  // a < b decides nothing statically: And with an unknown side is not determined.
  check(
      "and(a < b, u)",
      [](Chain& c, auto a, auto b) {
        return c.node("And", {c.node("Less", {a, b}), c.unknown_bool()});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{a < b ? kNotDetermined : 0}; }, t);
  check(
      "xor(a < a+1, b == b), not(a < a+1)",
      [](Chain& c, auto a, auto b) {
        const std::string lt = c.node("Less", {a, c.node("Add", {a, c.i(1)})});
        return c.node("Concat", {c.vec(c.node("Xor", {lt, c.node("Equal", {b, b})})), c.vec(c.node("Not", {lt}))},
                      {attr("axis", int64_t{0})});
      },
      [](int64_t, int64_t) {
        return std::vector<double>{0, 0};
      },
      t);
  t.print();
}

TEST(ValueSoundness, ClipOfIntegers) {
  Tally t("Clip");
  check(
      "clip(a - 4, 0, 5)",
      [](Chain& c, auto a, auto) {
        return c.node("Clip", {c.node("Sub", {a, c.i(4)}), c.i(0), c.i(5)});
      },
      [](int64_t a, int64_t) {
        return std::vector<double>{static_cast<double>(std::min<int64_t>(std::max<int64_t>(a - 4, 0), 5))};
      },
      t);
  check(
      "clip(b - a, min=0)",
      [](Chain& c, auto a, auto b) {
        return c.node("Clip", {c.node("Sub", {b, a}), c.i(0)});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{static_cast<double>(std::max<int64_t>(b - a, 0))}; }, t);
  check(
      "clip(a, max=b)",
      [](Chain& c, auto a, auto b) {
        return c.node("Clip", {a, "", b});
      },
      [](int64_t a, int64_t b) { return std::vector<double>{static_cast<double>(std::min(a, b))}; }, t);
  t.print();
}
