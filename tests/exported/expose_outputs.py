"""Copies of models with every node output of the main graph also a graph
output (without a type: onnxruntime reports it), as onnx tools do to expose
intermediates; for tests/exported/ort_run.js.

    expose_outputs.py CASES_IN.json WORK

CASES_IN: [{name, path, ...}]; writes WORK/NAME.all.onnx for each and
WORK/cases.json, the cases with "model" (that copy) and "values" (every node
output, in node order) added.
"""
import json
import sys

import onnx
from onnx import helper


def main(cases_path, work):
    cases = json.load(open(cases_path))
    for c in cases:
        m = onnx.load(c["path"])
        have = {o.name for o in m.graph.output}
        values = [o for n in m.graph.node for o in n.output if o]
        m.graph.output.extend(helper.make_value_info(v, onnx.TypeProto()) for v in values if v not in have)
        c["values"] = values
        c["model"] = f"{work}/{c['name']}.all.onnx"
        onnx.save(m, c["model"])
    json.dump(cases, open(f"{work}/cases.json", "w"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
