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
# intermediates. Values that are not tensors (sequences, optionals, maps:
# onnxruntime-node returns tensors only) are not exposed and are listed by
# expose_outputs.py; a value onnxruntime cannot expose (the session refuses it
# as an output, or the run does not return it) is left out of truth.json and
# listed here. Inputs: floats in [0.5, 1.5); int64 in [lo, hi) of the
# manifest's "gen" (bounds may be expressions of the binding), else [0, 8).
# A model whose run fails is run again with new random inputs, up to ATTEMPTS
# times in all (default 6): data_dependent's TopK takes k in [1, 16] from the
# data and fails when k exceeds the 8 elements at batch=1, seq=1 (about 40%
# of runs; 6 attempts all fail 0.4% of the time).
# Needs node/npm (downloads onnxruntime-node) and /usr/bin/python3 with onnx.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODELS=$(cd "${1:-$HERE/models}" && pwd)
TRUTH=${2:-$HERE/truth.json}
PYTHON=${PYTHON:-/usr/bin/python3}
ATTEMPTS=${ATTEMPTS:-6}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "record_truth: installing onnxruntime-node into $WORK"
(cd "$WORK" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null 2>&1)
echo "record_truth: onnxruntime-node $(node -p "require('$WORK/node_modules/onnxruntime-node/package.json').version")"

# The cases (the manifest's), and copies of their models with every node
# output of the main graph as a graph output (expose_outputs.py).
"$PYTHON" - "$MODELS" "$WORK/cases_in.json" <<'EOF'
import json, sys
models, out = sys.argv[1], sys.argv[2]
cases = [dict(c, path=f"{models}/{c['name']}.onnx") for c in json.load(open(f"{models}/manifest.json"))]
json.dump(cases, open(out, "w"))
EOF
"$PYTHON" "$HERE/expose_outputs.py" "$WORK/cases_in.json" "$WORK"

# One model at a time (WORK/NAME.case.json -> WORK/NAME.ort.json), so that a
# run failing on its random inputs is tried again alone.
NAMES=$("$PYTHON" - "$WORK/cases.json" "$WORK" <<'EOF'
import json, sys
for c in json.load(open(sys.argv[1])):
    json.dump([c], open(f"{sys.argv[2]}/{c['name']}.case.json", "w"))
    print(c["name"])
EOF
)
for name in $NAMES; do
  for attempt in $(seq "$ATTEMPTS"); do
    if NODE_PATH=$WORK/node_modules node "$HERE/ort_run.js" "$WORK/$name.case.json" "$WORK/$name.ort.json" \
        "record_truth: $name" 2>"$WORK/ort.err"; then
      break
    fi
    echo "$(tail -n 1 "$WORK/ort.err" | cut -c 1-300) (run $attempt of $ATTEMPTS)"
    [ "$attempt" -lt "$ATTEMPTS" ] || { echo "record_truth: $name: failed $ATTEMPTS times, giving up" >&2; exit 1; }
  done
done

# A value's dims at each binding; one missing at a binding is left out.
"$PYTHON" - "$WORK/cases.json" "$WORK" "$WORK/truth.json" <<'EOF'
import json, sys
cases, work = json.load(open(sys.argv[1])), sys.argv[2]
truth = {}
for c in cases:
    runs = json.load(open(f"{work}/{c['name']}.ort.json"))[c["name"]]
    values = {v: [r[v]["dims"] for r in runs] for v in c["values"] if all(v in r for r in runs)}
    missing = [v for v in c["values"] if v not in values]
    if missing:
        print(f"record_truth: {c['name']}: not exposed by onnxruntime: {', '.join(missing)}")
    truth[c["name"]] = {"bindings": c["bindings"], "values": values}
    skipped = f" ({len(c['skipped'])} values not tensors, skipped)" if c["skipped"] else ""
    print(f"record_truth: {c['name']}: {len(values)} values at {len(c['bindings'])} bindings{skipped}")
json.dump(truth, open(sys.argv[3], "w"))
EOF

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
