// The precompiled-mode unit of the mixed program (see header_only_unit.cpp).
#include "symshape/api.hpp"

int header_only_rule_count();

int main() {
  symshape::Model* none = nullptr;
  return none ? static_cast<int>(symshape::infer_shapes(*none).diagnostics.size()) : header_only_rule_count();
}
