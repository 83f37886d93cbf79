#!/usr/bin/python3
"""Checks `symshape profile --json` on the exported corpus (tests/exported), no network.

For every model of tests/exported/models/manifest.json and each of its three bindings:
  - the JSON contract: {"bindings", "totals": {flops, params, param_bytes, activation_bytes,
    peak_activation_bytes}, "nodes": [{"name", "op_type", "flops", "outputs": [{"name", "bytes"}]}]},
    every quantity {"expr": str, "value": int present exactly when the expression evaluates at
    the bindings}, and each value equal to the expression evaluated here (Python's //, %, max, min);
  - the nodes are the model's nodes, in file order (names and op types from onnx.load);
  - every node output's bytes equal prod(dims) x element size with the dims onnxruntime gave
    (tests/exported/truth.json) and the element type from the model's own value_info-free
    inference by symshape (reported as "dtype"); an output symshape leaves unknown is counted,
    never a wrong value;
  - activation_bytes is the sum of the output bytes, when all are known, but for the outputs
    marked "parameter" (exactly the Constant nodes' float tensors of more than one element);
  - params and param_bytes equal the floating-point initializers and those Constant tensors
    the graph's nodes read, counted here from the ONNX file.

    check_profile.py SYMSHAPE [--dir tests/exported]
Exit status 1 on any mismatch.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto

SIZE = {"float": 4, "double": 8, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "int16": 2, "int8": 1,
        "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8, "bool": 1}
FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.BFLOAT16}
TOTALS = ["flops", "params", "param_bytes", "activation_bytes", "peak_activation_bytes"]


def evaluate(expr, bindings):
    """The value of a canonical expression, or None when a symbol is unbound or a dim unknown."""
    if "?" in expr:
        return None
    names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr)) - {"max", "min"}
    if not names <= set(bindings):
        return None
    return eval(expr, {"__builtins__": {}, "max": max, "min": min}, dict(bindings))  # noqa: S307 (our own output)


class Checker:
    def __init__(self):
        self.failures = []
        self.outputs_checked = 0
        self.outputs_unknown = 0

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")

    def quantity(self, where, q, bindings):
        if not isinstance(q, dict) or not isinstance(q.get("expr"), str) or not set(q) <= {"expr", "value"}:
            return self.fail(where, f"not a quantity {{expr, value}}: {q!r}")
        want = evaluate(q["expr"], bindings)
        if want is None and "value" in q:
            self.fail(where, f"value {q['value']} given for '{q['expr']}', which does not evaluate")
        elif want is not None and q.get("value") != want:
            self.fail(where, f"value {q.get('value')!r}, but '{q['expr']}' evaluates to {want}")
        elif "value" in q and (type(q["value"]) is not int):
            self.fail(where, f"value {q['value']!r} is not an integer")
        return q.get("value")


def graph_nodes(graph):
    for node in graph.node:
        yield node
        for a in node.attribute:
            for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                yield from graph_nodes(g)


def constant_parameters(model):
    """The main graph's Constant nodes whose `value` is a float tensor of more than one element:
    parameters, as Paddle2ONNX writes weights (output name -> tensor)."""
    out = {}
    for node in model.graph.node:
        if node.op_type == "Constant" and node.domain in ("", "ai.onnx"):
            for a in node.attribute:
                if a.name == "value" and a.t.data_type in FLOAT_TYPES and int(np.prod(a.t.dims, dtype=np.int64)) > 1:
                    out[node.output[0]] = a.t
    return out


def weight_outputs(model):
    """The main graph's node outputs that hold weights, not activations: the Constant
    parameters, and an Identity or Cast of a float initializer or of such an output (as
    torch writes a shared weight)."""
    weights = set(constant_parameters(model))
    float_inits = {i.name for i in model.graph.initializer if i.data_type in FLOAT_TYPES}
    for node in model.graph.node:  # in topological order: a chain's start comes first
        if node.op_type in ("Identity", "Cast") and node.domain in ("", "ai.onnx") and node.input:
            if node.input[0] in float_inits or node.input[0] in weights:
                weights.add(node.output[0])
    return weights


def params_of(model):
    """Elements and bytes of the float initializers and Constant parameters any node reads
    (subgraphs included)."""
    read = {name for node in graph_nodes(model.graph) for name in node.input}
    count = nbytes = 0
    for init in model.graph.initializer:
        if init.name in read and init.data_type in FLOAT_TYPES:
            n = int(np.prod(init.dims, dtype=np.int64)) if init.dims else 1
            count += n
            nbytes += n * onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[init.data_type].itemsize
    for name, t in constant_parameters(model).items():
        if name in read:
            n = int(np.prod(t.dims, dtype=np.int64))
            count += n
            nbytes += n * onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type].itemsize
    return count, nbytes


def check_run(c, name, model, truth, bindings, index, out):
    where = f"{name} {bindings}"
    top = set(out)
    if not {"bindings", "totals", "nodes"} <= top:
        return c.fail(where, f"top-level keys {sorted(top)}")
    if out["bindings"] != bindings:
        c.fail(where, f"bindings {out['bindings']}")
    for key in TOTALS:
        c.quantity(f"{where} totals.{key}", out["totals"].get(key), bindings)
    nodes = list(model.graph.node)
    if [(n["name"], n["op_type"]) for n in out["nodes"]] != [(n.name, n.op_type) for n in nodes]:
        return c.fail(where, "nodes differ from the model's nodes")
    total, all_known = 0, True
    for node in out["nodes"]:
        if not isinstance(node["name"], str) or not isinstance(node["op_type"], str):
            c.fail(where, f"node name/op_type not strings: {node!r}")
        c.quantity(f"{where} {node['name']}.flops", node["flops"], bindings)
        for o in node["outputs"]:
            got = c.quantity(f"{where} {o['name']}.bytes", o["bytes"], bindings)
            dims = truth["values"].get(o["name"])
            if got is None:
                all_known = False
                c.outputs_unknown += 1
                continue
            if not o.get("parameter"):  # weights (weight_outputs), not an activation
                total += got
            if dims is None or dims[index] is None:
                continue
            want = int(np.prod(dims[index], dtype=np.int64)) * SIZE[o["dtype"]]
            c.outputs_checked += 1
            if got != want:
                c.fail(where, f"output {o['name']}: {got} bytes, onnxruntime's dims {dims[index]} give {want}")
    marked = {o["name"] for node in out["nodes"] for o in node["outputs"] if o.get("parameter")}
    if marked != weight_outputs(model):
        c.fail(where, f"outputs marked as parameters {sorted(marked)}, weights {sorted(weight_outputs(model))}")
    act = out["totals"]["activation_bytes"].get("value")
    if all_known and act != total:
        c.fail(where, f"activation_bytes {act}, sum of outputs {total}")
    count, nbytes = params_of(model)
    if out["totals"]["params"].get("value") != count or out["totals"]["param_bytes"].get("value") != nbytes:
        c.fail(where, f"params {out['totals']['params']} / {out['totals']['param_bytes']}, file has {count} / {nbytes}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("symshape")
    ap.add_argument("--dir", default=os.path.join(os.path.dirname(__file__), "..", "exported"))
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.dir, "models", "manifest.json")))
    truth = json.load(open(os.path.join(args.dir, "truth.json")))
    c = Checker()
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for entry in manifest:
            name = entry["name"]
            path = os.path.join(args.dir, "models", name + ".onnx")
            model = onnx.load(path)
            for index, bindings in enumerate(entry["bindings"]):
                out_path = os.path.join(tmp, f"{name}_{index}.json")
                bind = ",".join(f"{k}={v}" for k, v in bindings.items())
                r = subprocess.run([args.symshape, "profile", path, "--bind", bind, "--json", out_path],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    c.fail(f"{name} {bindings}", f"exit {r.returncode}: {r.stderr.strip()}")
                    continue
                check_run(c, name, model, truth[name], bindings, index, json.load(open(out_path)))
                runs += 1
    print(f"check_profile: {runs} runs of {len(manifest)} models; {c.outputs_checked} output sizes equal to "
          f"onnxruntime's, {c.outputs_unknown} unknown; {len(c.failures)} mismatches")
    for f in c.failures[:50]:
        print("FAIL", f)
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
