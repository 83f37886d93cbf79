#!/usr/bin/python3
"""Generates the synthetic chain models of bench/infer_bench.cpp: long chains
of a transformer-like block over an input of shape [batch, seq, 64] with
symbolic `batch` and `seq`, deterministic, opset 13.

One block (16 nodes) keeps the [batch, seq, 64] shape and mixes the patterns
whose shapes inference has to follow:
  elementwise   Add (bias), Relu, Mul, Sub
  MatMul        [batch, seq, 64] x [64, 64], and [batch, seq, 128] x [128, 64]
  Shape/Gather  Shape -> Gather([0, 1]) -> Concat with constants -> Reshape
                (the dims come back symbolic only through data propagation)
  Reshape       to [batch, seq, 4, 16] and back to [batch, seq, 64]
  Transpose     [0, 2, 1, 3] there and back
  Concat        of two activations along the last axis
chain_const_10k is the same chain with constant Reshape targets ([0, 0, 4, 16] and
[0, 0, 64], 0 copying the input dim; the Shape/Gather/Concat nodes stay, unused):
ONNX 1.12's Reshape does not read propagated shape data, so on the other chains the
reference loses every shape after the first Reshape, while on this one both tools infer
every value.
Weights are shared initializers, so the files stay small (the 100k-node model
is about 6 MB); the chain is padded with Relu nodes to the exact node count.

Usage:
  /usr/bin/python3 bench/gen_infer_models.py --out DIR            # chain_1k, chain_10k, chain_100k, chain_const_10k
  /usr/bin/python3 bench/gen_infer_models.py --out DIR --nodes 5000 --name chain_5k
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BLOCK_NODES = 16
HIDDEN = 64
HEADS = 4


def make_chain(num_nodes, name, const_shapes=False):
    nodes = []
    mk = helper.make_node

    def add(op, inputs, outputs, **attrs):
        nodes.append(mk(op, inputs, outputs, name=outputs[0], **attrs))

    x = "x"
    i = 0
    while len(nodes) + BLOCK_NODES <= num_nodes:
        p = "b%d_" % i
        add("Add", [x, "bias"], [p + "add"])
        add("Relu", [p + "add"], [p + "relu"])
        add("MatMul", [p + "relu", "w"], [p + "mm"])
        add("Shape", [p + "mm"], [p + "shape"])
        add("Gather", [p + "shape", "idx01"], [p + "bs"], axis=0)
        add("Concat", [p + "bs", "heads_dims"], [p + "split_shape"], axis=0)
        add("Reshape", [p + "mm", "split_const" if const_shapes else p + "split_shape"], [p + "split"])
        add("Transpose", [p + "split"], [p + "t1"], perm=[0, 2, 1, 3])
        add("Transpose", [p + "t1"], [p + "t2"], perm=[0, 2, 1, 3])
        add("Concat", [p + "bs", "hidden_dim"], [p + "merge_shape"], axis=0)
        add("Reshape", [p + "t2", "merge_const" if const_shapes else p + "merge_shape"], [p + "merged"])
        add("Mul", [p + "merged", x], [p + "mul"])
        add("Concat", [p + "mul", x], [p + "cat"], axis=2)
        add("MatMul", [p + "cat", "w2"], [p + "proj"])
        add("Sub", [p + "proj", p + "add"], [p + "sub"])
        add("Relu", [p + "sub"], [p + "out"])
        x = p + "out"
        i += 1
    j = 0
    while len(nodes) < num_nodes:
        add("Relu", [x], ["pad%d" % j])
        x = "pad%d" % j
        j += 1
    nodes[-1].output[0] = "y"
    nodes[-1].name = "y"

    inits = [
        numpy_helper.from_array(np.zeros([HIDDEN], np.float32), "bias"),
        numpy_helper.from_array(np.zeros([HIDDEN, HIDDEN], np.float32), "w"),
        numpy_helper.from_array(np.zeros([2 * HIDDEN, HIDDEN], np.float32), "w2"),
        numpy_helper.from_array(np.array([0, 1], np.int64), "idx01"),
        numpy_helper.from_array(np.array([HEADS, HIDDEN // HEADS], np.int64), "heads_dims"),
        numpy_helper.from_array(np.array([HIDDEN], np.int64), "hidden_dim"),
    ]
    if const_shapes:
        inits += [
            numpy_helper.from_array(np.array([0, 0, HEADS, HIDDEN // HEADS], np.int64), "split_const"),
            numpy_helper.from_array(np.array([0, 0, HIDDEN], np.int64), "merge_const"),
        ]
    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", HIDDEN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", HIDDEN])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="gen_infer_models")
    model.ir_version = 7
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--nodes", type=int, help="one model of this many nodes (default: 1k, 10k and 100k)")
    ap.add_argument("--name", help="model name with --nodes (default chain_<nodes>)")
    ap.add_argument("--const-shapes", action="store_true", help="with --nodes: constant Reshape targets")
    ap.add_argument("--check", action="store_true", help="also run onnx.checker and the ONNX shape inference")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.nodes:
        todo = [(args.name or "chain_%d" % args.nodes, args.nodes, args.const_shapes)]
    else:
        todo = [("chain_1k", 1000, False), ("chain_10k", 10000, False), ("chain_100k", 100000, False),
                ("chain_const_10k", 10000, True)]
    for name, n, const_shapes in todo:
        model = make_chain(n, name, const_shapes)
        if args.check:
            onnx.checker.check_model(model)
            inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
            print(name, "y:", inferred.graph.output[0].type.tensor_type.shape)
        path = os.path.join(args.out, name + ".onnx")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(model.SerializeToString())
        os.replace(tmp, path)
        print("wrote %s (%d nodes, %d bytes)" % (path, len(model.graph.node), os.path.getsize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
