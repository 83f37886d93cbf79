"""Checks symshape's inferred dims on the exported corpus against onnxruntime's shapes.

    /usr/bin/python3 tests/exported/check.py SYMSHAPE [--dir DIR] [--update-floors] [--quiet]
                                              [--assume-contracts]

For each model of DIR/models/manifest.json, as exported ("raw") and "stripped"
(value_info removed, the graph outputs' shapes removed, inputs kept), runs
`SYMSHAPE infer MODEL -o OUT --json REPORT --allow-errors`, reads every value's
dims from OUT and evaluates them at each binding of DIR/truth.json. A value is
  resolved    every dim is an integer or an expression of the input symbols
              that evaluates to onnxruntime's dim at every binding;
  WRONG       its rank, or a dim that can be evaluated, differs from
              onnxruntime's at some binding (or cannot be evaluated there);
  unresolved  otherwise: no shape, an unknown dim ('?'), a fresh symbol (_dN)
              or a symbol that is not an input's (e.g. one the exporter wrote).
An unresolved value is an "origin" when its producer's inputs are all resolved
and its unknown dims are not carried from them: that node made the gap.
Every unresolved value gets a reason: "data-dependent: <op> (<why>)" when its
producer makes the dim from tensor data (NonZero, Unique, Compress,
NonMaxSuppression, StringNormalizer; TopK whose k, Reshape/Expand/
ConstantOfShape whose shape, Range whose inputs, Loop whose trip count is not
computable from constants and input shapes alone) or carries such a value's
dim; anything else is "NOT DATA-DEPENDENT", a failure: every statically
determinable dim must be resolved. Per model and variant it prints values,
resolved, data-dependent (each with its reason) and wrong.
Exit status 1 on any WRONG or NOT DATA-DEPENDENT value, on an inference error, or when a model
resolves fewer values than its floor in DIR/floors.json (--update-floors
rewrites that file with today's counts). Needs onnx only.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

import onnx

# ---- dims: symshape's expression syntax (README "Expression grammar") ----------
TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(//|[-+*%^&(),]))")


class Unbound(Exception):
    """The expression uses a symbol the binding does not give."""


def parse(text):
    """The expression as nested tuples: ("int", v) ("sym", s) ("op", op, a, b) ("neg", a) ("call", f, args)."""
    toks, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read {text!r} at {pos}")
        num, name, punct = m.groups()
        toks.append(("int", int(num)) if num else ("sym", name) if name else ("p", punct))
        pos = m.end()
    toks.append(("end", None))
    i = 0

    def peek(*ops):
        return toks[i][0] == "p" and toks[i][1] in ops

    def take():
        nonlocal i
        i += 1
        return toks[i - 1]

    def binary(ops, sub):
        def level():
            a = sub()
            while peek(*ops):
                a = ("op", take()[1], a, sub())
            return a
        return level

    def unary():
        if peek("-"):
            take()
            return ("neg", unary())
        if peek("+"):
            take()
            return unary()
        return atom()

    def atom():
        kind, v = take()
        if kind == "int":
            return ("int", v)
        if kind == "p" and v == "(":
            e = top()
            if take() != ("p", ")"):
                raise ValueError(f"')' expected in {text!r}")
            return e
        if kind == "sym":
            if peek("("):
                take()
                args = [top()]
                while peek(","):
                    take()
                    args.append(top())
                if take() != ("p", ")"):
                    raise ValueError(f"')' expected in {text!r}")
                return ("call", v.lower(), args)
            return ("sym", v)
        raise ValueError(f"unexpected {v!r} in {text!r}")

    product = binary(("*", "//", "%"), unary)
    top = binary(("^",), binary(("&",), binary(("+", "-"), product)))
    e = top()
    if toks[i][0] != "end":
        raise ValueError(f"trailing text in {text!r}")
    return e


def symbols(e):
    if e[0] == "sym":
        return {e[1]}
    if e[0] == "op":
        return symbols(e[2]) | symbols(e[3])
    if e[0] == "neg":
        return symbols(e[1])
    if e[0] == "call":
        return set().union(*(symbols(a) for a in e[2]))
    return set()


def evaluate(e, env):
    """Python's // and % floor, as symshape's do; division by zero raises ZeroDivisionError."""
    k = e[0]
    if k == "int":
        return e[1]
    if k == "sym":
        if e[1] not in env:
            raise Unbound(e[1])
        return env[e[1]]
    if k == "neg":
        return -evaluate(e[1], env)
    if k == "call":
        args = [evaluate(a, env) for a in e[2]]
        if e[1] == "max":
            return max(args)
        if e[1] == "min":
            return min(args)
        if e[1] == "ceiltoint" and len(args) == 2:
            return -(-args[0] // args[1])
        raise ValueError(f"unknown function {e[1]}")
    a, b = evaluate(e[2], env), evaluate(e[3], env)
    return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "//": lambda: a // b,
            "%": lambda: a % b, "^": lambda: max(a, b), "&": lambda: min(a, b)}[e[1]]()


# ---- one model, one variant -------------------------------------------------
def strip(src, dst):
    """value_info removed and the graph outputs' shapes removed (their element types kept)."""
    m = onnx.load(src)
    del m.graph.value_info[:]
    for o in m.graph.output:
        if o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    onnx.save(m, dst)


def dims_of(t):
    """A value's dims as written: None (no shape), else a list of int | str | None ('?')."""
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in t.tensor_type.shape.dim]


def classify_dim(d, truth_dims, bindings, inputs_syms):
    """("ok"|"wrong"|"open", why) for one dim over every binding; truth_dims: that dim at each binding."""
    if d is None:
        return "open", "?"
    if isinstance(d, int):
        return ("ok", "") if all(t == d for t in truth_dims) else ("wrong", f"{d}")
    try:
        e = parse(d)
    except ValueError as err:
        return "open", f"unparsable {d!r}: {err}"
    foreign = symbols(e) - inputs_syms
    if foreign:
        return "open", d
    for b, t in zip(bindings, truth_dims):
        try:
            got = evaluate(e, b)
        except (ZeroDivisionError, Unbound, ValueError) as err:
            return "wrong", f"{d} cannot be evaluated at {b}: {err!r}"
        if got != t:
            return "wrong", f"{d} = {got} at {b}"
    return "ok", ""


# Extra arguments of `symshape infer` (--assume-contracts: the run bindings of
# truth.json are valid runs, so they satisfy every contract and its condition).
INFER_ARGS = []


def run_symshape(symshape, model, work):
    out, rep = os.path.join(work, "out.onnx"), os.path.join(work, "report.json")
    for p in (out, rep):
        if os.path.exists(p):
            os.remove(p)
    p = subprocess.run([symshape, "infer", model, "-o", out, "--json", rep, "--allow-errors"] + INFER_ARGS,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 3) or not os.path.exists(out):
        sys.exit(f"check: symshape failed on {model} (exit {p.returncode}):\n{p.stdout}{p.stderr}")
    return onnx.load(out), json.load(open(rep))


# ---- why a dim is left open: data-dependent operators ----------------------
ALWAYS_DATA = {
    "NonZero": "count = number of nonzero elements",
    "Unique": "count = number of distinct elements",
    "Compress": "count = number of true conditions",
    "NonMaxSuppression": "count = number of boxes kept",
    "StringNormalizer": "count = strings left after stopword removal",
}
# op -> (input index whose value sets a dim, what it is)
DATA_INPUT = {"TopK": (1, "k"), "Reshape": (1, "shape"), "Expand": (1, "shape"),
              "ConstantOfShape": (0, "shape"), "Loop": (0, "trip count")}


def shape_only(g):
    """The values computable from constants and input shapes alone (not from tensor data)."""
    known = {t.name for t in g.initializer}
    for n in g.node:
        if n.op_type in ("Constant", "Shape", "Size") or (
                n.op_type not in ALWAYS_DATA and n.input and all(i in known for i in n.input if i)):
            known.update(o for o in n.output if o)
    return known


def data_reason(n, shape_known):
    """'<op> (<why>)' when node n makes a dim from tensor data, else None."""
    if n is None:
        return None
    if n.op_type in ALWAYS_DATA:
        return f"{n.op_type} ({ALWAYS_DATA[n.op_type]})"
    if n.op_type == "Range":
        bad = [i for i in n.input if i and i not in shape_known]
        return f"Range (start/limit/delta from tensor data: {bad[0]})" if bad else None
    if n.op_type in DATA_INPUT:
        idx, what = DATA_INPUT[n.op_type]
        if len(n.input) > idx and n.input[idx] and n.input[idx] not in shape_known:
            return f"{n.op_type} ({what} from tensor data: {n.input[idx]})"
    return None


def check_variant(symshape, model_path, case, truth, work):
    m, report = run_symshape(symshape, model_path, work)
    g = m.graph
    types = {v.name: v.type for v in list(g.input) + list(g.value_info) + list(g.output)}
    producer = {o: n for n in g.node for o in n.output if o}
    inputs_syms = {s for _, _, dims in case["inputs"] for s in dims if isinstance(s, str)}
    bindings = truth["bindings"]
    inits = {t.name for t in g.initializer}
    status, why, open_syms = {}, {}, {}
    for name, tdims in truth["values"].items():
        dims = dims_of(types[name]) if name in types else None
        rank = {len(t) for t in tdims}
        if dims is None:
            status[name], why[name], open_syms[name] = "open", "no shape", set()
            continue
        if rank != {len(dims)}:
            status[name], why[name] = "wrong", f"rank {len(dims)} {dims}, onnxruntime {tdims}"
            continue
        res = [classify_dim(d, [t[i] for t in tdims], bindings, inputs_syms) for i, d in enumerate(dims)]
        bad = [w for s, w in res if s == "wrong"]
        opened = [w for s, w in res if s == "open"]
        if bad:
            status[name], why[name] = "wrong", f"{dims}: {'; '.join(bad)} (onnxruntime {tdims})"
        elif opened:
            status[name], why[name] = "open", f"{dims}"
            open_syms[name] = {d for d in dims if isinstance(d, str) and d not in inputs_syms}
        else:
            status[name] = "ok"
    origins = []
    shape_known = shape_only(g)
    source = {}  # data-dependent open value -> the value its data-dependent dim was made at
    reason = {}  # open value -> "data-dependent: ..." or "NOT DATA-DEPENDENT ..."
    for name in truth["values"]:
        if status[name] != "open":
            continue
        n = producer.get(name)
        ins = [i for i in (n.input if n else []) if i and i not in inits]
        carried = set().union(set(), *(set(x for x in (dims_of(types[i]) or []) if isinstance(x, str))
                                       for i in ins if i in types))
        upstream_open = any(status.get(i) == "open" for i in ins)
        dd_up = [i for i in ins if reason.get(i, "").startswith("data-dependent")]
        own = data_reason(n, shape_known)
        if own:
            reason[name], source[name] = f"data-dependent: {own}", name
        elif dd_up:
            source[name] = source[dd_up[0]]
            reason[name] = reason[dd_up[0]].split(", carried from ")[0] + f", carried from {source[name]}"
        else:
            reason[name] = f"NOT DATA-DEPENDENT ({n.op_type if n else 'graph input'})"
        if not upstream_open or (open_syms[name] - carried):
            origins.append((name, n.name if n else "", n.op_type if n else "", why[name]))
    errors = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
    return status, why, origins, errors, reason


# ---- the corpus ---------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("symshape")
    ap.add_argument("--dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--update-floors", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="only origins of unresolved dims, not every value")
    ap.add_argument("--markdown", metavar="FILE", help="also write the figures as Markdown (README.md's tables)")
    ap.add_argument("--assume-contracts", action="store_true",
                    help="infer with --assume-contracts (the same checks; the floors are not updated)")
    a = ap.parse_args()
    if a.assume_contracts:
        INFER_ARGS.append("--assume-contracts")
        a.update_floors = False
    cases = json.load(open(os.path.join(a.dir, "models", "manifest.json")))
    truth = json.load(open(os.path.join(a.dir, "truth.json")))
    floors_path = os.path.join(a.dir, "floors.json")
    floors = json.load(open(floors_path)) if os.path.exists(floors_path) else {}
    rows, failures, new_floors, by_op = [], [], {}, collections.Counter()
    all_origins = collections.defaultdict(list)  # model -> [(variant, value, node, op, dims)]
    totals = collections.Counter()
    all_datadep = collections.defaultdict(list)  # model -> [(variant, value, dims, reason)]
    with tempfile.TemporaryDirectory() as work:
        for c in cases:
            name, t = c["name"], truth[c["name"]]
            raw = os.path.join(a.dir, "models", name + ".onnx")
            stripped = os.path.join(work, name + ".stripped.onnx")
            strip(raw, stripped)
            row = {"model": name, "values": len(t["values"])}
            for variant, path in (("raw", raw), ("stripped", stripped)):
                status, why, origins, errors, reason = check_variant(a.symshape, path, c, t, work)
                count = collections.Counter(status.values())
                count["datadep"] = sum(1 for r in reason.values() if r.startswith("data-dependent"))
                totals[variant + "_datadep"] += count["datadep"]
                print(f"{name} [{variant}]: {len(status)} values, {count['ok']} resolved, "
                      f"{count['datadep']} data-dependent, {count['wrong']} wrong")
                for v in status:
                    if v in reason:
                        print(f"  {'data-dependent' if reason[v].startswith('data-') else 'NOT DATA-DEPENDENT'}"
                              f" {v} {why[v]}: {reason[v]}")
                        if not reason[v].startswith("data-dependent"):
                            failures.append(f"NOT DATA-DEPENDENT {name} [{variant}] {v} {why[v]}: {reason[v]}")
                        else:
                            all_datadep[name].append((variant, v, why[v], reason[v]))
                row[variant] = count
                totals[variant + "_ok"] += count["ok"]
                totals[variant + "_open"] += count["open"]
                totals[variant + "_wrong"] += count["wrong"]
                new_floors.setdefault(name, {})[variant] = count["ok"]
                for v, s in status.items():
                    if s == "wrong":
                        failures.append(f"WRONG {name} [{variant}] {v}: {why[v]}")
                for e in errors:
                    failures.append(f"ERROR {name} [{variant}] symshape: {e.get('where', '')}: {e.get('message', '')}")
                floor = floors.get(name, {}).get(variant)
                if floor is not None and count["ok"] < floor and not a.update_floors:
                    failures.append(f"FLOOR {name} [{variant}]: {count['ok']} values resolved, floor {floor}")
                for v, node, op, w in origins:
                    by_op[(variant, op)] += 1
                    all_origins[name].append((variant, v, node, op, w))
                    print(f"unresolved origin {name} [{variant}] {v} (node '{node}', {op}): {w}")
                if not a.quiet:
                    for v, s in status.items():
                        if s == "open" and v not in {o[0] for o in origins}:
                            print(f"unresolved (carried) {name} [{variant}] {v}: {why[v]}")
            rows.append(row)
    print_table(rows, totals)
    print("\nunresolved origins by op type (raw / stripped):")
    for op in sorted({op for _, op in by_op}, key=lambda o: (-by_op[("stripped", o)] - by_op[("raw", o)], o)):
        print(f"  {op or '(graph input)':24} {by_op[('raw', op)]:4} / {by_op[('stripped', op)]:4}")
    if a.markdown:
        write_markdown(a.markdown, rows, totals, all_origins, by_op, all_datadep)
    if a.update_floors:
        with open(floors_path, "w") as f:
            json.dump(new_floors, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"check: wrote {floors_path}")
    for line in failures:
        print(line)
    print(f"check: {len(failures)} failures" if failures else
          "check: OK (no WRONG value, no error, no floor missed, every open dim data-dependent)")
    return 1 if failures else 0


def pct(ok, n):
    return f"{100.0 * ok / n:5.1f}%" if n else "  -  "


def print_table(rows, totals):
    print(f"\n{'model':28} {'values':>6} | {'raw ok':>6} {'%':>6} {'open':>5} {'ddep':>5} {'WRONG':>5} | "
          f"{'strip ok':>8} {'%':>6} {'open':>5} {'ddep':>5} {'WRONG':>5}")
    n = 0
    for r in rows:
        n += r["values"]
        cells = [f"{r[v]['ok']:{w}} {pct(r[v]['ok'], r['values'])} {r[v]['open']:5} {r[v]['datadep']:5} "
                 f"{r[v]['wrong']:5}"
                 for v, w in (("raw", 6), ("stripped", 8))]
        print(f"{r['model']:28} {r['values']:6} | {cells[0]} | {cells[1]}")
    print(f"{'total':28} {n:6} | {totals['raw_ok']:6} {pct(totals['raw_ok'], n)} {totals['raw_open']:5} "
          f"{totals['raw_datadep']:5} {totals['raw_wrong']:5} | {totals['stripped_ok']:8} "
          f"{pct(totals['stripped_ok'], n)} {totals['stripped_open']:5} {totals['stripped_datadep']:5} "
          f"{totals['stripped_wrong']:5}")


def write_markdown(path, rows, totals, origins, by_op, datadep):
    """The per-model table, then each model's unresolved origins (stripped, and those only the raw model has)."""
    n = sum(r["values"] for r in rows)
    out = ["| model | values | raw resolved | raw % | stripped resolved | stripped % | data-dependent (raw / stripped) | WRONG |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['model']} | {r['values']} | {r['raw']['ok']} | {pct(r['raw']['ok'], r['values']).strip()} | "
                   f"{r['stripped']['ok']} | {pct(r['stripped']['ok'], r['values']).strip()} | "
                   f"{r['raw']['datadep']} / {r['stripped']['datadep']} | "
                   f"{r['raw']['wrong'] + r['stripped']['wrong']} |")
    out.append(f"| **total** | {n} | {totals['raw_ok']} | {pct(totals['raw_ok'], n).strip()} | "
               f"{totals['stripped_ok']} | "
               f"{pct(totals['stripped_ok'], n).strip()} | {totals['raw_datadep']} / {totals['stripped_datadep']} | "
               f"{totals['raw_wrong'] + totals['stripped_wrong']} |")
    out += ["", "Unresolved origins by op type (raw / stripped):", ""]
    for op in sorted({op for _, op in by_op}, key=lambda o: (-by_op[("stripped", o)] - by_op[("raw", o)], o)):
        out.append(f"- {op}: {by_op[('raw', op)]} / {by_op[('stripped', op)]}")
    out += ["", "Unresolved origins per model: the value, the node that made it (op type) and the dims written.", ""]
    for r in rows:
        lst = origins.get(r["model"], [])
        if not lst:
            continue
        out.append(f"**{r['model']}**")
        out.append("")
        stripped = {v for variant, v, *_ in lst if variant == "stripped"}
        for variant, v, node, op, w in lst:
            if variant == "stripped" or v not in stripped:
                tag = "" if variant == "stripped" else " (raw only)"
                out.append(f"- `{v}` ({op} `{node}`){tag}: `{w}`")
        out.append("")
    out += ["Values left open, every one data-dependent: the value, its dims and why "
            "(variant: both, or the one it is open in).", ""]
    for model, lst in datadep.items():
        out += [f"**{model}**", ""]
        seen = collections.OrderedDict()
        for variant, v, dims, why in lst:
            seen.setdefault((v, dims, why), []).append(variant)
        for (v, dims, why), variants in seen.items():
            tag = "" if len(variants) == 2 else f" ({variants[0]} only)"
            out.append(f"- `{v}` `{dims}`{tag}: {why}")
        out.append("")
    with open(path, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())
