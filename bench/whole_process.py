#!/usr/bin/python3
"""Whole-process benchmark: the `symshape` command as a user meets it, against a C++
process built on ONNX (bench/onnx_ref_infer.cpp: read + ParseFromString + InferShapes)
and against `cp`, on the models of bench/gen_whole_models.py.

For each model, in the same run and alternating (rep 1 of every command, then rep 2,
...; each rep in its own shuffled order, as on a virtual machine a process can run at half
speed after some commands and not after others, see docs/benchmarks.md), after one warm-up
run of each command (warm page cache: the model files are read from memory, never from
disk):
  infer      symshape infer M                 (stdout to /dev/null)
  infer_o    symshape infer M -o OUT          (OUT in DIR/tmp, deleted after each run)
  cp         cp M OUT
  onnx_ref   onnx_ref_infer M         (its whole process)
  onnx_timed onnx_ref_infer --time M  (ONNX's parse + InferShapes timed inside the process,
             the schema registry built before: the first model of the process, and the
             same model again in it; the tables' in-process baselines)
and once per run the process start: `symshape simplify 1` against bench/trivial_main (a
C++ program that does nothing), max(4N, 20) repetitions of each, alternating. Each child
runs under bench/spawn_measure, which reports its wall time and peak RSS (wait4's
ru_maxrss). Medians of N repetitions.

Prints markdown tables (ratios against the peer measured in the same run) and the
issue's goals marked met / not met; writes the raw results as JSON (for
bench/plot_whole_process.py). Exit status 1 if any command failed (timings never fail).

Usage:
  /usr/bin/python3 bench/whole_process.py --symshape build/bin/symshape \\
      --onnx-ref build/bin/onnx_ref_infer --models build/bench/whole_models [--reps 5] \\
      [--only 'cnn_*,chain_1k'] [--json OUT.json] [--label COMMIT]
"""

import argparse
import datetime
import fnmatch
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

MIB = 1024 * 1024
KIND_ORDER = {"cnn": 0, "transformer": 1, "chain": 2}
COMMANDS = ("infer", "infer_o", "cp", "onnx_ref", "onnx_timed")


def in_process_times(stdout):
    """onnx_ref_infer --time's line `registry_ms=R read_ms=F parse_ms=P infer_ms=I` as {name: seconds}."""
    out = {}
    for item in stdout.decode(errors="replace").split():
        key, _, value = item.partition("=")
        if key.endswith("_ms"):
            out[key[:-3] + "_s"] = float(value) / 1e3
    return out


def measure(spawn, argv, result_file):
    """Runs argv under spawn_measure: {"wall_s", "rss_kib", "exit", "user_s", "sys_s", "stderr"}, and the
    in-process times a command run with --time prints (onnx_ref_infer)."""
    timed = "--time" in argv
    proc = subprocess.run([spawn, result_file] + argv, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE if timed else subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0 and not os.path.exists(result_file):
        return {"exit": -1, "stderr": proc.stderr.decode(errors="replace")[-2000:]}
    with open(result_file) as f:
        wall, rss, code, user, sys_ns = f.read().split()
    os.unlink(result_file)
    run = {"wall_s": int(wall) / 1e9, "rss_kib": int(rss), "exit": int(code), "user_s": int(user) / 1e9,
           "sys_s": int(sys_ns) / 1e9}
    if run["exit"] != 0:
        run["stderr"] = proc.stderr.decode(errors="replace")[-2000:]
    elif timed:
        run["in_process"] = in_process_times(proc.stdout)
    return run


def model_commands(args, path, out):
    return {
        "infer": [args.symshape, "infer", path],
        "infer_o": [args.symshape, "infer", path, "-o", out],
        "cp": ["cp", path, out],
        "onnx_ref": [args.onnx_ref, path],
        "onnx_timed": [args.onnx_ref, "--time", path],
    }


def run_group(args, cmds, out, result_file, failures, label, reps):
    """Warm-up, then reps alternating over cmds, each rep in its own order (shuffled, the
    same in every run of the script) so that no command always runs after the same one;
    returns {cmd: [run, ...]}."""
    runs = {c: [] for c in cmds}
    for rep in range(-1, reps):
        order = list(cmds.items())
        if rep >= 0:
            random.Random(rep).shuffle(order)
        for c, argv in order:
            run = measure(args.spawn, argv, result_file)
            if out and c in ("infer_o", "cp"):
                if run["exit"] == 0 and (not os.path.exists(out) or os.path.getsize(out) == 0):
                    run["exit"], run["stderr"] = -2, "no output file written"
                if os.path.exists(out):
                    os.unlink(out)
            if run["exit"] != 0:
                failures.append("%s %s: exit %d: %s" % (label, c, run["exit"], run.get("stderr", "").strip()))
            if rep >= 0:
                runs[c].append(run)
    return runs


def medians(runs):
    med = {}
    for c, rs in runs.items():
        ok = [r for r in rs if r["exit"] == 0]
        if ok:
            med[c] = {"wall_s": statistics.median(r["wall_s"] for r in ok),
                      "rss_mib": statistics.median(r["rss_kib"] for r in ok) / 1024.0}
            timed = [r["in_process"] for r in ok if "again_infer_s" in r.get("in_process", {})]
            if timed:
                # ONNX's in-process parse + InferShapes, the first in the process and the same again
                # (memory reused): the baselines a user of ONNX in one process meets per model.
                med["onnx_in_process"] = {"wall_s": statistics.median(t["parse_s"] + t["infer_s"] for t in timed),
                                          "registry_s": statistics.median(t["registry_s"] for t in timed)}
                med["onnx_in_process_again"] = {
                    "wall_s": statistics.median(t["again_parse_s"] + t["again_infer_s"] for t in timed)}
    return med


def load_manifest(models_dir, only):
    path = os.path.join(models_dir, "manifest.json")
    if not os.path.exists(path):
        sys.exit("whole_process.py: %s not found; generate the models with bench/gen_whole_models.py --out %s"
                 % (path, models_dir))
    with open(path) as f:
        manifest = json.load(f)
    names = [n for n in manifest if os.path.exists(os.path.join(models_dir, n + ".onnx"))]
    if only:
        pats = only.split(",")
        names = [n for n in names if any(fnmatch.fnmatch(n, p) for p in pats)]
    names.sort(key=lambda n: (KIND_ORDER.get(manifest[n]["kind"], 9), manifest[n]["nodes"]
                              if manifest[n]["kind"] != "cnn" else manifest[n]["file_bytes"]))
    return manifest, names


def ms(s):
    return "%.1f ms" % (s * 1e3) if s < 10 else "%.2f s" % s


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(r):
    return "-" if r is None else ("%.3fx" % r if r < 0.1 else "%.2fx" % r)


def cell(med, c):
    m = med.get(c)
    return ("%s, %.0f MiB" % (ms(m["wall_s"]), m["rss_mib"])) if m else "failed"


def wall(med, c):
    return med[c]["wall_s"] if c in med else None


def rss(med, c):
    return med[c]["rss_mib"] if c in med else None


def print_tables(results, names):
    print("| model | nodes | file | symshape infer | onnx_ref_infer | infer / onnx_ref "
          "| symshape infer -o | cp | infer -o / cp |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in names:
        r = results["models"][n]
        med = r["median"]
        print("| %s | %d | %.1f MB | %s | %s | %s | %s | %s | %s |" % (
            n, r["nodes"], r["file_bytes"] / 1e6, cell(med, "infer"), cell(med, "onnx_ref"),
            fmt_ratio(ratio(wall(med, "infer"), wall(med, "onnx_ref"))), cell(med, "infer_o"), cell(med, "cp"),
            fmt_ratio(ratio(wall(med, "infer_o"), wall(med, "cp")))))
    print("\nAgainst ONNX in-process (`onnx_ref_infer --time`: ParseFromString + InferShapes timed inside its "
          "process, after the schema registry is built; first: the first model of the process; again: the same "
          "model again in that process, its memory reused, as in an interpreter that has loaded models before):\n")
    print("| model | nodes | symshape infer -o (whole process) | ONNX in-process, first | infer -o / first "
          "| ONNX in-process, again | infer -o / again | trivial_main / again | cp / again | ONNX's registry build |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    s = results.get("startup")
    start_s = s["median"]["trivial"]["wall_s"] if s else None
    for n in names:
        r = results["models"][n]
        med = r["median"]
        first, again = med.get("onnx_in_process"), med.get("onnx_in_process_again")
        print("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            n, r["nodes"], cell(med, "infer_o"), ms(first["wall_s"]) if first else "-",
            fmt_ratio(ratio(wall(med, "infer_o"), wall(med, "onnx_in_process"))),
            ms(again["wall_s"]) if again else "-",
            fmt_ratio(ratio(wall(med, "infer_o"), wall(med, "onnx_in_process_again"))),
            fmt_ratio(ratio(start_s, wall(med, "onnx_in_process_again"))),
            fmt_ratio(ratio(wall(med, "cp"), wall(med, "onnx_in_process_again"))),
            ms(first["registry_s"]) if first else "-"))
    print("\nThe last two ratios are floors, against the same baseline: `trivial_main` is a static process that "
          "does nothing (what starting any command costs here), `cp` a process that copies the model to OUT "
          "(starting, reading and writing, no inference). `infer -o / again` cannot go below the first.")
    if s:
        print("\nProcess start: `symshape simplify 1` %.2f ms (%.1f MiB), trivial_main %.2f ms (%.1f MiB): "
              "%.2f ms of symshape's own start-up and work." % (
                  s["median"]["simplify"]["wall_s"] * 1e3, s["median"]["simplify"]["rss_mib"],
                  s["median"]["trivial"]["wall_s"] * 1e3, s["median"]["trivial"]["rss_mib"], s["own_ms"]))


def check(goal, target, rows):
    """rows: (model, measured value or None, text); met when every value <= target."""
    vals = [v for _, v, _ in rows]
    met = bool(rows) and all(v is not None and v <= target for v in vals)
    worst = max(rows, key=lambda r: float("inf") if r[1] is None else r[1]) if rows else None
    return {"goal": goal, "models": [m for m, _, _ in rows], "worst_model": worst[0] if worst else None,
            "worst": worst[2] if worst else "no model", "met": met if rows else None}


def goals(results, names):
    models = results["models"]
    big = [n for n in names if models[n]["kind"] == "cnn" and models[n]["file_bytes"] >= 100e6]
    free = [n for n in names if models[n]["kind"] in ("transformer", "chain") and n != "chain_1m"]
    m1 = [n for n in names if n == "chain_1m"]
    graphs_2k = [n for n in names if models[n]["kind"] in ("transformer", "chain") and models[n]["nodes"] >= 2000]

    def rows(ns, f):
        out = []
        for n in ns:
            v, text = f(models[n]["median"])
            out.append((n, v, text))
        return out

    def time_ratio(a, b):
        def f(med):
            r = ratio(wall(med, a), wall(med, b))
            return r, fmt_ratio(r)
        return f

    def peak(c):
        def f(med):
            v = rss(med, c)
            return v, "-" if v is None else "%.0f MiB" % v
        return f

    out = [
        check("without -o, 100-575 MB models: time <= 5% of onnx_ref", 0.05,
              rows(big, time_ratio("infer", "onnx_ref"))),
        check("without -o, 100-575 MB models: peak RSS <= 64 MiB", 64, rows(big, peak("infer"))),
        check("with -o, 100-575 MB models: time <= 1.5x cp", 1.5, rows(big, time_ratio("infer_o", "cp"))),
        check("with -o, 100-575 MB models: peak RSS <= 128 MiB", 128, rows(big, peak("infer_o"))),
        check("weight-free graphs (transformers, chains to 100k): time <= 0.5x onnx_ref (whole process)", 0.5,
              rows(free, time_ratio("infer", "onnx_ref"))),
        check("1M-node chain: time <= 0.5x onnx_ref (whole process)", 0.5, rows(m1, time_ratio("infer", "onnx_ref"))),
        check("1M-node chain: peak RSS <= 512 MiB", 512, rows(m1, peak("infer"))),
        check("graphs of 2,000 nodes and more: infer -o (whole process) <= 0.5x ONNX in-process parse + "
              "InferShapes, first in the process", 0.5, rows(graphs_2k, time_ratio("infer_o", "onnx_in_process"))),
        check("graphs of 2,000 nodes and more: infer -o (whole process) <= 0.5x ONNX in-process parse + "
              "InferShapes, again in the process", 0.5,
              rows(graphs_2k, time_ratio("infer_o", "onnx_in_process_again"))),
        check("1M-node chain: peak RSS of infer -o <= 400 MiB", 400, rows(m1, peak("infer_o"))),
    ]
    s = results.get("startup")
    if s:
        out.append({"goal": "process start: own work well under 1 ms (simplify 1 minus trivial_main)",
                    "models": ["startup"], "worst_model": "startup", "worst": "%.2f ms" % s["own_ms"],
                    "met": s["own_ms"] < 1.0})
    return out


def print_goals(gs):
    print("\n| goal | worst measured | on | status |")
    print("|---|---:|---|---|")
    for g in gs:
        status = "no model" if g["met"] is None else ("met" if g["met"] else "**not met**")
        print("| %s | %s | %s | %s |" % (g["goal"], g["worst"], g["worst_model"] or "-", status))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--symshape", required=True, help="the symshape command under test")
    ap.add_argument("--onnx-ref", required=True, help="bench/onnx_ref_infer")
    ap.add_argument("--trivial", help="bench/trivial_main (default: beside --onnx-ref)")
    ap.add_argument("--spawn", help="bench/spawn_measure (default: beside --onnx-ref)")
    ap.add_argument("--models", required=True, help="the folder of bench/gen_whole_models.py")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per command (median; default 5)")
    ap.add_argument("--only", help="comma-separated model name patterns (fnmatch)")
    ap.add_argument("--json", help="raw results (default: MODELS/whole_process.json)")
    ap.add_argument("--label", default="", help="what is measured, e.g. the commit (stored in the JSON)")
    args = ap.parse_args()
    bindir = os.path.dirname(os.path.abspath(args.onnx_ref))
    args.trivial = args.trivial or os.path.join(bindir, "trivial_main")
    args.spawn = args.spawn or os.path.join(bindir, "spawn_measure")
    for exe in (args.symshape, args.onnx_ref, args.trivial, args.spawn):
        if not os.access(exe, os.X_OK):
            sys.exit("whole_process.py: %s is not an executable" % exe)
    manifest, names = load_manifest(args.models, args.only)
    tmp_dir = os.path.join(args.models, "tmp")
    os.makedirs(tmp_dir, exist_ok=True)
    result_file = tempfile.mktemp(prefix="spawn_measure.", dir=tmp_dir)
    version = subprocess.run([args.symshape, "--version"], capture_output=True, text=True).stdout.strip()
    results = {"meta": {"date": datetime.datetime.utcnow().isoformat(timespec="seconds") + "Z", "label": args.label,
                        "symshape": os.path.abspath(args.symshape), "symshape_version": version,
                        "onnx_ref": os.path.abspath(args.onnx_ref), "reps": args.reps, "cpus": os.cpu_count(),
                        "machine": platform.platform(), "loadavg_before": os.getloadavg()},
               "models": {}}
    failures = []
    runs = run_group(args, {"simplify": [args.symshape, "simplify", "1"], "trivial": [args.trivial]}, None,
                     result_file, failures, "startup", max(4 * args.reps, 20))
    med = medians(runs)
    if "simplify" in med and "trivial" in med:
        results["startup"] = {"runs": runs, "median": med,
                              "own_ms": (med["simplify"]["wall_s"] - med["trivial"]["wall_s"]) * 1e3}
    for n in names:
        path = os.path.join(args.models, n + ".onnx")
        out = os.path.join(tmp_dir, n + ".out.onnx")
        print("measuring %s ..." % n, file=sys.stderr, flush=True)
        runs = run_group(args, model_commands(args, path, out), out, result_file, failures, n, args.reps)
        results["models"][n] = dict(manifest[n], runs=runs, median=medians(runs))
    results["meta"]["loadavg_after"] = os.getloadavg()
    results["goals"] = goals(results, names)
    json_path = args.json or os.path.join(args.models, "whole_process.json")
    with open(json_path, "w") as f:
        json.dump(results, f, indent=1)
    print("Whole process, %s, %d repetitions (median), warm page cache; symshape: %s %s" % (
        results["meta"]["date"], args.reps, version, args.label))
    print()
    print_tables(results, names)
    print_goals(results["goals"])
    print("\nraw results: %s" % json_path, file=sys.stderr)
    shutil.rmtree(tmp_dir, ignore_errors=True)
    if failures:
        print("\n%d command(s) failed:" % len(failures), file=sys.stderr)
        for f in failures[:20]:
            print("  " + f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
