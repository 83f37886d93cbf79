#!/usr/bin/python3
"""Generates the dimension-expression corpus used by bench/expr_bench.cpp and
bench/sympy_compare.py: one `category<TAB>expression` line per expression,
deterministic for a given --seed (standard library only).

Categories, each mimicking text that shape inference produces:
  conv       Conv output sizes, nested 2-6 layers deep
  pool       MaxPool/AveragePool output sizes (floor and ceil mode), nested
  attention  past + seq sums of KV caches, scores and reshapes around them
  reshape    Reshape products and quotients (the -1 dimension)
  flatten    Flatten products of several (possibly computed) dimensions
  slice      Slice start/end clamps and lengths with min/max
  ceil_pad   CeilToInt padding (SAME padding, padding to a block multiple)
  cancel     long sums whose terms mostly cancel
  random     random expression trees over every operator

Usage:
  /usr/bin/python3 bench/gen_expr_corpus.py                 # rewrite bench/data/expr_corpus.txt
  /usr/bin/python3 bench/gen_expr_corpus.py -o FILE
  /usr/bin/python3 bench/gen_expr_corpus.py --check FILE    # exit 1 if FILE is not up to date
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import expr_ref  # noqa: E402

DEFAULT_SEED = 20240611
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "expr_corpus.txt")

COUNTS = [
    ("conv", 450),
    ("pool", 350),
    ("attention", 400),
    ("reshape", 400),
    ("flatten", 350),
    ("slice", 400),
    ("ceil_pad", 350),
    ("cancel", 300),
    ("random", 500),
]

SPATIAL = ["H", "W", "D", "height", "width", "in_h", "in_w", "L", "img"]
BATCH = ["batch", "N", "B", "bs"]
CHANNELS = ["C", "channels", "c_in"]
SEQ = ["seq", "seq_len", "S", "tokens"]
PAST = ["past", "past_seq", "past_len", "cache_len"]
GENERIC = ["s0", "s1", "s2", "s3", "s4", "s5", "n", "m", "k"]


def paren(text):
    return "(" + text + ")"


def needs_paren(text):
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "+-*/%^& ":
            return True
    return False


def atomise(text):
    return paren(text) if needs_paren(text) else text


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, seq):
        return self.r.choice(seq)

    def rint(self, lo, hi):
        return self.r.randint(lo, hi)

    def chance(self, p):
        return self.r.randrange(1000) < int(p * 1000)

    # Conv: out = (x + pads - dilation*(k-1) - 1)//stride + 1, written the
    # way a shape rule builds it, constants not folded.
    def conv_layer(self, x):
        k = self.pick([1, 1, 3, 3, 3, 5, 7, 11])
        s = self.pick([1, 1, 1, 2, 2, 3, 4])
        d = self.pick([1, 1, 1, 1, 2, 3])
        form = self.rint(0, 3)
        if form == 0:
            p = self.pick([0, 1, (k - 1) // 2, k // 2])
            return "(%s + 2*%d - %d*(%d - 1) - 1)//%d + 1" % (atomise(x), p, d, k, s)
        if form == 1:
            p0, p1 = self.pick([0, 1, 2, 3]), self.pick([0, 1, 2, 3])
            return "(%s + %d + %d - %d)//%d + 1" % (atomise(x), p0, p1, (k - 1) * d + 1, s)
        if form == 2:
            # symbolic stride or kernel (dynamic conv)
            sym = self.pick(["stride", "sh", "kernel"])
            if sym == "kernel":
                return "(%s - %s)//%d + 1" % (atomise(x), sym, s)
            return "(%s - %d)//%s + 1" % (atomise(x), k, sym)
        return "(%s + %d - %d)//%d + 1" % (atomise(x), 2 * ((k - 1) // 2), k, s)

    def conv(self):
        x = self.pick(SPATIAL)
        if self.chance(0.2):
            x = "%s + %d" % (x, self.rint(1, 8))
        for _ in range(self.rint(2, 6)):
            x = self.conv_layer(x)
        if self.chance(0.25):
            x = "%s*%s" % (self.pick(CHANNELS + ["64", "128"]), atomise(x))
        return x

    def pool_layer(self, x):
        k = self.pick([2, 2, 3, 3, 5])
        s = self.pick([1, 2, 2, 2, 3])
        p = self.pick([0, 0, 1])
        form = self.rint(0, 4)
        if form == 0:
            return "(%s + 2*%d - %d)//%d + 1" % (atomise(x), p, k, s)
        if form == 1:  # ceil mode
            return "CeilToInt(%s + 2*%d - %d, %d) + 1" % (x, p, k, s)
        if form == 2:  # ceil mode written as a floor division
            return "(%s + 2*%d - %d + %d - 1)//%d + 1" % (atomise(x), p, k, s, s)
        if form == 3:  # ceil mode with the last window starting inside the input
            out = "CeilToInt(%s + 2*%d - %d, %d) + 1" % (x, p, k, s)
            return "min(%s, (%s + %d - 1)//%d + 1)" % (out, atomise(x), p, s)
        return "max((%s - %d)//%d + 1, 1)" % (atomise(x), k, s)

    def pool(self):
        x = self.pick(SPATIAL)
        for _ in range(self.rint(1, 5)):
            if self.chance(0.5):
                x = self.conv_layer(x)
            x = self.pool_layer(x)
        return x

    def attention(self):
        b, s, p = self.pick(BATCH), self.pick(SEQ), self.pick(PAST)
        heads = self.pick(["heads", "num_heads", "12", "16", "32"])
        hd = self.pick(["head_dim", "64", "128"])
        total = "%s + %s" % (p, s)
        form = self.rint(0, 9)
        if form == 0:  # a chain of caches appended over several steps
            steps = [self.pick(SEQ + ["1", "1", "new_tokens"]) for _ in range(self.rint(2, 8))]
            return " + ".join([p] + steps)
        if form == 1:
            return "%s*%s*(%s)" % (b, heads, total)
        if form == 2:
            return "(%s)*%s*%s - %s*%s" % (total, b, hd, p, b)
        if form == 3:
            return "%s*%s*%s*(%s)//(%s*%s)" % (b, heads, s, total, heads, s)
        if form == 4:
            return "max(%s, %s + %s - window)" % (total, p, s)
        if form == 5:
            return "(%s) - %s + (%s) - %s" % (total, s, total, p)
        if form == 6:  # attention mask of past+seq, sliced back
            return "min(%s, %s) + %s" % (total, "max_pos", s)
        if form == 7:
            return "%s*(%s)*%s*%s//(%s*%s)" % (b, total, heads, hd, heads, hd)
        if form == 8:
            return "(%s) ^ %s" % (total, self.pick(["1", s, "min_len"]))
        return "(%s + %s) - (%s + %s) + %s*(%s)" % (p, s, s, p, b, total)

    def dims(self, n):
        pool = BATCH + CHANNELS + SPATIAL + SEQ + GENERIC + ["12", "64", "768", "3"]
        out = []
        while len(out) < n:
            d = self.pick(pool)
            if self.chance(0.15):
                d = self.conv_layer(self.pick(SPATIAL))
            out.append(d)
        return out

    def product(self, dims):
        return "*".join(atomise(d) for d in dims)

    def reshape(self):
        form = self.rint(0, 5)
        if form == 0:  # -1 = total // known
            dims = self.dims(self.rint(2, 5))
            known = self.r.sample(dims, self.rint(1, len(dims)))
            return "(%s)//(%s)" % (self.product(dims), self.product(known))
        if form == 1:  # split heads
            b, s = self.pick(BATCH), self.pick(SEQ)
            hidden = self.pick(["hidden", "768", "1024", "heads*head_dim"])
            return "%s*%s*%s//(%s*%s)" % (b, s, atomise(hidden), self.pick(["12", "16", "heads"]), self.pick(["64", "head_dim"]))
        if form == 2:  # merge then split with a constant
            d = self.dims(self.rint(2, 4))
            c = self.pick([2, 4, 8, 16, 64])
            return "%d*%s//%d" % (c * self.rint(1, 8), self.product(d), c)
        if form == 3:
            d = self.dims(self.rint(2, 4))
            c = self.pick([2, 3, 4, 8])
            return "(%s + %d)//%d" % (self.product(d), c * self.rint(0, 5), c)
        if form == 4:
            d = self.dims(3)
            return "%s*%s//%s %% %s" % (atomise(d[0]), atomise(d[1]), atomise(d[0]), atomise(d[2]))
        d = self.dims(self.rint(2, 4))
        return "(%s)//(%s)*(%s)" % (self.product(d), atomise(d[0]), atomise(d[0]))

    def flatten(self):
        while True:
            n = self.rint(2, 6)
            dims = self.dims(n)
            axis = self.rint(1, n - 1)
            if self.chance(0.5):
                text = self.product(dims[:axis])
            elif self.chance(0.5):
                text = self.product(dims[axis:])
            else:
                text = "%s*(%s)" % (self.product(dims[:axis]), self.product(dims[axis:]))
            if not all(ch.isdigit() or ch == "*" for ch in text):  # at least one symbol
                return text

    def clamp_index(self, idx, dim):
        # ONNX Slice: a negative index counts from the end, then clamp to [0, dim].
        form = self.rint(0, 2)
        if form == 0:
            return "min(max(%s, 0), %s)" % (idx, dim)
        if form == 1:
            return "(%s ^ 0) & %s" % (idx, atomise(dim))
        return "Min(Max(%s, 0), %s)" % (idx, dim)

    def slice(self):
        dim = self.pick(SEQ + SPATIAL + PAST)
        if self.chance(0.3):
            dim = "%s + %s" % (self.pick(PAST), self.pick(SEQ))
        if self.chance(0.15):
            dim = self.conv_layer(self.pick(SPATIAL))
        start = self.pick(["0", "1", "2", "start", "%s - 3" % atomise(dim), "%s - 1" % atomise(dim), "begin"])
        end = self.pick(["%s" % dim, "%s - 1" % atomise(dim), "end", "16", "%s + 8" % atomise(dim), "%s - k" % atomise(dim)])
        step = self.pick(["1", "1", "2", "3", "step"])
        s = self.clamp_index(start, dim)
        e = self.clamp_index(end, dim)
        form = self.rint(0, 3)
        if form == 0:
            return s
        if form == 1:
            return "max(0, %s - %s)" % (e, atomise(s))
        if step == "1":
            return "max(%s - %s, 0)" % (e, atomise(s))
        return "max(0, (%s - %s + %s - 1)//%s)" % (e, atomise(s), step, step)

    def ceil_pad(self):
        x = self.pick(SPATIAL + SEQ)
        if self.chance(0.3):
            x = "%s + %s" % (self.pick(PAST), self.pick(SEQ))
        s = self.pick(["2", "3", "4", "8", "16", "32", "64", "block", "stride"])
        k = self.pick(["1", "3", "5", "7"])
        form = self.rint(0, 6)
        if form == 0:
            return "CeilToInt(%s, %s)*%s" % (x, s, s)
        if form == 1:
            return "CeilToInt(%s, %s)*%s - %s" % (x, s, s, atomise(x))
        if form == 2:  # total SAME padding
            return "max((CeilToInt(%s, %s) - 1)*%s + %s - %s, 0)" % (x, s, s, k, atomise(x))
        if form == 3:  # begin pad = total//2
            return "max((CeilToInt(%s, %s) - 1)*%s + %s - %s, 0)//2" % (x, s, s, k, atomise(x))
        if form == 4:  # end pad = total - total//2
            t = "max((CeilToInt(%s, %s) - 1)*%s + %s - %s, 0)" % (x, s, s, k, atomise(x))
            return "%s - %s//2" % (t, t)
        if form == 5:
            return "CeilToInt(CeilToInt(%s, %s), %s)" % (x, s, self.pick(["2", "4", "chunk"]))
        return "(CeilToInt(%s, %s) + %s - 1)//%s" % (x, s, s, s)

    def cancel_term(self):
        names = GENERIC + SEQ + PAST + SPATIAL[:4]
        form = self.rint(0, 6)
        if form <= 2:
            return self.pick(names)
        if form == 3:
            return "%s*%s" % (self.pick(names), self.pick(names))
        if form == 4:
            return "%s//%d" % (self.pick(names), self.rint(2, 8))
        if form == 5:
            return "max(%s, %s)" % (self.pick(names), self.pick(names))
        return "(%s + %d)%%%d" % (self.pick(names), self.rint(0, 5), self.rint(2, 8))

    def cancel(self):
        n = self.rint(8, 40)
        terms = [(self.rint(1, 5), self.cancel_term()) for _ in range(n)]
        keep = self.rint(0, 3)
        out = [(c, t) for c, t in terms]
        # Subtract all but `keep` of them again, in another order, some split in two.
        back = terms[keep:]
        self.r.shuffle(back)
        for c, t in back:
            if c > 1 and self.chance(0.4):
                c1 = self.rint(1, c - 1)
                out.append((-c1, t))
                out.append((-(c - c1), t))
            else:
                out.append((-c, t))
        self.r.shuffle(out)
        if self.chance(0.3):
            out.append((1, str(self.rint(1, 100))))
        text = ""
        for i, (c, t) in enumerate(out):
            body = t if abs(c) == 1 else "%d*%s" % (abs(c), atomise(t))
            if i == 0:
                text = ("-" if c < 0 else "") + body
            else:
                text += (" - " if c < 0 else " + ") + body
        return text

    def random_expr(self, depth):
        if depth <= 0 or self.chance(0.2):
            if self.chance(0.35):
                return str(self.rint(0, 9))
            return self.pick(GENERIC[:6])
        op = self.pick(["+", "-", "*", "//", "%", "^", "&", "max", "min", "ceil", "neg", "+", "*"])
        a = self.random_expr(depth - 1)
        b = self.random_expr(depth - 1)
        if op in ("//", "%", "ceil"):
            b = self.divisor(depth - 1)
        if op == "neg":
            return "-" + paren(a)
        if op in ("+", "-", "*", "//", "%"):
            return "%s %s %s" % (paren(a), op, paren(b))
        if op in ("^", "&"):
            return paren("%s %s %s" % (a, op, b))
        if op == "ceil":
            return "CeilToInt(%s, %s)" % (a, b)
        args = [a, b] + ([self.random_expr(depth - 1)] if self.chance(0.3) else [])
        return "%s(%s)" % (op, ", ".join(args))

    def divisor(self, depth):
        form = self.rint(0, 4)
        if form == 0:
            return str(self.pick([1, 2, 3, 4, 8, -2, -3]))
        if form == 1:
            return self.pick(GENERIC[:6])
        if form == 2:
            return "%s + %d" % (self.pick(GENERIC[:6]), self.rint(1, 4))
        return self.random_expr(max(depth - 1, 0))

    def random(self):
        return self.random_expr(self.rint(2, 5))


def identically_zero_divisor(node, rng):
    """True if some divisor in node is zero at every one of 30 random bindings
    (that is, almost surely identically zero: symshape rejects such text)."""
    divisors = []

    def walk(n):
        tag = n[0]
        if tag in ("floordiv", "mod", "ceil"):
            divisors.append(n[2])
        if tag == "add":
            for _, t in n[1]:
                walk(t)
        elif tag in ("max", "min"):
            for a in n[1]:
                walk(a)
        elif tag not in ("int", "sym"):
            for a in n[1:]:
                walk(a)

    walk(node)
    names = sorted(expr_ref.symbols(node))
    for d in divisors:
        zero_everywhere = True
        for _ in range(30):
            b = {s: rng.randint(0, 50) for s in names}
            try:
                if expr_ref.evaluate(d, b) != 0:
                    zero_everywhere = False
                    break
            except ZeroDivisionError:
                continue
        if zero_everywhere:
            return True
    return False


def generate(seed):
    g = Gen(seed)
    check_rng = random.Random(seed + 1)
    lines = []
    for category, count in COUNTS:
        make = getattr(g, category)
        seen = set()
        produced = 0
        while produced < count:
            text = make()
            if text in seen:
                continue
            node = expr_ref.parse(text)  # the generator's own output must parse
            if identically_zero_divisor(node, check_rng):
                continue
            seen.add(text)
            lines.append("%s\t%s" % (category, text))
            produced += 1
    return lines


def render(seed):
    header = [
        "# symshape dimension-expression corpus: category<TAB>expression",
        "# generated by bench/gen_expr_corpus.py --seed %d; do not edit by hand" % seed,
    ]
    return "\n".join(header + generate(seed)) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--check", metavar="FILE", help="compare FILE with a fresh generation; exit 1 if it differs")
    args = ap.parse_args()
    text = render(args.seed)
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            current = f.read()
        if current != text:
            sys.stderr.write(
                "%s is not up to date: run /usr/bin/python3 bench/gen_expr_corpus.py -o %s\n" % (args.check, args.check))
            return 1
        print("%s is up to date (%d expressions)" % (args.check, text.count("\n") - 2))
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s (%d expressions)" % (args.output, text.count("\n") - 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
