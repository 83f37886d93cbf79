"""Writes the two one-node models of the command's count tests (tests/tools/CMakeLists.txt):
one_relu.onnx, a Relu of x:[N,4], and one_relu_declared_5.onnx, the same with its output
declared [N,5] (the inferred 4 conflicts with it: one warning).

    /usr/bin/python3 tests/tools/data/make_one_relu.py
"""
import os

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, out_dims):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, out_dims)
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "one_relu", [x], [y])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(HERE, name))


write("one_relu.onnx", ["N", 4])
write("one_relu_declared_5.onnx", ["N", 5])
