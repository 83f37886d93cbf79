// A custom operator: adds a shape rule for com.example::Repeat (see
// custom_rules.hpp), builds a small model that uses it, infers every value's
// shape and prints it.
//
//   x[batch,seq,64] --Repeat(repeats=3, axis=1)--> r[batch,3*seq,64]
//                   --Add(r, bias[64])----------->  y[batch,3*seq,64]
#include <cstdio>
#include <string>

#include "custom_rules.hpp"
#include "symshape/symshape.hpp"

int main() {
  using namespace symshape;
  Model model;
  model.opset_imports[""] = 18;
  model.opset_imports["com.example"] = 1;  // the custom domain must be imported

  GraphBuilder b(*model.graph);
  b.input("x", Type::tensor(DataType::FLOAT, Shape({"batch", "seq", 64})));
  b.input("bias", Type::tensor(DataType::FLOAT, Shape({64})));
  b.node("Repeat", {"x"}, {"r"}, {Attribute::make_int("repeats", 3), Attribute::make_int("axis", 1)}, "com.example",
         "repeat");
  b.node("Add", {"r", "bias"}, {"y"}, {}, "", "add");
  b.output("y");

  UserRules rules;
  example::add_rules(rules);
  InferenceOptions options;
  options.user_rules = &rules;  // consulted before the built-in rules
  Report report = infer_shapes(model, options);

  for (const auto& v : model.graph->values) std::printf("%-5s %s\n", v->name.c_str(), v->type.to_string().c_str());
  for (const auto& d : report.diagnostics) std::printf("%s\n", d.to_string().c_str());
  return report.ok() ? 0 : 1;
}
