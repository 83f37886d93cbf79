// Helpers that make op tests one line each:
//   EXPECT_EQ(Op("Add").infer({ts(FLOAT, {3, 4}), ts(FLOAT, {4})}), (Types{ts(FLOAT, {3, 4})}));
//   EXPECT_ERROR(Op("Conv").opset(11).run({ts(FLOAT, {1, 4, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}).report, "channels");
// Inputs given as `constant(tensor)` become initializers (their values are
// visible to rules); `sym_value(...)` gives an input a propagated value.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "symshape/symshape.hpp"

namespace symshape::testing {

constexpr DataType FLOAT = DataType::FLOAT;
constexpr DataType FLOAT16 = DataType::FLOAT16;
constexpr DataType DOUBLE = DataType::DOUBLE;
constexpr DataType INT64 = DataType::INT64;
constexpr DataType INT32 = DataType::INT32;
constexpr DataType INT8 = DataType::INT8;
constexpr DataType UINT8 = DataType::UINT8;
constexpr DataType BOOL = DataType::BOOL;
constexpr DataType STRING = DataType::STRING;

using Types = std::vector<Type>;

// A tensor type: ts(FLOAT, {"batch", 3}); ts(FLOAT) has unknown rank.
inline Type ts(DataType dtype, std::vector<SymbolicDim> dims) { return Type::tensor(dtype, Shape(std::move(dims))); }
inline Type ts(DataType dtype) { return Type::tensor(dtype, Shape()); }

// One input of a test node.
struct In {
  Type type;
  std::optional<Tensor> constant;
  std::optional<std::vector<SymbolicDim>> value;
  bool omitted = false;
  In(Type t) : type(std::move(t)) {}  // NOLINT
};
inline In constant(Tensor t) {
  In in(t.type());
  in.constant = std::move(t);
  return in;
}
inline In sym_value(Type t, std::vector<SymbolicDim> v) {
  In in(std::move(t));
  in.value = std::move(v);
  return in;
}
inline In omitted() {
  In in{Type()};
  in.omitted = true;
  return in;
}

struct RunResult {
  Types outputs;
  std::vector<std::optional<std::vector<SymbolicDim>>> values;  // symbolic values of the outputs (whole numbers)
  // Fractional float values of the outputs: numerators and denominator (> 1).
  std::vector<std::optional<Context::Rationals>> fractions;
  Report report;
};

// One node in a fresh model, named by a builder:
//   Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {16, 3, 3, 3})}, {attr("group", 1)})
//   Op(kMs, "Attention").outputs(2).run({...}, {attr("num_heads", 12)}).report
// Defaults: ai.onnx opset 18; the node's own domain (if not ai.onnx) at opset
// 3 for ai.onnx.ml and 1 otherwise; one output; MergePolicy::Refine.
class Op {
 public:
  explicit Op(std::string op) : op_(std::move(op)) {}
  Op(std::string domain, std::string op) : domain_(std::move(domain)), op_(std::move(op)) {}

  Op& opset(int64_t v) {  // the ai.onnx opset import
    opset_ = v;
    return *this;
  }
  Op& domain_opset(int64_t v) {  // the opset import of the node's domain
    domain_opset_ = v;
    return *this;
  }
  Op& outputs(std::size_t n) {  // number of node outputs
    num_outputs_ = n;
    return *this;
  }
  Op& policy(MergePolicy p) {
    policy_ = p;
    return *this;
  }
  Op& user_rules(const UserRules* rules) {  // InferenceOptions::user_rules
    user_rules_ = rules;
    return *this;
  }

  // The model of one node "node" reading in0, in1, ... and writing out0,
  // out1, ... (graph outputs), not yet inferred.
  Model model(const std::vector<In>& inputs, std::vector<Attribute> attributes = {}) const {
    Model m;
    m.opset_imports[""] = opset_;
    if (!domain_.empty()) m.opset_imports[domain_] = domain_opset_ ? *domain_opset_ : domain_ == "ai.onnx.ml" ? 3 : 1;
    GraphBuilder b(*m.graph);
    std::vector<std::string> in_names;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const In& in = inputs[i];
      if (in.omitted) {
        in_names.emplace_back();
        continue;
      }
      const std::string name = "in" + std::to_string(i);
      if (in.constant) {
        b.initializer(name, *in.constant);
      } else {
        Value* v = b.input(name, in.type);
        if (in.value) v->symbolic_value = in.value;
      }
      in_names.push_back(name);
    }
    std::vector<std::string> out_names;
    for (std::size_t i = 0; i < num_outputs_; ++i) out_names.push_back("out" + std::to_string(i));
    b.node(op_, in_names, out_names, std::move(attributes), domain_, "node");
    for (const auto& o : out_names) b.output(o);
    return m;
  }

  // Runs inference on the node; fresh dims are numbered from _d0 per call.
  // assume_nonempty: InferenceOptions::assume_nonempty (every input dim >= 1).
  RunResult run(const std::vector<In>& inputs, std::vector<Attribute> attributes = {},
                bool assume_nonempty = false) const {
    Model m = model(inputs, std::move(attributes));
    InferenceOptions options;
    options.policy = policy_;
    options.assume_nonempty = assume_nonempty;
    options.user_rules = user_rules_;
    RunResult r;
    // Graph inputs keep their given dims: anonymous dims are part of what is tested.
    r.report = infer_shapes(m, options);
    for (Value* v : m.graph->outputs) {
      r.outputs.push_back(v->type);
      const bool whole = !v->fraction;
      r.values.push_back(whole ? v->symbolic_value : std::nullopt);
      r.fractions.push_back(whole || !v->symbolic_value ? std::nullopt
                                                        : std::optional<Context::Rationals>(*v->fraction));
    }
    return r;
  }

  // The output types only.
  Types infer(const std::vector<In>& inputs, std::vector<Attribute> attributes = {}) const {
    return run(inputs, std::move(attributes)).outputs;
  }

 private:
  std::string domain_;
  std::string op_;
  int64_t opset_ = 18;
  std::optional<int64_t> domain_opset_;
  std::size_t num_outputs_ = 1;
  MergePolicy policy_ = MergePolicy::Refine;
  const UserRules* user_rules_ = nullptr;
};

// Table-driven cases. A row of a shape table: Op(op).opset(opset).outputs(outputs).infer(inputs, attrs) gives
// `expected`; a row of an error table: run(...) reports exactly one error whose message contains `error`.
// Each row is checked under SCOPED_TRACE(name), so a failure names its row.
struct ShapeCase {
  const char* name;
  const char* op;
  std::vector<In> inputs;
  std::vector<Attribute> attrs;
  int64_t opset;
  Types expected;
  std::size_t outputs = 1;
};
struct ErrorCase {
  const char* name;
  const char* op;
  std::vector<In> inputs;
  std::vector<Attribute> attrs;
  int64_t opset;
  const char* error;
};

constexpr const char* kMs = "com.microsoft";
constexpr const char* kMl = "ai.onnx.ml";

// All diagnostics, one per line, for failure messages.
inline std::string diagnostics_text(const Report& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += d.to_string() + "\n";
  return out;
}

// Number of diagnostics of that severity whose message contains `text`.
inline std::size_t count_messages(const Report& r, Severity s, const std::string& text) {
  std::size_t n = 0;
  for (const auto& d : r.diagnostics) n += d.severity == s && d.message.find(text) != std::string::npos;
  return n;
}

// The report has exactly one diagnostic of severity `s` and its message
// contains `text` (diagnostics of the other severity are not counted).
inline ::testing::AssertionResult has_one_diagnostic(const char* report_expr, const char* text_expr, Severity s,
                                                     const Report& r, const std::string& text) {
  const char* what = s == Severity::Error ? "error" : "warning";
  if (r.count(s) == 1 && count_messages(r, s, text) == 1) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << report_expr << ": expected exactly one " << what << " containing "
                                       << text_expr << " (\"" << text << "\"), got " << r.count(s) << " " << what
                                       << "(s); diagnostics:\n"
                                       << (r.diagnostics.empty() ? std::string("(none)\n") : diagnostics_text(r));
}
inline ::testing::AssertionResult has_one_error(const char* report_expr, const char* text_expr, const Report& r,
                                                const std::string& text) {
  return has_one_diagnostic(report_expr, text_expr, Severity::Error, r, text);
}
inline ::testing::AssertionResult has_one_warning(const char* report_expr, const char* text_expr, const Report& r,
                                                  const std::string& text) {
  return has_one_diagnostic(report_expr, text_expr, Severity::Warning, r, text);
}

// Attribute shorthands.
inline Attribute attr(const std::string& n, int64_t v) { return Attribute::make_int(n, v); }
inline Attribute attr(const std::string& n, int v) { return Attribute::make_int(n, v); }
inline Attribute attr(const std::string& n, double v) { return Attribute::make_float(n, v); }
inline Attribute attr(const std::string& n, const char* v) { return Attribute::make_string(n, v); }
inline Attribute attr(const std::string& n, std::vector<int64_t> v) { return Attribute::make_ints(n, std::move(v)); }
inline Attribute attr_floats(const std::string& n, std::vector<double> v) {
  return Attribute::make_floats(n, std::move(v));
}

// Values as integers/symbols for assertions on propagated data.
inline std::vector<SymbolicDim> dims(std::vector<SymbolicDim> d) { return d; }
using V = std::vector<SymbolicDim>;
using I64s = std::vector<int64_t>;

// A constant 1-D INT64 input (an initializer, so rules see its values).
inline In vec(std::vector<int64_t> v) { return constant(Tensor::vector(std::move(v))); }

}  // namespace symshape::testing

namespace symshape {
// Readable failure messages in gtest.
inline void PrintTo(const Type& t, std::ostream* os) { *os << t.to_string(); }
inline void PrintTo(const SymbolicDim& d, std::ostream* os) { *os << d.to_string(); }
inline void PrintTo(const Shape& s, std::ostream* os) { *os << s.to_string(); }
}  // namespace symshape

// EXPECT_ERROR(report, "text"): the report has exactly one error and its
// message contains "text"; on failure all diagnostics are printed. Choose a
// text that names the problem ("channels", "out of range"). EXPECT_WARNING is
// the same for warnings. Both take `<< extra` like any gtest assertion.
#define EXPECT_ERROR(report, text) EXPECT_PRED_FORMAT2(::symshape::testing::has_one_error, report, text)
#define ASSERT_ERROR(report, text) ASSERT_PRED_FORMAT2(::symshape::testing::has_one_error, report, text)
#define EXPECT_WARNING(report, text) EXPECT_PRED_FORMAT2(::symshape::testing::has_one_warning, report, text)
#define ASSERT_WARNING(report, text) ASSERT_PRED_FORMAT2(::symshape::testing::has_one_warning, report, text)

namespace symshape::testing {
template <std::size_t N>
void expect_shapes(const ShapeCase (&cases)[N]) {
  for (const ShapeCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Op(c.op).opset(c.opset).outputs(c.outputs).infer(c.inputs, c.attrs), c.expected);
  }
}
template <std::size_t N>
void expect_errors(const ErrorCase (&cases)[N]) {
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_ERROR(Op(c.op).opset(c.opset).run(c.inputs, c.attrs).report, c.error);
  }
}
}  // namespace symshape::testing

// The preamble every op and engine test file shares.
using namespace symshape;           // NOLINT(google-build-using-namespace)
using namespace symshape::testing;  // NOLINT(google-build-using-namespace)
