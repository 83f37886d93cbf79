"""Runs `symshape infer` on every case of the malformed-model corpus and checks the
outcome the manifest expects (tests/malformed/README.md).

    /usr/bin/python3 tests/malformed/run.py SYMSHAPE CORPUS_DIR [--generate] [--only NAME] [--verbose]

--generate first writes the corpus into CORPUS_DIR with make_models.py (beside
this script), replacing an earlier corpus there.

Per case: `SYMSHAPE infer MODEL -o OUT ARGS...` with a 60 s timeout. Checked: the
exit code; every expected substring on stderr (and stdout), and the node when
given (a diagnostic's message starts with it); no
diagnostic on stdout; every stderr line naming the model file; no signal and no
sanitizer report; OUT created on exit 0, and on a non-zero exit neither created
(a first run with OUT absent) nor modified (a second run with OUT holding
sentinel bytes); no temporary file left beside OUT. Prints one line per case not
as expected and "N cases, M as expected"; exits 1 if any case is not.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

TIMEOUT = 60
SENTINEL = b"symshape malformed-corpus sentinel: -o must not be modified\n"
SANITIZER = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:",
             "ThreadSanitizer", "MemorySanitizer")


def run(symshape, model, out, args):
    """(exit code or a description of the abnormal end, stdout, stderr)."""
    # --full: the expectations hold whole types (cutting them is tested in tests/tools).
    cmd = [symshape, "infer", model, "-o", out, "--full"] + args
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"timeout after {TIMEOUT} s", "", ""
    out_text = p.stdout.decode("utf-8", "replace")
    err_text = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}", out_text, err_text
    return p.returncode, out_text, err_text


def first_line(text, limit=160):
    line = text.strip().splitlines()[0] if text.strip() else "(empty)"
    return line if len(line) <= limit else line[:limit] + "..."


def stream_problems(model, stdout, stderr, usage):
    """Contract checks that hold for every run whatever its exit code. A usage
    error (`usage`: the case expects exit 2) names the argument and the position
    in it, not the file."""
    problems = []
    for line in stdout.splitlines():
        if "error:" in line or "warning:" in line or "note:" in line:
            problems.append(f"diagnostic on stdout: {first_line(line)}")
            break
    for line in stderr.splitlines():
        if line.strip() and model not in line and not usage:
            problems.append(f"stderr line does not name the file: {first_line(line)}")
            break
    for marker in SANITIZER:
        if marker in stderr:
            problems.append(f"sanitizer report ({marker})")
            break
    return problems


def messages(model, stderr):
    """Each stderr line without its prefix ("symshape infer: [file ]MODEL: [error: |warning: |note: ]"):
    what remains starts with the place the diagnostic points at."""
    for line in stderr.splitlines():
        rest = line.removeprefix("symshape infer: ").removeprefix("file ")
        if not rest.startswith(model + ": "):
            continue
        rest = rest[len(model) + 2:]
        for severity in ("error: ", "warning: ", "note: "):
            rest = rest.removeprefix(severity)
        yield rest


def leftovers(out):
    """Temporary files the command left beside OUT (.NAME.symshape-PID-N)."""
    folder, base = os.path.split(out)
    return [f for f in os.listdir(folder or ".") if f.startswith("." + base + ".symshape-")]


def check_output_file(code, out, before):
    """OUT after a run: written on exit 0, else as it was (`before`: None = absent)."""
    exists = os.path.exists(out)
    if code == 0:
        return [] if exists else ["exit 0 but -o was not written"]
    if before is None:
        return [f"-o created although the exit was {code}"] if exists else []
    with open(out, "rb") as f:
        return [] if f.read() == before else [f"-o modified although the exit was {code}"]


def check_case(symshape, corpus, case, verbose):
    """(problems, actual exit, first stderr line)."""
    model = os.path.join(corpus, case["file"])
    # Beside the model: relative external-data locations then need no rewriting.
    out = os.path.join(corpus, case["name"] + ".out.onnx")
    expect = case["expect"]
    problems = []
    if os.path.lexists(out):
        os.remove(out)
    code, stdout, stderr = run(symshape, model, out, case["args"])
    if verbose:
        print(f"--- {case['name']}: exit {code}\nstdout: {stdout[:2000]}\nstderr: {stderr[:2000]}")
    if isinstance(code, str):
        return [code], code, first_line(stderr)
    if code != expect["exit"]:
        problems.append(f"exit {code}, expected {expect['exit']}")
    for s in expect["stderr"]:
        if s not in stderr:
            problems.append(f"stderr lacks {s!r}")
    for s in expect.get("stdout", []):
        if s not in stdout:
            problems.append(f"stdout lacks {s if len(s) < 80 else s[:77] + '...'!r}")
    if expect.get("node") and not any(m.startswith(expect["node"]) for m in messages(model, stderr)):
        problems.append(f"no diagnostic at {expect['node'].rstrip(': ')}")
    problems += stream_problems(model, stdout, stderr, expect["exit"] == 2)
    problems += check_output_file(code, out, None)
    if code != 0 or expect["exit"] != 0:
        # Again with OUT holding sentinel bytes: a non-zero exit leaves them alone.
        if os.path.lexists(out):
            os.remove(out)
        with open(out, "wb") as f:
            f.write(SENTINEL)
        code2, _, stderr2 = run(symshape, model, out, case["args"])
        if isinstance(code2, str):
            problems.append(f"second run: {code2}")
        else:
            if code2 != code:
                problems.append(f"second run exited {code2}, the first {code}")
            problems += [f"second run: {p}" for p in check_output_file(code2, out, SENTINEL)]
    problems += [f"temporary file left: {f}" for f in leftovers(out)]
    return problems, code, first_line(stderr)


def generate(corpus):
    if os.path.exists(os.path.join(corpus, "manifest.json")):
        shutil.rmtree(corpus)  # only a folder that holds a corpus
    make = os.path.join(os.path.dirname(os.path.abspath(__file__)), "make_models.py")
    subprocess.run([sys.executable, make, corpus], check=True, stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symshape")
    ap.add_argument("corpus")
    ap.add_argument("--generate", action="store_true", help="write the corpus first (make_models.py)")
    ap.add_argument("--only", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("--verbose", action="store_true", help="print each run's exit code, stdout and stderr")
    ap.add_argument("--json", help="write the results (name, class, expected, actual, problems) to this file")
    a = ap.parse_args()
    if a.generate:
        generate(a.corpus)
    with open(os.path.join(a.corpus, "manifest.json")) as f:
        cases = json.load(f)
    if a.only:
        unknown = set(a.only) - {c["name"] for c in cases}
        if unknown:
            sys.exit(f"run.py: no case named {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c["name"] in a.only]
    good = 0
    results = []
    for case in cases:
        problems, code, err = check_case(a.symshape, a.corpus, case, a.verbose)
        results.append({"name": case["name"], "class": case["class"], "expected": case["expect"], "exit": code,
                        "stderr": err, "problems": problems})
        if problems:
            print(f"FAIL {case['class']}/{case['name']}: {'; '.join(problems)} [exit {code}: {err}]")
        else:
            good += 1
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    print(f"{len(cases)} cases, {good} as expected")
    return 0 if good == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
