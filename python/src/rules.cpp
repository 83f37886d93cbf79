// Shape rules written in Python. Inference takes the rules added at run time
// as a UserRules table (infer/registry.hpp), consulted before the built-ins:
// each Python rule is an entry of it whose function is one C++ trampoline.
// The trampoline takes the GIL back (inference runs without it), finds the
// Python callable of the node's operator at the version the engine chose
// (Context::rule_since_version) and calls it with Context and Node wrappers;
// an exception becomes that node's error.
#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common.hpp"

namespace symshape::python {

struct RuleSnapshot {
  UserRules rules;  // one entry per Python rule, each the trampoline
};

namespace {

using RuleKey = std::tuple<std::string, std::string, int>;  // domain ("" is ai.onnx), op_type, since_version

// Owned by the module and touched only with the GIL held. Never destroyed:
// the callables must not be released after the interpreter is gone.
struct PyRegistry {
  std::map<RuleKey, py::object> rules;
  std::shared_ptr<const RuleSnapshot> snapshot;
};

PyRegistry& registry() {
  static PyRegistry* r = new PyRegistry;
  return *r;
}

void python_rule(Context& ctx, Node& n);

std::shared_ptr<const RuleSnapshot> build_snapshot(const std::map<RuleKey, py::object>& rules) {
  auto s = std::make_shared<RuleSnapshot>();
  for (const auto& [key, fn] : rules) s->rules.add(std::get<0>(key), std::get<1>(key), std::get<2>(key), &python_rule);
  return s;
}

// The callable of the version the engine resolved; none when it was
// unregistered since.
py::object find_rule(const std::string& domain, const std::string& op_type, int since_version) {
  const auto& rules = registry().rules;
  auto it = rules.find(RuleKey{domain, op_type, since_version});
  return it == rules.end() ? py::object() : it->second;
}

// The wrappers a Python rule gets. They point into the engine's model and
// context, valid only during the call: `alive` is cleared afterwards and any
// later use raises RuntimeError instead of touching freed memory.
struct Liveness {
  std::shared_ptr<bool> alive;
  void check() const {
    if (!alive || !*alive) throw std::runtime_error("a rule's ctx, node or value was used after the rule returned");
  }
};

struct PyValue {
  Value* v;
  Context* ctx;
  Liveness live;
};

struct PyNode {
  Node* n;
  Context* ctx;
  Liveness live;
};

struct PyContext {
  Context* ctx;
  Liveness live;
};

py::object value_object(Value* v, Context* ctx, const Liveness& live) {
  if (!v) return py::none();
  return py::cast(PyValue{v, ctx, live});
}

// ONNX string attributes are bytes: str when they are UTF-8, else bytes.
py::object text(const std::string& s) {
  PyObject* u = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
  if (u) return py::reinterpret_steal<py::object>(u);
  PyErr_Clear();
  return py::bytes(s);
}

py::object attribute_value(const Attribute& a) {
  switch (a.kind) {
    case Attribute::Kind::Int:
      return py::int_(a.i);
    case Attribute::Kind::Float:
      return py::float_(a.f);
    case Attribute::Kind::String:
      return text(a.s);
    case Attribute::Kind::Ints:
      return py::cast(std::vector<int64_t>(a.ints.begin(), a.ints.end()));
    case Attribute::Kind::Floats:
      return py::cast(a.floats.get());
    case Attribute::Kind::Strings: {
      py::list out;
      for (const std::string& s : a.strings) out.append(text(s));
      return std::move(out);
    }
    case Attribute::Kind::Tensor:
      if (!a.tensors.empty() && a.tensors[0].has_data && !a.tensors[0].int_data.empty())
        return py::cast(a.tensors[0].int_data);
      if (!a.tensors.empty() && a.tensors[0].has_data) return py::cast(a.tensors[0].float_data);
      return py::none();
    default:
      return py::none();  // graphs, type protos, sparse tensors: not exposed
  }
}

void bind_value(py::module_& m) {
  py::class_<PyValue> c(m, "Value", "A value (tensor) of the node a Python rule is inferring; valid during the call.");
  c.def_property_readonly("name", [](const PyValue& p) { return (p.live.check(), p.v->name); });
  c.def_property_readonly(
      "shape",
      [](const PyValue& p) -> py::object {
        p.live.check();
        const Shape* s = shape_of(p.v);
        return s && s->has_rank() ? py::cast(*s) : py::none();
      },
      "Its Shape, None when it is no tensor or its rank is unknown.");
  c.def_property_readonly(
      "dtype", [](const PyValue& p) { return (p.live.check(), static_cast<int>(dtype_of(p.v))); },
      "The ONNX element type (TensorProto number; 0 when unknown).");
  c.def_property_readonly("type", [](const PyValue& p) { return (p.live.check(), p.v->type.to_string()); });
  c.def_property_readonly(
      "int_values",
      [](const PyValue& p) -> py::object {
        p.live.check();
        auto v = p.ctx->int_values(p.v);
        return v ? py::cast(*v) : py::none();
      },
      "Its elements (flattened) when all are known integers (constants, initializers, propagated shapes), else None.");
  c.def_property_readonly(
      "symbolic_value",
      [](const PyValue& p) -> py::object {
        p.live.check();
        auto v = p.ctx->symbolic_value(p.v);
        return v ? py::cast(*v) : py::none();
      },
      "Its elements as SymbolicDims (e.g. the output of Shape), when known, else None.");
}

void bind_node(py::module_& m) {
  py::class_<PyNode> c(m, "Node", "The node a Python rule is inferring; valid during the call.");
  c.def_property_readonly("name", [](const PyNode& p) { return (p.live.check(), p.n->name); });
  c.def_property_readonly("op_type", [](const PyNode& p) { return (p.live.check(), p.n->op_type); });
  c.def_property_readonly("domain", [](const PyNode& p) { return (p.live.check(), std::string(p.n->domain.get())); });
  c.def_property_readonly(
      "inputs",
      [](const PyNode& p) {
        p.live.check();
        py::list out;
        for (Value* v : p.n->inputs) out.append(value_object(v, p.ctx, p.live));
        return out;
      },
      "Its inputs as Values (None for an omitted optional input).");
  c.def_property_readonly("outputs", [](const PyNode& p) {
    p.live.check();
    py::list out;
    for (Value* v : p.n->outputs) out.append(value_object(v, p.ctx, p.live));
    return out;
  });
  c.def_property_readonly(
      "attributes",
      [](const PyNode& p) {
        p.live.check();
        py::dict out;
        for (const Attribute& a : p.n->attributes) out[py::str(a.name)] = attribute_value(a);
        return out;
      },
      "Its attributes: int, float, str (bytes when not UTF-8), lists of them, a tensor's values; None for graphs and "
      "types.");
  c.def(
      "attr",
      [](const PyNode& p, const std::string& name, py::object fallback) {
        p.live.check();
        const Attribute* a = p.n->attr(name);
        return a ? attribute_value(*a) : fallback;
      },
      py::arg("name"), py::arg("default") = py::none(), "An attribute's value, or `default` when it is absent.");
}

Value* output_of(const PyNode& node, std::size_t index) {
  node.live.check();
  if (index >= node.n->outputs.size()) throw py::index_error("the node has no output " + std::to_string(index));
  return node.n->outputs[index];
}

void bind_context_types(py::class_<PyContext>& c) {
  c.def(
      "set_shape_and_dtype",
      [](PyContext& p, const PyValue& v, py::handle shape, int dtype) {
        v.live.check();
        if (!is_valid_data_type(dtype)) throw py::value_error("unknown ONNX element type " + std::to_string(dtype));
        return p.ctx->set_shape_and_dtype(v.v, to_shape(shape), static_cast<DataType>(dtype));
      },
      py::arg("value"), py::arg("shape"), py::arg("dtype"),
      "Sets a value's shape (a Shape, a list of dims, None for unknown rank) and element type, merged per the run's "
      "policy; False when it conflicts (recorded).");
  c.def(
      "set_output",
      [](PyContext& p, const PyNode& n, std::size_t index, py::handle shape, int dtype) {
        Value* v = output_of(n, index);
        if (!v) return false;  // an omitted optional output
        if (!is_valid_data_type(dtype)) throw py::value_error("unknown ONNX element type " + std::to_string(dtype));
        return p.ctx->set_shape_and_dtype(v, to_shape(shape), static_cast<DataType>(dtype));
      },
      py::arg("node"), py::arg("index"), py::arg("shape"), py::arg("dtype"),
      "set_shape_and_dtype on the node's output `index`.");
  c.def(
      "set_shape",
      [](PyContext& p, const PyValue& v, py::handle shape) {
        return (v.live.check(), p.ctx->set_shape(v.v, to_shape(shape)));
      },
      py::arg("value"), py::arg("shape"));
  c.def(
      "set_dtype",
      [](PyContext& p, const PyValue& v, int dtype) {
        v.live.check();
        if (!is_valid_data_type(dtype)) throw py::value_error("unknown ONNX element type " + std::to_string(dtype));
        return p.ctx->set_dtype(v.v, static_cast<DataType>(dtype));
      },
      py::arg("value"), py::arg("dtype"));
  c.def(
      "set_symbolic_value",
      [](PyContext& p, const PyValue& v, py::handle dims) {
        v.live.check();
        std::vector<SymbolicDim> data;
        for (py::handle d : dims) data.push_back(to_dim(d));
        p.ctx->set_symbolic_value(v.v, std::move(data));
      },
      py::arg("value"), py::arg("dims"), "Records a small integer tensor's known elements (partial data propagation).");
}

void bind_context_checks(py::class_<PyContext>& c) {
  c.def(
      "check_inputs",
      [](PyContext& p, const PyNode& n, std::size_t min_count, py::object max_count) {
        n.live.check();
        const std::size_t max = max_count.is_none() ? SIZE_MAX : max_count.cast<std::size_t>();
        return check_inputs(*p.ctx, *n.n, min_count, max);
      },
      py::arg("node"), py::arg("min_count"), py::arg("max_count") = py::none(),
      "Whether the node has min_count..max_count inputs, the required ones present; records a usage error if not.");
  c.def(
      "check_inputs",
      [](PyContext& p, const PyNode& n, const py::args& names) {
        n.live.check();
        if (names.empty()) throw py::type_error("check_inputs(node, name, ...) names at least one input");
        std::vector<std::string> wanted;
        for (py::handle name : names) wanted.push_back(name.cast<std::string>());
        // Context::inputs' checks, for any count of names.
        py::tuple out(wanted.size());
        for (std::size_t k = 0; k < wanted.size(); ++k) out[k] = py::none();
        std::vector<Value*> values(wanted.size(), nullptr);
        std::vector<std::string_view> views(wanted.begin(), wanted.end());
        if (!p.ctx->inputs_by_name(*n.n, views.data(), views.size(), values.data())) return out;
        for (std::size_t k = 0; k < wanted.size(); ++k) out[k] = value_object(values[k], p.ctx, p.live);
        return out;
      },
      py::arg("node"),
      "The inputs of the node named as its ONNX schema names them, one per name (None for an absent optional "
      "input); all None after recording an error: a required input absent, a name the schema does not have, or an "
      "operator without a schema.");
  c.def(
      "require_attr",
      [](PyContext& p, const PyNode& n, const std::string& name) -> py::object {
        n.live.check();
        const Attribute* a = require_attr(*p.ctx, *n.n, name.c_str());
        return a ? attribute_value(*a) : py::none();
      },
      py::arg("node"), py::arg("name"), "The attribute's value; None after recording a usage error when it is absent.");
  c.def(
      "broadcast_shapes",
      [](PyContext& p, const PyNode& n, py::handle a, py::handle b) -> py::object {
        n.live.check();
        std::optional<Shape> s = broadcast_shapes(*p.ctx, *n.n, to_shape(a), to_shape(b));
        return s ? py::cast(*s) : py::none();
      },
      py::arg("node"), py::arg("a"), py::arg("b"),
      "The numpy broadcast of two shapes (contracts recorded); None after recording an error when they cannot be.");
}

void bind_context_reports(py::class_<PyContext>& c) {
  c.def(
      "new_symbolic_dim",
      [](PyContext& p, const std::string& prefix) { return (p.live.check(), p.ctx->new_symbolic_dim(prefix)); },
      py::arg("prefix") = "_d", "A fresh symbol of this run (_d0, _d1, ...).");
  c.def(
      "record_error",
      [](PyContext& p, const PyNode& n, const std::string& message) {
        (n.live.check(), p.ctx->record_error(*n.n, message));
      },
      py::arg("node"), py::arg("message"), "Records a semantic error at the node (a warning under policy 'skip').");
  c.def(
      "usage_error",
      [](PyContext& p, const PyNode& n, const std::string& message) {
        (n.live.check(), p.ctx->usage_error(*n.n, message));
      },
      py::arg("node"), py::arg("message"), "Records a usage error (a malformed node) at the node.");
  c.def(
      "warn",
      [](PyContext& p, const PyNode& n, const std::string& message) {
        (n.live.check(), p.ctx->warn(n.n, DiagnosticKind::Semantic, message));
      },
      py::arg("node"), py::arg("message"));
  c.def(
      "opset", [](const PyContext& p, const std::string& domain) { return (p.live.check(), p.ctx->opset(domain)); },
      py::arg("domain") = "", "The model's opset of a domain (0 when not imported).");
  c.def_property_readonly("policy", [](const PyContext& p) { return (p.live.check(), to_string(p.ctx->policy())); });
}

// An exception's "TypeName: message", for the node's error.
std::string describe(py::error_already_set& e) {
  std::string type = "exception";
  if (e.type()) type = py::str(e.type().attr("__name__")).cast<std::string>();
  std::string message = e.value() ? py::str(e.value()).cast<std::string>() : std::string();
  return message.empty() ? type : type + ": " + message;
}

void call_rule(const py::object& fn, Context& ctx, Node& n) {
  const Liveness live{std::make_shared<bool>(true)};
  std::string failure;
  try {
    fn(PyContext{&ctx, live}, PyNode{&n, &ctx, live});
  } catch (py::error_already_set& e) {
    failure = describe(e);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  *live.alive = false;
  if (!failure.empty())
    ctx.error(&n, DiagnosticKind::Semantic,
              "Python rule " + py::str(py::getattr(fn, "__qualname__", py::repr(fn))).cast<std::string>() + " raised " +
                  failure);
}

void python_rule(Context& ctx, Node& n) {
  py::gil_scoped_acquire gil;
  py::object fn = find_rule(std::string(canonical_domain(n.domain)), n.op_type, ctx.rule_since_version());
  if (!fn) return ctx.error(&n, DiagnosticKind::Semantic, "its Python rule was unregistered during inference");
  try {
    call_rule(fn, ctx, n);
  } catch (...) {  // a failure while describing the failure: still the node's error, never a crash
    PyErr_Clear();
    ctx.error(&n, DiagnosticKind::Semantic, "its Python rule failed");
  }
}

RuleKey rule_key(std::string domain, std::string op_type, int since_version) {
  if (op_type.empty()) throw py::value_error("op_type is empty");
  if (since_version < 1) throw py::value_error("since_version must be >= 1, got " + std::to_string(since_version));
  return {std::string(canonical_domain(domain)), std::move(op_type), since_version};
}

void bind_registry_functions(py::module_& m) {
  m.def(
      "_register_rule",
      [](std::string domain, std::string op_type, int since_version, py::object fn) {
        if (!PyCallable_Check(fn.ptr())) throw py::type_error("a rule is a callable (ctx, node)");
        PyRegistry& r = registry();
        r.rules[rule_key(std::move(domain), std::move(op_type), since_version)] = std::move(fn);
        r.snapshot = build_snapshot(r.rules);
      },
      py::arg("domain"), py::arg("op_type"), py::arg("since_version"), py::arg("fn"));
  m.def(
      "_unregister_rule",
      [](std::string domain, std::string op_type, int since_version) {
        PyRegistry& r = registry();
        const bool removed = r.rules.erase(rule_key(std::move(domain), std::move(op_type), since_version)) > 0;
        r.snapshot = build_snapshot(r.rules);
        return removed;
      },
      py::arg("domain"), py::arg("op_type"), py::arg("since_version"));
  m.def("_registered_rules", [] {
    py::list out;
    for (const auto& [key, fn] : registry().rules)
      out.append(py::make_tuple(std::get<0>(key), std::get<1>(key), std::get<2>(key), fn));
    return out;
  });
}

}  // namespace

std::shared_ptr<const RuleSnapshot> current_rules() {
  PyRegistry& r = registry();
  if (!r.snapshot) r.snapshot = build_snapshot(r.rules);
  return r.snapshot;
}

const UserRules* user_rules_of(const std::shared_ptr<const RuleSnapshot>& rules) {
  return rules->rules.empty() ? nullptr : &rules->rules;
}

void bind_rules(py::module_& m) {
  bind_value(m);
  bind_node(m);
  py::class_<PyContext> c(m, "Context", "What a Python rule reports to: set types, record errors, fresh dims.");
  bind_context_types(c);
  bind_context_checks(c);
  bind_context_reports(c);
  bind_registry_functions(m);
}

}  // namespace symshape::python
