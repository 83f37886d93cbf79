"""Small models for tests/onnx/cli_test.sh, written into the folder given.

- ext/model.onnx + ext/weights.bin: two initializers stored as external data
  (one file, size_threshold=0), for the relocation of data locations.
- ext/no_location.onnx: an initializer marked EXTERNAL without a location.
- upstream_error.onnx: a MatMul with mismatched dims feeding Reshape ->
  Identity -> output y declared float[?,?]. Under --policy override the
  Reshape output keeps an undefined element type, so the writer keeps the
  declared float[?,?]: the summary must print that, not undefined[_d0,10].
- anonymous.onnx: an input float[?,3] (a merely unknown dim) -> Relu -> y
  declared float[?,?], inferred [_d0,3] (a fresh symbol).
- contracts.onnx: a mask [batch,total] added to scores [batch,past+seq], then
  a MatMul by w [K,4]; the output is declared [1,4]. Three contracts: the
  broadcast, the inner dims, the declared 1.

Needs python3-onnx (run with /usr/bin/python3).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]


def model(graph):
    m = helper.make_model(graph, opset_imports=OPSET, producer_name="symshape-tests")
    onnx.checker.check_model(m)
    return m


def external(out):
    os.makedirs(os.path.join(out, "ext"), exist_ok=True)
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(4, 3), "w")
    b = numpy_helper.from_array(np.array([1.5, -2.0, 3.25], dtype=np.float32), "b")
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
         helper.make_node("Add", ["h", "b"], ["y"], name="add")],
        "ext", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])], [w, b])
    m = model(g)
    onnx.save(m, os.path.join(out, "ext", "model.onnx"), save_as_external_data=True,
              all_tensors_to_one_file=True, location="weights.bin", size_threshold=0)
    # The same graph with an EXTERNAL tensor that has no location.
    m2 = onnx.load(os.path.join(out, "ext", "model.onnx"), load_external_data=False)
    for t in m2.graph.initializer:
        del t.external_data[:]
        t.external_data.add(key="offset", value="0")
    with open(os.path.join(out, "ext", "no_location.onnx"), "wb") as f:
        f.write(m2.SerializeToString())


def upstream_error(out):
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
         helper.make_node("Reshape", ["h", "s"], ["r"], name="rs"),
         helper.make_node("Identity", ["r"], ["y"], name="id")],
        "upstream_error", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None])],
        [numpy_helper.from_array(np.zeros((64, 16), np.float32), "w"),
         numpy_helper.from_array(np.array([-1, 10], np.int64), "s")])
    onnx.save(model(g), os.path.join(out, "upstream_error.onnx"))


def anonymous(out):
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")], "anonymous",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None])])
    onnx.save(model(g), os.path.join(out, "anonymous.onnx"))


def contracts(out):
    g = helper.make_graph(
        [helper.make_node("Add", ["m", "s"], ["a"], name="add_mask"),
         helper.make_node("MatMul", ["a", "w"], ["y"], name="mm")], "contracts",
        [helper.make_tensor_value_info("m", TensorProto.FLOAT, ["batch", "total"]),
         helper.make_tensor_value_info("s", TensorProto.FLOAT, ["batch", "past+seq"]),
         helper.make_tensor_value_info("w", TensorProto.FLOAT, ["K", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    onnx.save(model(g), os.path.join(out, "contracts.onnx"))


def partly_known(out):
    # r: a Reshape to a shape of unknown length has no rank (y gets its rank
    # from the declared output); q is a sequence; z keeps x's shape.
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "s"], ["r"], name="rs"),
         helper.make_node("Relu", ["r"], ["y"], name="relu"),
         helper.make_node("SequenceConstruct", ["x"], ["q"], name="seq"),
         helper.make_node("Identity", ["x"], ["z"], name="id")], "partly_known",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3]),
         helper.make_tensor_value_info("s", TensorProto.INT64, [None])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None]),
         helper.make_tensor_sequence_value_info("q", TensorProto.FLOAT, ["N", 3]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [None, None])])
    onnx.save(model(g), os.path.join(out, "partly_known.onnx"))


def odd_names(out):
    # Names a protobuf string may hold (a NUL byte, UTF-8); the type of
    # the second input is longer than a line's room for it.
    long_dim = "+".join("sym%d" % i for i in range(30))
    g = helper.make_graph(
        [helper.make_node("Relu", ["a\x00b"], ["y\x00z"], name="relu")], "odd_names",
        [helper.make_tensor_value_info("a\x00b", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("gr\u00f6\u00dfe", TensorProto.FLOAT, [long_dim, 2])],
        [helper.make_tensor_value_info("y\x00z", TensorProto.FLOAT, ["batch", 3])])
    onnx.save(model(g), os.path.join(out, "odd_names.onnx"))


if __name__ == "__main__":
    out = sys.argv[1]
    external(out)
    upstream_error(out)
    anonymous(out)
    contracts(out)
    partly_known(out)
    odd_names(out)
