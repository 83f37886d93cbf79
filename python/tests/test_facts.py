"""Facts about symbols: assume= on simplify, infer_report, infer_symbolic_shapes and
profile, assume_nonempty=, prove(), and the readable contract conditions."""

import os

import pytest

import symshape

MODELS = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "models")
TABLE_POS = os.path.join(MODELS, "gpt2_table_pos.onnx")


def test_simplify_under_facts():
    assert symshape.simplify("min(seq, 4096)", assume=["seq<=2048"]) == "seq"
    assert symshape.simplify("min(seq, 4096)") == "min(4096,seq)"
    assert symshape.simplify("32*((H+31)//32)", assume=["H%32==0"]) == "H"
    assert symshape.simplify("total-seq", assume=["total==past+seq"]) == "past"


def test_bad_facts_name_the_position():
    with pytest.raises(ValueError, match="position 5"):
        symshape.simplify("x", assume=["seq<="])
    with pytest.raises(ValueError, match="contradicts"):
        symshape.simplify("x", assume=["a<=3", "a>=5"])
    with pytest.raises(TypeError):
        symshape.simplify("x", assume="seq<=3")


def test_prove():
    assert symshape.prove("((H+1)//2+1)//2 == (H+3)//4")
    no = symshape.prove("(H+1)//2 >= H")
    assert no.verdict == "false" and no.counterexample == {"H": 2}
    assert not no
    assert symshape.prove("min(64,past+seq) >= past+seq", assume=["past+seq<=64"]).verdict == "true"
    assert symshape.prove("a*a >= a").verdict == "unknown"
    with pytest.raises(ValueError, match="position"):
        symshape.prove("a <= ")


def test_contract_condition_and_assume():
    exact = symshape.infer_report(TABLE_POS)
    assert [c.condition for c in exact.contracts] == ["past+seq <= 64"]
    assert "or" in exact.contracts[0].relation
    assert str(exact.values["hidden"].dims[1]) != "seq"
    assert exact.facts == []
    assumed = symshape.infer_report(TABLE_POS, assume=["past+seq<=64"])
    assert [str(d) for d in assumed.values["hidden"].dims] == ["batch", "seq", "32"]
    assert [str(d) for d in assumed.values["present_key_1"].dims] == ["batch", "2", "past+seq", "16"]
    assert assumed.facts == [{"fact": "past+seq <= 64", "source": "--assume"}]
    assert assumed.contracts == []


def test_assume_nonempty_lists_its_facts():
    r = symshape.infer_report(TABLE_POS, assume_nonempty=True)
    assert {"fact": "seq >= 1", "source": "--assume-nonempty"} in r.facts


def test_infer_symbolic_shapes_under_facts():
    model = symshape.infer_symbolic_shapes(TABLE_POS, assume=["past+seq<=64"])
    dims = {vi.name: [d.dim_param or d.dim_value for d in vi.type.tensor_type.shape.dim] for vi in model.graph.output}
    assert dims["hidden"] == ["batch", "seq", 32]


def test_profile_under_facts_has_numbers():
    p = symshape.profile(TABLE_POS, {"batch": 2, "seq": 7, "past": 5}, assume=["past+seq<=64"])
    assert isinstance(p["totals"]["flops"]["value"], int)
    assert isinstance(p["totals"]["peak_activation_bytes"]["value"], int)
    with pytest.raises(ValueError, match="break the fact"):
        symshape.profile(TABLE_POS, {"batch": 2, "seq": 70, "past": 5}, assume=["past+seq<=64"])
