"""Whole models: the round trip through onnx, policies, input shapes, the
report, errors as exceptions with the command's messages."""

import os
import subprocess

import onnx
import pytest
from conftest import attention_block, broken_model
from onnx import helper

import symshape
from symshape import DataType, SymbolicDim


def written_dims(model, name):
    """A value's dims as the model holds them: ints from dim_value, text from dim_param."""
    for vi in list(model.graph.input) + list(model.graph.value_info) + list(model.graph.output):
        if vi.name == name:
            t = vi.type.tensor_type
            return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]
    raise KeyError(name)


def test_round_trip_through_onnx(block):
    out = symshape.infer_symbolic_shapes(block)
    assert isinstance(out, onnx.ModelProto)
    onnx.checker.check_model(out)
    assert written_dims(out, "h") == ["batch", "seq", 64]
    assert written_dims(out, "r") == ["batch", "seq", 4, 16]
    assert written_dims(out, "y") == ["batch", 4, "seq", 16]
    assert written_dims(out, "target") == [4]
    assert {vi.name for vi in out.graph.value_info} == {"h", "hb", "xs", "bs", "target", "r"}
    # the input model is left as it was
    assert len(block.graph.value_info) == 0


def test_expressions_go_to_dim_param():
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["b", "past", 8])
    z = helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, ["b", "seq", 8])
    node = helper.make_node("Concat", ["x", "z"], ["y"], axis=1)
    graph = helper.make_graph([node], "g", [x, z], [helper.make_empty_tensor_value_info("y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    out = symshape.infer_symbolic_shapes(model)
    assert written_dims(out, "y") == ["b", "past+seq", 8]


def test_bytes_path_and_proto_give_the_same_model(block, tmp_path):
    path = tmp_path / "block.onnx"
    onnx.save(block, str(path))
    from_proto = symshape.infer_symbolic_shapes(block).SerializeToString()
    assert symshape.infer_symbolic_shapes(block.SerializeToString()).SerializeToString() == from_proto
    assert symshape.infer_symbolic_shapes(str(path)).SerializeToString() == from_proto
    assert symshape.infer_symbolic_shapes(path).SerializeToString() == from_proto


def test_same_bytes_as_the_command_writes(block, tmp_path, symshape_cli):
    path, out = tmp_path / "block.onnx", tmp_path / "out.onnx"
    onnx.save(block, str(path))
    subprocess.run([symshape_cli, "infer", str(path), "-o", str(out)], check=True, capture_output=True)
    report = symshape.infer_report(path)
    assert symshape.infer_symbolic_shapes(path).SerializeToString() == out.read_bytes()
    assert report.model is None  # the report alone writes no model


def test_input_shapes(block):
    out = symshape.infer_symbolic_shapes(block, input_shapes={"x": [2, "t", 32]})
    assert written_dims(out, "x") == [2, "t", 32]
    assert written_dims(out, "y") == [2, 4, "t", 16]
    unknown = symshape.infer_report(block, input_shapes={"x": [None, 5, 32]})
    # an unknown dim (None) gets a fresh name, written into the input too
    assert unknown.values["x"].type == "float[_d0,5,32]" and unknown.values["y"].type == "float[_d0,4,5,16]"


def test_input_shapes_errors(block):
    with pytest.raises(ValueError, match="'nope' is not an input"):
        symshape.infer_report(block, input_shapes={"nope": [1]})
    with pytest.raises(ValueError, match="negative"):
        symshape.infer_report(block, input_shapes={"x": [-1, 2, 32]})
    with pytest.raises(TypeError):
        symshape.infer_report(block, input_shapes={"x": [1.5]})


@pytest.mark.parametrize(
    "policy, y, severities",
    [
        ("skip", "float[batch,seq,4,17]", []),
        ("override", "float[batch,4,seq,16]", []),
        ("refine", "float[batch,4,seq,17]", ["warning"]),
        ("strict", "float[batch,4,seq,17]", ["error"]),
    ],
)
def test_policies(policy, y, severities):
    model = attention_block(declared_out=["batch", "seq", 4, 17])
    r = symshape.infer_report(model, policy=policy)
    assert r.values["y"].type == y
    assert [d.severity for d in r.diagnostics] == severities
    if severities:
        assert "conflicts with existing 17" in r.diagnostics[0].message


def test_strict_conflict_raises():
    with pytest.raises(symshape.ShapeInferenceError, match="inferred dim 3 = 16 conflicts with existing 17"):
        symshape.infer_symbolic_shapes(attention_block(["batch", "seq", 4, 17]), policy="strict")


def test_bad_policy():
    with pytest.raises(ValueError, match="bad policy 'lenient'"):
        symshape.infer_report(attention_block(), policy="lenient")


def test_data_propagation_switch(block):
    on = symshape.infer_report(block)
    off = symshape.infer_report(block, data_propagation=False)
    assert on.values["r"].dims == ["batch", "seq", 4, 16]
    assert off.values["r"].dims == ["_d0", "_d1", "_d2", "_d3"]


def test_report_values(block):
    r = symshape.infer_report(block)
    assert r.ok and r.diagnostics == [] and not r.errors
    assert list(r.values) == ["x", "h", "hb", "xs", "bs", "target", "r", "y"]
    y = r.values["y"]
    assert y.dtype is DataType.FLOAT and y.dtype == onnx.TensorProto.FLOAT
    assert all(isinstance(d, SymbolicDim) for d in y.dims)
    assert y.dims == ["batch", 4, "seq", 16] and y.shape.free_symbols() == {"batch", "seq"}
    assert y.node == "transpose" and y.op_type == "Transpose" and y.graph_output and not y.graph_input
    assert r.values["x"].graph_input and r.values["xs"].dtype == DataType.INT64
    assert y.shape.evaluate({"batch": 2, "seq": 7}) == (2, 4, 7, 16)


def test_report_contracts():
    a = helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, ["n", "k"])
    b = helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT, ["m", 5])
    c = helper.make_tensor_value_info("c", onnx.TensorProto.FLOAT, ["t"])
    nodes = [helper.make_node("MatMul", ["a", "b"], ["p"], name="mm"), helper.make_node("Add", ["p", "c"], ["y"], name="add")]
    graph = helper.make_graph(nodes, "g", [a, b, c], [helper.make_empty_tensor_value_info("y")])
    r = symshape.infer_report(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]))
    assert [(c.relation, c.where, c.origin) for c in r.contracts] == [
        ("k == m", "node #0 'mm' (MatMul)", "inner dims"),
        ("t == 5 or t == 1", "node #1 'add' (Add)", "broadcast"),
    ]
    assert r.contracts[1].kind == "broadcast" and r.contracts[1].lhs == "t" and r.contracts[1].rhs == 5


def test_report_diagnostics():
    r = symshape.infer_report(broken_model())
    assert not r.ok and len(r.errors) == 2
    d = r.errors[0]
    assert (d.severity, d.kind, d.node, d.op_type, d.where) == ("error", "semantic", "add", "Add", "node #0 'add' (Add)")
    assert d.message == "cannot broadcast [4,3] with [5,3]: dim 4 vs 5"
    assert str(d) == "<ModelProto>: error: node #0 'add' (Add): cannot broadcast [4,3] with [5,3]: dim 4 vs 5"


def test_errors_raise_with_the_commands_messages(tmp_path, symshape_cli):
    path = tmp_path / "broken.onnx"
    onnx.save(broken_model(), str(path))
    cli = subprocess.run([symshape_cli, "infer", str(path)], capture_output=True, text=True)
    assert cli.returncode == 3
    expected = [line.removeprefix("symshape infer: ") for line in cli.stderr.splitlines() if ": error: " in line]
    with pytest.raises(symshape.ShapeInferenceError) as e:
        symshape.infer_symbolic_shapes(str(path))
    assert str(e.value).splitlines() == expected and len(expected) == 2
    assert e.value.report.errors[1].op_type == "MatMul"


def test_allow_errors_returns_the_model():
    out = symshape.infer_symbolic_shapes(broken_model(), allow_errors=True)
    assert isinstance(out, onnx.ModelProto)


def test_usage_error_raises_op_usage_error():
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
    node = helper.make_node("Transpose", ["x"], ["y"], name="t", perms=[1, 0])  # misspelt attribute
    graph = helper.make_graph([node], "g", [x], [helper.make_empty_tensor_value_info("y")])
    with pytest.raises(symshape.OpUsageError, match="node #0 't' \\(Transpose\\)"):
        symshape.infer_symbolic_shapes(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]))


def test_malformed_and_missing_models(tmp_path):
    with pytest.raises(ValueError):
        symshape.infer_report(b"\x08\x07\x12\xff\xff")
    with pytest.raises(OSError, match="cannot open"):
        symshape.infer_report(str(tmp_path / "missing.onnx"))
    with pytest.raises(TypeError):
        symshape.infer_report(42)


@pytest.mark.skipif(not os.path.isdir(os.path.join(os.path.dirname(__file__), "../../tests/exported/models")),
                    reason="needs the repository's tests/exported/models")
def test_exported_models_infer_without_errors():
    folder = os.path.join(os.path.dirname(__file__), "../../tests/exported/models")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".onnx"))
    assert len(names) >= 10
    for name in names:
        r = symshape.infer_report(os.path.join(folder, name))
        assert r.ok, (name, [d.line for d in r.errors])
        assert all(v.type != "?" for v in r.values.values() if v.node), name


def test_report_repr_is_a_summary(block):
    report = symshape.infer_report(block)
    text = repr(report)
    assert text.startswith(f"<Report: {len(report.values)} values, 0 errors, 0 warnings, ")
    assert len(text) < 120
