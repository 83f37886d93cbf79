#!/usr/bin/python3
"""symshape.infer_symbolic_shapes against onnx.shape_inference.infer_shapes, on
the same models in the same run (docs/python.md, "Timing against onnx").

    PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_onnx.py [MODEL.onnx ...]

Without arguments: tests/data/onnx-light/*.onnx and tests/exported/models/*.onnx.
Both take an onnx.ModelProto and return one (symshape serializes it, infers and
parses the result back: all of it is timed). onnx runs with data_prop=True, its
mode that resolves the most. Each time is the median of --repeat runs (after one
warm-up). Every node output of the main graph is then classified the same way for
both: "static" (all dims integers), "symbolic" (all dims known, some an
expression of the inputs' symbols), "partial" (rank known, some dim unknown: no
value, or a fresh symbol that nothing determines: symshape's _dN, onnx's unk__N),
"unknown" (no shape).
Prints a Markdown table.
"""

import argparse
import glob
import os
import re
import statistics
import sys
import time

import onnx
import onnx.shape_inference

import symshape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRESH = re.compile(r"^(_d|unk__)[0-9]+$")  # fresh symbols: symshape _dN, onnx unk__N


def classify(model: onnx.ModelProto) -> dict:
    """Counts of the main graph's node outputs by how well their shape is known."""
    types = {}
    for vi in list(model.graph.value_info) + list(model.graph.output):
        types[vi.name] = vi.type
    counts = {"static": 0, "symbolic": 0, "partial": 0, "unknown": 0}
    for node in model.graph.node:
        for name in node.output:
            if not name:
                continue
            t = types.get(name)
            if t is None or t.WhichOneof("value") != "tensor_type" or not t.tensor_type.HasField("shape"):
                counts["unknown"] += 1
                continue
            dims = t.tensor_type.shape.dim
            if any(not d.HasField("dim_value") and (not d.dim_param or FRESH.match(d.dim_param)) for d in dims):
                counts["partial"] += 1
            elif all(d.HasField("dim_value") for d in dims):
                counts["static"] += 1
            else:
                counts["symbolic"] += 1
    return counts


def timed(fn, repeat: int):
    result = fn()  # warm-up, and the result the counts come from
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def run_onnx(model):
    return onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)


def run_symshape(model):
    return symshape.infer_symbolic_shapes(model, allow_errors=True)


def fmt_counts(c: dict) -> str:
    return f"{c['static']} / {c['symbolic']} / {c['partial']} / {c['unknown']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    paths = args.models or sorted(glob.glob(os.path.join(ROOT, "tests/data/onnx-light/*.onnx"))) + sorted(
        glob.glob(os.path.join(ROOT, "tests/exported/models/*.onnx"))
    )
    print(f"onnx {onnx.__version__}, symshape {symshape.__version__}, median of {args.repeat} runs; "
          "values: static / symbolic / partial / unknown node outputs\n")
    print("| model | nodes | onnx ms | symshape ms | speed-up | onnx values | symshape values |")
    print("|---|---:|---:|---:|---:|---|---|")
    total_onnx = total_sym = 0.0
    for path in paths:
        model = onnx.load(path)
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            onnx_out, onnx_s = timed(lambda: run_onnx(model), args.repeat)
            onnx_counts = fmt_counts(classify(onnx_out))
        except Exception as e:  # onnx refuses some models (e.g. com.microsoft operators)
            onnx_s, onnx_counts = None, f"error: {type(e).__name__}"
        sym_out, sym_s = timed(lambda: run_symshape(model), args.repeat)
        sym_counts = fmt_counts(classify(sym_out))
        if onnx_s is not None:
            total_onnx += onnx_s
            total_sym += sym_s
        speed = f"{onnx_s / sym_s:.1f}x" if onnx_s else "-"
        onnx_ms = f"{onnx_s * 1e3:.2f}" if onnx_s is not None else "-"
        print(f"| {name} | {len(model.graph.node)} | {onnx_ms} | {sym_s * 1e3:.2f} | {speed} | {onnx_counts} | {sym_counts} |")
    if total_sym:
        print(f"\ntotal over the models both infer: onnx {total_onnx * 1e3:.1f} ms, symshape {total_sym * 1e3:.1f} ms "
              f"({total_onnx / total_sym:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
