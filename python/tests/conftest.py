"""Shared fixtures: small ONNX models made with onnx.helper, and the command."""

import os
import shutil

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper


def attention_block(declared_out=None):
    """x[batch, seq, 32] -> MatMul W[32, 64] -> Add b[64] -> Reshape to
    [batch, seq, 4, 16] through Shape/Gather/Concat (data propagation) -> Transpose."""
    w = numpy_helper.from_array(np.zeros((32, 64), np.float32), "W")
    b = numpy_helper.from_array(np.zeros((64,), np.float32), "b")
    idx = numpy_helper.from_array(np.array([0, 1], np.int64), "idx")
    heads = numpy_helper.from_array(np.array([4, 16], np.int64), "heads")
    nodes = [
        helper.make_node("MatMul", ["x", "W"], ["h"], name="proj"),
        helper.make_node("Add", ["h", "b"], ["hb"], name="bias"),
        helper.make_node("Shape", ["x"], ["xs"], name="shape"),
        helper.make_node("Gather", ["xs", "idx"], ["bs"], name="gather", axis=0),
        helper.make_node("Concat", ["bs", "heads"], ["target"], name="concat", axis=0),
        helper.make_node("Reshape", ["hb", "target"], ["r"], name="reshape"),
        helper.make_node("Transpose", ["r"], ["y"], name="transpose", perm=[0, 2, 1, 3]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 32])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, declared_out)
    graph = helper.make_graph(nodes, "block", [x], [y], [w, b, idx, heads])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])


def broken_model():
    """Two errors: a broadcast that cannot hold, and a MatMul of mismatched inner dims."""
    nodes = [
        helper.make_node("Add", ["a", "b"], ["s"], name="add"),
        helper.make_node("MatMul", ["c", "d"], ["y"], name="mm"),
    ]
    inputs = [
        helper.make_tensor_value_info("a", TensorProto.FLOAT, [4, 3]),
        helper.make_tensor_value_info("b", TensorProto.FLOAT, [5, 3]),
        helper.make_tensor_value_info("c", TensorProto.FLOAT, [7, 2]),
        helper.make_tensor_value_info("d", TensorProto.FLOAT, [3, 2]),
    ]
    outputs = [helper.make_empty_tensor_value_info("s"), helper.make_empty_tensor_value_info("y")]
    graph = helper.make_graph(nodes, "broken", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])


@pytest.fixture
def block():
    return attention_block()


@pytest.fixture
def symshape_cli():
    """The symshape command of this build (ctest sets SYMSHAPE_CLI)."""
    path = os.environ.get("SYMSHAPE_CLI") or shutil.which("symshape")
    if not path:
        pytest.skip("SYMSHAPE_CLI is not set (ctest sets it to build/bin/symshape)")
    return path
