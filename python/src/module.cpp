// symshape._symshape: the compiled part of the Python package (python/symshape/
// wraps it; docs/python.md describes the API).
#include "common.hpp"

PYBIND11_MODULE(_symshape, m) {
  m.doc() = "symshape's C++ core: symbolic dims and shapes, expressions, shape inference of ONNX models.";
  symshape::python::bind_dims(m);
  symshape::python::bind_infer(m);
  symshape::python::bind_rules(m);
}
