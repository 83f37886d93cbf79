// Helpers that make op tests one line each, as in the seed design:
//   EXPECT_EQ(run_shape_inference("", "Add", {ts(FLOAT, {3, 4}), ts(FLOAT, {4})}), (Types{ts(FLOAT, {3, 4})}));
// Inputs given as `constant(tensor)` become initializers (their values are
// visible to rules); `sym_value(...)` gives an input a propagated value.
#pragma once

#include <gtest/gtest.h>

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
  std::vector<std::optional<std::vector<SymbolicDim>>> values;  // symbolic values of the outputs
  Report report;
};

inline RunResult run_node(const std::string& domain, const std::string& op, const std::vector<In>& inputs,
                          std::vector<Attribute> attributes = {}, int64_t opset = 18, std::size_t num_outputs = 1,
                          MergePolicy policy = MergePolicy::Refine) {
  Model m;
  m.opset_imports[""] = opset;
  if (!domain.empty()) m.opset_imports[domain] = domain == "ai.onnx.ml" ? 3 : 1;
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
  for (std::size_t i = 0; i < num_outputs; ++i) out_names.push_back("out" + std::to_string(i));
  b.node(op, in_names, out_names, std::move(attributes), domain, "node");
  for (const auto& o : out_names) b.output(o);
  InferenceOptions options;
  options.policy = policy;
  RunResult r;
  // Graph inputs keep their given dims: anonymous dims are part of what is tested.
  r.report = infer_shapes(m, options);
  for (Value* v : m.graph->outputs) {
    r.outputs.push_back(v->type);
    r.values.push_back(v->symbolic_value);
  }
  return r;
}

// Output types of a single node; fresh dims are numbered from _d0 per call.
inline Types run_shape_inference(const std::string& domain, const std::string& op, const std::vector<In>& inputs,
                                 std::vector<Attribute> attributes = {}, int64_t opset = 18,
                                 std::size_t num_outputs = 1) {
  return run_node(domain, op, inputs, std::move(attributes), opset, num_outputs).outputs;
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

}  // namespace symshape::testing

namespace symshape {
// Readable failure messages in gtest.
inline void PrintTo(const Type& t, std::ostream* os) { *os << t.to_string(); }
inline void PrintTo(const SymbolicDim& d, std::ostream* os) { *os << d.to_string(); }
inline void PrintTo(const Shape& s, std::ostream* os) { *os << s.to_string(); }
}  // namespace symshape
