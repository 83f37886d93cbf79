"""Shape rules written in Python: registration, the ctx and node API, errors
raised in a rule, and the GIL released during inference."""

import threading
import time

import onnx
import pytest
from onnx import helper

import symshape
from symshape import DataType, SymbolicDim
from symshape.testing import FLOAT, INT64, const, infer, infer_with_report, ts


@pytest.fixture
def rule():
    """Registers rules for one test and removes them afterwards."""
    added = []

    def register(domain, op_type, since_version=1):
        def decorator(fn):
            symshape.registry.register(domain, op_type, since_version)(fn)
            added.append((domain, op_type, since_version))
            return fn

        return decorator

    yield register
    for key in added:
        symshape.registry.unregister(*key)


def custom(op_type, inputs, attributes=None, **kwargs):
    return infer(op_type, inputs, attributes, domain="com.custom", **kwargs)


def test_shape_from_an_attribute(rule):
    @rule("com.custom", "Repeat")
    def infer_repeat(ctx, node):
        if not ctx.check_inputs(node, 1, 1):
            return
        repeats = ctx.require_attr(node, "repeats")
        if repeats is None:
            return
        x = node.inputs[0]
        axis = node.attr("axis", 0)
        dims = list(x.shape)
        dims[axis] = dims[axis] * repeats
        ctx.set_shape_and_dtype(node.outputs[0], dims, x.dtype)

    assert custom("Repeat", [ts(FLOAT, ["b", 3])], {"repeats": 4}) == [ts(FLOAT, ["4*b", 3])]
    assert custom("Repeat", [ts(FLOAT, ["b", 3])], {"repeats": 2, "axis": 1}) == [ts(FLOAT, ["b", 6])]
    with pytest.raises(symshape.OpUsageError, match="repeats"):
        custom("Repeat", [ts(FLOAT, ["b", 3])])
    with pytest.raises(symshape.OpUsageError):
        custom("Repeat", [ts(FLOAT, ["b"]), ts(FLOAT, ["b"])], {"repeats": 2})


def test_a_rule_that_raises_is_that_nodes_error(rule):
    @rule("com.custom", "Boom")
    def infer_boom(ctx, node):
        raise ValueError("no shape for you")

    r = infer_with_report("Boom", [ts(FLOAT, [2])], domain="com.custom")
    assert [d.message for d in r.errors] == ["Python rule test_a_rule_that_raises_is_that_nodes_error.<locals>.infer_boom raised ValueError: no shape for you"]
    assert r.errors[0].where == "node #0 'node' (com.custom::Boom)"
    assert r.values["y0"].type == "?"
    with pytest.raises(symshape.ShapeInferenceError, match="raised ValueError: no shape for you"):
        custom("Boom", [ts(FLOAT, [2])])


def test_a_rule_that_raises_under_skip_is_still_an_error(rule):
    @rule("com.custom", "Boom")
    def infer_boom(ctx, node):
        return 1 / 0

    r = infer_with_report("Boom", [ts(FLOAT, [2])], domain="com.custom", policy="skip")
    assert [d.severity for d in r.diagnostics] == ["error"] and "ZeroDivisionError" in r.errors[0].message


def test_bad_arguments_inside_a_rule_are_reported(rule):
    @rule("com.custom", "Bad")
    def infer_bad(ctx, node):
        ctx.set_shape_and_dtype(node.outputs[0], [1.5], FLOAT)

    r = infer_with_report("Bad", [ts(FLOAT, [2])], domain="com.custom")
    assert "raised TypeError" in r.errors[0].message


def test_record_error_and_usage_error(rule):
    @rule("com.custom", "Picky")
    def infer_picky(ctx, node):
        if node.attr("usage"):
            ctx.usage_error(node, "needs no usage")
        else:
            ctx.record_error(node, "rank 1 only")

    with pytest.raises(symshape.OpUsageError, match="node #0 'node' \\(com.custom::Picky\\): needs no usage"):
        custom("Picky", [ts(FLOAT, [2])], {"usage": 1})
    with pytest.raises(symshape.ShapeInferenceError, match="rank 1 only"):
        custom("Picky", [ts(FLOAT, [2])])
    r = infer_with_report("Picky", [ts(FLOAT, [2])], domain="com.custom", policy="skip")
    assert r.ok and r.warnings[0].message == "rank 1 only"


def test_new_symbolic_dim_and_node_fields(rule):
    seen = {}

    @rule("com.custom", "Unique")
    def infer_unique(ctx, node):
        seen.update(name=node.name, op=node.op_type, domain=node.domain, n_in=len(node.inputs), policy=ctx.policy,
                    opset=ctx.opset("com.custom"), attrs=node.attributes)
        ctx.set_output(node, 0, [ctx.new_symbolic_dim()], node.inputs[0].dtype)

    # Lists of floats and strings too (the IR keeps them boxed).
    attrs = {"mode": "sorted", "k": [1, 2], "scales": [0.5, 2.0], "names": ["a", "b"]}
    assert custom("Unique", [ts(INT64, ["n"])], attrs) == [ts(INT64, ["_d0"])]
    assert seen == {"name": "node", "op": "Unique", "domain": "com.custom", "n_in": 1, "policy": "refine",
                    "opset": 1, "attrs": attrs}


def test_known_integer_values(rule):
    @rule("com.custom", "Fill")
    def infer_fill(ctx, node):
        ctx.set_output(node, 0, node.inputs[0].int_values, FLOAT)

    assert custom("Fill", [const([2, 5])]) == [ts(FLOAT, [2, 5])]
    # the values of a Shape output are dims, known symbolically
    shape = helper.make_node("Shape", ["x"], ["s"])
    fill = helper.make_node("Fill", ["s"], ["y"], domain="com.custom")
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["b", 7])

    @rule("com.custom", "Fill", 2)
    def infer_fill_symbolic(ctx, node):
        assert node.inputs[0].int_values is None
        ctx.set_output(node, 0, node.inputs[0].symbolic_value, FLOAT)

    graph = helper.make_graph([shape, fill], "g", [x], [helper.make_empty_tensor_value_info("y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14), helper.make_opsetid("com.custom", 2)])
    assert symshape.infer_report(model).values["y"].type == "float[b,7]"


def test_version_selection(rule):
    @rule("com.custom", "V", 1)
    def v1(ctx, node):
        ctx.set_output(node, 0, [1], FLOAT)

    @rule("com.custom", "V", 3)
    def v3(ctx, node):
        ctx.set_output(node, 0, [3], FLOAT)

    assert custom("V", [ts(FLOAT, [2])], domain_version=1) == [ts(FLOAT, [1])]
    assert custom("V", [ts(FLOAT, [2])], domain_version=2) == [ts(FLOAT, [1])]
    assert custom("V", [ts(FLOAT, [2])], domain_version=5) == [ts(FLOAT, [3])]


def test_a_python_rule_replaces_the_builtin_of_its_key(rule):
    assert infer("Relu", [ts(FLOAT, ["n"])], opset=14) == [ts(FLOAT, ["n"])]

    @rule("", "Relu", 14)
    def doubled(ctx, node):
        ctx.set_output(node, 0, [node.inputs[0].shape[0] * 2], node.inputs[0].dtype)

    assert infer("Relu", [ts(FLOAT, ["n"])], opset=14) == [ts(FLOAT, ["2*n"])]
    assert infer("Relu", [ts(FLOAT, ["n"])], opset=13) == [ts(FLOAT, ["n"])]  # the built-in Relu-13
    assert ("", "Relu", 14, doubled) in symshape.registry.rules()


def test_a_python_rule_comes_before_newer_builtin_versions(rule):
    # Python rules are a user table consulted before the built-ins: Relu-6 from
    # Python serves opset 14 too, where the built-in table has Relu-14.
    @rule("ai.onnx", "Relu", 6)
    def tripled(ctx, node):
        ctx.set_output(node, 0, [node.inputs[0].shape[0] * 3], node.inputs[0].dtype)

    assert infer("Relu", [ts(FLOAT, ["n"])], opset=14) == [ts(FLOAT, ["3*n"])]
    assert infer("Relu", [ts(FLOAT, ["n"])], opset=5) == [ts(FLOAT, ["n"])]  # below it: the built-in Relu-1


def test_unregistered_rules_stop_taking_part(rule):
    symshape.registry.add("com.custom", "Gone", 1, lambda ctx, node: ctx.set_output(node, 0, [1], FLOAT))
    assert custom("Gone", [ts(FLOAT, [2])]) == [ts(FLOAT, [1])]
    assert symshape.registry.unregister("com.custom", "Gone", 1)
    assert not symshape.registry.unregister("com.custom", "Gone", 1)
    r = infer_with_report("Gone", [ts(FLOAT, [2])], domain="com.custom")
    assert [(d.severity, d.kind) for d in r.diagnostics] == [("warning", "missing_rule")]
    assert r.values["y0"].type == "?"


def test_registration_arguments():
    with pytest.raises(ValueError, match="since_version"):
        symshape.registry.register("com.custom", "X", 0)(lambda c, n: None)
    with pytest.raises(TypeError):
        symshape.registry.add("com.custom", "X", 1, "not callable")


def test_wrappers_are_dead_after_the_rule(rule):
    kept = {}

    @rule("com.custom", "Keep")
    def infer_keep(ctx, node):
        kept.update(ctx=ctx, node=node, value=node.inputs[0])
        ctx.set_output(node, 0, [1], FLOAT)

    custom("Keep", [ts(FLOAT, [2])])
    with pytest.raises(RuntimeError, match="after the rule returned"):
        kept["node"].op_type
    with pytest.raises(RuntimeError):
        kept["value"].shape
    with pytest.raises(RuntimeError):
        kept["ctx"].new_symbolic_dim()


def test_gil_is_released_during_inference(rule):
    """Mark -> 100000 Relus -> Mark: a thread records ticks; some must fall
    between the two marks, while the built-in rules run without the GIL (if the
    GIL were held, the thread could not run between the marks)."""
    marks = []

    @rule("com.custom", "Mark")
    def infer_mark(ctx, node):
        marks.append(time.perf_counter())
        ctx.set_output(node, 0, node.inputs[0].shape, node.inputs[0].dtype)

    # built with the protobuf API: onnx.helper is slow for 100000 nodes
    n = 100000
    graph = onnx.GraphProto(name="g")
    graph.node.append(helper.make_node("Mark", ["x"], ["v0"], domain="com.custom"))
    for i in range(n):
        node = graph.node.add()
        node.op_type, node.input[:], node.output[:] = "Relu", [f"v{i}"], [f"v{i + 1}"]
    graph.node.append(helper.make_node("Mark", [f"v{n}"], ["y"], domain="com.custom"))
    graph.input.append(helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["b", 4]))
    graph.output.append(helper.make_empty_tensor_value_info("y"))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14), helper.make_opsetid("com.custom", 1)])
    data = model.SerializeToString()

    ticks, stop = [], threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        for _ in range(5):  # until one run takes long enough to see ticks
            marks.clear()
            r = symshape.infer_report(data)
            assert r.ok and len(marks) == 2
            if marks[1] - marks[0] > 0.005:
                break
    finally:
        stop.set()
        t.join()
    assert marks[1] - marks[0] > 0.005, "inference too fast to observe"
    inside = [x for x in ticks if marks[0] < x < marks[1]]
    assert len(inside) >= 3, (len(inside), marks[1] - marks[0])


def test_concurrent_inference_with_python_rules(rule):
    """Threads infer at once (each without the GIL, taking it back for the rule):
    every run gets the same, right answer."""
    from concurrent.futures import ThreadPoolExecutor

    @rule("com.custom", "Twice")
    def infer_twice(ctx, node):
        x = node.inputs[0]
        ctx.set_output(node, 0, [d * 2 for d in x.shape], x.dtype)

    def one(i):
        return custom("Twice", [ts(FLOAT, [f"n{i % 3}", i])])

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(one, range(40)))
    assert results == [[ts(FLOAT, [f"2*n{i % 3}", 2 * i])] for i in range(40)]


def test_check_inputs_by_name(rule):
    seen = {}

    @rule("", "Gemm", 13)
    def infer_gemm(ctx, node):
        a, b, c = ctx.check_inputs(node, "A", "B", "C")
        seen["values"] = (a, b, c)
        if a is None:
            return
        seen["names"] = (a.name, b.name, c)
        ctx.set_shape_and_dtype(node.outputs[0], [a.shape[0], b.shape[1]], a.dtype)

    assert infer("Gemm", [ts(FLOAT, ["M", 3]), ts(FLOAT, [3, 4])]) == [ts(FLOAT, ["M", 4])]
    assert seen["names"] == ("x0", "x1", None)  # C is optional

    # An absent required input: a usage error naming the node and the input, every value None.
    r = infer_with_report("Gemm", [ts(FLOAT, ["M", 3]), None])
    assert [d.message for d in r.errors] == ["missing required input 'B' (input 1 of Gemm-13)"]
    assert r.errors[0].where.startswith("node #0 'node'")
    assert seen["values"] == (None, None, None)


def test_check_inputs_by_name_errors(rule):
    @rule("", "Gemm", 13)
    def infer_gemm(ctx, node):
        assert ctx.check_inputs(node, "A", "W") == (None, None)

    r = infer_with_report("Gemm", [ts(FLOAT, [2, 3]), ts(FLOAT, [3, 4])])
    assert [d.message for d in r.errors] == ["inputs by name: 'W' is not an input of Gemm-13 (its inputs: A B C)"]

    @rule("com.custom", "Named")
    def infer_named(ctx, node):
        assert ctx.check_inputs(node, "X") == (None,)
        assert ctx.check_inputs(node, 1, 1)  # by count, as before

    r = infer_with_report("Named", [ts(FLOAT, [2])], domain="com.custom")
    assert len(r.errors) == 1 and "com.custom::Named has no ONNX schema in symshape's table" in r.errors[0].message
