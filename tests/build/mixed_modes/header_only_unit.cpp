// A header-only unit (symshape::symshape, no SYMSHAPE_COMPILED), linked into
// a program whose other unit uses the precompiled library: the link must fail
// naming the mixed modes (symshape/support/build_mode.hpp).
#include "symshape/symshape.hpp"

int header_only_rule_count() { return static_cast<int>(symshape::builtin_rule_table().size); }
