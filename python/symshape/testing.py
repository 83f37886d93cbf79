"""One-line shape tests: ``ts()`` and ``infer()`` (needs the onnx package).

    from symshape.testing import ts, infer, FLOAT
    assert infer("Add", [ts(FLOAT, ["batch", 3]), ts(FLOAT, [3])]) == [ts(FLOAT, ["batch", 3])]

``infer`` builds a one-node model with onnx.helper (graph inputs typed as given,
``const(...)`` inputs as initializers), infers it with symshape and returns the
outputs' types as the written model holds them (fresh dims are _d0, _d1, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

from . import DataType, Report, Shape, _raise_for_errors, infer_report

FLOAT = DataType.FLOAT
FLOAT16 = DataType.FLOAT16
DOUBLE = DataType.DOUBLE
INT32 = DataType.INT32
INT64 = DataType.INT64
BOOL = DataType.BOOL
UINT8 = DataType.UINT8


@dataclass(frozen=True)
class TypeAndShape:
    """A tensor's element type and shape (None: unknown rank); == compares both."""

    dtype: Optional[DataType]
    shape: Optional[Shape]

    def __repr__(self) -> str:
        dtype = "None" if self.dtype is None else self.dtype.name
        if self.shape is None:
            return f"ts({dtype})"
        return f"ts({dtype}, {[d.value for d in self.shape]!r})"


def ts(dtype: Optional[int], dims: Optional[Sequence[Any]] = None) -> TypeAndShape:
    """ts(FLOAT, [3, "batch", None]): dims are ints, names or expressions, None
    (unknown); ts(FLOAT) has an unknown rank."""
    return TypeAndShape(None if dtype is None else DataType(dtype), None if dims is None else Shape(list(dims)))


@dataclass(frozen=True)
class Const:
    """A constant input (an initializer): its element type, dims and values."""

    values: List[Any]
    dtype: DataType
    dims: List[int]


def const(values: Sequence[Any], dtype: int = DataType.INT64, dims: Optional[Sequence[int]] = None) -> Const:
    """const([2, -1], INT64): a 1-D initializer (dims default to [len(values)])."""
    values = list(values)
    return Const(values, DataType(dtype), [len(values)] if dims is None else list(dims))


def _value_info(name: str, t: TypeAndShape):
    from onnx import helper

    if t.shape is None:
        return helper.make_tensor_value_info(name, int(t.dtype or 0), None)
    dims = [None if d.is_unknown else (d.value if d.is_constant else str(d)) for d in t.shape]
    return helper.make_tensor_value_info(name, int(t.dtype or 0), dims)


def make_model(
    op_type: str,
    inputs: Sequence[Any],
    attributes: Optional[Dict[str, Any]] = None,
    *,
    domain: str = "",
    opset: int = 17,
    domain_version: int = 1,
    num_outputs: int = 1,
):
    """The one-node onnx.ModelProto that ``infer`` runs: inputs x0, x1, ... (None
    leaves that input out), outputs y0, y1, ..."""
    from onnx import helper

    graph_inputs, initializers, names = [], [], []
    for i, x in enumerate(inputs):
        if x is None:
            names.append("")
            continue
        name = f"x{i}"
        names.append(name)
        if isinstance(x, Const):
            initializers.append(helper.make_tensor(name, int(x.dtype), x.dims, x.values))
        else:
            graph_inputs.append(_value_info(name, x))
    outputs = [f"y{i}" for i in range(num_outputs)]
    node = helper.make_node(op_type, names, outputs, name="node", domain=domain, **(attributes or {}))
    graph = helper.make_graph(
        [node], "test", graph_inputs, [helper.make_empty_tensor_value_info(y) for y in outputs], initializers
    )
    imports = [helper.make_opsetid("", opset)]
    if domain not in ("", "ai.onnx"):
        imports.append(helper.make_opsetid(domain, domain_version))
    return helper.make_model(graph, opset_imports=imports)


def infer_with_report(op_type: str, inputs: Sequence[Any], attributes=None, **kwargs) -> Report:
    """The Report of ``infer``'s model (errors are in it, not raised)."""
    policy = kwargs.pop("policy", "refine")
    return infer_report(make_model(op_type, inputs, attributes, **kwargs), policy=policy)


def infer(op_type: str, inputs: Sequence[Any], attributes=None, **kwargs) -> List[TypeAndShape]:
    """The output types of one node: ``infer("Add", [ts(FLOAT, ["b", 3]), ts(FLOAT, [3])])``.
    Raises ShapeInferenceError / OpUsageError when inference reports errors."""
    report = infer_with_report(op_type, inputs, attributes, **kwargs)
    _raise_for_errors(report)
    outs = [v for v in report.values.values() if v.node == "node"]
    return [TypeAndShape(v.dtype, v.shape) for v in outs]
