"""symshape: symbolic shape inference of ONNX models, from Python.

The C++ core (expressions, rules, engine) is the extension ``symshape._symshape``;
this module gives it the Python API (docs/python.md):

- ``SymbolicDim`` and ``Shape``: dims in canonical form, arithmetic, ``evaluate``,
  ``free_symbols``; ``simplify(text)``, ``evaluate(text, bindings)``, ``prove_ge(a, b)``.
- ``infer_symbolic_shapes(model, ...)``: the model (``onnx.ModelProto``, bytes or a
  path) with every value's type written as ``symshape infer -o`` writes it.
- ``infer_report(model, ...)``: diagnostics, contracts and every value's dtype and dims.
- ``profile(model, bindings)``: FLOPs, parameters and memory as ``symshape profile --json`` gives them.
- ``registry.register(domain, op_type, since_version)``: shape rules written in Python.
"""

from __future__ import annotations

import enum
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _symshape
from ._symshape import Context, Node, Shape, SymbolicDim, Value, evaluate, prove_eq, prove_ge, simplify

__version__ = "0.1.0"

__all__ = [
    "Context",
    "Contract",
    "Proof",
    "DataType",
    "Diagnostic",
    "Node",
    "OpUsageError",
    "Report",
    "Shape",
    "ShapeInferenceError",
    "SymbolicDim",
    "Value",
    "ValueInfo",
    "evaluate",
    "infer_report",
    "infer_symbolic_shapes",
    "profile",
    "prove",
    "prove_eq",
    "prove_ge",
    "registry",
    "simplify",
]

#: ONNX element types, numbered as onnx.TensorProto (DataType.FLOAT == 1).
DataType = enum.IntEnum("DataType", {name.upper(): code for name, code in _symshape._data_types().items()})
DataType.__doc__ = "ONNX element types, numbered as onnx.TensorProto.DataType (DataType.FLOAT == 1)."
# Printed as ONNX writes types ("float"), not as the number an IntEnum prints.
DataType.__str__ = lambda self: self.name.lower()  # type: ignore[assignment]
DataType.__format__ = lambda self, spec: format(str(self), spec)  # type: ignore[assignment]

POLICIES = ("skip", "override", "refine", "strict")


class ShapeInferenceError(Exception):
    """Inference reported errors. The message has one line per error, as the
    ``symshape infer`` command prints it (without its "symshape infer: " prefix):
    ``FILE: error: node #2 'proj' (MatMul): MESSAGE``. ``report`` is the whole Report."""

    def __init__(self, message: str, report: "Report"):
        super().__init__(message)
        self.report = report


class OpUsageError(ShapeInferenceError):
    """Inference reported a usage error: a malformed node (wrong input count,
    missing or mistyped attribute, an attribute the operator does not have)."""


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of a run: severity ("error" or "warning"), kind ("usage",
    "semantic", "missing_rule", "graph", "conflict"), the node's name and op type,
    where ("node #2 'proj' (MatMul)"), the message, and the line as the command prints it."""

    severity: str
    kind: str
    node: str
    op_type: str
    where: str
    message: str
    line: str

    def __str__(self) -> str:
        return self.line


@dataclass(frozen=True)
class Contract:
    """A relation between input dims that every valid run satisfies
    (``relation`` "a == b", or for broadcasting "a == b or a == 1 or b == 1")."""

    relation: str
    kind: str  # "equal", "broadcast" or "at_most" (an index bound)
    lhs: SymbolicDim
    rhs: SymbolicDim
    node: str
    op_type: str
    where: str
    origin: str
    # A fact under which the relation holds, shorter to read when the dims hold
    # clamps ("past+seq <= 64"); "" when none was found.
    condition: str = ""

    def __str__(self) -> str:
        return f"{self.where + ': ' if self.where else ''}{self.condition or self.relation} ({self.origin})"


@dataclass(frozen=True)
class ValueInfo:
    """A value of the main graph with its type as the written model holds it:
    ``dtype`` (None when it is no tensor), ``dims`` (a list of SymbolicDim, None when
    the rank is unknown or it is no tensor) and ``type`` as text ("float[batch,3]")."""

    name: str
    dtype: Optional[DataType]
    dims: Optional[List[SymbolicDim]]
    type: str
    node: str = ""
    op_type: str = ""
    graph_input: bool = False
    graph_output: bool = False

    @property
    def shape(self) -> Optional[Shape]:
        return None if self.dims is None else Shape(self.dims)


@dataclass(frozen=True)
class Report:
    """What one inference found: diagnostics, the model's contracts, and the
    main graph's values (graph inputs, then node outputs in file order) by name."""

    diagnostics: List[Diagnostic]
    contracts: List[Contract]
    values: Dict[str, ValueInfo]
    modified: bool = False
    model: Optional[bytes] = field(default=None, repr=False)
    # The facts in force: [{"fact": "seq <= 2048", "source": "assume"}, ...].
    facts: List[Dict[str, str]] = field(default_factory=list)

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def __repr__(self) -> str:
        # A summary: the fields are lists of hundreds of values.
        modified = ", modified" if self.modified else ""
        return (
            f"<Report: {len(self.values)} values, {len(self.errors)} errors, {len(self.warnings)} warnings, "
            f"{len(self.contracts)} contracts{modified}>"
        )

    @property
    def warnings(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors


ModelLike = Union["onnx.ModelProto", bytes, bytearray, memoryview, str, os.PathLike]  # noqa: F821
DimLike = Union[int, str, None, SymbolicDim]


def _source(model: Any) -> Tuple[Any, bool, str]:
    """(bytes or path, is_path, the name messages use)."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), False, "<bytes>"
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        return path, True, path
    serialize = getattr(model, "SerializeToString", None)
    if callable(serialize):
        return serialize(), False, "<ModelProto>"
    raise TypeError(f"model must be an onnx.ModelProto, bytes or a path, not {type(model).__name__}")


def _check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise ValueError(f"bad policy '{policy}', expected skip, override, refine or strict")


def _value_info(d: dict) -> ValueInfo:
    dtype = d["dtype"]
    return ValueInfo(
        name=d["name"],
        dtype=None if dtype is None else DataType(dtype),
        dims=d["dims"],
        type=d["type"],
        node=d["node"],
        op_type=d["op_type"],
        graph_input=d["graph_input"],
        graph_output=d["graph_output"],
    )


def _infer(model: ModelLike, policy: str, input_shapes, data_propagation: bool, want_model: bool,
           profile_bindings=None, assume: Optional[Sequence[str]] = None, assume_nonempty: bool = False,
           profile_by: Optional[str] = None) -> dict:
    _check_policy(policy)
    source, is_path, name = _source(model)
    return _symshape._infer(source, is_path, name, policy, input_shapes, bool(data_propagation), want_model,
                            profile_bindings, None if assume is None else list(assume), bool(assume_nonempty),
                            profile_by)


def _report(raw: dict) -> Report:
    return Report(
        diagnostics=[Diagnostic(**d) for d in raw["diagnostics"]],
        contracts=[Contract(**c) for c in raw["contracts"]],
        values={v["name"]: _value_info(v) for v in raw["values"]},
        modified=raw["modified"],
        model=raw["model"],
        facts=raw["facts"],
    )


def _run(model: ModelLike, policy: str, input_shapes, data_propagation: bool, want_model: bool,
         assume: Optional[Sequence[str]] = None, assume_nonempty: bool = False) -> Report:
    return _report(_infer(model, policy, input_shapes, data_propagation, want_model, None, assume, assume_nonempty))


def _raise_for_errors(report: Report) -> None:
    errors = report.errors
    if not errors:
        return
    cls = OpUsageError if any(d.kind == "usage" for d in errors) else ShapeInferenceError
    raise cls("\n".join(d.line for d in errors), report)


def infer_report(
    model: ModelLike,
    *,
    policy: str = "refine",
    input_shapes: Optional[Mapping[str, Sequence[DimLike]]] = None,
    data_propagation: bool = True,
    assume: Optional[Sequence[str]] = None,
    assume_nonempty: bool = False,
) -> Report:
    """Infers every value's shape and returns the Report; inference errors are in
    ``report.diagnostics`` (never raised). ``model``: an onnx.ModelProto, bytes, or a
    path. ``input_shapes``: new dims for graph inputs, ``{"x": ["batch", 3, None]}``
    (None an unknown dim). Raises ValueError for a malformed model or a bad argument,
    OSError for an unreadable file. The GIL is released while the model is inferred.
    ``assume``: facts the runs of interest satisfy (``["past+seq<=64", "H%32==0"]``),
    ``assume_nonempty``: every input dim >= 1; shapes are then exact for those runs
    (``report.facts`` lists them)."""
    return _run(model, policy, input_shapes, data_propagation, False, assume, assume_nonempty)


def infer_symbolic_shapes(
    model: ModelLike,
    *,
    policy: str = "refine",
    input_shapes: Optional[Mapping[str, Sequence[DimLike]]] = None,
    data_propagation: bool = True,
    allow_errors: bool = False,
    assume: Optional[Sequence[str]] = None,
    assume_nonempty: bool = False,
) -> "onnx.ModelProto":  # noqa: F821
    """The model with every value's type written as ``symshape infer -o`` writes it:
    graph inputs, value_info of every node output, graph outputs; integer dims in
    ``dim_value``, symbols and expressions in ``dim_param`` ("batch", "2*seq+1"),
    fresh symbols _d0, _d1, ... for dims nothing determines.

    ``policy``: how inferred types merge with the model's own ("skip", "override",
    "refine", "strict"). Raises ShapeInferenceError (OpUsageError for a malformed
    node) when inference reports errors, unless ``allow_errors``; ValueError for a
    malformed model or a bad argument. Needs the onnx package (for the result).
    ``assume``, ``assume_nonempty``: facts, as for infer_report."""
    import onnx

    report = _run(model, policy, input_shapes, data_propagation, True, assume, assume_nonempty)
    if not allow_errors:
        _raise_for_errors(report)
    return onnx.load_from_string(report.model)


def profile(model: ModelLike, bindings: Optional[Mapping[str, int]] = None, *, allow_errors: bool = False,
            assume: Optional[Sequence[str]] = None, assume_nonempty: bool = False, by: Optional[str] = None,
            input_shapes: Optional[Mapping[str, Sequence[DimLike]]] = None, policy: str = "refine") -> dict:
    """The profile ``symshape profile MODEL --json -`` prints, as a dict: FLOPs,
    parameters and activation memory (total and peak) of the model, per node and in
    total, each quantity ``{"expr": canonical expression of the input symbols,
    "value": int}``, the value present when ``bindings`` (``{"batch": 1, "seq": 128}``)
    make it concrete. Conventions: docs/profile.md. Python rules take part in the
    inference. Raises ValueError for a binding of a symbol the model does not have,
    a malformed model or a bad argument; ShapeInferenceError (OpUsageError) when
    inference reports errors, unless ``allow_errors``. ``assume``, ``assume_nonempty``:
    facts, as for infer_report (bindings that break one are a ValueError). ``by``: "op" or
    "scope" adds the "groups" of ``symshape profile --by``; ``input_shapes`` and
    ``policy``: as for infer_report."""
    raw = _infer(model, policy, input_shapes, True, False, dict(bindings or {}), assume, assume_nonempty, by)
    if not allow_errors:
        _raise_for_errors(_report(raw))
    return json.loads(raw["profile"])


@dataclass(frozen=True)
class Proof:
    """The answer of prove(): ``verdict`` "true" (the relation holds for every binding,
    symbols >= 0, that satisfies the facts), "false" (``counterexample`` is such a
    binding that breaks it) or "unknown"."""

    verdict: str
    counterexample: Optional[Dict[str, int]] = None

    def __bool__(self) -> bool:
        return self.verdict == "true"


def prove(relation: str, *, assume: Optional[Sequence[str]] = None) -> Proof:
    """What ``symshape prove 'A >= B' --assume FACT`` prints: prove("(H+1)//2 <= H",
    assume=["H>=1"]) is true. REL is <=, <, >=, > or ==. ValueError naming the position
    for a malformed relation or fact."""
    verdict, counterexample = _symshape._prove(relation, None if assume is None else list(assume))
    return Proof(verdict, counterexample)


def _dim_comparison(op: str, negation: str) -> Callable[[SymbolicDim, object], bool]:
    """SymbolicDim < int and its kin: True or False when it holds, or fails, for every
    value of the symbols (>= 0); TypeError when that depends on the values (use
    prove() and its counterexample then) or a dim is unknown."""

    def compare(self: SymbolicDim, other: object) -> bool:
        if isinstance(other, bool) or not isinstance(other, (int, SymbolicDim)):
            return NotImplemented
        other_dim = other if isinstance(other, SymbolicDim) else SymbolicDim(other)
        if self.is_unknown or other_dim.is_unknown:
            raise TypeError(f"cannot compare an unknown dim: {self} {op} {other_dim}")
        if prove(f"{self} {op} {other_dim}"):
            return True
        if prove(f"{self} {negation} {other_dim}"):
            return False
        raise TypeError(f"'{self} {op} {other_dim}' depends on the values of the symbols; see symshape.prove")

    return compare


SymbolicDim.__lt__ = _dim_comparison("<", ">=")  # type: ignore[assignment]
SymbolicDim.__le__ = _dim_comparison("<=", ">")  # type: ignore[assignment]
SymbolicDim.__gt__ = _dim_comparison(">", "<=")  # type: ignore[assignment]
SymbolicDim.__ge__ = _dim_comparison(">=", "<")  # type: ignore[assignment]

RuleFunction = Callable[[Context, Node], None]


class Registry:
    """Shape rules written in Python. A rule is a function ``(ctx, node)`` that sets
    the node's output types through ``ctx`` (set_shape_and_dtype, set_output) and
    reports problems (record_error, usage_error); an exception it raises becomes
    that node's error. Registered rules take part in the inference of every model
    from then on, before the built-in rule of the same (domain, op_type, since_version)."""

    def register(self, domain: str, op_type: str, since_version: int = 1) -> Callable[[RuleFunction], RuleFunction]:
        """Decorator: ``@symshape.registry.register("com.custom", "MyOp", since_version=1)``.
        The rule serves opsets >= since_version up to the next registered version."""

        def decorator(fn: RuleFunction) -> RuleFunction:
            _symshape._register_rule(domain, op_type, since_version, fn)
            return fn

        return decorator

    def add(self, domain: str, op_type: str, since_version: int, fn: RuleFunction) -> None:
        """Registers ``fn`` (as the decorator does)."""
        _symshape._register_rule(domain, op_type, since_version, fn)

    def unregister(self, domain: str, op_type: str, since_version: int = 1) -> bool:
        """Removes a rule; False when there was none."""
        return _symshape._unregister_rule(domain, op_type, since_version)

    def rules(self) -> List[Tuple[str, str, int, RuleFunction]]:
        """The registered rules as (domain, op_type, since_version, function), "" for ai.onnx."""
        return [tuple(r) for r in _symshape._registered_rules()]


#: The registry of Python shape rules.
registry = Registry()
