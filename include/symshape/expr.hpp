// The dimension-expression engine: parse, canonical simplification, print,
// evaluate, substitute, rename and proofs. Depends on the standard library only.
#pragma once

#include "symshape/expr/build.hpp"
#include "symshape/expr/dim_ops.hpp"
#include "symshape/expr/evaluate.hpp"
#include "symshape/expr/expr.hpp"
#include "symshape/expr/parse.hpp"
#include "symshape/expr/print.hpp"
#include "symshape/expr/prove.hpp"
#include "symshape/expr/transform.hpp"
