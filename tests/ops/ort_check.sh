#!/bin/bash
# Compares symshape's symbolic output shapes of a few newer-opset operators
# with the shapes onnxruntime actually produces, at two bindings of the
# symbolic input dims. Not run in CI (it downloads onnxruntime-node).
#
#   tests/ops/ort_check.sh [BUILD_DIR]      (default: build; needs build/bin/symshape)
#
# Steps: python3 (onnx) writes small models whose inputs have symbolic dims;
# `symshape infer -o` annotates them; each output dim expression is evaluated
# at the binding and compared with the shape of onnxruntime's result for
# random inputs of that binding.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
SYMSHAPE=$BUILD/bin/symshape
[ -x "$SYMSHAPE" ] || { echo "ort_check: $SYMSHAPE not built" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "ort_check: installing onnxruntime-node into $WORK"
(cd "$WORK" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null 2>&1)

cat > "$WORK/make_models.py" <<'EOF'
import json, sys
import onnx
from onnx import helper, TensorProto as T
work = sys.argv[1]
F = T.FLOAT

def vi(name, dtype, dims):
    return helper.make_tensor_value_info(name, dtype, dims)

def model(name, opset, node, inputs, outputs, inits=()):
    g = helper.make_graph([node], name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    path = f"{work}/{name}.onnx"
    onnx.save(m, path)
    return path

cases = []
def case(name, opset, node, inputs, outputs, bindings, inits=(), out_dtype=F):
    """inputs: [(name, dtype, dims)] with str dims symbolic; bindings: two dicts."""
    path = model(name, opset, node, [vi(*i) for i in inputs], [vi(o, out_dtype, None) for o in outputs], inits)
    cases.append({"name": name, "model": path, "inputs": [[i[0], i[1], i[2]] for i in inputs],
                  "outputs": outputs, "bindings": bindings})

ints = lambda name, v: helper.make_tensor(name, T.INT64, [len(v)], v)
scalar = lambda name, v: helper.make_tensor(name, T.INT64, [], [v])

case("attention_4d_past", 23,
     helper.make_node("Attention", ["Q", "K", "V", "", "pk", "pv"], ["Y", "present_key", "present_value"]),
     [("Q", F, ["B", 8, "S", 16]), ("K", F, ["B", 2, "S", 16]), ("V", F, ["B", 2, "S", 12]),
      ("pk", F, ["B", 2, "P", 16]), ("pv", F, ["B", 2, "P", 12])],
     ["Y", "present_key", "present_value"], [{"B": 1, "S": 3, "P": 5}, {"B": 2, "S": 1, "P": 9}])
case("attention_3d", 23,
     helper.make_node("Attention", ["Q", "K", "V"], ["Y"], q_num_heads=4, kv_num_heads=2),
     [("Q", F, ["B", "S", 32]), ("K", F, ["B", "T", 16]), ("V", F, ["B", "T", 24])],
     ["Y"], [{"B": 1, "S": 3, "T": 5}, {"B": 2, "S": 4, "T": 2}])
case("rms_norm", 23, helper.make_node("RMSNormalization", ["X", "scale"], ["Y"]),
     [("X", F, ["B", "S", 8]), ("scale", F, [8])], ["Y"], [{"B": 1, "S": 3}, {"B": 2, "S": 5}])
case("dft_onesided", 20, helper.make_node("DFT", ["X", "", "axis"], ["Y"], onesided=1),
     [("X", F, ["B", "N", 1])], ["Y"], [{"B": 1, "N": 8}, {"B": 3, "N": 11}], [scalar("axis", 1)])
case("dft_length", 20, helper.make_node("DFT", ["X", "len"], ["Y"]),
     [("X", F, ["B", "N", 2])], ["Y"], [{"B": 1, "N": 8}, {"B": 2, "N": 5}], [scalar("len", 6)])
case("center_crop_pad", 18, helper.make_node("CenterCropPad", ["X", "shape"], ["Y"], axes=[1, 2]),
     [("X", F, ["N", "H", "W"])], ["Y"], [{"N": 1, "H": 20, "W": 8}, {"N": 2, "H": 4, "W": 30}], [ints("shape", [10, 9])])
case("affine_grid", 20, helper.make_node("AffineGrid", ["theta", "size"], ["grid"]),
     [("theta", F, [2, 2, 3])], ["grid"], [{}, {}], [ints("size", [2, 3, 5, 7])])
case("grid_sample", 20, helper.make_node("GridSample", ["X", "grid"], ["Y"]),
     [("X", F, ["N", 3, "H", "W"]), ("grid", F, ["N", "h", "w", 2])], ["Y"],
     [{"N": 1, "H": 4, "W": 4, "h": 2, "w": 3}, {"N": 2, "H": 5, "W": 6, "h": 7, "w": 1}])
case("quantize_blocked", 21,
     helper.make_node("QuantizeLinear", ["X", "scale"], ["Y"], axis=1, block_size=2, output_dtype=T.INT8),
     [("X", F, ["N", 6]), ("scale", F, ["N", 3])], ["Y"], [{"N": 1}, {"N": 4}], out_dtype=T.INT8)
json.dump(cases, open(f"{work}/cases.json", "w"))
EOF

cat > "$WORK/run_ort.js" <<'EOF'
const ort = require('onnxruntime-node');
const fs = require('fs');
const [cases_path, out_path] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(cases_path));
const evalDim = (d, b) => (typeof d === 'number' ? d : b[d]);
(async () => {
  const results = {};
  for (const c of cases) {
    results[c.name] = [];
    for (const b of c.bindings) {
      try {
        const s = await ort.InferenceSession.create(c.model);
        const feeds = {};
        for (const [name, dtype, dims] of c.inputs) {
          const shape = dims.map((d) => evalDim(d, b));
          const n = shape.reduce((a, x) => a * x, 1);
          feeds[name] = new ort.Tensor('float32', Float32Array.from({length: n}, () => Math.random() + 0.5), shape);
        }
        const out = await s.run(feeds);
        results[c.name].push(Object.fromEntries(c.outputs.map((o) => [o, out[o].dims.map(Number)])));
      } catch (e) {
        results[c.name].push({error: String(e.message || e).split('\n')[0]});
      }
    }
  }
  fs.writeFileSync(out_path, JSON.stringify(results));
})();
EOF

cat > "$WORK/compare.py" <<'EOF'
import json, re, subprocess, sys
import onnx
symshape, work = sys.argv[1], sys.argv[2]
cases = json.load(open(f"{work}/cases.json"))
ort = json.load(open(f"{work}/ort.json"))
env = {"Max": max, "Min": min, "max": max, "min": min}
def ceil_to_int(a, b): return -((-a) // b)
env["CeilToInt"] = ceil_to_int
bad = 0
for c in cases:
    out = f"{work}/{c['name']}.inferred.onnx"
    subprocess.run([symshape, "infer", c["model"], "-o", out], check=True, stdout=subprocess.DEVNULL)
    m = onnx.load(out)
    types = {v.name: v.type for v in list(m.graph.output) + list(m.graph.value_info)}
    for b, actual in zip(c["bindings"], ort[c["name"]]):
        if "error" in actual:
            print(f"SKIP {c['name']} {b}: onnxruntime: {actual['error']}")
            continue
        for o in c["outputs"]:
            dims = types[o].tensor_type.shape.dim
            got = []
            for d in dims:
                if d.HasField("dim_value"): got.append(d.dim_value)
                elif re.fullmatch(r"_d\d+", d.dim_param): got.append(None)
                else: got.append(eval(d.dim_param, dict(env), dict(b)))
            exp = actual[o]
            ok = len(got) == len(exp) and all(g is None or g == e for g, e in zip(got, exp))
            bad += not ok
            sym = [d.dim_param or d.dim_value for d in dims]
            print(f"{'OK  ' if ok else 'FAIL'} {c['name']}.{o} at {b}: symshape {sym} -> {got}, onnxruntime {exp}")
sys.exit(1 if bad else 0)
EOF

"${PYTHON:-/usr/bin/python3}" "$WORK/make_models.py" "$WORK"
node "$WORK/run_ort.js" "$WORK/cases.json" "$WORK/ort.json"
"${PYTHON:-/usr/bin/python3}" "$WORK/compare.py" "$SYMSHAPE" "$WORK"
