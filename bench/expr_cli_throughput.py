#!/usr/bin/python3
"""Whole-process throughput of `symshape simplify` on the expression corpus.

Runs the command as a user would, once per category and once on the whole
corpus, several times each, and prints expressions per second of process CPU
time (user + system of the child, from getrusage) and of wall time, median
over the runs. Process start, reading the input and writing the output are
included. The first row, `start`, is `symshape simplify 1`: what starting the
process costs, the floor under every category's time (a target rate leaves
n / rate - start for the n expressions of a category).

  bench/expr_cli_throughput.py --symshape build/bin/symshape [--corpus FILE]
      [--runs N] [--mode file|args] [--token-floor build/bin/expr_token_floor]

--mode file (default) passes the expressions with `simplify --file F`;
--mode args passes them as arguments (`simplify -- E1 E2 ...`, as few
processes as the argument-size limit allows), for a symshape without --file.
--token-floor adds a column: the CPU time of bench/expr_token_floor.cpp on the
same file, a process that only splits the expressions into tokens and looks
their names up (the least any engine does), alternating with the command.
Standard library only.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def read_corpus(path):
    by_category = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            category, text = line.split("\t", 1)
            by_category.setdefault(category, []).append(text)
    return by_category


def chunks(exprs, limit=1_000_000):
    """Argument lists whose total size stays under `limit` bytes."""
    chunk, size = [], 0
    for e in exprs:
        if chunk and size + len(e) + 1 > limit:
            yield chunk
            chunk, size = [], 0
        chunk.append(e)
        size += len(e) + 1
    if chunk:
        yield chunk


def run_once(symshape, exprs, mode, path):
    """One run of the command on the expressions (run_commands' result)."""
    if mode == "file":
        commands = [[symshape, "simplify", "--file", path]]
    else:
        commands = [[symshape, "simplify", "--"] + c for c in chunks(exprs)]
    return run_commands(commands)


def run_commands(commands):
    """CPU seconds (children's user + system), wall seconds and the number of
    processes, running the commands one after the other."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for cmd in commands:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, len(commands)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--symshape", required=True)
    ap.add_argument("--corpus", default=os.path.join(here, "data", "expr_corpus.txt"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--mode", choices=["file", "args"], default="file")
    ap.add_argument("--token-floor", metavar="PATH", help="bench/expr_token_floor.cpp built")
    args = ap.parse_args()

    by_category = read_corpus(args.corpus)
    groups = list(by_category.items()) + [("all", [e for v in by_category.values() for e in v])]
    print(f"{args.symshape} simplify ({args.mode} mode), median of {args.runs} runs")
    floor_header = f" {'floor cpu ms':>12}" if args.token_floor else ""
    print(f"{'category':<10} {'n':>5} {'procs':>5} {'cpu ms':>8} {'wall ms':>8} {'expr/s (cpu)':>13} {'expr/s (wall)':>14}"
          + floor_header)
    with tempfile.TemporaryDirectory() as tmp:
        for name, exprs in [("start", ["1"])] + groups:
            path = os.path.join(tmp, name + ".txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(exprs) + "\n")
            runs, floors = [], []
            for _ in range(args.runs):
                runs.append(run_once(args.symshape, exprs, args.mode, path))
                if args.token_floor:
                    floors.append(run_commands([[args.token_floor, path]])[0])
            cpu = statistics.median(r[0] for r in runs)
            wall = statistics.median(r[1] for r in runs)
            floor = f" {statistics.median(floors) * 1e3:>12.2f}" if floors else ""
            print(f"{name:<10} {len(exprs):>5} {runs[0][2]:>5} {cpu * 1e3:>8.2f} {wall * 1e3:>8.2f} "
                  f"{len(exprs) / cpu:>13,.0f} {len(exprs) / wall:>14,.0f}" + floor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
