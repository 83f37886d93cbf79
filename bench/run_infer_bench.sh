#!/bin/bash
# Runs infer_bench (symshape vs ONNX's reference shape inference) with a short
# minimum time and prints the ratio table of docs/benchmarks.md.
#
#   bench/run_infer_bench.sh [BUILD_DIR] [MIN_TIME_SECONDS] [extra infer_bench flags...]
#
# Extra flags go to infer_bench, e.g. --benchmark_repetitions=5: the table
# then shows the median of the repetitions (less noise on a shared machine).
#
# BUILD_DIR defaults to ./build; it must have the infer_bench target built
# (make -C BUILD_DIR infer_bench, which also generates the chain models).
# Times are CPU times (the machine is shared); ratio = symshape / reference;
# "ratio without load" leaves out symshape's protobuf -> IR conversion
# (load/<model>), i.e. compares the inference engines alone. The last two
# columns are heap allocations per node (operator new calls, infer_bench's
# allocs_per_node counter).
set -euo pipefail
build=${1:-build}
min_time=${2:-0.2}
shift $(( $# > 2 ? 2 : $# )) || true
bin="$build/bin/infer_bench"
if [ ! -x "$bin" ]; then
  echo "run_infer_bench.sh: $bin not found; build it with: make -C $build infer_bench" >&2
  exit 1
fi
out=$(mktemp /tmp/infer_bench.XXXXXX.json)
trap 'rm -f "$out"' EXIT
"$bin" --benchmark_min_time="$min_time" --benchmark_out="$out" --benchmark_out_format=json "$@" >&2
/usr/bin/python3 - "$out" <<'EOF'
import json, sys

data = json.load(open(sys.argv[1]))
rows = {}
order = []
# With --benchmark_repetitions=N the table uses the median of the repetitions.
repeated = any(b.get("run_type") == "aggregate" for b in data["benchmarks"])
for b in data["benchmarks"]:
    if repeated and b.get("aggregate_name") != "median":
        continue
    tool, model = b.get("run_name", b["name"]).split("/", 1)
    if model not in rows:
        rows[model] = {}
        order.append(model)
    if b.get("error_occurred"):
        rows[model][tool] = None
        continue
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b["time_unit"]]
    rows[model][tool] = (b["cpu_time"] * scale, b.get("nodes", 0), b.get("allocs_per_node"))


def fmt_time(us):
    if us is None:
        return "error"
    return "%.1f ms" % (us / 1e3) if us >= 1000 else "%.0f us" % us


print("| model | nodes | symshape | per node | of which load | ONNX reference | per node | ratio | ratio without load "
      "| allocations per node: symshape | reference |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
ratios = []
engine_ratios = []
for model in order:
    s = rows[model].get("symshape")
    r = rows[model].get("onnx_ref")
    nodes = int((s or r or (0, 0))[1])
    cells = [model, str(nodes)]
    ld = rows[model].get("load")
    for t in (s, r):
        if t is None:
            cells += ["error", "-"]
        else:
            cells += [fmt_time(t[0]), "%.2f us" % (t[0] / max(nodes, 1))]
        if t is s:
            cells.append(fmt_time(ld[0]) if ld else "-")
    if s and r and r[0] > 0:
        ratio = s[0] / r[0]
        ratios.append(ratio)
        cells.append("%.2fx" % ratio)
        if ld:
            engine = max(s[0] - ld[0], 0.0)
            engine_ratios.append(engine / r[0])
            cells.append("%.2fx" % (engine / r[0]))
        else:
            cells.append("-")
    else:
        cells += ["-", "-"]
    for t in (s, r):
        cells.append("%.1f" % t[2] if t and t[2] is not None else "-")
    print("| " + " | ".join(cells) + " |")
def geomean(xs):
    g = 1.0
    for x in xs:
        g *= max(x, 1e-9)
    return g ** (1.0 / len(xs))


if ratios:
    print("\ngeometric mean of the ratios: %.2fx; without symshape's load: %.2fx (below 1: symshape faster)"
          % (geomean(ratios), geomean(engine_ratios) if engine_ratios else float("nan")))
EOF
