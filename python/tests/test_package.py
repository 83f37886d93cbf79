"""The package's surface: exports, docstrings, the stub, DataType numbering."""

import ast
import os

import onnx

import symshape
from symshape import _symshape

STUB = os.path.join(os.path.dirname(symshape.__file__), "_symshape.pyi")


def test_all_exports_exist_and_are_documented():
    undocumented = [name for name in symshape.__all__ if not getattr(symshape, name).__doc__]
    assert undocumented == []


def test_stub_covers_the_extension():
    tree = ast.parse(open(STUB).read())
    stubbed = {n.name: n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    public = [n for n in dir(_symshape) if not n.startswith("__")]
    assert sorted(n for n in public if n not in stubbed) == []
    for cls in ["SymbolicDim", "Shape", "Context", "Node", "Value"]:
        members = {f.name for f in stubbed[cls].body if isinstance(f, ast.FunctionDef)}
        missing = [m for m in dir(getattr(_symshape, cls)) if not m.startswith("_") and m not in members]
        assert missing == [], cls


def test_data_types_are_numbered_as_onnx():
    for name, code in onnx.TensorProto.DataType.items():
        if name in symshape.DataType.__members__:
            assert symshape.DataType[name] == code, name
    assert symshape.DataType.FLOAT == onnx.TensorProto.FLOAT == 1
