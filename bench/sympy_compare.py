#!/usr/bin/python3
"""symshape's expression engine against SymPy, in one run, on the same corpus.

For each expression of the corpus (bench/data/expr_corpus.txt):
  * reference: bench/expr_ref.py parses the text and evaluates it exactly
    (Python integers, floor // and %, CeilToInt = ceil of the quotient);
  * symshape: the helper bench/expr_corpus_tool.cpp (build/bin/symshape_expr_corpus)
    times parse_expr + to_string, and evaluates both the parsed (canonical)
    expression and the re-parsed printed form at the same bindings;
  * SymPy (on a subset, SymPy is slow): the text is translated once, untimed,
    to SymPy syntax with the same meaning (^ -> Max, & -> Min,
    a//b -> floor(a/b), a%b -> Mod(a, b), CeilToInt(a, b) -> ceiling(a/b),
    symbols integer=True, nonnegative=True); then the timed part is what a
    SymPy user calls to get a simplified form:
        e = parse_expr(text, local_dict=symbols); s = simplify(e)
    and s is evaluated with s.subs(bindings).
Both sides are timed in process CPU time (SymPy: time.process_time(); the
helper: std::clock()), so that other jobs on the machine disturb the figures
less. Bindings are random non-negative integers (seeded); a binding where the
original expression divides by zero is skipped. Any value that differs from
the reference (for symshape's canonical expression, its printed form, or
SymPy's simplified form) is a disagreement: it is listed, and the exit status
is 1.

Run from the repository root after building:
  /usr/bin/python3 bench/sympy_compare.py [--per-category 40] [--helper build/bin/symshape_expr_corpus]
"""

import argparse
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import expr_ref  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise Timeout()


def make_bindings(names, rng, count):
    """`count` bindings of every name: small values (0-4, where edge cases
    live), medium (5-32) and a few larger ones (33-300)."""
    out = []
    for _ in range(count):
        b = {}
        for name in sorted(names):
            r = rng.randrange(10)
            if r < 4:
                b[name] = rng.randint(0, 4)
            elif r < 8:
                b[name] = rng.randint(5, 32)
            else:
                b[name] = rng.randint(33, 300)
        out.append(b)
    return out


def choose_subset(entries, per_category):
    """Evenly spaced `per_category` expressions of each category, in corpus order."""
    by_cat = {}
    for i, e in enumerate(entries):
        by_cat.setdefault(e["category"], []).append(i)
    chosen = []
    for idx in by_cat.values():
        k = min(per_category, len(idx))
        chosen.extend(idx[(j * len(idx)) // k] for j in range(k))
    return sorted(chosen)


def write_corpus(path, entries):
    with open(path, "w", encoding="utf-8") as f:
        for e in entries:
            f.write("%s\t%s\n" % (e["category"], e["text"]))


def run_helper(helper, args, stdin_text=None):
    p = subprocess.run([helper] + args, input=stdin_text, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr)
        raise SystemExit("sympy_compare: '%s %s' failed with status %d" % (helper, " ".join(args), p.returncode))
    return p


def parse_time_line(text):
    fields = dict(kv.split("=", 1) for kv in text.split())
    return float(fields["exprs_per_second"]), int(fields["exprs"]), float(fields["seconds"])


def cpp_time(helper, path, min_time):
    out = run_helper(helper, ["time", path, "--min-time", str(min_time)]).stdout.strip()
    return parse_time_line(out)


def fmt_rate(x):
    if x >= 100:
        return "{:,.0f}".format(x)
    return "{:.2f}".format(x)


def run_sympy(entries, subset, categories, args, disagreements):
    """Times parse_expr + simplify on the subset (one pass, cache cleared
    first) and checks the simplified values; returns the timing figures."""
    import sympy
    from sympy.parsing.sympy_parser import parse_expr

    signal.signal(signal.SIGPROF, _on_alarm)
    sympy.core.cache.clear_cache()
    st = dict(version=sympy.__version__, time={c: 0.0 for c in categories}, parse_time={c: 0.0 for c in categories},
              count={c: 0 for c in categories}, timeouts=[], slowest=[])
    for n, i in enumerate(subset):
        e = entries[i]
        syms = {s: sympy.Symbol(s, integer=True, nonnegative=True) for s in e["names"]}
        text = expr_ref.to_sympy_text(e["ast"])  # untimed: the user would have SymPy text already
        parsed = simplified = t1 = None
        t0 = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, args.timeout)
        try:
            parsed = parse_expr(text, local_dict=syms)
            t1 = time.process_time()
            simplified = sympy.simplify(parsed)
        except Timeout:
            pass
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        t2 = time.process_time()
        cat = e["category"]
        st["time"][cat] += t2 - t0
        st["parse_time"][cat] += (t1 if t1 is not None else t2) - t0
        st["count"][cat] += 1
        st["slowest"].append((t2 - t0, e))
        if simplified is None:
            st["timeouts"].append(e)
            continue
        e["sympy"] = simplified
        for b, ref in e["bindings"]:
            sb = {syms[k]: sympy.Integer(v) for k, v in b.items()}
            v = simplified.subs(sb)
            if not (v.is_Integer and int(v) == ref):
                # Tell a translation mistake from a SymPy mistake.
                orig = parsed.subs(sb)
                why = "simplify" if (orig.is_Integer and int(orig) == ref) else "translation"
                disagreements["sympy"].append((e, b, ref, "%s (%s changed the value)" % (v, why)))
        if (n + 1) % 50 == 0:
            sys.stderr.write("sympy: %d/%d expressions\n" % (n + 1, len(subset)))
    return st


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.path.join(HERE, "data", "expr_corpus.txt"))
    ap.add_argument("--helper", default=os.path.join(ROOT, "build", "bin", "symshape_expr_corpus"))
    ap.add_argument("--per-category", type=int, default=40,
                    help="expressions per category timed with SymPy (default 40; 0: symshape only, "
                         "no SymPy needed)")
    ap.add_argument("--bindings", type=int, default=8, help="random bindings per expression (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-time", type=float, default=1.0,
                    help="seconds the C++ side repeats each timed corpus (default 1.0)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="CPU seconds before one SymPy parse+simplify is abandoned (counted with its time; default 120)")
    ap.add_argument("--max-report", type=int, default=20, help="disagreements printed per kind (default 20)")
    args = ap.parse_args()

    if not os.access(args.helper, os.X_OK):
        raise SystemExit("sympy_compare: helper '%s' not found; build first: "
                         "cmake -S . -B build && make -C build -j2" % args.helper)

    # ---- corpus, reference values -------------------------------------------------
    entries = []
    rng = random.Random(args.seed)
    skipped_div0 = 0
    for line_no, category, text in expr_ref.read_corpus(args.corpus):
        ast = expr_ref.parse(text)
        names = expr_ref.symbols(ast)
        bindings = []
        for b in make_bindings(names, rng, args.bindings):
            try:
                bindings.append((b, expr_ref.evaluate(ast, b)))
            except ZeroDivisionError:
                skipped_div0 += 1
        entries.append(dict(line=line_no, category=category, text=text, ast=ast, names=names, bindings=bindings))
    categories = []
    for e in entries:
        if e["category"] not in categories:
            categories.append(e["category"])
    subset = choose_subset(entries, args.per_category) if args.per_category > 0 else []
    disagreements = {"symshape": [], "symshape printed form": [], "sympy": []}

    # ---- symshape: canonical forms, round trip, values ----------------------------
    with tempfile.TemporaryDirectory() as tmp:
        full_path = os.path.join(tmp, "full.txt")
        write_corpus(full_path, entries)
        canon = run_helper(args.helper, ["canon", full_path])
        canon_lines = canon.stdout.split("\n")
        roundtrip_failures = [l for l in canon.stderr.split("\n") if l.startswith("round-trip")]
        for e, c in zip(entries, canon_lines):
            e["canonical"] = c
        parse_errors = [e for e in entries if e["canonical"].startswith("error:")]

        requests = []
        for e in entries:
            fields = [e["text"]]
            for b, _ in e["bindings"]:
                fields.append(",".join("%s=%d" % kv for kv in sorted(b.items())))
            requests.append("\t".join(fields))
        answers = run_helper(args.helper, ["eval"], "\n".join(requests) + "\n").stdout.split("\n")
        skipped_overflow = 0
        for e, ans in zip(entries, answers):
            values = ans.split("\t") if e["bindings"] else []
            for (b, ref), got in zip(e["bindings"], values):
                expr_v, _, printed_v = got.partition("|")
                if "overflow" in expr_v:
                    skipped_overflow += 1
                    continue
                if expr_v != str(ref):
                    disagreements["symshape"].append((e, b, ref, expr_v))
                elif printed_v != str(ref):
                    disagreements["symshape printed form"].append((e, b, ref, printed_v))

        # ---- timing: C++ on the full corpus and on the subset, per category ----------
        cpp_full = cpp_time(args.helper, full_path, args.min_time)
        cpp_cat_full, cpp_cat_subset = {}, {}
        cat_path = os.path.join(tmp, "category.txt")
        for cat in categories:
            write_corpus(cat_path, [e for e in entries if e["category"] == cat])
            cpp_cat_full[cat] = cpp_time(args.helper, cat_path, args.min_time / 2)
            if subset:
                write_corpus(cat_path, [entries[i] for i in subset if entries[i]["category"] == cat])
                cpp_cat_subset[cat] = cpp_time(args.helper, cat_path, args.min_time / 2)
        cpp_subset = None
        if subset:
            subset_path = os.path.join(tmp, "subset.txt")
            write_corpus(subset_path, [entries[i] for i in subset])
            cpp_subset = cpp_time(args.helper, subset_path, args.min_time)

    # ---- SymPy on the subset (after the C++ timings: nothing else runs meanwhile) ----
    sp = run_sympy(entries, subset, categories, args, disagreements) if subset else None

    # ---- report ---------------------------------------------------------------------
    print("Expression engine vs SymPy")
    print("  corpus: %s (%d expressions, %d categories)" % (os.path.relpath(args.corpus), len(entries), len(categories)))
    print("  symshape: parse_expr + to_string, each figure repeated for >= %.2f s CPU (per category >= %.2f s)"
          % (args.min_time, args.min_time / 2))
    if sp:
        print("  SymPy %s, Python %s: parse_expr + simplify on %d expressions (%d per category, evenly spaced),"
              " one pass, cache cleared first; CPU time" % (sp["version"], sys.version.split()[0], len(subset), args.per_category))
    print()
    if sp:
        hdr = "  %-10s %6s %13s %15s %15s %9s" % ("category", "n sub", "SymPy expr/s", "symshape (sub)",
                                                   "symshape (all)", "ratio")
        print(hdr)
        print("  " + "-" * (len(hdr) - 2))
        for cat in categories:
            sr = sp["count"][cat] / sp["time"][cat]
            cr = cpp_cat_subset[cat][0]
            print("  %-10s %6d %13s %15s %15s %8.0fx" % (cat, sp["count"][cat], fmt_rate(sr), fmt_rate(cr),
                                                         fmt_rate(cpp_cat_full[cat][0]), cr / sr))
        sp_total = sum(sp["time"].values())
        sp_parse_total = sum(sp["parse_time"].values())
        sp_rate = len(subset) / sp_total
        sp_parse_rate = len(subset) / sp_parse_total
        print("  %-10s %6d %13s %15s %15s %8.0fx" % ("all", len(subset), fmt_rate(sp_rate), fmt_rate(cpp_subset[0]),
                                                     fmt_rate(cpp_full[0]), cpp_subset[0] / sp_rate))
        print()
        ratios = {c: cpp_cat_subset[c][0] * sp["time"][c] / sp["count"][c] for c in categories}
        worst = min(ratios, key=ratios.get)
        geo = math.exp(sum(math.log(r) for r in ratios.values()) / len(ratios))
        print("  per-category ratios: lowest %.0fx (%s), geometric mean %.0fx" % (ratios[worst], worst, geo))
        print("  SymPy parse+simplify: %.1f s for %d expressions = %s expr/s"
              % (sp_total, len(subset), fmt_rate(sp_rate)))
        print("  SymPy parse only (auto-evaluating constructors, no simplify): %.1f s = %s expr/s"
              % (sp_parse_total, fmt_rate(sp_parse_rate)))
        print("  symshape parse+simplify: %s expr/s on the same subset, %s expr/s on the full corpus"
              % (fmt_rate(cpp_subset[0]), fmt_rate(cpp_full[0])))
        print("  RATIO symshape/SymPy, parse+simplify, same subset: %.0fx" % (cpp_subset[0] / sp_rate))
        print("  ratio symshape (parse+simplify) / SymPy parse only: %.0fx" % (cpp_subset[0] / sp_parse_rate))
        print("  slowest SymPy: " + "; ".join(
            "%.2f s (%s, line %d)" % (t, e["category"], e["line"])
            for t, e in sorted(sp["slowest"], key=lambda x: -x[0])[:3]))
        if sp["timeouts"]:
            print("  SymPy timeouts (> %g s CPU; time counted, values not checked): %d"
                  % (args.timeout, len(sp["timeouts"])))
            for e in sp["timeouts"]:
                print("    line %d %s: %s" % (e["line"], e["category"], e["text"]))
    else:
        hdr = "  %-10s %7s %15s" % ("category", "n", "symshape expr/s")
        print(hdr)
        print("  " + "-" * (len(hdr) - 2))
        for cat in categories:
            print("  %-10s %7d %15s" % (cat, cpp_cat_full[cat][1], fmt_rate(cpp_cat_full[cat][0])))
        print("  %-10s %7d %15s" % ("all", cpp_full[1], fmt_rate(cpp_full[0])))
        print("  (SymPy not run: --per-category 0)")
    print()
    n_bind = sum(len(e["bindings"]) for e in entries)
    print("Agreement (values at random bindings; reference = exact evaluation of the original text)")
    print("  symshape: %d expressions, %d bindings, each checked for the canonical expression and for its"
          " printed form parsed again" % (len(entries), n_bind))
    if sp:
        print("  SymPy:    %d expressions, %d bindings, checked for the simplified form"
              % (len(subset), sum(len(entries[i]["bindings"]) for i in subset)))
    print("  bindings skipped: %d (the original divides by zero), %d (int64 overflow in symshape's evaluate)"
          % (skipped_div0, skipped_overflow))
    print("  symshape parse errors: %d; printing round-trip failures (parse(print(e)) != e): %d"
          % (len(parse_errors), len(roundtrip_failures)))
    for e in parse_errors[: args.max_report]:
        print("    parse error, line %d: %s -> %s" % (e["line"], e["text"], e["canonical"]))
    for line in roundtrip_failures[: args.max_report]:
        print("    " + line)
    if len(roundtrip_failures) > args.max_report:
        print("    ... %d more round-trip failures" % (len(roundtrip_failures) - args.max_report))
    failed = bool(parse_errors) or bool(roundtrip_failures)
    for kind, items in disagreements.items():
        if kind == "sympy" and not sp:
            continue
        exprs = {id(e) for e, _, _, _ in items}
        print("  disagreements, %s: %d values in %d expressions" % (kind, len(items), len(exprs)))
        shown = set()
        for e, b, ref, got in items:
            if id(e) in shown or len(shown) >= args.max_report:
                continue
            shown.add(id(e))
            form = str(e.get("sympy")) if kind == "sympy" else e["canonical"]
            print("    line %d (%s): %s" % (e["line"], e["category"], e["text"]))
            print("      simplified: %s" % form)
            print("      at %s: expected %d, got %s" % (",".join("%s=%d" % kv for kv in sorted(b.items())), ref, got))
        failed = failed or bool(items)
    print()
    print("RESULT: %s" % ("DISAGREEMENTS FOUND" if failed else "all values agree"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
