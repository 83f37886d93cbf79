#!/usr/bin/python3
"""Generates the models of bench/whole_process.py (not committed; a few GB in all):

  cnn_<name>          the nine light CNNs of tests/data/onnx-light/ with every
                      ConstantOfShape weight turned into an initializer of the same
                      shape and dtype (raw_data of cheap pseudo-random bytes): the real
                      weight sizes, 5 MB (squeezenet) to 575 MB (vgg19); opset 9
  transformer_<L>     L encoder layers of the shape a TorchScript export of a BERT-base
                      block has (hidden 768, 12 heads, FFN 3072): LayerNormalization,
                      q/k/v MatMul + Add, Shape -> Gather -> Unsqueeze -> Concat ->
                      Reshape, Transpose, MatMul, Div, Add (mask), Softmax, Erf-GELU,
                      residual Adds, torch's Constant nodes; symbolic batch and seq; the
                      weights are graph inputs (no payload); opset 17
  chain_<N>           the chains of bench/gen_infer_models.py (its make_chain, reused),
                      1k, 10k, 100k and 1M nodes

Beside the models, manifest.json lists each model's kind, node count, weight bytes
(initializer payload) and file size; bench/whole_process.py reads it. Existing models
are kept (delete them or pass --force to regenerate).

Usage:
  /usr/bin/python3 bench/gen_whole_models.py --out build/bench/whole_models
  /usr/bin/python3 bench/gen_whole_models.py --out DIR --cnns squeezenet --layers 2 --chains 1000
"""

import argparse
import fnmatch
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_infer_models  # noqa: E402  (make_chain)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIGHT_DIR = os.path.join(REPO, "tests", "data", "onnx-light")
CNNS = ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50", "shufflenet", "squeezenet",
        "vgg19", "zfnet512"]
ELEM_SIZE = {TensorProto.FLOAT: 4, TensorProto.FLOAT16: 2, TensorProto.DOUBLE: 8, TensorProto.INT64: 8,
             TensorProto.INT32: 4, TensorProto.INT8: 1, TensorProto.UINT8: 1, TensorProto.BOOL: 1}
_BLOCK = np.random.RandomState(13).bytes(1 << 20)


def pseudo_random_bytes(n):
    """n bytes: a fixed 1 MiB random block repeated (built in place, no per-element work)."""
    buf = bytearray(n)
    for off in range(0, n, len(_BLOCK)):
        k = min(len(_BLOCK), n - off)
        buf[off:off + k] = _BLOCK[:k]
    return bytes(buf)


def weight_bytes(graph):
    return sum(len(t.raw_data) for t in graph.initializer)


def make_cnn(name):
    """The light CNN with its ConstantOfShape weights as real-size initializers."""
    model = onnx.load(os.path.join(LIGHT_DIR, "light_%s.onnx" % name))
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    keep_nodes, weights = [], []
    for n in g.node:
        if n.op_type != "ConstantOfShape" or n.input[0] not in inits:
            keep_nodes.append(n)
            continue
        dims = [int(d) for d in numpy_helper.to_array(inits[n.input[0]]).reshape(-1)]
        value = next((a.t for a in n.attribute if a.name == "value"), None)
        dtype = value.data_type if value is not None else TensorProto.FLOAT
        t = TensorProto(name=n.output[0], data_type=dtype, dims=dims)
        t.raw_data = pseudo_random_bytes(int(np.prod(dims, dtype=np.int64)) * ELEM_SIZE[dtype])
        weights.append(t)
    used = {i for n in keep_nodes for i in n.input}
    # The shape tensors no node reads any more go, with their graph inputs (IR 3 lists
    # every initializer as a graph input, so each new weight gets one).
    dropped = {t.name for t in g.initializer if t.name not in used and t.name.endswith("__SHAPE")}
    old_inits = [t for t in g.initializer if t.name not in dropped]
    old_inputs = [i for i in g.input if i.name not in dropped]
    del g.node[:]
    g.node.extend(keep_nodes)
    del g.initializer[:]
    g.initializer.extend(old_inits + weights)
    del g.input[:]
    g.input.extend(old_inputs)
    if model.ir_version < 4:
        g.input.extend(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in weights)
    return model


class Block:
    """Builds nodes the way torch.onnx.export (TorchScript) names and shapes them."""

    def __init__(self):
        self.nodes = []
        self.inputs = []
        self.count = 0

    def op(self, op, inputs, **attrs):
        self.count += 1
        out = "/%s_%d_output_0" % (op, self.count)
        self.nodes.append(helper.make_node(op, inputs, [out], name="/%s_%d" % (op, self.count), **attrs))
        return out

    def const(self, array):
        self.count += 1
        out = "/Constant_%d_output_0" % self.count
        self.nodes.append(helper.make_node("Constant", [], [out], name="/Constant_%d" % self.count,
                                           value=numpy_helper.from_array(np.asarray(array))))
        return out

    def weight(self, name, dims):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, dims))
        return name

    def linear(self, x, prefix, d_in, d_out):
        mm = self.op("MatMul", [x, self.weight(prefix + ".weight", [d_in, d_out])])
        return self.op("Add", [self.weight(prefix + ".bias", [d_out]), mm])

    def dims01(self, x):
        """Unsqueezed dims 0 and 1 of x (batch and seq), as torch exports x.size(0), x.size(1)."""
        out = []
        for axis in (0, 1):
            s = self.op("Shape", [x])
            d = self.op("Gather", [s, self.const(np.array(axis, np.int64))], axis=0)
            out.append(self.op("Unsqueeze", [d, self.const(np.array([0], np.int64))]))
        return out

    def heads(self, x, heads, head_dim, perm):
        b, s = self.dims01(x)
        shape = self.op("Concat", [b, s, self.const(np.array([heads], np.int64)),
                                   self.const(np.array([head_dim], np.int64))], axis=0)
        return self.op("Transpose", [self.op("Reshape", [x, shape])], perm=perm)


def encoder_layer(blk, x, mask, i, hidden=768, heads=12, ffn=3072):
    p = "layers.%d" % i
    head_dim = hidden // heads

    def norm(v, name):
        return blk.op("LayerNormalization", [v, blk.weight("%s.%s.weight" % (p, name), [hidden]),
                                             blk.weight("%s.%s.bias" % (p, name), [hidden])], axis=-1, epsilon=1e-5)

    h = norm(x, "ln1")
    q = blk.heads(blk.linear(h, p + ".q", hidden, hidden), heads, head_dim, [0, 2, 1, 3])
    k = blk.heads(blk.linear(h, p + ".k", hidden, hidden), heads, head_dim, [0, 2, 3, 1])
    v = blk.heads(blk.linear(h, p + ".v", hidden, hidden), heads, head_dim, [0, 2, 1, 3])
    scores = blk.op("Div", [blk.op("MatMul", [q, k]), blk.const(np.array(float(head_dim) ** 0.5, np.float32))])
    probs = blk.op("Softmax", [blk.op("Add", [scores, mask])], axis=-1)
    ctx = blk.op("Transpose", [blk.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    b, s = blk.dims01(ctx)
    merged = blk.op("Reshape", [ctx, blk.op("Concat", [b, s, blk.const(np.array([hidden], np.int64))], axis=0)])
    x = blk.op("Add", [x, blk.linear(merged, p + ".o", hidden, hidden)])
    f = blk.linear(norm(x, "ln2"), p + ".ff1", hidden, ffn)
    erf = blk.op("Erf", [blk.op("Div", [f, blk.const(np.array(2.0 ** 0.5, np.float32))])])
    gelu = blk.op("Mul", [blk.op("Mul", [f, blk.op("Add", [erf, blk.const(np.array(1.0, np.float32))])]),
                          blk.const(np.array(0.5, np.float32))])
    return blk.op("Add", [x, blk.linear(gelu, p + ".ff2", ffn, hidden)])


def make_transformer(layers, name):
    blk = Block()
    x = "hidden_states"
    for i in range(layers):
        x = encoder_layer(blk, x, "attention_bias", i)
    blk.nodes[-1].output[0] = "output"
    graph = helper.make_graph(
        blk.nodes, name,
        [helper.make_tensor_value_info("hidden_states", TensorProto.FLOAT, ["batch", "seq", 768]),
         helper.make_tensor_value_info("attention_bias", TensorProto.FLOAT, ["batch", 1, 1, "seq"])] + blk.inputs,
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", "seq", 768])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="gen_whole_models")
    model.ir_version = 8
    return model


def chain_name(n):
    for div, suffix in ((1000000, "m"), (1000, "k")):
        if n % div == 0:
            return "chain_%d%s" % (n // div, suffix)
    return "chain_%d" % n


def plan(args):
    todo = []
    for c in args.cnns.split(",") if args.cnns else []:
        todo.append(("cnn_" + c, "cnn", lambda c=c: make_cnn(c)))
    for layers in [int(x) for x in args.layers.split(",")] if args.layers else []:
        name = "transformer_%d" % layers
        todo.append((name, "transformer", lambda layers=layers, name=name: make_transformer(layers, name)))
    for n in [int(x) for x in args.chains.split(",")] if args.chains else []:
        name = chain_name(n)
        todo.append((name, "chain", lambda n=n, name=name: gen_infer_models.make_chain(n, name)))
    if args.only:
        pats = args.only.split(",")
        todo = [t for t in todo if any(fnmatch.fnmatch(t[0], p) for p in pats)]
    return todo


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--cnns", default=",".join(CNNS), help="light CNNs, comma-separated ('' for none)")
    ap.add_argument("--layers", default="48,100,200", help="transformer layer counts ('' for none)")
    ap.add_argument("--chains", default="1000,10000,100000,1000000", help="chain node counts ('' for none)")
    ap.add_argument("--only", help="comma-separated name patterns (fnmatch), e.g. 'cnn_*,chain_1k'")
    ap.add_argument("--force", action="store_true", help="regenerate existing models")
    ap.add_argument("--check", action="store_true", help="run onnx.checker on each model (slow on big ones)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    for name, kind, build in plan(args):
        path = os.path.join(args.out, name + ".onnx")
        if os.path.exists(path) and name in manifest and not args.force:
            print("kept %s (%d nodes, %d bytes)" % (path, manifest[name]["nodes"], os.path.getsize(path)))
            continue
        model = build()
        if args.check:
            onnx.checker.check_model(model)
        entry = {"kind": kind, "nodes": len(model.graph.node), "weight_bytes": weight_bytes(model.graph)}
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(model.SerializeToString())
        del model
        os.replace(tmp, path)
        entry["file_bytes"] = os.path.getsize(path)
        manifest[name] = entry
        with open(manifest_path, "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
        print("wrote %s (%d nodes, %.1f MB of weights, %d bytes)" % (path, entry["nodes"], entry["weight_bytes"] / 1e6,
                                                                     entry["file_bytes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
