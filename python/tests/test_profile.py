"""symshape.profile: the dict `symshape profile --json` prints (docs/profile.md)."""

import json
import os
import subprocess

import pytest

import symshape
from conftest import attention_block, broken_model

GPT2 = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "models", "gpt2_like.onnx")


def test_matmul_and_add_counted_by_the_conventions(block):
    p = symshape.profile(block, {"batch": 2, "seq": 5})
    nodes = {n["name"]: n for n in p["nodes"]}
    # MatMul: 2 x numel(out) x K = 2 x (batch*seq*64) x 32; Add: one per output element.
    assert nodes["proj"]["flops"] == {"expr": "4096*batch*seq", "value": 4096 * 10}
    assert nodes["bias"]["flops"] == {"expr": "64*batch*seq", "value": 640}
    assert nodes["proj"]["outputs"][0]["bytes"]["value"] == 2 * 5 * 64 * 4
    # Parameters: the float initializers W[32,64] and b[64] (not the int64 ones).
    assert p["totals"]["params"] == {"expr": "2112", "value": 2112}
    assert p["bindings"] == {"batch": 2, "seq": 5}


def test_without_bindings_only_expressions():
    p = symshape.profile(attention_block())
    assert p["bindings"] == {}
    assert "value" not in p["totals"]["flops"]
    assert p["totals"]["flops"]["expr"] == "4160*batch*seq"


def test_same_dict_as_the_command(symshape_cli):
    bindings = {"batch": 1, "seq": 16, "past": 4}
    ours = symshape.profile(GPT2, bindings)
    out = subprocess.run([symshape_cli, "profile", GPT2, "--bind", "batch=1,seq=16,past=4", "--json", "-"],
                         capture_output=True, text=True, check=True).stdout
    assert ours == json.loads(out)
    assert ours["totals"]["flops"]["value"] > 0


def test_bytes_model_and_path_agree():
    with open(GPT2, "rb") as f:
        data = f.read()
    from_bytes = symshape.profile(data, {"batch": 2, "seq": 3, "past": 0})
    from_path = symshape.profile(GPT2, {"batch": 2, "seq": 3, "past": 0})
    assert from_bytes["totals"] == from_path["totals"]
    assert from_bytes["nodes"] == from_path["nodes"]


def test_unknown_symbol_is_a_value_error():
    with pytest.raises(ValueError, match="has no symbol 'sequence'.*its symbols: batch, seq"):
        symshape.profile(attention_block(), {"sequence": 3})


def test_inference_errors_raise_unless_allowed():
    with pytest.raises(symshape.ShapeInferenceError):
        symshape.profile(broken_model())
    p = symshape.profile(broken_model(), allow_errors=True)
    assert [n["name"] for n in p["nodes"]] == ["add", "mm"]


def test_by_and_input_shapes_as_the_command(symshape_cli):
    ours = symshape.profile(GPT2, {"batch": 1, "seq": 16, "past": 4}, by="op")
    out = subprocess.run([symshape_cli, "profile", GPT2, "--bind", "batch=1,seq=16,past=4", "--by", "op", "--json", "-"],
                         capture_output=True, text=True, check=True).stdout
    assert ours == json.loads(out)
    assert ours["schema"] == "symshape/profile/1"
    assert {g["key"] for g in ours["groups"]} >= {"MatMul", "Softmax"}
    with pytest.raises(ValueError, match="bad by 'layer'"):
        symshape.profile(GPT2, by="layer")


def test_input_shapes_make_the_profile_concrete(block):
    p = symshape.profile(block, input_shapes={"x": [2, 5, 32]})
    assert p["totals"]["flops"] == {"expr": str(4096 * 10 + 640), "value": 4096 * 10 + 640}
