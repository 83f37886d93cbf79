"""SymbolicDim, Shape and the expression functions."""

import pickle

import pytest

import symshape
from symshape import Shape, SymbolicDim


def test_dim_kinds():
    assert SymbolicDim(3).is_constant and int(SymbolicDim(3)) == 3
    assert SymbolicDim("batch").value == "batch" and not SymbolicDim("batch").is_constant
    assert SymbolicDim(None).is_unknown and SymbolicDim(None).value is None and str(SymbolicDim(None)) == "?"
    assert SymbolicDim().is_unknown
    # text that is not an expression is one opaque symbol, as dim_params are read
    assert SymbolicDim("batch size").free_symbols() == {"batch size"}


@pytest.mark.parametrize(
    "expr, expected",
    [
        (lambda b: b + 1, "batch+1"),
        (lambda b: 1 + b, "batch+1"),
        (lambda b: b * 2 - b, "batch"),
        (lambda b: 10 - b, "-batch+10"),
        (lambda b: (b * 4) // 4, "batch"),
        (lambda b: b // 4, "batch//4"),
        (lambda b: 9 // b, "9//batch"),
        (lambda b: b % 8, "batch%8"),
        (lambda b: (b * 8) % 8, "0"),
        (lambda b: b + SymbolicDim("seq") - b, "seq"),
        (lambda b: 2 * b * 3, "6*batch"),
    ],
)
def test_dim_arithmetic_canonical(expr, expected):
    assert str(expr(SymbolicDim("batch"))) == expected


def test_dim_equality_by_canonical_form():
    assert SymbolicDim("a+b") == SymbolicDim("b+a")
    assert SymbolicDim("2*(x+1)") == SymbolicDim("2*x+2")
    assert SymbolicDim("x") + 0 == "x"
    assert SymbolicDim(4) == 4 and SymbolicDim(4) != 5
    assert SymbolicDim("a") != SymbolicDim("b")
    assert SymbolicDim(None) == SymbolicDim(None) and SymbolicDim(None) != SymbolicDim(0)
    assert hash(SymbolicDim("a+b")) == hash(SymbolicDim("b+a"))
    assert len({SymbolicDim("a+b"), SymbolicDim("b+a"), SymbolicDim(1)}) == 2
    assert SymbolicDim("a").__eq__(1.5) is NotImplemented


def test_unknown_propagates():
    assert (SymbolicDim(None) + 1).is_unknown
    assert (SymbolicDim("a") * SymbolicDim(None)).is_unknown


def test_dim_evaluate_and_symbols():
    d = (SymbolicDim("H") + 1) // 2
    assert d.evaluate({"H": 7}) == 4
    assert d.free_symbols() == {"H"}
    assert SymbolicDim(5).evaluate({}) == 5
    with pytest.raises(ValueError, match="H"):
        d.evaluate({})
    with pytest.raises(ValueError, match="unknown"):
        SymbolicDim(None).evaluate({})
    with pytest.raises(ValueError, match="negative"):
        d.evaluate({"H": -1})


def test_dim_errors():
    with pytest.raises(ZeroDivisionError):
        SymbolicDim("a") // 0
    with pytest.raises(ZeroDivisionError):
        SymbolicDim("a") % 0
    with pytest.raises(OverflowError):
        SymbolicDim(2**62) * 4
    with pytest.raises(ValueError, match="int64"):
        SymbolicDim(2**70)
    with pytest.raises(TypeError):
        SymbolicDim(1.5)
    with pytest.raises(TypeError):
        SymbolicDim("a") + 1.5
    with pytest.raises(TypeError):
        int(SymbolicDim("a"))


def test_dim_repr_and_pickle():
    for d in [SymbolicDim("a*b+1"), SymbolicDim(7), SymbolicDim(None)]:
        assert eval(repr(d), {"SymbolicDim": SymbolicDim}) == d
        assert pickle.loads(pickle.dumps(d)) == d


def test_shape_basics():
    s = Shape(["batch", 128, SymbolicDim("seq") // 2, None])
    assert s.rank == 4 and len(s) == 4
    assert str(s) == "[batch,128,seq//2,?]"
    assert s[0] == "batch" and s[-2] == SymbolicDim("seq//2") and s[3].is_unknown
    assert s[1:3] == Shape([128, "seq//2"])
    assert [str(d) for d in s] == ["batch", "128", "seq//2", "?"]
    assert s.free_symbols() == {"batch", "seq"}
    assert not s.is_fully_known and not s.is_static
    assert Shape([1, 2]).is_static
    assert s == ["batch", 128, "seq//2", None]
    assert pickle.loads(pickle.dumps(s)) == s
    with pytest.raises(IndexError):
        s[4]


def test_shape_unknown_rank():
    s = Shape(None)
    assert s.rank is None and s.dims is None and str(s) == "?"
    assert s != Shape([])
    with pytest.raises(TypeError):
        len(s)


def test_shape_evaluate_and_simplify():
    s = Shape(["batch", 128, "seq"])
    assert s.evaluate({"batch": 4, "seq": 512}) == (4, 128, 512)
    with pytest.raises(ValueError, match="seq"):
        s.evaluate({"batch": 4})
    assert Shape(["2*x//2", "x+x-x"]).simplify() == Shape(["x", "x"])
    assert Shape(["(a+1)*(a+1)"]).simplify()[0] == SymbolicDim("a*a+2*a+1")


@pytest.mark.parametrize(
    "text, canonical",
    [("2*batch//batch", "2"), ("b+a", "a+b"), ("(x+1)*2-2", "2*x"), ("max(a,a)", "a"), ("7//2", "3")],
)
def test_simplify(text, canonical):
    assert symshape.simplify(text) == canonical


def test_simplify_matches_the_command_messages():
    with pytest.raises(ValueError, match=r"^'a\+': "):
        symshape.simplify("a+")
    with pytest.raises(ValueError, match="division by zero"):
        symshape.simplify("a//0")


def test_evaluate():
    assert symshape.evaluate("(H+1)//2", {"H": 7}) == 4
    assert symshape.evaluate("3*4") == 12
    assert symshape.evaluate("-7//2") == -4  # floor, as Python's //
    with pytest.raises(ValueError, match="x"):
        symshape.evaluate("x+1", {})
    with pytest.raises(ValueError):
        symshape.evaluate("x+", {"x": 1})


def test_prove():
    assert symshape.prove_ge("a+1", "a")
    assert not symshape.prove_ge("a", "a+1")
    assert not symshape.prove_ge("a", "b")  # not proved either way
    assert symshape.prove_ge(SymbolicDim("n") * 2, "n")  # symbols are >= 0
    assert symshape.prove_ge(3, 2) and not symshape.prove_ge(2, 3)
    assert symshape.prove_eq("2*(x+1)", "2*x+2")
    assert not symshape.prove_eq("x", "y")
    with pytest.raises(ValueError):
        symshape.prove_ge("a+", "a")
    with pytest.raises(ValueError):
        symshape.prove_ge(SymbolicDim(None), 1)


def test_dim_comparisons_decided_for_every_value():
    assert SymbolicDim(3) < 4 and not SymbolicDim(3) > 4 and SymbolicDim(4) >= 4 and 4 <= SymbolicDim(4)
    seq = SymbolicDim("seq")
    assert seq + 1 > seq and seq <= seq * 2 and not seq < 0 and (seq + 1) // 2 <= seq + 1
    assert sorted([SymbolicDim(5), SymbolicDim(2), 3]) == [2, 3, 5]
    with pytest.raises(TypeError, match="depends on the values"):
        seq < 4
    with pytest.raises(TypeError, match="unknown"):
        SymbolicDim(None) < 4
    with pytest.raises(TypeError):
        seq < "seq"


def test_data_type_prints_as_onnx_writes_it():
    assert str(symshape.DataType.FLOAT) == "float" and f"{symshape.DataType.INT64}" == "int64"
    assert symshape.DataType.FLOAT == 1 and repr(symshape.DataType.FLOAT) == "<DataType.FLOAT: 1>"
