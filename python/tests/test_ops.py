"""Built-in rules through the Python API, one line each (symshape.testing)."""

import pytest

import symshape
from symshape.testing import BOOL, FLOAT, INT64, const, infer, infer_with_report, ts


def test_add_broadcast():
    assert infer("Add", [ts(FLOAT, ["batch", 3]), ts(FLOAT, [3])]) == [ts(FLOAT, ["batch", 3])]


def test_add_broadcast_one():
    assert infer("Mul", [ts(FLOAT, [1, "s", 4]), ts(FLOAT, ["b", 1, 4])]) == [ts(FLOAT, ["b", "s", 4])]


def test_relu_passes_named_dims():
    assert infer("Relu", [ts(FLOAT, ["N", "C"])]) == [ts(FLOAT, ["N", "C"])]


def test_unknown_rank_keeps_dtype():
    assert infer("Relu", [ts(FLOAT)]) == [ts(FLOAT)]


def test_matmul():
    assert infer("MatMul", [ts(FLOAT, ["b", "s", 64]), ts(FLOAT, [64, 10])]) == [ts(FLOAT, ["b", "s", 10])]


def test_conv_output_is_an_expression_of_the_input():
    out = infer("Conv", [ts(FLOAT, ["N", 3, "H", "W"]), ts(FLOAT, [16, 3, 3, 3])], {"strides": [2, 2]})
    assert out == [ts(FLOAT, ["N", 16, "(H-3)//2+1", "(W-3)//2+1"])]


def test_conv_padded():
    out = infer("Conv", [ts(FLOAT, ["N", 3, "H", "W"]), ts(FLOAT, [8, 3, 3, 3])], {"pads": [1, 1, 1, 1]})
    assert out == [ts(FLOAT, ["N", 8, "H", "W"])]


def test_reshape_from_constant():
    assert infer("Reshape", [ts(FLOAT, ["b", "s", 768]), const([0, 0, 12, 64])]) == [ts(FLOAT, ["b", "s", 12, 64])]


def test_reshape_minus_one_is_an_expression():
    assert infer("Reshape", [ts(FLOAT, ["b", "s", 768]), const([0, -1])]) == [ts(FLOAT, ["b", "768*s"])]


def test_concat_adds_symbolic_dims():
    out = infer("Concat", [ts(FLOAT, ["b", "past", 64]), ts(FLOAT, ["b", "seq", 64])], {"axis": 1})
    assert out == [ts(FLOAT, ["b", "past+seq", 64])]


def test_transpose():
    assert infer("Transpose", [ts(FLOAT, ["a", "b", 3])], {"perm": [2, 0, 1]}) == [ts(FLOAT, [3, "a", "b"])]


def test_shape_op():
    assert infer("Shape", [ts(FLOAT, ["a", "b", 3])]) == [ts(INT64, [3])]


def test_equal_gives_bool():
    assert infer("Equal", [ts(INT64, ["n"]), ts(INT64, ["n"])]) == [ts(BOOL, ["n"])]


def test_split_two_outputs():
    out = infer("Split", [ts(FLOAT, ["b", 10])], {"axis": 1}, num_outputs=2, opset=13)
    assert out == [ts(FLOAT, ["b", 5]), ts(FLOAT, ["b", 5])]


def test_fresh_dims_are_numbered():
    # NonZero's count depends on the data: a fresh symbol
    assert infer("NonZero", [ts(FLOAT, [3, 4])]) == [ts(INT64, [2, "_d0"])]


def test_broadcast_error_is_a_shape_inference_error():
    with pytest.raises(symshape.ShapeInferenceError, match=r"node #0 'node' \(Add\): cannot broadcast \[4,3\] with \[5,3\]"):
        infer("Add", [ts(FLOAT, [4, 3]), ts(FLOAT, [5, 3])])


def test_wrong_input_count_is_an_op_usage_error():
    with pytest.raises(symshape.OpUsageError, match="missing required input 1"):
        infer("Add", [ts(FLOAT, [4, 3])])


def test_bad_attribute_is_an_error_with_its_report():
    with pytest.raises(symshape.ShapeInferenceError) as e:
        infer("Transpose", [ts(FLOAT, [4, 3])], {"perm": [0, 0]})
    assert e.value.report.errors[0].message == "perm is not a permutation of 0..1"
    assert not isinstance(e.value, symshape.OpUsageError)


def test_skip_policy_makes_semantic_errors_warnings():
    r = infer_with_report("Add", [ts(FLOAT, [4, 3]), ts(FLOAT, [5, 3])], policy="skip")
    assert r.ok and [d.severity for d in r.diagnostics] == ["warning"]


def test_contracts_of_a_node():
    r = infer_with_report("MatMul", [ts(FLOAT, ["b", "k"]), ts(FLOAT, ["n", 5])])
    assert [(c.relation, c.kind, c.origin) for c in r.contracts] == [("k == n", "equal", "inner dims")]
    assert r.contracts[0].lhs == "k" and r.contracts[0].rhs == "n"
