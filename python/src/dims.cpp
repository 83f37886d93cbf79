// SymbolicDim, Shape and the expression functions (simplify, evaluate,
// prove_ge, prove_eq) of the Python package.
#include <climits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common.hpp"

namespace symshape::python {

namespace {

std::optional<int64_t> as_int64(py::handle h) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) return std::nullopt;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0) throw py::value_error("integer " + py::str(h).cast<std::string>() + " does not fit int64");
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<int64_t>(v);
}

// An expression argument of simplify/evaluate/prove_*: text is parsed strictly
// (ValueError with the parser's message, as `symshape simplify` prints it).
Expr expr_arg(py::handle h) {
  if (py::isinstance<py::str>(h)) {
    const std::string text = h.cast<std::string>();
    Result<Expr> e = parse_expr(text);
    if (!e) throw py::value_error("'" + text + "': " + e.error());
    if (divides_by_zero(*e)) throw py::value_error("'" + text + "': division by zero");
    return *e;
  }
  const SymbolicDim d = to_dim(h);
  if (d.is_unknown()) throw py::value_error("the dim is unknown");
  return d.expr();
}

py::object dim_value(const SymbolicDim& d) {
  if (d.is_unknown()) return py::none();
  if (d.is_int()) return py::int_(d.value());
  return py::str(d.to_string());
}

std::string dim_repr(const SymbolicDim& d) {
  if (d.is_unknown()) return "SymbolicDim(None)";
  if (d.is_int()) return "SymbolicDim(" + std::to_string(d.value()) + ")";
  return "SymbolicDim(" + py::repr(py::str(d.to_string())).cast<std::string>() + ")";
}

py::set symbol_set(const std::set<std::string>& names) {
  py::set out;
  for (const std::string& s : names) out.add(py::str(s));
  return out;
}

enum class Op { Add, Sub, Mul, FloorDiv, Mod };

// a OP b for the arithmetic dunders; NotImplemented for other operand types.
py::object arith(const SymbolicDim& self, py::handle other, Op op, bool reflected) {
  SymbolicDim b;
  if (py::isinstance<SymbolicDim>(other)) {
    b = other.cast<SymbolicDim>();
  } else if (std::optional<int64_t> v = as_int64(other)) {
    b = SymbolicDim(*v);
  } else {
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  }
  const SymbolicDim& x = reflected ? b : self;
  const SymbolicDim& y = reflected ? self : b;
  if ((op == Op::FloorDiv || op == Op::Mod) && y.is_int(0)) {
    PyErr_SetString(PyExc_ZeroDivisionError, "division of a dim by zero");
    throw py::error_already_set();
  }
  SymbolicDim r;
  switch (op) {
    case Op::Add:
      r = x + y;
      break;
    case Op::Sub:
      r = x - y;
      break;
    case Op::Mul:
      r = x * y;
      break;
    case Op::FloorDiv:
      r = x / y;
      break;
    case Op::Mod:
      r = x % y;
      break;
  }
  if (r.overflowed()) {
    PyErr_SetString(PyExc_OverflowError, "dim arithmetic overflows int64");
    throw py::error_already_set();
  }
  return py::cast(r);
}

template <Op op, bool reflected>
py::object arith_op(const SymbolicDim& a, py::handle b) {
  return arith(a, b, op, reflected);
}

void bind_dim_arithmetic(py::class_<SymbolicDim>& c) {
  c.def("__add__", &arith_op<Op::Add, false>, py::is_operator());
  c.def("__radd__", &arith_op<Op::Add, true>, py::is_operator());
  c.def("__sub__", &arith_op<Op::Sub, false>, py::is_operator());
  c.def("__rsub__", &arith_op<Op::Sub, true>, py::is_operator());
  c.def("__mul__", &arith_op<Op::Mul, false>, py::is_operator());
  c.def("__rmul__", &arith_op<Op::Mul, true>, py::is_operator());
  c.def("__floordiv__", &arith_op<Op::FloorDiv, false>, py::is_operator());
  c.def("__rfloordiv__", &arith_op<Op::FloorDiv, true>, py::is_operator());
  c.def("__mod__", &arith_op<Op::Mod, false>, py::is_operator());
  c.def("__rmod__", &arith_op<Op::Mod, true>, py::is_operator());
}

int64_t evaluate_dim(const SymbolicDim& d, py::handle bindings) {
  if (d.is_unknown()) throw py::value_error("the dim is unknown");
  Result<int64_t> v = evaluate(d.expr(), to_bindings(bindings));
  if (!v) throw py::value_error("'" + d.to_string() + "': " + v.error());
  return *v;
}

void bind_symbolic_dim(py::module_& m) {
  py::class_<SymbolicDim> c(m, "SymbolicDim", R"doc(One tensor dimension: an integer, a symbolic expression
("batch", "past+seq", "(H+1)//2") in canonical form, or unknown (None).

SymbolicDim(3), SymbolicDim("batch"), SymbolicDim("2*seq+1"), SymbolicDim(None).
Text that is not an expression (an ONNX dim_param such as "batch size") is one
opaque symbol, as symshape reads dim_params. Arithmetic (+ - * // %) with ints
and dims keeps the canonical form; anything with an unknown dim is unknown.)doc");
  c.def(py::init([](py::handle v) { return to_dim(v); }), py::arg("value") = py::none());
  c.def("__str__", &SymbolicDim::to_string, "The canonical form; '?' when unknown.");
  c.def("__repr__", &dim_repr);
  c.def_property_readonly("value", &dim_value,
                          "The int when constant, the canonical text when symbolic, None when unknown.");
  c.def_property_readonly(
      "is_constant", [](const SymbolicDim& d) { return d.is_int(); }, "Whether it is an integer.");
  c.def_property_readonly("is_unknown", &SymbolicDim::is_unknown, "Whether nothing is known of it.");
  c.def("__int__", [](const SymbolicDim& d) {
    if (!d.is_int()) throw py::type_error("SymbolicDim '" + d.to_string() + "' is not a constant");
    return d.value();
  });
  c.def("__eq__", [](const SymbolicDim& a, py::handle b) -> py::object {
    if (!py::isinstance<SymbolicDim>(b) && !py::isinstance<py::str>(b) && !as_int64(b) && !b.is_none())
      return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::bool_(a == to_dim(b));
  });
  c.def("__hash__", [](const SymbolicDim& d) { return py::hash(py::str(d.to_string())); });
  bind_dim_arithmetic(c);
  c.def("evaluate", &evaluate_dim, py::arg("bindings"),
        "The integer value with every symbol bound (a mapping of names to ints >= 0); ValueError when a symbol is "
        "unbound or the dim is unknown.");
  c.def(
      "free_symbols",
      [](const SymbolicDim& d) {
        std::set<std::string> names;
        if (d.is_known())
          for (std::string& s : free_symbols(d.expr())) names.insert(std::move(s));
        return symbol_set(names);
      },
      "The names of its symbols.");
  c.def(
      "simplify", [](const SymbolicDim& d) { return d; }, "Itself: dims are canonical when made.");
  // A tuple state: pickle skips __setstate__ for a state of None (an unknown dim).
  c.def(py::pickle([](const SymbolicDim& d) { return py::make_tuple(dim_value(d)); },
                   [](const py::tuple& state) { return to_dim(state[0]); }));
}

py::object shape_item(const Shape& s, py::handle index) {
  if (!s.has_rank()) throw py::type_error("a shape of unknown rank has no dims");
  if (py::isinstance<py::slice>(index)) {
    std::size_t start = 0, stop = 0, step = 0, length = 0;
    if (!index.cast<py::slice>().compute(s.size(), &start, &stop, &step, &length)) throw py::error_already_set();
    std::vector<SymbolicDim> dims;
    for (std::size_t i = 0; i < length; ++i) dims.push_back(s[start + i * step]);
    return py::cast(Shape(std::move(dims)));
  }
  int64_t i = index.cast<int64_t>();
  const auto rank = static_cast<int64_t>(s.size());
  if (i < 0) i += rank;
  if (i < 0 || i >= rank) throw py::index_error("shape index out of range");
  return py::cast(s[static_cast<std::size_t>(i)]);
}

std::string shape_repr(const Shape& s) {
  if (!s.has_rank()) return "Shape(None)";
  std::string out = "Shape([";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += py::repr(dim_value(s[i])).cast<std::string>();
  }
  return out + "])";
}

py::tuple evaluate_shape(const Shape& s, py::handle bindings) {
  Result<std::vector<int64_t>> v = s.evaluate(to_bindings(bindings));
  if (!v) throw py::value_error("shape " + s.to_string() + ": " + v.error());
  py::tuple out(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) out[i] = py::int_((*v)[i]);
  return out;
}

void bind_shape(py::module_& m) {
  py::class_<Shape> c(m, "Shape", R"doc(A tensor shape: one SymbolicDim per axis, or unknown rank (Shape(None)).

Shape(["batch", 128, "seq//2"]); dims are given as ints, strings, None or SymbolicDims.
Indexing gives SymbolicDims (a slice gives a Shape); iteration yields the dims.)doc");
  c.def(py::init([](py::handle dims) { return to_shape(dims); }), py::arg("dims"));
  c.def_property_readonly(
      "rank", [](const Shape& s) -> py::object { return s.has_rank() ? py::object(py::int_(s.rank())) : py::none(); },
      "The number of dims, None when the rank is unknown.");
  c.def_property_readonly(
      "dims",
      [](const Shape& s) -> py::object {
        return s.has_rank() ? py::object(py::cast(std::vector<SymbolicDim>(s.dims()))) : py::none();
      },
      "The dims as a list of SymbolicDim, None when the rank is unknown.");
  c.def("__len__", [](const Shape& s) {
    if (!s.has_rank()) throw py::type_error("a shape of unknown rank has no length");
    return s.size();
  });
  c.def("__getitem__", &shape_item);
  c.def("__iter__", [](const Shape& s) {
    if (!s.has_rank()) throw py::type_error("a shape of unknown rank has no dims");
    return py::iter(py::cast(std::vector<SymbolicDim>(s.dims())));
  });
  c.def("__str__", &Shape::to_string, "'[batch,seq,768]', '[?,3]' ('?' an unknown dim), or '?' for unknown rank.");
  c.def("__repr__", &shape_repr);
  c.def("__eq__", [](const Shape& a, py::handle b) -> py::object {
    if (py::isinstance<Shape>(b)) return py::bool_(a == b.cast<Shape>());
    if (py::isinstance<py::list>(b) || py::isinstance<py::tuple>(b)) return py::bool_(a == to_shape(b));
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  });
  c.def("__hash__", [](const Shape& s) { return py::hash(py::str(s.to_string())); });
  c.def("evaluate", &evaluate_shape, py::arg("bindings"),
        "The concrete dims as a tuple of ints; ValueError when a dim is unknown or a symbol unbound.");
  c.def("simplify", &Shape::simplify, "The shape with every dim in canonical form (dims are canonical when made).");
  c.def(
      "free_symbols", [](const Shape& s) { return symbol_set(s.free_symbols()); }, "The names of the dims' symbols.");
  c.def_property_readonly("is_static", &Shape::is_static, "Whether every dim is an integer.");
  c.def_property_readonly("is_fully_known", &Shape::is_fully_known, "Whether the rank and every dim are known.");
  c.def(py::pickle(
      [](const Shape& s) {
        return py::make_tuple(s.has_rank() ? py::object(py::cast(std::vector<SymbolicDim>(s.dims()))) : py::none());
      },
      [](const py::tuple& state) { return to_shape(state[0]); }));
}

// The facts of an `assume` argument (a sequence of texts); ValueError naming
// the fact and the position when one does not parse or contradicts the others.
Facts facts_arg(py::handle assume) {
  Facts facts;
  if (assume.is_none()) return facts;
  if (py::isinstance<py::str>(assume)) throw py::type_error("assume is a list of facts, not one string");
  for (py::handle item : assume) {
    const std::string text = py::str(item).cast<std::string>();
    Result<bool> r = facts.add(text, "assume");
    if (!r) throw py::value_error("assume '" + text + "': " + r.error());
  }
  return facts;
}

void bind_expression_functions(py::module_& m) {
  m.def(
      "simplify",
      [](const std::string& text, py::handle assume) {
        const Facts facts = facts_arg(assume);
        const FactScope scope(facts);
        return to_string(facts.apply(expr_arg(py::str(text))));
      },
      py::arg("text"), py::kw_only(), py::arg("assume") = py::none(),
      "The canonical form of an expression: simplify('2*batch//batch') == '2'. With assume (facts such as "
      "'seq<=2048', 'H%32==0'), the form for the bindings that satisfy them: simplify('min(seq,4096)', "
      "assume=['seq<=2048']) == 'seq'. ValueError with the parser's message for a malformed expression or fact.");
  m.def(
      "_prove",
      [](const std::string& relation, py::handle assume) {
        Result<ParsedRelation> r = parse_relation(relation);
        if (!r) throw py::value_error("'" + relation + "': " + r.error());
        const ProofOutcome out = prove_relation(r->lhs, r->rel, r->rhs, facts_arg(assume));
        const char* verdict = out.verdict == ProofOutcome::Verdict::True    ? "true"
                              : out.verdict == ProofOutcome::Verdict::False ? "false"
                                                                            : "unknown";
        py::dict counterexample;
        for (const auto& [name, value] : out.counterexample) counterexample[py::str(name)] = value;
        return py::make_tuple(
            verdict, out.verdict == ProofOutcome::Verdict::False ? py::object(counterexample) : py::object(py::none()));
      },
      py::arg("relation"), py::arg("assume") = py::none(),
      "(verdict, counterexample) of `symshape prove`: the package's prove() calls it.");
  m.def(
      "evaluate",
      [](const std::string& text, py::handle bindings) {
        const Expr e = expr_arg(py::str(text));
        Result<int64_t> v = evaluate(e, to_bindings(bindings));
        if (!v) throw py::value_error("'" + text + "': " + v.error());
        return *v;
      },
      py::arg("text"), py::arg("bindings") = py::none(),
      "The value of an expression with its symbols bound: evaluate('(H+1)//2', {'H': 7}) == 4.");
  m.def(
      "prove_ge", [](py::handle a, py::handle b) { return prove_ge(expr_arg(a), expr_arg(b)); }, py::arg("a"),
      py::arg("b"),
      "Whether a >= b holds for every value of the symbols (all >= 0). False means not proved, not disproved.");
  m.def(
      "prove_eq", [](py::handle a, py::handle b) { return prove_eq(expr_arg(a), expr_arg(b)); }, py::arg("a"),
      py::arg("b"), "Whether a == b holds for every value of the symbols (all >= 0). False means not proved.");
}

}  // namespace

SymbolicDim to_dim(py::handle h) {
  if (h.is_none()) return SymbolicDim();
  if (py::isinstance<SymbolicDim>(h)) return h.cast<SymbolicDim>();
  if (py::isinstance<py::str>(h)) return SymbolicDim(h.cast<std::string>());
  if (std::optional<int64_t> v = as_int64(h)) return SymbolicDim(*v);
  throw py::type_error("a dim is an int, a str, None or a SymbolicDim, not " +
                       py::str(py::type::of(h).attr("__name__")).cast<std::string>());
}

Shape to_shape(py::handle h) {
  if (h.is_none()) return Shape();
  if (py::isinstance<Shape>(h)) return h.cast<Shape>();
  if (py::isinstance<py::str>(h) || !py::isinstance<py::iterable>(h))
    throw py::type_error("a shape is a list of dims, a Shape or None");
  std::vector<SymbolicDim> dims;
  for (py::handle d : h) dims.push_back(to_dim(d));
  return Shape(std::move(dims));
}

Bindings to_bindings(py::handle mapping) {
  Bindings out;
  if (mapping.is_none()) return out;
  for (auto item : py::dict(py::reinterpret_borrow<py::object>(mapping))) {
    const std::string name = py::str(item.first).cast<std::string>();
    const std::optional<int64_t> v = as_int64(item.second);
    if (!v) throw py::type_error("binding '" + name + "' is not an int");
    if (*v < 0) throw py::value_error("negative value in binding '" + name + "' (dims are never negative)");
    out[name] = *v;
  }
  return out;
}

py::object dim_object(const SymbolicDim& d) { return py::cast(d); }

void bind_dims(py::module_& m) {
  bind_symbolic_dim(m);
  bind_shape(m);
  bind_expression_functions(m);
}

}  // namespace symshape::python
