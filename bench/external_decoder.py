#!/usr/bin/python3
"""A LLaMA-style decoder with a KV cache whose weights are all external data (issue 33's
benchmark item): generates it, measures `symshape infer` against ONNX's reference and
onnxruntime's symbolic_shape_infer.py on the same file, counts the values each tool
resolves, and checks that symshape never opens the data file.

The model (torch.onnx.export, Debian's torch 1.13, opset 17, dynamic axes batch, seq,
past): inputs input_ids [batch, seq] and per layer past_key_i / past_value_i
[batch, kv_heads, past, head_dim]; outputs logits [batch, seq, vocab] and per layer
present_key_i / present_value_i. Each layer: RMSNorm, q/k/v projections (GQA: 4 query
heads on 2 KV heads, head_dim 16, hidden 64), rotary cos/sin computed on the fly from
arange(past, past+seq) outer inv_freq, present = cat(past, new), repeat_kv, scores plus a
causal mask [seq, past+seq] built once from arange, softmax, output projection, RMSNorm,
SwiGLU MLP. It is then saved again with every initializer in one external file
(save_as_external_data, all_tensors_to_one_file, size_threshold=0).

Modes:
  (none)
      writes --out/decoder_L.onnx and decoder_L.data (L = --layers).
  --measure --symshape PATH [--ort-tool PATH] [--runs N]
      generates the model unless it is in --out, then times whole processes, each in a
      fresh process, after one warm-up run of each, alternating the tools run by run,
      median of N (and min/max), under bench/spawn_measure when found (wall and peak
      RSS): `symshape infer M`, `symshape infer M -o OUT`, ONNX's
      infer_shapes_path(M, OUT, data_prop=True) in a python process (also its
      in-process time), and onnxruntime's tool (`--input M --output OUT --auto_merge`)
      when --ort-tool is given. The OUTs are written beside the model and deleted. A value
      (node output of the main graph) is resolved when its shape is written and every dim
      is an integer or an expression of batch, seq and past only. Each tool is run once
      under `strace -f -e trace=%file` for the file syscalls naming the data file, and
      `symshape infer -o` is run with the data file moved away and its output compared
      byte for byte. Prints a markdown table; --json FILE writes the raw figures.
  --check SYMSHAPE
      the CI smoke check (use with --layers 2): generates the model in a temporary folder,
      moves the data file away (root ignores chmod 000, so absent is the unreadable that
      holds for every user), runs `symshape infer M -o OUT`, and exits 1 unless symshape
      exits 0, reports no fresh symbol, and every value of the model has a resolved shape;
      under strace (when installed) also if an open call names the data file (symshape
      does stat it: the check that no output is one of the model's data files). Exits 77
      (skip) when torch or onnx cannot be imported.

Usage:
  /usr/bin/python3 bench/external_decoder.py --out /tmp/extdec [--layers 48]
  /usr/bin/python3 bench/external_decoder.py --out /tmp/extdec --measure \\
      --symshape build/bin/symshape --ort-tool /tmp/ort_tool/symbolic_shape_infer.py --runs 5
  /usr/bin/python3 bench/external_decoder.py --layers 2 --check build/bin/symshape
"""

import argparse
import json
import math
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, FFN = 256, 64, 4, 2, 16, 128
INPUT_SYMBOLS = {"batch", "seq", "past"}
SKIP = 77


# ---- the model ----------------------------------------------------------------------

def build_module(layers):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class RMSNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight

    def rotate_half(x):
        h = x.size(-1) // 2
        return torch.cat((-x[..., h:], x[..., :h]), dim=-1)

    class DecoderLayer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_norm, self.post_norm = RMSNorm(HIDDEN), RMSNorm(HIDDEN)
            self.q_proj = nn.Linear(HIDDEN, HEADS * HEAD_DIM, bias=False)
            self.k_proj = nn.Linear(HIDDEN, KV_HEADS * HEAD_DIM, bias=False)
            self.v_proj = nn.Linear(HIDDEN, KV_HEADS * HEAD_DIM, bias=False)
            self.o_proj = nn.Linear(HEADS * HEAD_DIM, HIDDEN, bias=False)
            self.gate_proj = nn.Linear(HIDDEN, FFN, bias=False)
            self.up_proj = nn.Linear(HIDDEN, FFN, bias=False)
            self.down_proj = nn.Linear(FFN, HIDDEN, bias=False)
            inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2).float() / HEAD_DIM))
            self.register_buffer("inv_freq", inv_freq)

        def repeat_kv(self, x):
            b, s = x.size(0), x.size(2)
            n_rep = HEADS // KV_HEADS
            x = x[:, :, None, :, :].expand(b, KV_HEADS, n_rep, s, HEAD_DIM)
            return x.reshape(b, KV_HEADS * n_rep, s, HEAD_DIM)

        def forward(self, x, mask, past_key, past_value):
            b, seq, past = x.size(0), x.size(1), past_key.size(2)
            h = self.input_norm(x)
            q = self.q_proj(h).view(b, seq, HEADS, HEAD_DIM).transpose(1, 2)
            k = self.k_proj(h).view(b, seq, KV_HEADS, HEAD_DIM).transpose(1, 2)
            v = self.v_proj(h).view(b, seq, KV_HEADS, HEAD_DIM).transpose(1, 2)
            t = torch.arange(past, past + seq, dtype=torch.float32)
            freqs = torch.outer(t, self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos()[None, None], emb.sin()[None, None]
            q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
            key, value = torch.cat((past_key, k), dim=2), torch.cat((past_value, v), dim=2)
            scores = q @ self.repeat_kv(key).transpose(-1, -2) / math.sqrt(HEAD_DIM) + mask
            ctx = scores.softmax(-1) @ self.repeat_kv(value)
            x = x + self.o_proj(ctx.transpose(1, 2).reshape(b, seq, HEADS * HEAD_DIM))
            h = self.post_norm(x)
            x = x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
            return x, key, value

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(VOCAB, HIDDEN)
            self.layers = nn.ModuleList(DecoderLayer() for _ in range(layers))
            self.norm = RMSNorm(HIDDEN)
            self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)

        def forward(self, input_ids, *past):
            seq, past_len = input_ids.size(1), past[0].size(2)
            total = past_len + seq
            rows = torch.arange(seq)[:, None] + past_len
            cols = torch.arange(total)[None, :]
            mask = torch.zeros(seq, total).masked_fill(cols > rows, float("-inf"))
            x = self.embed(input_ids)
            presents = []
            for i, layer in enumerate(self.layers):
                x, key, value = layer(x, mask, past[2 * i], past[2 * i + 1])
                presents += [key, value]
            return (self.lm_head(self.norm(x)), *presents)

    return Decoder()


def model_paths(out_dir, layers):
    name = f"decoder_{layers}"
    return os.path.join(out_dir, name + ".onnx"), os.path.join(out_dir, name + ".data"), name + ".data"


def generate(out_dir, layers, quiet=False):
    """Writes OUT/decoder_L.onnx and OUT/decoder_L.data; returns (model, data)."""
    import warnings

    import onnx
    import torch

    warnings.filterwarnings("ignore")
    torch.manual_seed(0)
    os.makedirs(out_dir, exist_ok=True)
    model_path, data_path, location = model_paths(out_dir, layers)
    module = build_module(layers).eval()
    batch, seq, past = 2, 3, 4
    args = [torch.randint(0, VOCAB, (batch, seq))]
    names, dynamic = ["input_ids"], {"input_ids": {0: "batch", 1: "seq"}}
    outputs = ["logits"]
    for i in range(layers):
        for kind in ("key", "value"):
            args.append(torch.randn(batch, KV_HEADS, past, HEAD_DIM))
            names.append(f"past_{kind}_{i}")
            dynamic[names[-1]] = {0: "batch", 2: "past"}
            outputs.append(f"present_{kind}_{i}")
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.onnx")
        with torch.no_grad():
            torch.onnx.export(module, tuple(args), raw, input_names=names, output_names=outputs,
                              dynamic_axes=dynamic, opset_version=17, do_constant_folding=True)
        m = onnx.load(raw)
    for p in (model_path, data_path):
        if os.path.exists(p):
            os.unlink(p)
    onnx.save_model(m, model_path, save_as_external_data=True, all_tensors_to_one_file=True, location=location,
                    size_threshold=0)
    if not quiet:
        print(f"wrote {model_path} ({os.path.getsize(model_path):,} bytes, {len(m.graph.node):,} nodes) and "
              f"{data_path} ({os.path.getsize(data_path):,} bytes, {len(m.graph.initializer)} initializers)")
    return model_path, data_path


# ---- counting resolved values ----------------------------------------------------------

FUNCTIONS = {"max", "min", "Max", "Min", "floor", "ceiling", "ceil", "Mod", "mod", "abs", "Abs"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def dim_resolved(dim):
    """A dim is resolved when it is an int or an expression of the input symbols only."""
    which = dim.WhichOneof("value")
    if which == "dim_value":
        return True
    if which != "dim_param" or not dim.dim_param:
        return False
    return all(name in INPUT_SYMBOLS or name in FUNCTIONS for name in IDENT.findall(dim.dim_param))


def count_resolved(path, reference_values=None):
    """(resolved, total, [unresolved (name, op, shape text)]) over the node outputs of the
    main graph of `path` (external data not loaded). `reference_values`: the value names
    to count (those of the input model), so that every tool is judged on the same values."""
    import onnx

    m = onnx.load(path, load_external_data=False)
    g = m.graph
    producer = {}
    for n in g.node:
        for o in n.output:
            if o:
                producer[o] = n.op_type
    types = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        types[vi.name] = vi.type
    names = reference_values if reference_values is not None else list(producer)
    unresolved = []
    for name in names:
        t = types.get(name)
        ok = t is not None and t.WhichOneof("value") == "tensor_type" and t.tensor_type.HasField("shape") and all(
            dim_resolved(d) for d in t.tensor_type.shape.dim)
        if not ok:
            if t is None or not t.tensor_type.HasField("shape"):
                text = "no shape"
            else:
                text = "[" + ", ".join(str(d.dim_value) if d.HasField("dim_value") else (d.dim_param or "?")
                                       for d in t.tensor_type.shape.dim) + "]"
            unresolved.append((name, producer.get(name, "?"), text))
    return len(names) - len(unresolved), len(names), unresolved


def written_shapes(path):
    """{value name: [int or dim_param]} of the value_info and outputs of `path`."""
    import onnx

    g = onnx.load(path, load_external_data=False).graph
    return {vi.name: [d.dim_value if d.HasField("dim_value") else d.dim_param for d in vi.type.tensor_type.shape.dim]
            for vi in list(g.value_info) + list(g.output) if vi.type.tensor_type.HasField("shape")}


def agreement(path, reference, values):
    """How many of `values` resolved in `path` have the same dims as in `reference` (sympy
    decides equality: 'past + seq' from sympy, 'past+seq' from symshape)."""
    import sympy

    symbols = {name: sympy.Symbol(name, integer=True, positive=True) for name in INPUT_SYMBOLS}
    scope = dict(symbols, max=sympy.Max, min=sympy.Min, Max=sympy.Max, Min=sympy.Min)
    cache = {}

    def expr(d):
        if isinstance(d, int):
            return sympy.Integer(d)
        if d not in cache:
            cache[d] = sympy.sympify(d, locals=scope)
        return cache[d]

    a, b = written_shapes(path), written_shapes(reference)
    same = 0
    for name in values:
        x, y = a.get(name), b.get(name)
        if x is None or y is None or len(x) != len(y):
            continue
        try:
            same += all(sympy.simplify(expr(p) - expr(q)) == 0 for p, q in zip(x, y))
        except (sympy.SympifyError, TypeError, SyntaxError):
            pass
    return same


def model_values(path):
    import onnx

    m = onnx.load(path, load_external_data=False)
    return [o for n in m.graph.node for o in n.output if o]


# ---- running the tools -------------------------------------------------------------

ONNX_REF_CODE = (
    "import sys, time, json\n"
    "t0 = time.perf_counter()\n"
    "import onnx, onnx.shape_inference as si\n"
    "t1 = time.perf_counter()\n"
    "si.infer_shapes_path(sys.argv[1], sys.argv[2], data_prop=True)\n"
    "t2 = time.perf_counter()\n"
    "print(json.dumps({'import_s': t1 - t0, 'infer_s': t2 - t1}))\n")


def run(argv, cwd=None, spawn=None):
    """Runs argv in a fresh process: {"wall_s", "cpu_s", "rss_kib", "exit", "stdout", "stderr"},
    output sent to files; cpu_s is the child's user + system time. With `spawn`
    (bench/spawn_measure) the figures are its (fork to reaping, from a ~1 MiB parent);
    without it they are taken here and the RSS is None: a child of this Python process would
    report this process's peak (Linux carries it across exec), over 100 MiB once the model
    is loaded."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(suffix=".spawn") as res:
        t0, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        code = subprocess.call(([spawn, res.name] if spawn else []) + argv, stdin=subprocess.DEVNULL, stdout=out,
                               stderr=err, cwd=cwd)
        wall, rss = time.perf_counter() - t0, None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if spawn:
            fields = open(res.name).read().split()
            if len(fields) == 5:
                wall, rss, code = int(fields[0]) / 1e9, int(fields[1]), int(fields[2])
                cpu = (int(fields[3]) + int(fields[4])) / 1e9
        out.seek(0)
        err.seek(0)
        return {"wall_s": wall, "cpu_s": cpu, "rss_kib": rss, "exit": code,
                "stdout": out.read().decode(errors="replace"), "stderr": err.read().decode(errors="replace")}


def touches(argv, data_path, cwd=None):
    """Runs argv under `strace -f -e trace=%file` (every syscall that takes a file name):
    (exit, [syscall lines naming the data file]), or (None, None) without strace."""
    strace = shutil.which("strace")
    if not strace:
        return None, None
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "strace.log")
        r = run([strace, "-f", "-qq", "-e", "trace=%file", "-o", log] + argv, cwd=cwd)
        base = os.path.basename(data_path)
        with open(log, errors="replace") as f:
            lines = [line.rstrip() for line in f if base in line]
        return r["exit"], lines


OPEN_CALL = re.compile(r"^\d+\s+(open|openat|openat2|creat|open_by_handle_at|name_to_handle_at)\(")


def split_opens(lines):
    """(the open calls, the other file syscalls such as stat) among strace lines."""
    opens = [line for line in lines if OPEN_CALL.match(line)]
    return opens, [line for line in lines if line not in opens]


def symshape_stats(stdout):
    """The counts of `symshape infer`'s summary line and its fresh-symbol line."""
    m = re.search(r": (\d+) nodes, (\d+) values, (\d+) with known shape, (\d+) errors, (\d+) warnings", stdout)
    stats = dict(zip(("nodes", "values", "known", "errors", "warnings"), map(int, m.groups()))) if m else {}
    f = re.search(r"(\d+) dims? determined by the inputs but left as fresh symbols", stdout)
    stats["fresh_dims"] = int(f.group(1)) if f else 0
    return stats


def tools(args, model_path, prefix):
    """[(key, label, argv, output file or None)]."""
    # Beside the model: symshape writes external-data locations relative to OUT's folder and
    # refuses a folder the data file is not inside (an ONNX location cannot go up with '..').
    out = {k: os.path.join(os.path.dirname(model_path), f"{prefix}.{k}.onnx")
           for k in ("symshape_o", "onnx_ref", "ort")}
    t = [("symshape", "`symshape infer M`", [args.symshape, "infer", model_path], None),
         ("symshape_o", "`symshape infer M -o OUT`", [args.symshape, "infer", model_path, "-o", out["symshape_o"]],
          out["symshape_o"]),
         ("onnx_ref", "ONNX `infer_shapes_path(M, OUT, data_prop=True)` (python process)",
          [sys.executable, "-c", ONNX_REF_CODE, model_path, out["onnx_ref"]], out["onnx_ref"])]
    if args.ort_tool:
        t.append(("ort", "onnxruntime `symbolic_shape_infer.py --auto_merge`",
                  [sys.executable, args.ort_tool, "--input", model_path, "--output", out["ort"], "--auto_merge"],
                  out["ort"]))
    return t


def cpu_ticks():
    """(busy, total) jiffies of all CPUs from /proc/stat, or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def machine_note():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import onnx
    import sympy
    return (f"{os.cpu_count()} cores, {cpu}, Linux {platform.release()}, Python {platform.python_version()}, "
            f"onnx {onnx.__version__}, sympy {sympy.__version__}")


def measure(args):
    model_path, data_path, _ = model_paths(args.out, args.layers)
    if not (os.path.exists(model_path) and os.path.exists(data_path)):
        generate(args.out, args.layers)
    values = model_values(model_path)
    result = {"model": model_path, "layers": args.layers, "model_bytes": os.path.getsize(model_path),
              "data_bytes": os.path.getsize(data_path), "values": len(values), "runs": args.runs,
              "machine": machine_note(), "tools": {}}
    if not args.ort_tool:
        print("onnxruntime's tool: skipped (no --ort-tool PATH)", file=sys.stderr)
    with tempfile.TemporaryDirectory() as scratch:
        cwd = os.path.join(scratch, "cwd")  # the ORT tool writes sym_shape_infer_temp.onnx there on failure
        os.makedirs(cwd)
        plan = tools(args, model_path, "out")
        # Warm-up: one run of each (page cache), whose output is the one counted.
        for key, label, argv, out in plan:
            r = run(argv, cwd=cwd)
            entry = {"label": label, "argv": argv, "exit": r["exit"], "walls": [], "cpus": [], "rss_kib": [],
                     "inproc": []}
            if r["exit"] != 0:
                entry["stderr"] = r["stderr"][-3000:]
                print(f"{label}: exit {r['exit']}\n{r['stderr'][-3000:]}", file=sys.stderr)
            if key.startswith("symshape"):
                entry["stats"] = symshape_stats(r["stdout"])
            if out and os.path.exists(out):
                ok, total, unresolved = count_resolved(out, values)
                entry.update(resolved=ok, total=total, unresolved=unresolved[:50])
            elif key == "symshape":
                st = entry["stats"]
                entry.update(resolved=None, total=st.get("values"))
            if out and os.path.exists(out) and key != "symshape_o":
                os.rename(out, out + ".kept")  # for the agreement with symshape's, below
            code, lines = touches(argv, data_path, cwd=cwd)
            opens, others = split_opens(lines or [])
            entry["opens_data"] = None if lines is None else bool(opens)
            entry["data_opens"], entry["data_other_syscalls"] = opens[:5], others[:5]
            if out and os.path.exists(out) and key != "symshape_o":
                os.unlink(out)
            result["tools"][key] = entry
        mine = dict((k, o) for k, _, _, o in plan).get("symshape_o")
        for key, _, _, out in plan:
            if out and key != "symshape_o" and os.path.exists(out + ".kept"):
                if mine and os.path.exists(mine):
                    result["tools"][key]["agree"] = agreement(out + ".kept", mine, values)
                os.unlink(out + ".kept")
        if mine and os.path.exists(mine):
            os.unlink(mine)
        ticks = cpu_ticks()
        for rep in range(args.runs):
            for key, label, argv, out in plan:
                r = run(argv, cwd=cwd, spawn=args.spawn_measure)
                e = result["tools"][key]
                if r["exit"] != e["exit"]:
                    print(f"{label}: exit {r['exit']} in run {rep + 1} (warm-up {e['exit']})", file=sys.stderr)
                e["walls"].append(r["wall_s"])
                e["cpus"].append(r["cpu_s"])
                e["rss_kib"].append(r["rss_kib"])
                if key == "onnx_ref" and r["exit"] == 0:
                    e["inproc"].append(json.loads(r["stdout"].strip().splitlines()[-1]))
                if out and os.path.exists(out):
                    os.unlink(out)
        end = cpu_ticks()
        if ticks and end and end[1] > ticks[1]:
            result["busy_fraction"] = (end[0] - ticks[0]) / (end[1] - ticks[1])
        # The second check of the data file: symshape with the data file moved away writes the
        # same bytes as with it in place.
        same = None
        if "symshape_o" in result["tools"]:
            o1, o2 = (os.path.join(os.path.dirname(model_path), f"out.{k}.onnx") for k in ("with_data", "without_data"))
            r1 = run([args.symshape, "infer", model_path, "-o", o1])
            away = data_path + ".away"
            os.rename(data_path, away)
            try:
                r2 = run([args.symshape, "infer", model_path, "-o", o2])
            finally:
                os.rename(away, data_path)
            same = r1["exit"] == 0 and r2["exit"] == 0 and open(o1, "rb").read() == open(o2, "rb").read()
            result["same_output_without_data"] = same
            for o in (o1, o2):
                if os.path.exists(o):
                    os.unlink(o)
    for e in result["tools"].values():
        if e["walls"]:
            e["median_s"] = statistics.median(e["walls"])
            e["min_s"], e["max_s"] = min(e["walls"]), max(e["walls"])
            e["cpu_median_s"] = statistics.median(e["cpus"])
            e["rss_mib"] = statistics.median(e["rss_kib"]) / 1024 if None not in e["rss_kib"] else None
        if e["inproc"]:
            e["inproc_infer_s"] = statistics.median(x["infer_s"] for x in e["inproc"])
            e["inproc_import_s"] = statistics.median(x["import_s"] for x in e["inproc"])
    print_table(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if any(k.startswith("symshape") and result["tools"][k]["exit"] != 0 for k in result["tools"]) else 0


def ms(s):
    return f"{s * 1000:,.1f} ms" if s < 10 else f"{s:,.2f} s"


def print_table(result):
    t = result["tools"]
    base = t.get("symshape_o", {}).get("median_s")
    print(f"\n{result['model']}: {result['layers']} layers, {result['values']:,} values, model "
          f"{result['model_bytes']:,} bytes, data {result['data_bytes']:,} bytes; median of {result['runs']} "
          f"whole-process runs (min-max)\n")
    print("| tool | whole process, median (min-max) | CPU (user+sys) | peak RSS | / `symshape infer -o` "
          "| values resolved | opens the data file |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for key, e in t.items():
        if "median_s" not in e:
            continue
        ratio = f"{e['median_s'] / base:.1f}x" if base else "?"
        if e.get("resolved") is not None:
            res = f"{e['resolved']:,} of {e['total']:,}"
        elif key == "symshape":
            st = e.get("stats", {})
            res = (f"{st['known']:,} of {st['values']:,} with known shape, {st['fresh_dims']} fresh dims"
                   if "known" in st else "?")
        else:
            res = "no output"
        if e.get("agree") is not None:
            res += f" ({e['agree']:,} same as symshape)"
        if e["exit"] != 0:
            res += f" (exit {e['exit']})"
        opens = {True: "yes", False: "no", None: "? (no strace)"}[e.get("opens_data")]
        rss = "?" if e["rss_mib"] is None else f"{e['rss_mib']:.0f} MiB"
        print(f"| {e['label']} | {ms(e['median_s'])} ({ms(e['min_s'])}-{ms(e['max_s'])}) | "
              f"{ms(e['cpu_median_s'])} | {rss} | "
              f"{ratio} | {res} | {opens} |")
    ref = t.get("onnx_ref", {})
    if ref.get("inproc_infer_s") is not None:
        print(f"\nONNX in process: infer_shapes_path {ms(ref['inproc_infer_s'])}, "
              f"`import onnx` {ms(ref['inproc_import_s'])} (medians)")
    for key, e in t.items():
        if e.get("unresolved"):
            print(f"\n{e['label']}: {len(e['unresolved'])}{'+' if len(e['unresolved']) == 50 else ''} unresolved, "
                  f"first ones:")
            for name, op, shape in e["unresolved"][:8]:
                print(f"  {name} ({op}): {shape}")
    if "same_output_without_data" in result:
        print("\nsymshape -o with the data file moved away writes the same bytes: "
              f"{result['same_output_without_data']}")
    for key, e in t.items():
        for kind in ("data_opens", "data_other_syscalls"):
            if e.get(kind):
                print(f"{e['label']}: {len(e[kind])}{'+' if len(e[kind]) == 5 else ''} "
                      f"{'open' if kind == 'data_opens' else 'other file'} syscall(s) naming the data file, e.g. "
                      f"{e[kind][0][:160]}")
    busy = result.get("busy_fraction")
    print(f"\nmachine: {result['machine']}" + ("" if busy is None else
          f"; all CPUs {busy:.0%} busy during the timed runs (/proc/stat, this benchmark included)"))


# ---- the CI smoke check ------------------------------------------------------------

def check(args):
    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"external_decoder check: skipped ({e})")
        return SKIP
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        model_path, data_path = generate(tmp, args.layers, quiet=True)
        values = model_values(model_path)
        out = os.path.join(tmp, "inferred.onnx")  # beside the model (see tools())
        os.rename(data_path, data_path + ".away")  # unreadable for every user, root included
        argv = [args.check, "infer", model_path, "-o", out]
        r = run(argv)
        if r["exit"] != 0:
            problems.append(f"symshape exited {r['exit']}: {r['stderr'][-2000:]}")
        stats = symshape_stats(r["stdout"])
        if stats.get("fresh_dims"):
            problems.append(f"symshape left {stats['fresh_dims']} dims as fresh symbols")
        if r["exit"] == 0:
            ok, total, unresolved = count_resolved(out, values)
            for name, op, shape in unresolved[:20]:
                problems.append(f"unresolved: {name} ({op}) {shape}")
        else:
            ok, total = 0, len(values)
        code, lines = touches(argv, data_path)
        traced = lines is not None
        opens, _ = split_opens(lines or [])
        if opens:
            problems.append("symshape opens the data file: " + opens[0][:200])
        if traced and code != r["exit"]:
            problems.append(f"symshape under strace exited {code}, without {r['exit']}")
    if problems:
        print("external_decoder check: FAILED\n  " + "\n  ".join(problems))
        return 1
    print(f"external_decoder check: ok, {args.layers} layers: symshape exit 0, {ok} of {total} values resolved "
          f"with the data file absent{', no open call names it (strace)' if traced else ' (strace not installed)'}")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--layers", type=int, default=48)
    p.add_argument("--out", default=None, help="folder of the model (default /tmp/extdec)")
    p.add_argument("--measure", action="store_true")
    p.add_argument("--symshape", help="the symshape command, for --measure")
    p.add_argument("--ort-tool", help="path of onnxruntime's symbolic_shape_infer.py (row skipped without it)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--json", help="write the raw figures of --measure here")
    p.add_argument("--spawn-measure", help="bench/spawn_measure, for wall time and peak RSS (default: beside "
                   "--symshape when there; without it the RSS column is '?')")
    p.add_argument("--check", metavar="SYMSHAPE", help="the CI smoke check (with --layers 2)")
    args = p.parse_args()
    for k in ("symshape", "ort_tool", "check", "spawn_measure"):  # the tools run in another folder
        if getattr(args, k):
            path = getattr(args, k)
            setattr(args, k, os.path.abspath(path) if os.sep in path else shutil.which(path) or path)
    if args.check:
        return check(args)
    args.out = args.out or "/tmp/extdec"
    if args.measure:
        if not args.symshape:
            p.error("--measure needs --symshape PATH")
        if not args.spawn_measure:
            beside = os.path.join(os.path.dirname(os.path.abspath(args.symshape)), "spawn_measure")
            args.spawn_measure = beside if os.access(beside, os.X_OK) else None
        return measure(args)
    generate(args.out, args.layers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
