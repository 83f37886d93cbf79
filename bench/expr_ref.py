"""Reference semantics of symshape dimension expressions, in plain Python.

Shared by gen_expr_corpus.py and sympy_compare.py. Standard library only.

Grammar (precedence low to high, as Python's for these tokens):
    expr    := min_e ('^' min_e)*        '^' is max
    min_e   := sum ('&' sum)*            '&' is min
    sum     := product (('+'|'-') product)*
    product := unary (('*'|'//'|'%') unary)*
    unary   := ('+'|'-')* atom
    atom    := INTEGER | NAME | '(' expr ')' | CALL
    CALL    := ('CeilToInt'|'Max'|'max'|'Min'|'min') '(' expr (',' expr)* ')'

Meaning: integers of unbounded size, `//` and `%` with Python's floor
semantics, CeilToInt(a, b) = ceil(a / b) (exactly, for either sign of b).

AST nodes are tuples:
    ('int', v) ('sym', name) ('neg', a) ('add', [(sign, a), ...])
    ('mul', a, b) ('floordiv', a, b) ('mod', a, b) ('ceil', a, b)
    ('max', [a, ...]) ('min', [a, ...])
"""

import re

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(//|[-+*%^&(),]))")


class ParseError(ValueError):
    pass


def tokenize(text):
    tokens = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError("position %d: unexpected %r in %r" % (pos, text[pos], text))
        if m.group(1) is not None:
            tokens.append(("int", int(m.group(1))))
        elif m.group(2) is not None:
            tokens.append(("name", m.group(2)))
        else:
            tokens.append(("op", m.group(3)))
        pos = m.end()
    tokens.append(("end", None))
    return tokens


class _Parser:
    def __init__(self, text):
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self):
        return self.tokens[self.i]

    def accept(self, op):
        kind, value = self.tokens[self.i]
        if kind == "op" and value == op:
            self.i += 1
            return True
        return False

    def expect(self, op):
        if not self.accept(op):
            raise ParseError("expected %r at token %d in %r" % (op, self.i, self.text))

    def parse(self):
        e = self.parse_max()
        if self.peek()[0] != "end":
            raise ParseError("unexpected %r in %r" % (self.peek()[1], self.text))
        return e

    def parse_max(self):
        args = [self.parse_min()]
        while self.accept("^"):
            args.append(self.parse_min())
        return args[0] if len(args) == 1 else ("max", args)

    def parse_min(self):
        args = [self.parse_sum()]
        while self.accept("&"):
            args.append(self.parse_sum())
        return args[0] if len(args) == 1 else ("min", args)

    def parse_sum(self):
        terms = [(1, self.parse_product())]
        while True:
            if self.accept("+"):
                terms.append((1, self.parse_product()))
            elif self.accept("-"):
                terms.append((-1, self.parse_product()))
            else:
                break
        return terms[0][1] if len(terms) == 1 else ("add", terms)

    def parse_product(self):
        e = self.parse_unary()
        while True:
            if self.accept("//"):
                e = ("floordiv", e, self.parse_unary())
            elif self.accept("*"):
                e = ("mul", e, self.parse_unary())
            elif self.accept("%"):
                e = ("mod", e, self.parse_unary())
            else:
                return e

    def parse_unary(self):
        negate = False
        while True:
            if self.accept("-"):
                negate = not negate
            elif not self.accept("+"):
                break
        e = self.parse_atom()
        return ("neg", e) if negate else e

    def parse_atom(self):
        kind, value = self.peek()
        if kind == "int":
            self.i += 1
            return ("int", value)
        if self.accept("("):
            e = self.parse_max()
            self.expect(")")
            return e
        if kind == "name":
            self.i += 1
            if self.accept("("):
                args = [self.parse_max()]
                while self.accept(","):
                    args.append(self.parse_max())
                self.expect(")")
                if value == "CeilToInt":
                    if len(args) != 2:
                        raise ParseError("CeilToInt takes 2 arguments in %r" % self.text)
                    return ("ceil", args[0], args[1])
                if value in ("Max", "max"):
                    return ("max", args)
                if value in ("Min", "min"):
                    return ("min", args)
                raise ParseError("unknown function %r in %r" % (value, self.text))
            return ("sym", value)
        raise ParseError("unexpected %r in %r" % (value, self.text))


def parse(text):
    return _Parser(text).parse()


def evaluate(node, b):
    """Exact value at bindings b (dict name -> int); ZeroDivisionError on x//0."""
    tag = node[0]
    if tag == "int":
        return node[1]
    if tag == "sym":
        return b[node[1]]
    if tag == "neg":
        return -evaluate(node[1], b)
    if tag == "add":
        return sum(s * evaluate(t, b) for s, t in node[1])
    if tag == "mul":
        return evaluate(node[1], b) * evaluate(node[2], b)
    if tag == "floordiv":
        return evaluate(node[1], b) // evaluate(node[2], b)
    if tag == "mod":
        return evaluate(node[1], b) % evaluate(node[2], b)
    if tag == "ceil":
        return -((-evaluate(node[1], b)) // evaluate(node[2], b))
    if tag == "max":
        return max(evaluate(a, b) for a in node[1])
    if tag == "min":
        return min(evaluate(a, b) for a in node[1])
    raise ValueError("bad node %r" % (tag,))


def symbols(node, out=None):
    if out is None:
        out = set()
    tag = node[0]
    if tag == "sym":
        out.add(node[1])
    elif tag == "add":
        for _, t in node[1]:
            symbols(t, out)
    elif tag in ("max", "min"):
        for a in node[1]:
            symbols(a, out)
    elif tag != "int":
        for a in node[1:]:
            symbols(a, out)
    return out


def to_sympy_text(node):
    """SymPy source text with the same meaning: Max, Min, floor(a/b),
    Mod(a, b), ceiling(a/b). Every operand is bracketed."""
    tag = node[0]
    if tag == "int":
        return str(node[1])
    if tag == "sym":
        return node[1]
    if tag == "neg":
        return "(-%s)" % to_sympy_text(node[1])
    if tag == "add":
        parts = []
        for s, t in node[1]:
            parts.append(("+" if s > 0 else "-") + to_sympy_text(t))
        return "(" + "".join(parts) + ")"
    if tag == "mul":
        return "(%s*%s)" % (to_sympy_text(node[1]), to_sympy_text(node[2]))
    if tag == "floordiv":
        return "floor(%s/%s)" % (to_sympy_text(node[1]), to_sympy_text(node[2]))
    if tag == "mod":
        return "Mod(%s, %s)" % (to_sympy_text(node[1]), to_sympy_text(node[2]))
    if tag == "ceil":
        return "ceiling(%s/%s)" % (to_sympy_text(node[1]), to_sympy_text(node[2]))
    if tag == "max":
        return "Max(%s)" % ", ".join(to_sympy_text(a) for a in node[1])
    if tag == "min":
        return "Min(%s)" % ", ".join(to_sympy_text(a) for a in node[1])
    raise ValueError("bad node %r" % (tag,))


def read_corpus(path):
    """[(line_number, category, expression)] from a `category<TAB>expr` file;
    blank lines and lines starting with '#' are skipped."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            category, sep, expr = line.partition("\t")
            if not sep:
                raise ValueError("%s:%d: expected category<TAB>expression" % (path, n))
            out.append((n, category, expr))
    return out
