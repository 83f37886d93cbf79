// What the parts of the extension symshape._symshape share: conversions
// between Python objects and dims, shapes and bindings, and the functions
// that bind each part (dims.cpp, infer.cpp, rules.cpp).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "symshape/symshape.hpp"

// Python threads share SymbolicDim objects and infer with the GIL released:
// expression nodes need atomic counts (python/CMakeLists.txt defines it).
#if !SYMSHAPE_ATOMIC_EXPR_COUNTS
#error "the Python package is built with SYMSHAPE_ATOMIC_EXPR_COUNTS=1"
#endif

namespace symshape::python {

namespace py = pybind11;

// A dim from int, str, None (unknown) or SymbolicDim; TypeError otherwise,
// OverflowError for an int outside int64.
SymbolicDim to_dim(py::handle h);
// A shape from a Shape, an iterable of dims, or None (unknown rank).
Shape to_shape(py::handle h);
// Bindings from a mapping of names to integers >= 0 (ValueError otherwise).
Bindings to_bindings(py::handle mapping);
// A SymbolicDim as Python sees it (a new object).
py::object dim_object(const SymbolicDim& d);

void bind_dims(py::module_& m);
void bind_infer(py::module_& m);
void bind_rules(py::module_& m);

// The Python rules inference runs with, as a table consulted before the
// built-ins (rules.cpp). Taken under the GIL; the snapshot stays valid while
// the run holds it.
struct RuleSnapshot;
std::shared_ptr<const RuleSnapshot> current_rules();
const UserRules* user_rules_of(const std::shared_ptr<const RuleSnapshot>& rules);

}  // namespace symshape::python
