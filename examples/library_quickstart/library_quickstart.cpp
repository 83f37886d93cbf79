// The library quick start of docs/library.md: every snippet of that page
// comes from this file (or from onnx_quickstart.cpp), kept in sync by hand.
// The ctest test example_library_quickstart compares the output with
// expected_output.txt.
//
//   image[N,3,H,W] --Conv(3x3, stride 2, pad 1)--> conv[N,8,(H+1)//2,(W+1)//2]
//                  --Reshape([0, 8, -1])-------->  flat[N,8,...]
//                  --com.example::Pair---------->  pair[N,8,2*...]
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "symshape/symshape.hpp"

using namespace symshape;

// [custom-rule]
// com.example::Pair(x): x concatenated with itself on the last axis.
void infer_pair(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;  // usage error: wrong input count
  const Value* x = n.input(0);
  const Shape* s = shape_of(x);  // nullptr unless a tensor of known rank
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(x));  // unknown rank
    return;
  }
  if (s->rank() == 0) {
    ctx.record_error(n, "Pair needs a tensor of rank >= 1");  // semantic error
    return;
  }
  std::vector<SymbolicDim> dims = s->dims();
  dims.back() = dims.back() * 2;
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(dims)), dtype_of(x));
}
// [custom-rule]

const char* kind_name(DiagnosticKind k) {
  switch (k) {
    case DiagnosticKind::Usage:
      return "usage";  // malformed node: input count, attribute
    case DiagnosticKind::Semantic:
      return "semantic";  // rank, axis, broadcast; severity per policy
    case DiagnosticKind::MissingRule:
      return "missing_rule";  // no rule for (domain, op, opset)
    case DiagnosticKind::Graph:
      return "graph";  // cycle, functions nested too deep
    case DiagnosticKind::Conflict:
      return "conflict";  // inferred type disagrees with the existing one
  }
  return "?";
}

// The merge policies on one model: y = Relu(x) whose existing type
// disagrees with the inferred one, and a Concat with an axis out of range.
void show_policy(MergePolicy policy) {
  // [policies]
  Model model;
  model.opset_imports[""] = 18;
  GraphBuilder b(*model.graph);
  b.input("x", Type::tensor(DataType::FLOAT, Shape({"batch", 4})));
  b.node("Relu", {"x"}, {"y"}, {}, "", "relu");
  b.node("Concat", {"x", "x"}, {"z"}, {Attribute::make_int("axis", 2)}, "", "concat");
  b.output("y")->type = Type::tensor(DataType::FLOAT, Shape({SymbolicDim(), 5}));  // existing: [?,5]
  b.output("z");

  InferenceOptions options;
  options.policy = policy;
  Report report = infer_shapes(model, options);
  // [policies]
  std::printf("%s: y is %s\n", to_string(policy), model.graph->find("y")->type.to_string().c_str());
  // [diagnostics]
  for (const Diagnostic& d : report.diagnostics)
    std::printf("  %s %s node '%s' (%s): %s\n", d.severity == Severity::Error ? "error" : "warning", kind_name(d.kind),
                d.node.c_str(), d.op_type.c_str(), d.message.c_str());
  // [diagnostics]
}

int main() {
  // [register]
  UserRules rules;  // rules added at run time, consulted before the built-ins
  rules.add("com.example", "Pair", 1, &infer_pair);
  // [register]

  // [build]
  Model model;
  model.opset_imports[""] = 18;            // ai.onnx ("" and "ai.onnx" are the same domain)
  model.opset_imports["com.example"] = 1;  // a custom domain must be imported too

  Tensor w;  // a weight: dtype and dims are enough, the values are never needed
  w.dtype = DataType::FLOAT;
  w.dims = {8, 3, 3, 3};

  GraphBuilder b(*model.graph);
  b.input("image", Type::tensor(DataType::FLOAT, Shape({"N", 3, "H", "W"})));
  b.initializer("w", w);
  b.initializer("target", Tensor::vector({0, 8, -1}));  // int64 data: Reshape reads it
  b.node("Conv", {"image", "w"}, {"conv"},
         {Attribute::make_ints("kernel_shape", {3, 3}), Attribute::make_ints("strides", {2, 2}),
          Attribute::make_ints("pads", {1, 1, 1, 1})},
         "", "conv1");
  b.node("Reshape", {"conv", "target"}, {"flat"}, {}, "", "reshape");
  b.node("Pair", {"flat"}, {"pair"}, {}, "com.example", "pair");
  b.output("pair");
  // [build]

  // [infer]
  InferenceOptions options;  // defaults: refine, data propagation on, no trace
  options.policy = MergePolicy::Refine;
  options.data_propagation = true;  // follow small integer tensors (Shape -> Gather -> Reshape)
  options.trace = [](const std::string& line) { std::printf("trace: %s\n", line.c_str()); };
  options.user_rules = &rules;  // rules of custom operators ("A custom rule")

  Report report = infer_shapes(model, options);  // types are written into the model's values
  // [infer]

  // [report]
  for (const Diagnostic& d : report.diagnostics) std::printf("%s\n", d.to_string().c_str());
  std::printf("ok=%d errors=%zu warnings=%zu modified=%d\n", report.ok(), report.errors(), report.warnings(),
              report.modified);
  // [report]

  // [values]
  for (const Value* v : model.graph->values) std::printf("%-6s %s\n", v->name.c_str(), v->type.to_string().c_str());

  const Type& t = model.graph->find("pair")->type;
  if (t.is_tensor() && t.shape().has_rank()) {
    std::printf("dtype %s, rank %lld\n", to_string(t.elem_type()), static_cast<long long>(t.shape().rank()));
    for (const SymbolicDim& d : t.shape().dims()) {
      if (d.is_int())
        std::printf("  int %lld\n", static_cast<long long>(d.value()));
      else if (d.is_symbolic())
        std::printf("  expr %s\n", d.to_string().c_str());  // canonical text; d.expr() is the Expr
      else
        std::printf("  unknown\n");  // printed as "?"
    }
    for (const std::string& s : t.shape().free_symbols()) std::printf("  symbol %s\n", s.c_str());
    Result<std::vector<int64_t>> at = t.shape().evaluate({{"N", 1}, {"H", 224}, {"W", 224}});
    if (at) {
      std::printf("  at N=1,H=224,W=224:");
      for (int64_t d : *at) std::printf(" %lld", static_cast<long long>(d));
      std::printf("\n");
    }
  }
  // [values]

  for (MergePolicy p : {MergePolicy::Skip, MergePolicy::Override, MergePolicy::Refine, MergePolicy::Strict})
    show_policy(p);
  return report.ok() ? 0 : 1;
}
