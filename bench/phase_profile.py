#!/usr/bin/python3
"""Where the time of `symshape infer MODEL -o OUT` goes, by phase: timer samples with call
stacks (`perf record -g -e cpu-clock`) over many runs of the command, each sample put in the
first phase of PHASES found on its stack, printed as a markdown table.

The command must be built with frame pointers, or the stacks stop at its first frame:
  cmake -S . -B /tmp/build-fp -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYMSHAPE_BUILD_TESTS=OFF \\
        -DCMAKE_CXX_FLAGS=-fno-omit-frame-pointer && cmake --build /tmp/build-fp --target symshape_cli
  /usr/bin/python3 bench/phase_profile.py --symshape /tmp/build-fp/bin/symshape --runs 300 \\
        /tmp/whole_models/transformer_48.onnx /tmp/whole_models/chain_10k.onnx

glibc's own functions (memset, memcpy) have no frame pointers: a page fault taken inside
them has no frame of the command, and lands in the last row with exec, exit and start-up.
Needs `perf` (Debian's linux-perf); a virtual machine without hardware counters is fine,
as cpu-clock is a software event. CI only runs it as a smoke test (bench/CMakeLists.txt);
without perf it exits with 77.
"""

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile

# (row, a function name that marks it), the first found on a sample's stack wins: the
# inner phases come before the outer ones that contain them.
PHASES = [
    ("the wire check (`wire::check_message`)", "wire::check_message"),
    ("building the IR (`Loader::load_model`)", "Loader::load_model"),
    ("inference (`Engine::run`)", "Engine::run"),
    ("the splice: reading the graph's fields (`Splice::Splice`)", "Splice::Splice"),
    ("the splice: encoding the types (`Splice::write_types`)", "Splice::write_types"),
    ("writing OUT (`write_infer_outputs`)", "write_infer_outputs"),
    ("the summary (`print_infer_summary`)", "print_infer_summary"),
    ("the rest of `main`", "main"),
]
NO_FRAME = "no frame of the command: exec, exit, start-up, faults inside glibc"
ZEROING = ("clear_page", "folio_zero", "clear_huge")


def stacks(perf_data, comm):
    """The function names of each sample's stack, innermost first."""
    out = subprocess.run(["perf", "script", "-i", perf_data, "--comm", comm, "-F", "ip,sym"],
                         capture_output=True, text=True, check=True).stdout
    for block in out.split("\n\n"):
        names = []
        for line in block.strip().split("\n"):
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                names.append(parts[1])
        if names:
            yield names


def phase_of(names):
    for row, marker in PHASES:
        if any(n.endswith(marker) or marker + "(" in n or marker + "<" in n for n in names):
            return row
    return NO_FRAME


def profile(symshape, model, runs, work):
    exe = os.path.join(work, "symshape_prof")  # a name to select its samples by (perf keeps 15 characters)
    shutil.copy(symshape, exe)
    out = os.path.join(work, "out.onnx")
    first = subprocess.run([exe, "infer", model, "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if first.returncode != 0:  # a failing command's profile would mislead
        sys.exit("phase_profile: symshape infer %s exited with %d: %s" % (model, first.returncode, first.stderr.strip()))
    loop = os.path.join(work, "loop.sh")
    with open(loop, "w") as f:
        f.write('for i in $(seq %d); do rm -f "%s"; "%s" infer "%s" -o "%s" > /dev/null; done\n' %
                (runs, out, exe, model, out))
    data = os.path.join(work, "perf.data")
    recorded = subprocess.run(["perf", "record", "-q", "-g", "-e", "cpu-clock", "-F", "20000", "-o", data, "--",
                               "bash", loop], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if recorded.returncode != 0:  # (perf_event_paranoid, or a container without perf events)
        print("phase_profile: perf record failed: " + recorded.stderr.strip(), file=sys.stderr)
        sys.exit(77)
    counts, total, zeroing = collections.Counter(), 0, 0
    for names in stacks(data, os.path.basename(exe)):
        total += 1
        counts[phase_of(names)] += 1
        zeroing += any(n.startswith(ZEROING) for n in names)
    return counts, total, zeroing


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--symshape", required=True, help="a symshape built with -fno-omit-frame-pointer")
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("models", nargs="+")
    a = ap.parse_args()
    if not shutil.which("perf"):
        print("phase_profile: needs perf (apt-get install linux-perf)", file=sys.stderr)
        sys.exit(77)  # (ctest's smoke test counts this as skipped)
    results = []
    with tempfile.TemporaryDirectory() as work:
        for model in a.models:
            results.append(profile(a.symshape, model, a.runs, work))
    names = [os.path.splitext(os.path.basename(m))[0] for m in a.models]
    print("| phase (function on the stack) | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for row in [r for r, _ in PHASES] + [NO_FRAME]:
        print("| %s | %s |" % (row, " | ".join("%.1f%%" % (100.0 * c[row] / max(t, 1)) for c, t, _ in results)))
    print("| of all samples: zeroing huge pages | %s |" %
          " | ".join("%.1f%%" % (100.0 * z / max(t, 1)) for _, t, z in results))
    print("\nsamples: " + ", ".join("%s %d" % (n, t) for n, (_, t, _) in zip(names, results)))


if __name__ == "__main__":
    main()
