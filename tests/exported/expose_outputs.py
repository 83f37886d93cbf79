"""Copies of models with every tensor-typed node output of the main graph also a
graph output (without a type: onnxruntime reports it), as onnx tools do to
expose intermediates; for tests/exported/ort_run.js.

    expose_outputs.py CASES_IN.json WORK

CASES_IN: [{name, path, ...}]; writes WORK/NAME.all.onnx for each and
WORK/cases.json, the cases with "model" (that copy), "values" (every node
output that is a tensor, in node order) and "skipped" ({value: kind} of the
others) added.

onnxruntime-node returns tensors only ("Non tensor type is temporarily not
supported"), so a value that is a sequence, an optional or a map is neither
exposed nor listed in "values" (and a graph output of that kind is dropped
from the copy); each model's skipped values are printed. A value's kind is
its declared type when the model gives one (graph inputs, value_info, graph
and body outputs), else its producer's: SplitToSequence, SequenceEmpty,
SequenceConstruct, SequenceInsert, SequenceErase and SequenceMap make
sequences, Optional makes an optional, Identity and OptionalGetElement pass
their input's kind (its element's), a Loop's carried outputs have the kind of
the body output (or of the initial value), an If's outputs that of the branch
output; everything else is a tensor.
"""
import json
import sys

import onnx
from onnx import helper

SEQUENCE_OPS = {"SplitToSequence", "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase",
                "SequenceMap"}
KIND = {"tensor_type": "tensor", "sparse_tensor_type": "sparse tensor", "sequence_type": "sequence",
        "optional_type": "optional", "map_type": "map"}


def declared(t):
    """The kind a TypeProto declares, or None (an empty TypeProto)."""
    return KIND.get(t.WhichOneof("value")) if t is not None else None


def element_kind(t):
    """The kind of an optional's element, from its TypeProto."""
    if t is None or t.WhichOneof("value") != "optional_type":
        return None
    return declared(t.optional_type.elem_type)


def graph_kinds(g, outer):
    """{value: kind} for every value of graph g (a main graph or a body), outer: the enclosing scope's kinds."""
    kinds = dict(outer)
    types = {v.name: v.type for v in list(g.input) + list(g.value_info) + list(g.output)}
    for v in list(g.input):
        kinds[v.name] = declared(v.type) or "tensor"
    for t in g.initializer:
        kinds[t.name] = "tensor"
    optional_of = {}  # optional value -> its element's kind

    def body(n, attr):
        for a in n.attribute:
            if a.name == attr:
                return a.g
        return None

    for n in g.node:
        guess = ["tensor"] * len(n.output)
        if n.op_type in SEQUENCE_OPS:
            guess = ["sequence"] * len(n.output)
        elif n.op_type == "Optional":
            guess = ["optional"]
            optional_of[n.output[0]] = kinds.get(n.input[0], "tensor") if n.input and n.input[0] else None
        elif n.op_type == "Identity":
            guess = [kinds.get(n.input[0], "tensor")]
        elif n.op_type == "OptionalGetElement":
            src = n.input[0]
            guess = [optional_of.get(src) or element_kind(types.get(src)) or "tensor"]
        elif n.op_type == "Loop":
            b = body(n, "body")
            if b is not None:
                inner = graph_kinds(b, kinds)
                carried = len(n.input) - 2
                for i in range(min(carried, len(n.output))):
                    out = b.output[i + 1] if i + 1 < len(b.output) else None
                    init = n.input[2 + i]
                    guess[i] = ((declared(out.type) or inner.get(out.name)) if out is not None else None) or \
                        kinds.get(init, "tensor")
        elif n.op_type == "If":
            for attr in ("then_branch", "else_branch"):
                b = body(n, attr)
                if b is None:
                    continue
                inner = graph_kinds(b, kinds)
                for i, out in enumerate(b.output[:len(n.output)]):
                    k = declared(out.type) or inner.get(out.name)
                    if k and k != "tensor":
                        guess[i] = k
        for i, o in enumerate(n.output):
            if o:
                kinds[o] = declared(types.get(o)) or guess[i]
    return kinds


def main(cases_path, work):
    cases = json.load(open(cases_path))
    for c in cases:
        m = onnx.load(c["path"])
        kinds = graph_kinds(m.graph, {})
        outputs = [o for n in m.graph.node for o in n.output if o]
        skipped = {v: kinds[v] for v in outputs if kinds[v] != "tensor"}
        values = [v for v in outputs if v not in skipped]
        dropped = [o for o in m.graph.output if kinds.get(o.name, "tensor") != "tensor"]
        for o in dropped:
            m.graph.output.remove(o)
        have = {o.name for o in m.graph.output}
        m.graph.output.extend(helper.make_value_info(v, onnx.TypeProto()) for v in values if v not in have)
        c["values"], c["skipped"] = values, skipped
        c["model"] = f"{work}/{c['name']}.all.onnx"
        onnx.save(m, c["model"])
        if skipped:
            outs = {o.name for o in dropped}
            print(f"expose_outputs: {c['name']}: {len(skipped)} values are not tensors, not exposed: " +
                  ", ".join(f"{v} ({k}{', graph output dropped' if v in outs else ''})" for v, k in skipped.items()))
    json.dump(cases, open(f"{work}/cases.json", "w"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
