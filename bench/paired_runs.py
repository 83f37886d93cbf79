#!/usr/bin/python3
"""Two builds of a command, run alternately on the same arguments: the wall time and the
page faults of each run, and their quartiles and mean per build.

On a shared machine whose speed changes from one minute to the next, alternating the two
builds run by run is what makes their times comparable; the quartiles show a build whose
runs fall into two groups (as the command's did before its heap was all in huge pages),
which a median of a few runs hides.

Usage:
  /usr/bin/python3 bench/paired_runs.py [-n 60] BEFORE AFTER -- ARGS...
  e.g. bench/paired_runs.py -n 60 /tmp/old/symshape build/bin/symshape -- \\
       infer /tmp/wm/transformer_48.onnx -o /tmp/out.onnx --quiet

Each run is timed around `subprocess.run` (so the times include starting a process from
Python, the same for both builds); its faults are the growth of RUSAGE_CHILDREN's minor
faults. Standard output and error of the runs go to /dev/null; a failing run stops the
script (exit status 1).
"""

import argparse
import resource
import statistics
import subprocess
import sys
import time


def quantile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def run_once(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall_ms = (time.perf_counter() - start) * 1e3
    if done.returncode != 0:
        sys.exit("paired_runs: %s exited with %d" % (" ".join(argv), done.returncode))
    return wall_ms, resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - before


def summary(label, walls, faults):
    w, f = sorted(walls), sorted(faults)
    slow = sum(1 for x in w if x > 1.5 * quantile(w, 0.25))
    return ("%-6s wall p25 %.2f / median %.2f / p75 %.2f / mean %.2f ms | faults %d-%d (median %d) | "
            "runs over 1.5x the p25: %d of %d" % (label, quantile(w, 0.25), quantile(w, 0.5), quantile(w, 0.75),
                                                  statistics.mean(w), f[0], f[-1], quantile(f, 0.5), slow, len(w)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=60, help="runs of each build (default 60)")
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- then the arguments of both")
    a = ap.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if a.n < 1:
        ap.error("-n must be at least 1")
    runs = {"before": ([], []), "after": ([], [])}
    for i in range(a.n):
        order = (("before", a.before), ("after", a.after))
        for label, exe in (order if i % 2 == 0 else order[::-1]):
            wall_ms, faults = run_once([exe] + args)
            runs[label][0].append(wall_ms)
            runs[label][1].append(faults)
    for label in ("before", "after"):
        print(summary(label, *runs[label]))
    print("after / before: median %.2fx, mean %.2fx" % (
        statistics.median(runs["after"][0]) / statistics.median(runs["before"][0]),
        statistics.mean(runs["after"][0]) / statistics.mean(runs["before"][0])))


if __name__ == "__main__":
    main()
