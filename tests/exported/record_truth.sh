#!/bin/bash
# Records the runtime truth of the exported corpus: the shape onnxruntime
# (the npm package onnxruntime-node, CPU provider, graph optimizations off)
# gives every graph output and every intermediate value of the main graph of
# each model in MODELS_DIR, at the three bindings of manifest.json.
#
#   tests/exported/record_truth.sh [MODELS_DIR] [TRUTH_JSON]
#       (defaults: tests/exported/models and tests/exported/truth.json)
#
# Each model is run from a copy in which every node output is also a graph
# output (without a type: onnxruntime reports it), as onnx tools do to expose
# intermediates. A value onnxruntime cannot expose (the session refuses it as
# an output, or the run does not return it) is left out of truth.json and
# listed here. Inputs: floats in [0.5, 1.5); int64 in [lo, hi) of the
# manifest's "gen" (bounds may be expressions of the binding), else [0, 8).
# Needs node/npm (downloads onnxruntime-node) and /usr/bin/python3 with onnx.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODELS=$(cd "${1:-$HERE/models}" && pwd)
TRUTH=${2:-$HERE/truth.json}
PYTHON=${PYTHON:-/usr/bin/python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "record_truth: installing onnxruntime-node into $WORK"
(cd "$WORK" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null 2>&1)
echo "record_truth: onnxruntime-node $(node -p "require('$WORK/node_modules/onnxruntime-node/package.json').version")"

# Copies of the models with every node output of the main graph as a graph output.
"$PYTHON" - "$MODELS" "$WORK" <<'EOF'
import json, sys
import onnx
from onnx import helper
models, work = sys.argv[1], sys.argv[2]
cases = json.load(open(f"{models}/manifest.json"))
for c in cases:
    m = onnx.load(f"{models}/{c['name']}.onnx")
    have = {o.name for o in m.graph.output}
    values = [o for n in m.graph.node for o in n.output if o]
    m.graph.output.extend(helper.make_value_info(v, onnx.TypeProto()) for v in values if v not in have)
    c["values"] = values
    c["model"] = f"{work}/{c['name']}.all.onnx"
    onnx.save(m, c["model"])
json.dump(cases, open(f"{work}/cases.json", "w"))
EOF

cat > "$WORK/run.js" <<'EOF'
const ort = require('onnxruntime-node');
const fs = require('fs');
const [cases_path, out_path] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(cases_path));
// A bound: a number or an expression of the binding's symbols ("seq+1").
const evalExpr = (e, b) =>
  (typeof e === 'number' ? e : Function(...Object.keys(b), `return (${e});`)(...Object.values(b)));
const options = {logSeverityLevel: 3, graphOptimizationLevel: 'disabled'};
(async () => {
  const truth = {};
  for (const c of cases) {
    const session = await ort.InferenceSession.create(c.model, options);
    const values = Object.fromEntries(c.values.map((v) => [v, []]));
    for (const b of c.bindings) {
      const feeds = {};
      for (const [name, dtype, dims] of c.inputs) {
        const shape = dims.map((d) => evalExpr(d, b));
        const n = shape.reduce((a, x) => a * x, 1);
        if (dtype === 1) {
          feeds[name] = new ort.Tensor('float32', Float32Array.from({length: n}, () => Math.random() + 0.5), shape);
        } else {
          const g = c.gen[name] || {lo: 0, hi: 8};
          const lo = evalExpr(g.lo, b), hi = evalExpr(g.hi, b);
          const vals = BigInt64Array.from({length: n}, () => BigInt(lo + Math.floor(Math.random() * (hi - lo))));
          feeds[name] = new ort.Tensor('int64', vals, shape);
        }
      }
      const out = await session.run(feeds);
      for (const v of c.values) {
        const t = out[v];
        if (values[v] !== null && t instanceof ort.Tensor) values[v].push(t.dims.map(Number));
        else values[v] = null;
      }
    }
    const missing = c.values.filter((v) => values[v] === null);
    for (const v of missing) delete values[v];
    if (missing.length) console.log(`record_truth: ${c.name}: not exposed by onnxruntime: ${missing.join(', ')}`);
    truth[c.name] = {bindings: c.bindings, values};
    console.log(`record_truth: ${c.name}: ${Object.keys(values).length} values at ${c.bindings.length} bindings`);
  }
  fs.writeFileSync(out_path, JSON.stringify(truth, null, 0));
})().catch((e) => { console.error(`record_truth: ${e.message || e}`); process.exit(1); });
EOF
node "$WORK/run.js" "$WORK/cases.json" "$WORK/truth.json"

# One line per value keeps the file small and its diffs readable.
"$PYTHON" - "$WORK/truth.json" "$TRUTH" <<'EOF'
import json, sys
truth = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as f:
    f.write("{\n")
    for i, (name, t) in enumerate(truth.items()):
        f.write(f' {json.dumps(name)}: {{\n  "bindings": {json.dumps(t["bindings"])},\n  "values": {{\n')
        rows = [f'   {json.dumps(v)}: {json.dumps(d)}' for v, d in t["values"].items()]
        f.write(",\n".join(rows) + "\n  }\n }" + (",\n" if i + 1 < len(truth) else "\n"))
    f.write("}\n")
print(f"record_truth: wrote {sys.argv[2]}: {len(truth)} models, {sum(len(t['values']) for t in truth.values())} values")
EOF
