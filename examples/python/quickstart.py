#!/usr/bin/python3
"""symshape from Python: infer a model's symbolic shapes, read the report, add
a rule for a custom operator, and work with dims.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/quickstart.py
"""

import onnx
from onnx import TensorProto, helper

import symshape


# A custom operator: com.example.Repeat(x; repeats, axis) repeats x along axis.
@symshape.registry.register("com.example", "Repeat", since_version=1)
def infer_repeat(ctx, node):
    if not ctx.check_inputs(node, 1, 1):
        return
    repeats = ctx.require_attr(node, "repeats")
    x = node.inputs[0]
    if repeats is None or x.shape is None:
        return
    dims = list(x.shape)
    axis = node.attr("axis", 0)
    dims[axis] = dims[axis] * repeats
    ctx.set_shape_and_dtype(node.outputs[0], dims, x.dtype)


def make_model() -> onnx.ModelProto:
    """x[batch, seq, 32] -> Repeat (seq x2) -> MatMul W[32, 64] -> Concat with past[past_batch, past, 64]
    on the sequence axis (which needs batch == past_batch: a contract)."""
    nodes = [
        helper.make_node("Repeat", ["x"], ["xr"], name="repeat", domain="com.example", repeats=2, axis=1),
        helper.make_node("MatMul", ["xr", "W"], ["h"], name="proj"),
        helper.make_node("Concat", ["past", "h"], ["y"], name="cat", axis=1),
    ]
    inputs = [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 32]),
        helper.make_tensor_value_info("W", TensorProto.FLOAT, [32, 64]),
        helper.make_tensor_value_info("past", TensorProto.FLOAT, ["past_batch", "past", 64]),
    ]
    graph = helper.make_graph(nodes, "example", inputs, [helper.make_empty_tensor_value_info("y")])
    imports = [helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]
    return helper.make_model(graph, opset_imports=imports)


def main() -> None:
    model = make_model()

    # The model with every value's type written (ints in dim_value, expressions in dim_param).
    inferred = symshape.infer_symbolic_shapes(model)
    for vi in inferred.graph.output:
        dims = [d.dim_value if d.HasField("dim_value") else d.dim_param for d in vi.type.tensor_type.shape.dim]
        print(f"output {vi.name}: {dims}")

    # The report: each value's dtype and dims as SymbolicDims, contracts, diagnostics.
    report = symshape.infer_report(model)
    for v in report.values.values():
        print(f"  {v.name:5} {v.dtype.name if v.dtype is not None else '-':6} {v.shape}")
    y = report.values["y"].shape
    print("y at past_batch=2, seq=8, past=5:", y.evaluate({"past_batch": 2, "seq": 8, "past": 5}))
    print("symbols of y:", sorted(y.free_symbols()))
    print("contracts:", [str(c) for c in report.contracts] or "none")

    # Dims on their own.
    seq = symshape.SymbolicDim("seq")
    print("(2*seq + 2)//2 =", (2 * seq + 2) // 2, "| simplify('2*b//b') =", symshape.simplify("2*b//b"))

    # Errors are exceptions with the command's messages.
    bad = make_model()
    bad.graph.input[1].type.tensor_type.shape.dim[0].dim_value = 31  # W[31, 64]: inner dims 32 vs 31
    try:
        symshape.infer_symbolic_shapes(bad)
    except symshape.ShapeInferenceError as e:
        print("error:", e)


if __name__ == "__main__":
    main()
