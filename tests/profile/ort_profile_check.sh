#!/bin/bash
# Checks `symshape profile` against onnxruntime (the npm package onnxruntime-node,
# CPU provider, graph optimizations off). Not run in CI: it downloads
# onnxruntime-node.
#
#   tests/profile/ort_profile_check.sh [BUILD_DIR]   (default: build; needs BUILD_DIR/bin/symshape)
#
# Models: the exported corpus (tests/exported/models, at the 2nd and 3rd bindings
# of its manifest) and examples/models/gpt2_like.onnx (2 bindings). Each model is
# run from a copy in which every node output is also a graph output, with
# random inputs (floats in [0.5, 1.5), integers in the manifest's range).
#   - memory, exact: every node output's bytes in `symshape profile --json`
#     equal the byte length of the tensor onnxruntime returns, and
#     activation_bytes equals their sum (without the outputs marked as
#     parameters: the weights of Constant nodes); a data-dependent size (NonZero,
#     Unique, TopK with a k from the data: a fresh symbol _dN) has no value
#     and is counted apart, as is the total then;
#   - FLOPs, exact: for the GPT-2- and BERT-like models the FLOPs of the MatMul
#     and Gemm nodes equal the closed form written below from each model's
#     architecture (tests/exported/make_models.py, examples/models/make_gpt2_like.py):
#     2 x (weights of the linear layers) x tokens + 2 x 2 x batch x seq x T x d
#     per layer (scores and context), T the keys seen (past + seq), and for a
#     Gemm with C its M x N additions (docs/profile.md); the total is printed
#     beside it.
# Exit status 1 on any difference.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
SYMSHAPE=$BUILD/bin/symshape
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$SYMSHAPE" ] || { echo "ort_profile_check: $SYMSHAPE not built" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "ort_profile_check: installing onnxruntime-node into $WORK"
(cd "$WORK" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null 2>&1)
echo "ort_profile_check: onnxruntime-node $(node -p "require('$WORK/node_modules/onnxruntime-node/package.json').version")"

# The cases, and copies of their models with every node output as a graph
# output (tests/exported/expose_outputs.py).
"$PYTHON" - "$ROOT" "$WORK/cases_in.json" <<'EOF'
import json, sys
root, out = sys.argv[1], sys.argv[2]
cases = []
for c in json.load(open(f"{root}/tests/exported/models/manifest.json")):
    cases.append(dict(c, path=f"{root}/tests/exported/models/{c['name']}.onnx", bindings=c["bindings"][1:]))
pasts = [[f"past_{kv}_{i}", 1, ["batch", 4, "past", 16]] for i in range(2) for kv in ("key", "value")]
cases.append({"name": "gpt2_like", "path": f"{root}/examples/models/gpt2_like.onnx",
              "inputs": [["input_ids", 7, ["batch", "seq"]]] + pasts, "gen": {"input_ids": {"lo": 0, "hi": 512}},
              "bindings": [{"batch": 2, "seq": 5, "past": 3}, {"batch": 1, "seq": 9, "past": 0}]})
json.dump(cases, open(out, "w"))
EOF
"$PYTHON" "$ROOT/tests/exported/expose_outputs.py" "$WORK/cases_in.json" "$WORK"

# Every value's dims and byte length at each binding (tests/exported/ort_run.js).
NODE_PATH=$WORK/node_modules node "$ROOT/tests/exported/ort_run.js" "$WORK/cases.json" "$WORK/ort.json" ort_profile_check

"$PYTHON" - "$SYMSHAPE" "$WORK" <<'EOF'
import json, subprocess, sys
symshape, work = sys.argv[1], sys.argv[2]
cases = json.load(open(f"{work}/cases.json"))
ort = json.load(open(f"{work}/ort.json"))


def linear(d, ff, layers, head):
    """Weights of the linear layers: per layer qkv (d x 3d), out (d x d), MLP (d x ff, ff x d); the head."""
    return layers * (d * 3 * d + d * d + 2 * d * ff) + head


# Closed forms of the MatMul/Gemm FLOPs, from the architectures (not from symshape).
def closed_form(name, b):
    batch, seq = b.get("batch"), b.get("seq")
    if name == "gpt2_kv_cache":  # D 32, 1 layer, MLP 4D, LM head tied to the 100-token embedding
        t = b["past"] + seq
        return 2 * linear(32, 128, 1, 32 * 100) * batch * seq + 1 * 4 * batch * seq * t * 32
    if name == "gpt2_like":  # D 64, 2 layers, MLP 4D, untied LM head to 512 tokens
        t = b["past"] + seq
        return 2 * linear(64, 256, 2, 64 * 512) * batch * seq + 2 * 4 * batch * seq * t * 64
    if name.startswith("bert_encoder"):  # D 32, 2 layers, FF 2D; the pooler (a Gemm with C) reads token 0 only
        return 2 * linear(32, 64, 2, 0) * batch * seq + 2 * 4 * batch * seq * seq * 32 + (2 * 32 * 32 + 32) * batch
    return None


failures, outputs, open_outputs, flop_checks = [], 0, 0, 0
for c in cases:
    for b, actual in zip(c["bindings"], ort[c["name"]]):
        where = f"{c['name']} {b}"
        bind = ",".join(f"{k}={v}" for k, v in b.items())
        r = subprocess.run([symshape, "profile", c["path"], "--bind", bind, "--json", "-"], capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"{where}: symshape exit {r.returncode}: {r.stderr.strip()[:200]}")
            continue
        p = json.loads(r.stdout)
        total, all_known = 0, True
        for node in p["nodes"]:
            for o in node["outputs"]:
                got = o["bytes"].get("value")
                want = actual.get(o["name"], {}).get("bytes")
                if want is None:
                    failures.append(f"{where}: onnxruntime returned no tensor for {o['name']}")
                    continue
                if not o.get("parameter"):  # a Constant's weights: a parameter, not an activation
                    total += want
                if got is None:  # a data-dependent size (a fresh symbol such as _d0): no value, never a wrong one
                    open_outputs += 1
                    all_known = False
                    continue
                outputs += 1
                if got != want:
                    failures.append(f"{where}: {o['name']}: symshape {got} ({o['bytes']['expr']}), onnxruntime {want}")
        act = p["totals"]["activation_bytes"].get("value")
        if all_known and act != total:
            failures.append(f"{where}: activation_bytes {act}, onnxruntime's outputs sum to {total}")
        want = closed_form(c["name"], b)
        if want is not None:
            got = sum(n["flops"].get("value", 0) for n in p["nodes"] if n["op_type"] in ("MatMul", "Gemm"))
            flops = p["totals"]["flops"].get("value")
            flop_checks += 1
            print(f"ort_profile_check: {where}: MatMul/Gemm FLOPs {got}, closed form {want}; total {flops} "
                  f"({flops / want:.3f} x the closed form)")
            if got != want:
                failures.append(f"{where}: MatMul/Gemm FLOPs {got}, closed form {want}")
print(f"ort_profile_check: {sum(len(c['bindings']) for c in cases)} runs of {len(cases)} models; {outputs} output "
      f"sizes compared with onnxruntime's tensors, {open_outputs} data-dependent (no value), {flop_checks} FLOP "
      f"closed forms; {len(failures)} differences")
for f in failures[:40]:
    print("DIFF", f)
sys.exit(1 if failures else 0)
EOF
