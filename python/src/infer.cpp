// Inference of a whole ONNX model for the Python package: the model's bytes
// are loaded (onnx::load_model_bytes), inferred with the GIL released, and the
// inferred types written into a copy of the bytes by the command's splicing
// writer (onnx::Splice, as `symshape infer -o` does); the diagnostics' lines
// and the profile's JSON are the library's (include/symshape/report/). The result is plain data
// (bytes, dicts, lists); python/symshape/__init__.py builds the API on it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common.hpp"
#include "symshape/infer/input_shapes.hpp"
#include "symshape/onnx/input_file.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/onnx/types_as_written.hpp"
#include "symshape/profile/profile.hpp"
#include "symshape/report/bindings_check.hpp"
#include "symshape/report/diagnostic_text.hpp"
#include "symshape/report/listed_values.hpp"
#include "symshape/report/profile_json.hpp"

namespace symshape::python {

namespace {

struct InferRequest {
  std::string name;  // how messages name the model
  InferenceOptions options;
  std::vector<InputShape> input_shapes;
  bool want_model = true;
  std::optional<Bindings> profile;             // the profile is wanted, with these bindings
  std::optional<profile::GroupBy> profile_by;  // and its "groups"
};

struct DiagnosticRow {
  Diagnostic d;
  std::string where, line;
};

struct ContractRow {
  Contract c;
  std::string where;
};

struct ValueRow {
  std::string name, node, op_type;
  Type type;
  bool graph_input = false, graph_output = false;
};

struct InferResult {
  std::string error;           // a fatal problem (loading, bad input_shapes), "" otherwise
  bool usage_problem = false;  // the error is a bad argument (ValueError), not a bad model
  std::string model;           // the spliced model's bytes (want_model)
  std::vector<DiagnosticRow> diagnostics;
  std::vector<ContractRow> contracts;
  std::vector<ValueRow> values;
  std::vector<Fact> facts;  // in force
  bool modified = false;
  std::string profile_json;  // as `symshape profile --json` writes it (InferRequest::profile)
};

// input_shapes: as `symshape infer --input-shape` (the problem, or "").
std::string apply_input_shapes(const InferRequest& r, Model& model) {
  return set_input_shapes("input_shapes", r.input_shapes, r.name, model);
}

// One diagnostic as `symshape infer` prints it, without the "symshape infer: "
// prefix: "FILE: error: node #2 'proj_out' (MatMul): MESSAGE".
DiagnosticRow diagnostic_row(const Diagnostic& d, const std::string& file) {
  return DiagnosticRow{d, d.where, report::diagnostic_line(file, d)};
}

void collect_report(const Model& model, const Report& report, const std::string& file, const onnx::WrittenTypes& types,
                    bool want_model_only, InferResult& out) {
  out.modified = report.modified;
  out.facts = report.facts;
  for (const Diagnostic& d : report.diagnostics) out.diagnostics.push_back(diagnostic_row(d, file));
  for (const Contract& c : report.contracts) {
    out.contracts.push_back(ContractRow{c, c.where});
  }
  // The model alone (infer_symbolic_shapes) needs no values, unless the run
  // failed and they go with the exception's report.
  if (want_model_only && report.ok()) return;
  for (const Value* v : report::listed_values(model, false)) {
    ValueRow row{v->name,
                 v->producer ? v->producer->name : "",
                 v->producer ? v->producer->op_type : "",
                 types.of(*v),
                 v->is_graph_input,
                 v->is_graph_output};
    out.values.push_back(std::move(row));
  }
}

// The profile of the inferred model, as `symshape profile --json`; a binding
// of a symbol the model does not have is a bad argument, as for the command.
void add_profile(const Model& model, const InferRequest& r, InferResult& out) {
  out.error = report::bound_symbols_problem("bindings", onnx::display_name(r.name), *r.profile,
                                            report::inferred_symbols(model));
  if (!out.error.empty()) {
    out.usage_problem = true;
    return;
  }
  if (const std::string problem = report::bindings_break_facts(out.facts, *r.profile); !problem.empty()) {
    out.error = "bindings: " + problem;
    out.usage_problem = true;
    return;
  }
  const Facts facts = report::facts_in(out.facts);
  const FactScope scope(facts);  // the profile's sums and maxima, as inference built its dims
  out.profile_json = report::profile_json(profile::profile_model(model, builtin_rule_table()),
                                          {r.name, *r.profile, r.profile_by, {}, {}});
}

// Runs without the GIL (Python rules take it back for their own call).
InferResult run_inference(std::string_view bytes, const InferRequest& r, const UserRules* user_rules) {
  InferResult out;
  Result<Model> loaded = onnx::load_model_bytes(bytes, r.name);
  if (!loaded) {
    out.error = loaded.error();
    return out;
  }
  Model model = std::move(loaded.value());
  out.error = apply_input_shapes(r, model);
  if (!out.error.empty()) {
    out.usage_problem = true;
    return out;
  }
  InferenceOptions options = r.options;
  options.user_rules = user_rules;
  const Report report = infer_shapes(model, options);
  std::vector<std::string> changed_inputs;
  for (const InputShape& s : r.input_shapes) changed_inputs.push_back(s.name);
  onnx::Splice splice(bytes, model);
  if (r.want_model)
    splice.write_types(changed_inputs);
  else
    splice.record_types(changed_inputs);  // the report only reads the types
  const onnx::WrittenTypes types(splice.main_graph_value_infos());
  collect_report(model, report, r.name, types, r.want_model, out);
  if (r.profile) add_profile(model, r, out);
  if (r.want_model) {
    Result<onnx::SplicedModel> pieces = splice.finish();
    if (!pieces) {
      out.error = r.name + ": " + pieces.error();
      return out;
    }
    Result<std::string> bytes = pieces->bytes();
    if (!bytes) {
      out.error = r.name + ": " + bytes.error();
      return out;
    }
    out.model = std::move(bytes.value());
  }
  return out;
}

py::dict type_object(const Type& t) {
  py::dict d;
  d["type"] = t.to_string();
  d["dtype"] = t.is_tensor_like() ? py::object(py::int_(static_cast<int>(t.elem_type()))) : py::none();
  py::object dims = py::none();
  if (t.is_tensor_like() && t.shape().has_rank()) dims = py::cast(std::vector<SymbolicDim>(t.shape().dims()));
  d["dims"] = dims;
  return d;
}

py::dict result_object(InferResult& r) {
  py::dict out;
  out["model"] = r.model.empty() ? py::object(py::none()) : py::object(py::bytes(r.model));
  out["modified"] = r.modified;
  out["profile"] = r.profile_json.empty() ? py::object(py::none()) : py::object(py::str(r.profile_json));
  py::list diagnostics, contracts, values;
  for (const DiagnosticRow& x : r.diagnostics)
    diagnostics.append(py::dict(py::arg("severity") = report::severity_name(x.d.severity),
                                py::arg("kind") = report::kind_name(x.d.kind), py::arg("node") = x.d.node,
                                py::arg("op_type") = x.d.op_type, py::arg("where") = x.where,
                                py::arg("message") = x.d.message, py::arg("line") = x.line));
  for (const ContractRow& x : r.contracts)
    contracts.append(py::dict(py::arg("relation") = x.c.relation(), py::arg("condition") = x.c.condition,
                              py::arg("kind") = contract_kind_name(x.c.kind), py::arg("lhs") = x.c.lhs,
                              py::arg("rhs") = x.c.rhs, py::arg("node") = x.c.node, py::arg("op_type") = x.c.op_type,
                              py::arg("where") = x.where, py::arg("origin") = x.c.origin));
  for (const ValueRow& v : r.values) {
    py::dict d = type_object(v.type);
    d["name"] = v.name;
    d["node"] = v.node;
    d["op_type"] = v.op_type;
    d["graph_input"] = v.graph_input;
    d["graph_output"] = v.graph_output;
    values.append(d);
  }
  py::list facts;
  for (const Fact& f : r.facts) facts.append(py::dict(py::arg("fact") = f.text, py::arg("source") = f.source));
  out["facts"] = facts;
  out["diagnostics"] = diagnostics;
  out["contracts"] = contracts;
  out["values"] = values;
  return out;
}

InferRequest make_request(const std::string& name, const std::string& policy, py::handle input_shapes,
                          bool data_propagation, bool want_model, py::handle profile_bindings, py::handle assume,
                          bool assume_nonempty, py::handle profile_by) {
  InferRequest r;
  r.name = name;
  if (!assume.is_none()) {
    if (py::isinstance<py::str>(assume)) throw py::type_error("assume is a list of facts, not one string");
    Facts check;
    for (py::handle item : assume) {
      const std::string text = py::str(item).cast<std::string>();
      if (Result<bool> ok = check.add(text); !ok) throw py::value_error("assume '" + text + "': " + ok.error());
      r.options.assume.push_back(text);
    }
  }
  r.options.assume_nonempty = assume_nonempty;
  const std::optional<MergePolicy> p = parse_merge_policy(policy);
  if (!p) throw py::value_error("bad policy '" + policy + "', expected skip, override, refine or strict");
  r.options.policy = *p;
  r.options.data_propagation = data_propagation;
  r.want_model = want_model;
  if (!profile_bindings.is_none()) r.profile = to_bindings(profile_bindings);
  if (!profile_by.is_none()) {
    const std::string by = py::str(profile_by).cast<std::string>();
    if (by != "op" && by != "scope") throw py::value_error("bad by '" + by + "', expected 'op', 'scope' or None");
    r.profile_by = by == "op" ? profile::GroupBy::Op : profile::GroupBy::Scope;
  }
  if (!input_shapes.is_none())
    for (auto item : py::dict(py::reinterpret_borrow<py::object>(input_shapes))) {
      InputShape s{py::str(item.first).cast<std::string>(), to_shape(item.second)};
      if (!s.shape.has_rank()) throw py::value_error("input_shapes: '" + s.name + "' needs a list of dims");
      for (const SymbolicDim& d : s.shape.dims())
        if (d.is_int() && d.value() < 0)
          throw py::value_error("input_shapes: negative dim " + d.to_string() + " for '" + s.name + "'");
      r.input_shapes.push_back(std::move(s));
    }
  return r;
}

// _infer(source, is_path, name, policy, input_shapes, data_propagation, want_model,
// profile_bindings) -> dict (with "profile", the JSON text, unless profile_bindings is
// None); raises ValueError (bad argument or malformed model) or OSError
// (unreadable file). Inference errors are in the dict's diagnostics.
py::dict infer_entry(py::object source, bool is_path, const std::string& name, const std::string& policy,
                     py::handle input_shapes, bool data_propagation, bool want_model, py::handle profile_bindings,
                     py::handle assume, bool assume_nonempty, py::handle profile_by) {
  const InferRequest request = make_request(name, policy, input_shapes, data_propagation, want_model, profile_bindings,
                                            assume, assume_nonempty, profile_by);
  const std::shared_ptr<const RuleSnapshot> rules = current_rules();
  InferResult result;
  bool unreadable = false;
  if (is_path) {
    const std::string path = source.cast<std::string>();
    py::gil_scoped_release released;
    onnx::InputFile input;
    Result<bool> opened = input.open(path);
    unreadable = !opened;
    if (opened)
      result = run_inference(input.bytes(), request, user_rules_of(rules));
    else
      result.error = opened.error();
  } else {
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(source.ptr(), &data, &size) != 0) throw py::error_already_set();
    py::gil_scoped_release released;  // `source` (immutable bytes) stays referenced by the caller
    result = run_inference(std::string_view(data, static_cast<std::size_t>(size)), request, user_rules_of(rules));
  }
  if (unreadable) {
    PyErr_SetString(PyExc_OSError, result.error.c_str());
    throw py::error_already_set();
  }
  if (!result.error.empty()) throw py::value_error(result.error);
  return result_object(result);
}

}  // namespace

void bind_infer(py::module_& m) {
  m.def("_infer", &infer_entry, py::arg("source"), py::arg("is_path"), py::arg("name"), py::arg("policy"),
        py::arg("input_shapes"), py::arg("data_propagation"), py::arg("want_model"),
        py::arg("profile_bindings") = py::none(), py::arg("assume") = py::none(), py::arg("assume_nonempty") = false,
        py::arg("profile_by") = py::none(),
        "Inference of one model (the package's infer_symbolic_shapes, infer_report and profile call it).");
  m.def(
      "_data_types",
      [] {
        py::dict out;
        for (int i = 0; is_valid_data_type(i); ++i) out[py::str(to_string(static_cast<DataType>(i)))] = i;
        return out;
      },
      "The ONNX element types symshape knows, by name (lower case) -> TensorProto number.");
}

}  // namespace symshape::python
