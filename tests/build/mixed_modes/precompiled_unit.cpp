// The precompiled-mode unit of the mixed program (see header_only_unit.cpp):
// it calls the library's infer_shapes, so the link takes the library.
#include "symshape/api.hpp"
#include "symshape/ir/graph.hpp"

int header_only_rule_count();

int main(int argc, char**) {
  if (argc > 1) return header_only_rule_count();
  symshape::Model model;
  return static_cast<int>(symshape::infer_shapes(model).diagnostics.size());
}
