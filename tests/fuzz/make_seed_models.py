#!/usr/bin/python3
"""Generates the hand-made seed models of the model fuzzer (tests/fuzz/corpus_models/):

    /usr/bin/python3 tests/fuzz/make_seed_models.py [OUTDIR]

Small valid models (ONNX's checker accepts each) that reach parts of the engine
the example models do not: If, Loop and Scan bodies reading outer values, a
run-time Shape -> Gather -> Concat -> Reshape chain with Slice and Expand, a
model-local function, symbolic dims given as expressions, sequences, and
com.microsoft operators. The fuzzer mutates them (dims, attributes, inputs,
op types, initializers, opsets). Deterministic: regenerate after editing.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

N = helper.make_node
F = TensorProto.FLOAT
I64 = TensorProto.INT64


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def tensor(name, elem, dims):
    return helper.make_tensor_value_info(name, elem, dims)


def out(name, elem, rank):
    """A graph output with only its rank (ONNX's checker wants a shape; symshape fills in the dims)."""
    return helper.make_tensor_value_info(name, elem, [None] * rank)


def save(graph, path, opset=17, functions=None, extra_opsets=()):
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="symshape-fuzz-seeds",
                              functions=functions or [])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    print("wrote", path, os.path.getsize(path), "bytes")


def if_model(path):
    then_g = helper.make_graph([N("Add", ["x", "one"], ["t"])], "then", [], [out("t", F, 2)])
    else_g = helper.make_graph([N("Concat", ["x", "x"], ["e"], axis=0)], "else", [], [out("e", F, 2)])
    g = helper.make_graph(
        [N("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g), N("Shape", ["y"], ["s"])], "if_model",
        [tensor("cond", TensorProto.BOOL, []), tensor("x", F, ["N", 4])], [out("y", F, 2), out("s", I64, 1)],
        [numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one")])
    save(g, path)


def loop_model(path):
    body = helper.make_graph(
        [N("Identity", ["cond_in"], ["cond_out"]), N("Add", ["state", "bias"], ["state_out"]),
         N("Unsqueeze", ["state_out", "axes0"], ["scan_out"])], "body",
        [tensor("i", I64, []), tensor("cond_in", TensorProto.BOOL, []), tensor("state", F, ["N", 3])],
        [tensor("cond_out", TensorProto.BOOL, []), tensor("state_out", F, ["N", 3]), out("scan_out", F, 3)])
    g = helper.make_graph([N("Loop", ["M", "cond", "x"], ["final", "stacked"], body=body)], "loop_model",
                          [tensor("M", I64, []), tensor("cond", TensorProto.BOOL, []), tensor("x", F, ["N", 3])],
                          [out("final", F, 2), out("stacked", F, 4)],
                          [numpy_helper.from_array(np.ones(3, dtype=np.float32), "bias"), ints("axes0", [0])])
    save(g, path)


def scan_model(path):
    body = helper.make_graph([N("Add", ["acc", "row"], ["acc_out"]), N("Relu", ["acc_out"], ["y_row"])], "body",
                             [tensor("acc", F, ["D"]), tensor("row", F, ["D"])],
                             [tensor("acc_out", F, ["D"]), tensor("y_row", F, ["D"])])
    g = helper.make_graph([N("Scan", ["init", "xs"], ["acc_final", "ys"], body=body, num_scan_inputs=1)], "scan_model",
                          [tensor("init", F, ["D"]), tensor("xs", F, ["T", "D"])],
                          [out("acc_final", F, 1), out("ys", F, 2)])
    save(g, path)


def reshape_chain(path):
    nodes = [
        N("Shape", ["x"], ["shape"]),
        N("Gather", ["shape", "zero"], ["b"], axis=0),
        N("Slice", ["shape", "one_1d", "three_1d"], ["rest"]),
        N("ReduceProd", ["rest"], ["flat"], keepdims=1),
        N("Unsqueeze", ["b", "axes0"], ["b_1d"]),
        N("Concat", ["b_1d", "flat"], ["new_shape"], axis=0),
        N("Reshape", ["x", "new_shape"], ["y"]),
        N("Concat", ["y", "y"], ["yy"], axis=1),
        N("Expand", ["yy", "expand_shape"], ["z"]),
        N("Transpose", ["z"], ["zt"], perm=[1, 0]),
        N("Flatten", ["zt"], ["out"], axis=1),
    ]
    g = helper.make_graph(nodes, "reshape_chain", [tensor("x", F, ["B", "(H-1)//2+1", "W"])], [out("out", F, 2)],
                          [ints("zero", 0), ints("one_1d", [1]), ints("three_1d", [3]), ints("axes0", [0]),
                           ints("expand_shape", [1, 1])])
    save(g, path)


def function_model(path):
    fn = helper.make_function("local", "AddRelu", ["a", "b"], ["c"],
                              [N("Add", ["a", "b"], ["s"]), N("Relu", ["s"], ["c"])],
                              [helper.make_opsetid("", 17)])
    g = helper.make_graph([N("AddRelu", ["x", "y"], ["z"], domain="local"), N("MatMul", ["z", "w"], ["out"])],
                          "function_model", [tensor("x", F, ["N", 8]), tensor("y", F, [1, 8])],
                          [out("out", F, 2)],
                          [numpy_helper.from_array(np.zeros((8, 2), dtype=np.float32), "w")])
    save(g, path, functions=[fn], extra_opsets=[("local", 1)])


def conv_pool(path):
    nodes = [
        N("Conv", ["x", "w"], ["c"], strides=[2, 1], pads=[1, 0, 1, 0], dilations=[1, 2], group=1),
        N("MaxPool", ["c"], ["p"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
        N("Resize", ["p", "", "scales"], ["r"], mode="nearest"),
        N("Pad", ["r", "pads"], ["out"]),
    ]
    g = helper.make_graph(nodes, "conv_pool", [tensor("x", F, ["N", 2, "H", "W+1"])], [out("out", F, 4)],
                          [numpy_helper.from_array(np.zeros((4, 2, 3, 3), dtype=np.float32), "w"),
                           numpy_helper.from_array(np.array([1, 1, 2, 2.5], dtype=np.float32), "scales"),
                           ints("pads", [0, 0, 1, 1, 0, 0, 2, 2])])
    save(g, path)


def data_propagation(path):
    nodes = [
        N("Shape", ["x"], ["s"]),
        N("Cast", ["s"], ["sf"], to=F),
        N("Div", ["sf", "two"], ["half"]),
        N("Floor", ["half"], ["fl"]),
        N("Cast", ["fl"], ["si"], to=I64),
        N("Range", ["zero", "n", "one"], ["r"]),
        N("Where", ["cond", "si", "s"], ["w"]),
        N("ConstantOfShape", ["w"], ["c"]),
        N("TopK", ["x", "k"], ["vals", "idx"], axis=-1),
        N("NonZero", ["vals"], ["nz"]),
    ]
    g = helper.make_graph(nodes, "data_propagation",
                          [tensor("x", F, ["N", "M"]), tensor("n", I64, []), tensor("cond", TensorProto.BOOL, [2])],
                          [out("r", I64, 1), out("c", F, 2), out("idx", I64, 2), out("nz", I64, 2)],
                          [numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two"), ints("zero", 0), ints("one", 1),
                           ints("k", [2])])
    save(g, path)


def sequences(path):
    nodes = [
        N("SequenceConstruct", ["a", "b"], ["seq"]),
        N("ConcatFromSequence", ["seq"], ["cat"], axis=0),
        N("SplitToSequence", ["cat", "split"], ["parts"], axis=0),
        N("SequenceAt", ["parts", "zero"], ["first"]),
        N("SequenceLength", ["parts"], ["len"]),
    ]
    g = helper.make_graph(nodes, "sequences", [tensor("a", F, ["N", 4]), tensor("b", F, ["M", 4])],
                          [out("first", F, 2), out("len", I64, 0)], [ints("split", [1, 2]), ints("zero", 0)])
    save(g, path)


def microsoft(path):
    nodes = [
        N("FusedMatMul", ["x", "w"], ["m"], domain="com.microsoft", transB=1, alpha=1.0),
        N("SkipLayerNormalization", ["m", "skip", "gamma"], ["ln"], domain="com.microsoft", epsilon=1e-5),
        N("Gelu", ["ln"], ["out"], domain="com.microsoft"),
    ]
    g = helper.make_graph(nodes, "microsoft", [tensor("x", F, ["B", "S", 8]), tensor("skip", F, ["B", "S", 4])],
                          [out("out", F, 3)],
                          [numpy_helper.from_array(np.zeros((4, 8), dtype=np.float32), "w"),
                           numpy_helper.from_array(np.ones(4, dtype=np.float32), "gamma")])
    save(g, path, extra_opsets=[("com.microsoft", 1)])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus_models")
    os.makedirs(out, exist_ok=True)
    for make in (if_model, loop_model, scan_model, reshape_chain, function_model, conv_pool, data_propagation,
                 sequences, microsoft):
        make(os.path.join(out, "seed_" + make.__name__ + ".onnx"))


if __name__ == "__main__":
    main()
