"""Writes the malformed-model corpus (tests/malformed/README.md): bad and extreme ONNX
models and the outcome `symshape infer` must give on each.

    /usr/bin/python3 tests/malformed/make_models.py OUT_DIR

Writes OUT_DIR/NAME.onnx for every case (a folder for `directory`, nothing for
`missing_file`, a data file beside `external_valid`) and
OUT_DIR/manifest.json: a list of {name, file, class, description, args, expect}
where expect is {"exit": 0|1|2|3, "stderr": [substrings], "node": substring or
null, "stdout": [substrings]}. Every stderr (stdout) substring must appear on
stderr (stdout: output types of some valid models); "node" is where the
diagnostic must point, in the command's `node #i 'name' (Op)` form: a
diagnostic's message (after "symshape infer: MODEL: error: ") starts with it.

Expectations come from the ONNX specification (IR.md, Operators.md, the schema of
the imported opset) and the command's contract (docs/onnx.md, "The command"):
exit 1 for an unreadable or malformed file (loader), 3 for errors found at a
node by inference, 0 for valid models (possibly with a warning).

Models are built with onnx.helper without onnx.checker (most are invalid on
purpose); raw protobuf bytes where the helpers cannot express the case.
"""
import json
import os
import random
import sys

import onnx
from onnx import TensorProto, helper

FLOAT, INT64 = TensorProto.FLOAT, TensorProto.INT64
BIG62 = 2**62
CASES = []


def case(cls, desc, exit, stderr=(), node=None, args=(), stdout=()):
    """Registers a builder. It returns a ModelProto, bytes, or None (it wrote
    its own files into the folder it is given)."""

    def register(fn):
        CASES.append({"name": fn.__name__, "file": fn.__name__ + ".onnx", "class": cls, "description": desc,
                      "args": list(args), "expect": {"exit": exit, "stderr": list(stderr), "node": node,
                                                          "stdout": list(stdout)},
                      "build": fn})
        return fn

    return register


def vi(name, shape, dtype=FLOAT):
    """A typed value; shape None: the name only (no type, nothing declared)."""
    return onnx.ValueInfoProto(name=name) if shape is None else helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, ir_version=8, imports=None, functions=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=imports if imports is not None else [helper.make_opsetid("", opset)],
                          producer_name="symshape-malformed", functions=list(functions))
    m.ir_version = ir_version
    return m


def ints(name, values, dims=None):
    return helper.make_tensor(name, INT64, [len(values)] if dims is None else dims, values)


def node(op, ins, outs, name, **attrs):
    return helper.make_node(op, ins, outs, name=name, **attrs)


def unary(**model_args):
    """x -> Relu -> y: the smallest valid model, for the file-level and opset variants."""
    return model([node("Relu", ["x"], ["y"], "n0")], [vi("x", ["N", 4])], [vi("y", ["N", 4])], **model_args)


def loc(i, name, op):
    """Where a diagnostic about node #i of the main graph points: the node itself
    (the colon ends the location), not a node inside its subgraphs."""
    return f"node #{i} '{name}' ({op}): "


# ---------------------------------------------------------------- file level
FILE = "file"


@case(FILE, "a file of 0 bytes", 1, ["not a valid ONNX model"])
def empty_file(d):
    return b""


@case(FILE, "4096 random bytes (fixed seed)", 1, ["not a valid ONNX model"])
def random_bytes(d):
    return random.Random(9).randbytes(4096)


@case(FILE, "4096 zero bytes (field number 0 is invalid protobuf)", 1, ["not a valid ONNX model"])
def zero_bytes(d):
    return bytes(4096)


@case(FILE, "a valid model cut in the middle of its graph", 1, ["protobuf parse failed"])
def truncated_half(d):
    return truncated(unary(), 0.5)


@case(FILE, "a valid model without its last byte", 1, ["protobuf parse failed"])
def truncated_last_byte(d):
    data = unary().SerializeToString()
    return data[:-1]


@case(FILE, "the model in protobuf text format, not binary", 1, ["not a valid ONNX model"])
def text_format(d):
    return str(unary()).encode()


@case(FILE, "a directory named like a model", 1, ["is a directory"])
def directory(d):
    os.makedirs(os.path.join(d, "directory.onnx"), exist_ok=True)


@case(FILE, "a path that does not exist", 1, ["cannot open for reading"])
def missing_file(d):
    path = os.path.join(d, "missing_file.onnx")
    if os.path.exists(path):
        os.remove(path)


@case(FILE, "a ModelProto with ir_version and opset_import but no graph", 1, ["no graph"])
def no_graph(d):
    m = onnx.ModelProto()
    m.ir_version = 8
    m.opset_import.add(domain="", version=17)
    return m


def truncated(m, fraction):
    data = m.SerializeToString()
    cut = data[:int(len(data) * fraction)]
    try:
        onnx.ModelProto().ParseFromString(cut)
    except Exception:  # DecodeError, whose class depends on the protobuf implementation
        return cut
    raise AssertionError("the cut still parses; pick another cut")


# ---------------------------------------------------------------- graph structure
GRAPH = "graph"


@case(GRAPH, "two Relu nodes that feed each other (a cycle)", 3, ["cycle"])
def cycle_two_nodes(d):
    return model([node("Relu", ["b"], ["a"], "n0"), node("Relu", ["a"], ["b"], "n1"),
                  node("Add", ["x", "a"], ["y"], "n2")], [vi("x", [4])], [vi("y", None)])


@case(GRAPH, "an Add whose output is also its own input", 3, ["cycle"])
def cycle_self_loop(d):
    return model([node("Add", ["x", "t"], ["t"], "selfadd"), node("Relu", ["t"], ["y"], "n1")],
                 [vi("x", [4])], [vi("y", None)])


@case(GRAPH, "a node input that nothing produces", 1, ["'missing' is not produced"], loc(1, "add", "Add"))
def dangling_input(d):
    return model([node("Relu", ["x"], ["r"], "relu"), node("Add", ["r", "missing"], ["y"], "add")],
                 [vi("x", [4])], [vi("y", None)])


@case(GRAPH, "a Then branch that reads a value no scope defines", 1, ["'nowhere' is not produced"],
      "node #0 'if' (If) subgraph 'then_branch': node #0 'then_add' (Add)")
def dangling_input_in_subgraph(d):
    then = helper.make_graph([node("Add", ["x", "nowhere"], ["t"], "then_add")], "then", [], [vi("t", None)])
    other = helper.make_graph([node("Identity", ["x"], ["e"], "else_id")], "else", [], [vi("e", None)])
    return model([node("If", ["c"], ["y"], "if", then_branch=then, else_branch=other)],
                 [vi("c", [], TensorProto.BOOL), vi("x", [4])], [vi("y", None)])


@case(GRAPH, "two nodes produce the same value (SSA violated)", 1,
      ["'y' is produced twice", "node #1 'b' (Neg)"])
def ssa_two_producers(d):
    return model([node("Relu", ["x"], ["y"], "a"), node("Neg", ["x"], ["y"], "b")], [vi("x", [4])], [vi("y", None)])


@case(GRAPH, "a node writes the graph input it reads", 1,
      ["'x' is produced twice", "node #0 'relu' (Relu)"])
def ssa_output_is_graph_input(d):
    return model([node("Relu", ["x"], ["x"], "relu"), node("Neg", ["x"], ["y"], "neg")],
                 [vi("x", [4])], [vi("y", None)])


@case(GRAPH, "a graph output that no node, input or initializer produces", 1, ["graph output 'z' is not produced"])
def output_not_produced(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", [4])], [vi("y", None), vi("z", None)])


@case(GRAPH, "a graph output with an empty name", 1, ["graph output ''"])
def output_empty_name(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", [4])], [vi("y", None), vi("", None)])


@case(GRAPH, "a Then branch output that nothing in any scope produces", 1, ["graph output 'q' is not produced"])
def subgraph_output_not_produced(d):
    then = helper.make_graph([node("Relu", ["x"], ["t"], "then_relu")], "then", [], [vi("q", None)])
    other = helper.make_graph([node("Relu", ["x"], ["e"], "else_relu")], "else", [], [vi("e", None)])
    return model([node("If", ["c"], ["y"], "if", then_branch=then, else_branch=other)],
                 [vi("c", [], TensorProto.BOOL), vi("x", [4])], [vi("y", None)])


@case(GRAPH, "Add's second input named '' (absent) although it is required", 3, ["missing required input"],
      loc(0, "add", "Add"))
def empty_name_required_input(d):
    return model([node("Add", ["x", ""], ["y"], "add")], [vi("x", [4])], [vi("y", None)])


@case(GRAPH, "MatMul's first input named '' (absent) although it is required", 3, ["missing required input"],
      loc(0, "mm", "MatMul"))
def empty_name_first_input(d):
    return model([node("MatMul", ["", "w"], ["y"], "mm")], [vi("w", [4, 2])], [vi("y", None)])


@case(GRAPH, "a graph input with an empty name", 1, ["graph input has no name"])
def graph_input_empty_name(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", [4]), vi("", [4])], [vi("y", None)])


@case(GRAPH, "two graph inputs named 'x'", 1, ["'x' is produced twice"])
def duplicate_graph_input(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", [4]), vi("x", [5])], [vi("y", None)])


@case(GRAPH, "two initializers named 'w'", 1, ["'w' is produced twice"])
def duplicate_initializer(d):
    return model([node("Add", ["x", "w"], ["y"], "add")], [vi("x", [2])], [vi("y", None)],
                 [ints("w", [1, 2]), ints("w", [3, 4])])


@case(GRAPH, "an initializer with the name of a node output", 1, ["'h' is produced twice", "node #0 'relu' (Relu)"])
def initializer_shadows_node_output(d):
    return model([node("Relu", ["x"], ["h"], "relu"), node("Neg", ["h"], ["y"], "neg")],
                 [vi("x", [2], INT64)], [vi("y", None)], [ints("h", [1, 2])])


@case(GRAPH, "an initializer without a name", 1, ["initializer has no name"])
def initializer_empty_name(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", [2])], [vi("y", None)], [ints("", [1, 2])])


@case(GRAPH, "valid: an initializer that is also a graph input (a default value, IR >= 4)", 0)
def initializer_is_graph_input(d):
    return model([node("Add", ["x", "w"], ["y"], "add")], [vi("x", [2], INT64), vi("w", [2], INT64)],
                 [vi("y", None)], [ints("w", [1, 2])])


@case(GRAPH, "valid: nodes listed in reverse topological order (symshape sorts them)", 0)
def nodes_out_of_order(d):
    return model([node("Neg", ["h"], ["y"], "neg"), node("Relu", ["x"], ["h"], "relu")], [vi("x", [4])],
                 [vi("y", [4])])


@case(GRAPH, "an erroring node whose name holds a newline (diagnostics stay one line each)", 3, ["cannot broadcast"])
def node_name_with_newline(d):
    return model([node("Add", ["a", "b"], ["y"], "bad\nname")], [vi("a", [3]), vi("b", [4])], [vi("y", None)])


@case(GRAPH, "a dangling input whose name holds a newline (diagnostics stay one line each)", 1, ["is not produced"])
def value_name_with_newline(d):
    return model([node("Add", ["x", "mis\nsing"], ["y"], "add")], [vi("x", [4])], [vi("y", None)])


# ---------------------------------------------------------------- operator arity
ARITY = "arity"


@case(ARITY, "Add (2 inputs in every opset) given 3", 3, ["takes at most 2 inputs"], loc(0, "add", "Add"))
def add_three_inputs(d):
    return model([node("Add", ["x", "x", "x"], ["y"], "add")], [vi("x", [4])], [vi("y", None)])


@case(ARITY, "Add given 1 input", 3, ["missing required input"], loc(0, "add", "Add"))
def add_one_input(d):
    return model([node("Add", ["x"], ["y"], "add")], [vi("x", [4])], [vi("y", None)])


@case(ARITY, "Relu (1 output) given 2 outputs", 3, ["at most 1 output"], loc(0, "relu", "Relu"))
def relu_two_outputs(d):
    return model([node("Relu", ["x"], ["y", "z"], "relu")], [vi("x", [4])], [vi("y", None)])


@case(ARITY, "Relu with no output", 3, ["missing required output"], loc(1, "relu", "Relu"))
def relu_no_output(d):
    return model([node("Neg", ["x"], ["y"], "neg"), node("Relu", ["x"], [], "relu")], [vi("x", [4])],
                 [vi("y", None)])


@case(ARITY, "Concat (variadic, at least 1 input) with 0 inputs", 3, ["missing required input"],
      loc(1, "cat", "Concat"))
def concat_no_inputs(d):
    return model([node("Neg", ["x"], ["y"], "neg"), node("Concat", [], ["c"], "cat", axis=0)], [vi("x", [4])],
                 [vi("y", None)])


@case(ARITY, "Conv with X but without the required W", 3, ["missing required input"], loc(0, "conv", "Conv"))
def conv_without_w(d):
    return model([node("Conv", ["x"], ["y"], "conv", kernel_shape=[3, 3])], [vi("x", [1, 3, 8, 8])],
                 [vi("y", None)])


@case(ARITY, "Gemm (at most 3 inputs) given 4", 3, ["takes at most 3 inputs"], loc(0, "gemm", "Gemm"))
def gemm_four_inputs(d):
    return model([node("Gemm", ["a", "b", "c", "c"], ["y"], "gemm")], [vi("a", [2, 3]), vi("b", [3, 4]),
                                                                      vi("c", [4])], [vi("y", None)])


@case(ARITY, "Dropout-13 (at most 2 outputs) given 3", 3, ["at most 2 output"], loc(0, "drop", "Dropout"))
def dropout_three_outputs(d):
    return model([node("Dropout", ["x"], ["y", "m", "z"], "drop")], [vi("x", [4])], [vi("y", None)], opset=13)


@case(ARITY, "Split-13 with no output", 3, ["missing required output"], loc(1, "split", "Split"))
def split_no_outputs(d):
    return model([node("Neg", ["x"], ["y"], "neg"), node("Split", ["x"], [], "split", axis=0)], [vi("x", [6])],
                 [vi("y", None)], opset=13)


@case(ARITY, "valid: Clip-11 with its optional min and max named '' (absent)", 0)
def clip11_empty_optional_inputs(d):
    return model([node("Clip", ["x", "", ""], ["y"], "clip")], [vi("x", ["N", 4])], [vi("y", ["N", 4])], opset=11)


@case(ARITY, "valid: Clip-11 with min absent and max given", 0)
def clip11_only_max(d):
    return model([node("Clip", ["x", "", "hi"], ["y"], "clip")], [vi("x", ["N", 4]), vi("hi", [])],
                 [vi("y", ["N", 4])], opset=11)


@case(ARITY, "valid: Split-13 with 3 variadic outputs and split sizes", 0, stdout=["output c: float[N,3]"])
def split_variadic_outputs(d):
    return model([node("Split", ["x", "s"], ["a", "b", "c"], "split", axis=1)], [vi("x", ["N", 6])],
                 [vi("a", ["N", 1]), vi("b", ["N", 2]), vi("c", ["N", 3])], [ints("s", [1, 2, 3])], opset=13)


@case(ARITY, "valid: Dropout-13 with its optional mask output absent ('') and a trailing output", 0)
def dropout_optional_output(d):
    return model([node("Dropout", ["x"], ["y", ""], "drop")], [vi("x", ["N", 4])], [vi("y", ["N", 4])], opset=13)


# ---------------------------------------------------------------- attributes
ATTR = "attribute"


@case(ATTR, "Transpose perm given as FLOATS", 3, ["attribute 'perm' is FLOATS"], loc(0, "tr", "Transpose"))
def perm_as_floats(d):
    n = node("Transpose", ["x"], ["y"], "tr")
    n.attribute.append(helper.make_attribute("perm", [1.0, 0.0]))
    return model([n], [vi("x", [2, 3])], [vi("y", None)])


@case(ATTR, "Concat axis given as STRING", 3, ["attribute 'axis' is STRING"], loc(0, "cat", "Concat"))
def axis_as_string(d):
    return model([node("Concat", ["x", "x"], ["y"], "cat", axis="1")], [vi("x", [2, 3])], [vi("y", None)])


@case(ATTR, "Concat without its required axis", 3, ["missing required attribute 'axis'"], loc(0, "cat", "Concat"))
def concat_missing_axis(d):
    return model([node("Concat", ["x", "x"], ["y"], "cat")], [vi("x", [2, 3])], [vi("y", None)])


@case(ATTR, "Gemm with an attribute 'foo' the schema does not have", 3, ["unknown attribute 'foo'"],
      loc(0, "gemm", "Gemm"))
def gemm_unknown_attribute(d):
    return model([node("Gemm", ["a", "b"], ["y"], "gemm", foo=3)], [vi("a", [2, 3]), vi("b", [3, 4])],
                 [vi("y", None)])


@case(ATTR, "Conv with a stride of 0", 3, ["strides and dilations must be positive"], loc(0, "conv", "Conv"))
def conv_stride_zero(d):
    return conv(strides=[0, 1])


@case(ATTR, "Conv with group 0", 3, ["group must be positive"], loc(0, "conv", "Conv"))
def conv_group_zero(d):
    return conv(group=0)


@case(ATTR, "Conv with a negative kernel_shape", 3, ["kernel_shape values must be positive"], loc(0, "conv", "Conv"))
def conv_negative_kernel(d):
    return conv(kernel_shape=[-3, 3])


@case(ATTR, "Conv with a negative dilation", 3, ["strides and dilations must be positive"], loc(0, "conv", "Conv"))
def conv_negative_dilation(d):
    return conv(dilations=[-1, 1])


@case(ATTR, "MaxPool without its required kernel_shape", 3,
      ["missing required attribute 'kernel_shape'"], loc(0, "pool", "MaxPool"))
def maxpool_missing_kernel(d):
    return model([node("MaxPool", ["x"], ["y"], "pool")], [vi("x", ["N", 3, 8, 8])], [vi("y", None)])


@case(ATTR, "Cast to the element type code 99", 3, ["invalid target type in attribute 'to'"], loc(0, "cast", "Cast"))
def cast_invalid_to(d):
    return model([node("Cast", ["x"], ["y"], "cast", to=99)], [vi("x", [4])], [vi("y", None)])


@case(ATTR, "an attribute of type UNDEFINED with no value set", 1, ["invalid attribute type"])
def attribute_undefined_type(d):
    n = node("Relu", ["x"], ["y"], "relu")
    n.attribute.add(name="alpha")
    return model([n], [vi("x", [4])], [vi("y", None)])


@case(ATTR, "Softmax axis 5 on a rank-2 input", 3, ["axis 5 is out of range"], loc(0, "sm", "Softmax"))
def softmax_axis_out_of_range(d):
    return model([node("Softmax", ["x"], ["y"], "sm", axis=5)], [vi("x", ["N", 4])], [vi("y", None)])


@case(ATTR, "Conv with strides for 3 spatial axes on a 2-D input", 3,
      ["attribute 'strides' has 3 values"], loc(0, "conv", "Conv"))
def conv_strides_wrong_length(d):
    return conv(strides=[1, 1, 1])


def conv(**attrs):
    attrs.setdefault("kernel_shape", [3, 3])
    return model([node("Conv", ["x", "w"], ["y"], "conv", **attrs)], [vi("x", ["N", 3, 8, 8]), vi("w", [4, 3, 3, 3])],
                 [vi("y", None)])


# ---------------------------------------------------------------- tensor data
DATA = "tensor_data"


def tensor(name, dtype, dims, **fields):
    t = TensorProto(name=name, data_type=dtype)
    t.dims.extend(dims)
    for k, v in fields.items():
        if k == "raw_data":
            t.raw_data = v
        else:
            getattr(t, k).extend(v)
    return t


def with_init(t, shape=(2, 3)):
    """x + initializer t -> y."""
    return model([node("Add", ["x", t.name], ["y"], "add")], [vi("x", list(shape), t.data_type)], [vi("y", None)],
                 [t])


@case(DATA, "FLOAT [2,3] initializer with 20 bytes of raw_data (24 needed)", 1,
      ["initializer 'w'", "raw_data has 20 bytes"])
def raw_data_short(d):
    return with_init(tensor("w", FLOAT, [2, 3], raw_data=bytes(20)))


@case(DATA, "FLOAT [2,3] initializer with 28 bytes of raw_data (24 needed)", 1,
      ["initializer 'w'", "raw_data has 28 bytes"])
def raw_data_long(d):
    return with_init(tensor("w", FLOAT, [2, 3], raw_data=bytes(28)))


@case(DATA, "INT64 [2,3] initializer with 7 int64_data values", 1, ["initializer 'w'", "int64_data has 7"])
def typed_data_too_many(d):
    return with_init(tensor("w", INT64, [2, 3], int64_data=list(range(7))))


@case(DATA, "FLOAT [2,3] initializer with 5 float_data values", 1, ["initializer 'w'", "float_data has 5"])
def typed_data_too_few(d):
    return with_init(tensor("w", FLOAT, [2, 3], float_data=[1.0] * 5))


@case(DATA, "FLOAT initializer whose values are in int64_data", 1, ["initializer 'w'", "float_data"])
def typed_data_wrong_field(d):
    return with_init(tensor("w", FLOAT, [2, 3], int64_data=list(range(6))))


@case(DATA, "an initializer with dims [2,-3]", 1, ["initializer 'w'", "negative dim -3"])
def initializer_negative_dim(d):
    return with_init(tensor("w", FLOAT, [2, -3]))


@case(DATA, "an initializer with dims [2^32,2^32] (element count 2^64, past int64)", 1,
      ["initializer 'w'", "overflows int64"])
def initializer_count_overflow(d):
    return with_init(tensor("w", FLOAT, [2**32, 2**32]))


@case(DATA, "an initializer with the element type code 99", 1, ["initializer 'w'", "invalid data type code 99"])
def initializer_bad_dtype(d):
    return model([node("Identity", ["w"], ["y"], "id")], [], [vi("y", None)], [tensor("w", 99, [2])])


@case(DATA, "a Constant node whose value tensor has 4 bytes of raw_data for 2 INT64 elements", 1,
      ["attribute 'value'", "raw_data has 4 bytes"])
def constant_raw_data_short(d):
    return model([node("Constant", [], ["y"], "const", value=tensor("v", INT64, [2], raw_data=bytes(4)))], [],
                 [vi("y", None)])


@case(DATA, "a graph input declared with dim_value -2", 1, ["graph input 'x'", "negative dim_value -2"])
def input_negative_dim_value(d):
    m = unary()
    m.graph.input[0].type.tensor_type.shape.dim[1].dim_value = -2
    return m


@case(DATA, "a graph input with the element type code 77", 1, ["graph input 'x'", "invalid element type code 77"])
def input_bad_elem_type(d):
    m = unary()
    m.graph.input[0].type.tensor_type.elem_type = 77
    return m


@case(DATA, "an initializer marked EXTERNAL whose external_data has no 'location' entry", 1,
      ["initializer 'w'", "without a 'location'"])
def external_without_location(d):
    t = tensor("w", FLOAT, [2, 3])
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="offset", value="0")
    t.external_data.add(key="length", value="24")
    return with_init(t)


@case(DATA, "external data at location '../outside.bin' (outside the model folder; ONNX forbids '..')", 1,
      ["initializer 'w'", "'../outside.bin' leaves the model's folder"])
def external_parent_dir(d):
    return external_at("../outside.bin")


@case(DATA, "external data at the absolute location '/etc/hostname' (ONNX locations are relative)", 1,
      ["initializer 'w'", "'/etc/hostname' is not a relative path"])
def external_absolute(d):
    return external_at("/etc/hostname")


@case(DATA, "valid: external data in a file beside the model (never read)", 0)
def external_valid(d):
    with open(os.path.join(d, "external_valid.bin"), "wb") as f:
        f.write(bytes(24))
    return external_at("external_valid.bin")


@case(DATA, "a STRING initializer with raw_data (strings live in string_data only)", 1,
      ["initializer 'w'", "string tensor cannot have raw_data"])
def string_raw_data(d):
    return model([node("Identity", ["w"], ["y"], "id")], [], [vi("y", None)],
                 [tensor("w", TensorProto.STRING, [1], raw_data=b"abcd")])


@case(DATA, "a sparse initializer with dense dims [2,-4]", 1, ["sparse initializer 'w'", "negative dim -4"])
def sparse_initializer_negative_dim(d):
    values = tensor("w", FLOAT, [1], float_data=[1.0])
    indices = tensor("w_idx", INT64, [1], int64_data=[0])
    sp = helper.make_sparse_tensor(values, indices, [2, -4])
    m = model([node("Identity", ["w"], ["y"], "id")], [], [vi("y", None)])
    m.graph.sparse_initializer.append(sp)
    return m


def external_at(location):
    t = tensor("w", FLOAT, [2, 3])
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="location", value=location)
    t.external_data.add(key="length", value="24")
    return with_init(t)


# ---------------------------------------------------------------- opset imports
OPSET = "opset"


@case(OPSET, "ai.onnx operators but only com.microsoft imported", 3, ["imports no ai.onnx opset"],
      loc(0, "n0", "Relu"))
def no_ai_onnx_import(d):
    m = unary()
    del m.opset_import[:]
    m.opset_import.add(domain="com.microsoft", version=1)
    return m


@case(OPSET, "no opset_import at all", 3, ["imports no ai.onnx opset"], loc(0, "n0", "Relu"))
def no_opset_import(d):
    m = unary()
    del m.opset_import[:]
    return m


@case(OPSET, "the default domain imported as '' (17) and as 'ai.onnx' (13)", 1, ["imported twice"])
def import_default_and_ai_onnx(d):
    m = unary()
    m.opset_import.add(domain="ai.onnx", version=13)
    return m


@case(OPSET, "the domain '' imported twice (17 and 13)", 1, ["imported twice"])
def import_empty_domain_twice(d):
    m = unary()
    m.opset_import.add(domain="", version=13)
    return m


@case(OPSET, "the domain '' imported twice with the same version", 1, ["imported twice"])
def import_same_twice(d):
    m = unary()
    m.opset_import.add(domain="", version=17)
    return m


@case(OPSET, "valid: ai.onnx opset 99, newer than symshape knows (inferred with the newest rules, a warning)", 0,
      ["newer than"])
def opset_99(d):
    return unary(opset=99)


@case(OPSET, "ir_version 0 (set explicitly; ONNX IR versions start at 1)", 1, ["ir_version"])
def ir_version_zero(d):
    return unary(ir_version=0)


@case(OPSET, "no ir_version field (a required field of ModelProto)", 1, ["ir_version"])
def ir_version_missing(d):
    m = unary()
    m.ClearField("ir_version")
    return m


@case(OPSET, "valid: ir_version 2^40, far newer than any ONNX release (a warning)", 0, ["ir_version"])
def ir_version_huge(d):
    m = unary()
    m.ir_version = 2**40
    return m


# ---------------------------------------------------------------- int64 overflow
OVERFLOW = "overflow"


@case(OVERFLOW, "Pad-13 of a [1] tensor with pads [2^62, 2^62] (2^63+1 elements)", 3, ["int64 overflow"],
      loc(0, "pad", "Pad"))
def pad_overflow(d):
    return model([node("Pad", ["x", "p"], ["y"], "pad")], [vi("x", [1])], [vi("y", None)],
                 [ints("p", [BIG62, BIG62])], opset=13)


@case(OVERFLOW, "Pad-13 of a [N] tensor with pads [2^62, 2^62] (N + 2^63)", 3, ["int64 overflow"], loc(0, "pad", "Pad"))
def pad_symbolic_overflow(d):
    return model([node("Pad", ["x", "p"], ["y"], "pad")], [vi("x", ["N"])], [vi("y", None)],
                 [ints("p", [BIG62, BIG62])], opset=13)


@case(OVERFLOW, "Flatten axis 0 of a [2^40,2^40] tensor (a 2^80 dim)", 3, ["int64 overflow"], loc(0, "flat", "Flatten"))
def flatten_2p80(d):
    return model([node("Flatten", ["x"], ["y"], "flat", axis=0)], [vi("x", [2**40, 2**40])], [vi("y", None)])


@case(OVERFLOW, "Reshape of a [2^40,2^40] tensor to [-1] (2^80 elements)", 3, ["int64 overflow"],
      loc(0, "rs", "Reshape"))
def reshape_2p80(d):
    return model([node("Reshape", ["x", "s"], ["y"], "rs")], [vi("x", [2**40, 2**40])], [vi("y", None)],
                 [ints("s", [-1])])


@case(OVERFLOW, "Concat of [2^62] and [2^62] on axis 0 (2^63)", 3, ["int64 overflow"], loc(0, "cat", "Concat"))
def concat_overflow(d):
    return model([node("Concat", ["x", "x"], ["y"], "cat", axis=0)], [vi("x", [BIG62])], [vi("y", None)])


@case(OVERFLOW, "Tile of a [2^62] tensor by repeats [3]", 3, ["int64 overflow"], loc(0, "tile", "Tile"))
def tile_overflow(d):
    return model([node("Tile", ["x", "r"], ["y"], "tile")], [vi("x", [BIG62])], [vi("y", None)], [ints("r", [3])])


@case(OVERFLOW, "Size of a [2^62,4] tensor (2^64 elements)", 3, ["int64 overflow"], loc(0, "size", "Size"))
def size_overflow(d):
    return model([node("Size", ["x"], ["y"], "size")], [vi("x", [BIG62, 4])], [vi("y", None)])


@case(OVERFLOW, "Reshape of a [2^62,4] tensor to [-1] (2^64 elements)", 3, ["int64 overflow"], loc(0, "rs", "Reshape"))
def reshape_2p62x4(d):
    return model([node("Reshape", ["x", "s"], ["y"], "rs")], [vi("x", [BIG62, 4])], [vi("y", None)],
                 [ints("s", [-1])])


@case(OVERFLOW, "ConstantOfShape of shape [2^40,2^40,2^40]", 3, ["int64 overflow"], loc(0, "cos", "ConstantOfShape"))
def constant_of_shape_overflow(d):
    return model([node("ConstantOfShape", ["s"], ["y"], "cos"), node("Reshape", ["y", "m"], ["z"], "rs")], [],
                 [vi("z", None)], [ints("s", [2**40] * 3), ints("m", [-1])])


@case(OVERFLOW, "Expand of [N] by the shape [2^62, 2^62]... then Flatten axis 0", 3, ["int64 overflow"],
      loc(1, "flat", "Flatten"))
def expand_flatten_overflow(d):
    return model([node("Expand", ["x", "s"], ["e"], "exp"), node("Flatten", ["e"], ["y"], "flat", axis=0)],
                 [vi("x", [1])], [vi("y", None)], [ints("s", [BIG62, BIG62])])


# ---------------------------------------------------------------- semantic errors
SEMANTIC = "semantic"


def binary(op, a, b, name="n", **attrs):
    return model([node(op, ["a", "b"], ["y"], name, **attrs)], [vi("a", a), vi("b", b)], [vi("y", None)])


def reshape_to(shape_in, target):
    return model([node("Reshape", ["x", "s"], ["y"], "rs")], [vi("x", shape_in)], [vi("y", None)],
                 [ints("s", target)])


@case(SEMANTIC, "Reshape [2,3] to [-1,-1] (at most one -1)", 3, ["more than one -1"], loc(0, "rs", "Reshape"))
def reshape_two_minus_one(d):
    return reshape_to([2, 3], [-1, -1])


@case(SEMANTIC, "Reshape [2,3] (6 elements) to [4,2] (8)", 3, ["element counts differ"], loc(0, "rs", "Reshape"))
def reshape_count_mismatch(d):
    return reshape_to([2, 3], [4, 2])


@case(SEMANTIC, "Reshape [2,3] to [-2,3] (no negative target but -1)", 3, ["invalid dim -2"], loc(0, "rs", "Reshape"))
def reshape_negative_target(d):
    return reshape_to([2, 3], [-2, 3])


@case(SEMANTIC, "Reshape [2,6] to [5,-1] (6*2 not divisible by 5)", 3,
      ["the -1 dim is not an integer"], loc(0, "rs", "Reshape"))
def reshape_indivisible(d):
    return reshape_to([2, 6], [5, -1])


@case(SEMANTIC, "Concat [2,3] with [2,4] on axis 0", 3, ["dim 1 differs"], loc(0, "cat", "Concat"))
def concat_dim_mismatch(d):
    return binary("Concat", [2, 3], [2, 4], "cat", axis=0)


@case(SEMANTIC, "Concat of a rank-2 with a rank-3 tensor", 3, ["same rank"], loc(0, "cat", "Concat"))
def concat_rank_mismatch(d):
    return binary("Concat", [2, 3], [2, 3, 1], "cat", axis=0)


@case(SEMANTIC, "Concat axis 2 of rank-2 tensors", 3, ["axis 2 is out of range"], loc(0, "cat", "Concat"))
def concat_axis_out_of_range(d):
    return binary("Concat", [2, 3], [2, 3], "cat", axis=2)


@case(SEMANTIC, "MatMul [N,3] x [4,5]", 3, ["incompatible inner dimensions"], loc(0, "mm", "MatMul"))
def matmul_inner_mismatch(d):
    return binary("MatMul", ["N", 3], [4, 5], "mm")


@case(SEMANTIC, "MatMul of a scalar (MatMul needs rank >= 1)", 3, ["rank >= 1"], loc(0, "mm", "MatMul"))
def matmul_scalar(d):
    return binary("MatMul", [], [4, 5], "mm")


@case(SEMANTIC, "MatMul [2,3,4] x [5,4,6]: batch dims 2 and 5 do not broadcast", 3, ["cannot broadcast"],
      loc(0, "mm", "MatMul"))
def matmul_batch_mismatch(d):
    return binary("MatMul", [2, 3, 4], [5, 4, 6], "mm")


@case(SEMANTIC, "Add [N,3] + [N,4]", 3, ["cannot broadcast"], loc(0, "add", "Add"))
def broadcast_mismatch(d):
    return binary("Add", ["N", 3], ["N", 4], "add")


@case(SEMANTIC, "Where with condition [2], x [3], y [3]", 3, ["cannot broadcast"], loc(0, "where", "Where"))
def where_broadcast_mismatch(d):
    return model([node("Where", ["c", "a", "b"], ["y"], "where")],
                 [vi("c", [2], TensorProto.BOOL), vi("a", [3]), vi("b", [3])], [vi("y", None)])


@case(SEMANTIC, "Expand [3] to the shape [4]", 3, ["cannot broadcast"], loc(0, "exp", "Expand"))
def expand_incompatible(d):
    return model([node("Expand", ["x", "s"], ["y"], "exp")], [vi("x", [3])], [vi("y", None)], [ints("s", [4])])


@case(SEMANTIC, "Gather from a scalar (data must have rank >= 1)", 3, ["rank >= 1"], loc(0, "gather", "Gather"))
def gather_scalar_data(d):
    return model([node("Gather", ["x", "i"], ["y"], "gather")], [vi("x", []), vi("i", [2], INT64)], [vi("y", None)])


@case(SEMANTIC, "Gather axis 2 of rank-2 data", 3, ["axis 2 is out of range"], loc(0, "gather", "Gather"))
def gather_axis_out_of_range(d):
    return model([node("Gather", ["x", "i"], ["y"], "gather", axis=2)], [vi("x", [3, 4]), vi("i", [2], INT64)],
                 [vi("y", None)])


@case(SEMANTIC, "GatherElements with rank-1 indices on rank-2 data (ranks must match)", 3,
      ["must have the rank of data"],
      loc(0, "ge", "GatherElements"))
def gather_elements_rank_mismatch(d):
    return model([node("GatherElements", ["x", "i"], ["y"], "ge")], [vi("x", [3, 4]), vi("i", [3], INT64)],
                 [vi("y", None)])


@case(SEMANTIC, "GatherND with indices [2,3] into rank-2 data (last indices dim > rank)", 3, ["last indices dim 3"],
      loc(0, "gnd", "GatherND"))
def gather_nd_index_too_long(d):
    return model([node("GatherND", ["x", "i"], ["y"], "gnd")], [vi("x", [3, 4]), vi("i", [2, 3], INT64)],
                 [vi("y", None)])


@case(SEMANTIC, "Transpose perm [0,0] (not a permutation)", 3, ["not a permutation"], loc(0, "tr", "Transpose"))
def transpose_perm_repeated(d):
    return model([node("Transpose", ["x"], ["y"], "tr", perm=[0, 0])], [vi("x", [2, 3])], [vi("y", None)])


@case(SEMANTIC, "Transpose perm [0] of a rank-2 tensor", 3, ["perm has 1 entries"], loc(0, "tr", "Transpose"))
def transpose_perm_short(d):
    return model([node("Transpose", ["x"], ["y"], "tr", perm=[0])], [vi("x", [2, 3])], [vi("y", None)])


@case(SEMANTIC, "Transpose perm [0,2] of a rank-2 tensor", 3, ["not a permutation"], loc(0, "tr", "Transpose"))
def transpose_perm_out_of_range(d):
    return model([node("Transpose", ["x"], ["y"], "tr", perm=[0, 2])], [vi("x", [2, 3])], [vi("y", None)])


@case(SEMANTIC, "Squeeze-13 axis 0 of a [2,3] tensor (the dim is not 1)", 3, ["cannot squeeze axis 0"],
      loc(0, "sq", "Squeeze"))
def squeeze_non_one(d):
    return model([node("Squeeze", ["x", "a"], ["y"], "sq")], [vi("x", [2, 3])], [vi("y", None)], [ints("a", [0])],
                 opset=13)


@case(SEMANTIC, "Unsqueeze-13 with axes [0,0]", 3, ["repeated axis"], loc(0, "unsq", "Unsqueeze"))
def unsqueeze_duplicate_axes(d):
    return model([node("Unsqueeze", ["x", "a"], ["y"], "unsq")], [vi("x", [2, 3])], [vi("y", None)],
                 [ints("a", [0, 0])], opset=13)


@case(SEMANTIC, "Slice-13 with a step of 0", 3, ["step must not be 0"], loc(0, "sl", "Slice"))
def slice_step_zero(d):
    return model([node("Slice", ["x", "s", "e", "ax", "st"], ["y"], "sl")], [vi("x", [8])], [vi("y", None)],
                 [ints("s", [0]), ints("e", [8]), ints("ax", [0]), ints("st", [0])], opset=13)


@case(SEMANTIC, "Split-13 of a [N,6] tensor into sizes [1,2] on axis 1", 3,
      ["split sizes sum to 3"], loc(0, "split", "Split"))
def split_sizes_mismatch(d):
    return model([node("Split", ["x", "s"], ["a", "b"], "split", axis=1)], [vi("x", ["N", 6])], [vi("a", None)],
                 [ints("s", [1, 2])], opset=13)


@case(SEMANTIC, "Conv of 3 input channels with a W for 2 channels per group", 3, ["input channels 3 do not match"],
      loc(0, "conv", "Conv"))
def conv_channel_mismatch(d):
    return model([node("Conv", ["x", "w"], ["y"], "conv", kernel_shape=[3, 3])],
                 [vi("x", ["N", 3, 8, 8]), vi("w", [4, 2, 3, 3])], [vi("y", None)])


@case(SEMANTIC, "Conv with a 9x9 kernel over an 8x8 input without padding", 3,
      ["smaller than the kernel"], loc(0, "conv", "Conv"))
def conv_kernel_larger_than_input(d):
    return model([node("Conv", ["x", "w"], ["y"], "conv")], [vi("x", ["N", 3, 8, 8]), vi("w", [4, 3, 9, 9])],
                 [vi("y", None)])


@case(SEMANTIC, "Reshape whose shape input is [[2,3]] (rank 2; it must be 1-D)", 3,
      ["shape input must be 1-D"], loc(0, "rs", "Reshape"))
def reshape_shape_rank_2(d):
    return model([node("Reshape", ["x", "s"], ["y"], "rs")], [vi("x", [2, 3])], [vi("y", None)],
                 [ints("s", [2, 3], dims=[1, 2])])


@case(SEMANTIC, "Slice-13 with the axis 0 listed twice", 3, ["repeated axis"], loc(0, "sl", "Slice"))
def slice_repeated_axes(d):
    return model([node("Slice", ["x", "s", "e", "ax"], ["y"], "sl")], [vi("x", [8, 8])], [vi("y", None)],
                 [ints("s", [0, 1]), ints("e", [4, 5]), ints("ax", [0, 0])], opset=13)


@case(SEMANTIC, "TopK k=5 along an axis of 3", 3, ["k = 5 is out of range"], loc(0, "topk", "TopK"))
def topk_k_too_large(d):
    return model([node("TopK", ["x", "k"], ["v", "i"], "topk", axis=1)], [vi("x", ["N", 3])], [vi("v", None)],
                 [ints("k", [5])])


@case(SEMANTIC, "Einsum 'ij,jk->ikz' (an output label no input has)", 3,
      ["output label 'z' does not appear"], loc(0, "es", "Einsum"))
def einsum_unknown_output_label(d):
    return model([node("Einsum", ["a", "b"], ["y"], "es", equation="ij,jk->ikz")], [vi("a", [2, 3]), vi("b", [3, 4])],
                 [vi("y", None)])


@case(SEMANTIC, "Einsum 'ij->' given 2 inputs (the equation has 1 term)", 3,
      ["has 1 operands but the node has 2 inputs"], loc(0, "es", "Einsum"))
def einsum_term_count(d):
    return model([node("Einsum", ["a", "b"], ["y"], "es", equation="ij->")], [vi("a", [2, 3]), vi("b", [3, 4])],
                 [vi("y", None)])


@case(SEMANTIC, "Constant with both value and value_float (exactly one is allowed)", 3,
      ["more than one value attribute"],
      loc(0, "const", "Constant"))
def constant_two_values(d):
    return model([node("Constant", [], ["y"], "const", value=ints("v", [1, 2]), value_float=1.0)], [],
                 [vi("y", None)])


@case(SEMANTIC, "Range with delta 0", 3, ["delta must not be 0"], loc(0, "range", "Range"))
def range_delta_zero(d):
    return model([node("Range", ["s", "l", "dl"], ["y"], "range")], [], [vi("y", None)],
                 [ints("s", [0], dims=[]), ints("l", [10], dims=[]), ints("dl", [0], dims=[])])


@case(ATTR, "Conv with auto_pad 'FOO'", 3, ["unknown auto_pad 'FOO'"], loc(0, "conv", "Conv"))
def conv_bad_auto_pad(d):
    return conv(auto_pad="FOO")


@case(ATTR, "Conv with pads of length 2 for 2 spatial axes (needs 4)", 3,
      ["attribute 'pads' has 2 values"], loc(0, "conv", "Conv"))
def conv_pads_wrong_length(d):
    return conv(pads=[1, 1])


@case(SEMANTIC, "valid: Gather of a scalar index from [N,4] on axis 1 (output rank 1)", 0,
      stdout=["output y: float[N]"])
def gather_scalar_index(d):
    return model([node("Gather", ["x", "i"], ["y"], "gather", axis=1)], [vi("x", ["N", 4])], [vi("y", ["N"])],
                 [ints("i", [2], dims=[])])


def if_node(then_outs, else_outs, node_outs):
    then = helper.make_graph([node("Relu", ["x"], [f"t{i}"], f"then{i}") for i in range(then_outs)], "then", [],
                             [vi(f"t{i}", None) for i in range(then_outs)])
    other = helper.make_graph([node("Neg", ["x"], [f"e{i}"], f"else{i}") for i in range(else_outs)], "else", [],
                              [vi(f"e{i}", None) for i in range(else_outs)])
    outs = [f"y{i}" for i in range(node_outs)]
    return model([node("If", ["c"], outs, "if", then_branch=then, else_branch=other)],
                 [vi("c", [], TensorProto.BOOL), vi("x", [4])], [vi(o, None) for o in outs])


@case(SEMANTIC, "If whose then branch has 1 output and else branch 2", 3,
      ["then_branch has 1 outputs but else_branch has 2"], loc(0, "if", "If"))
def if_branch_output_counts_differ(d):
    return if_node(1, 2, 1)


@case(SEMANTIC, "If with 2 outputs whose branches have 1 output each", 3,
      ["the node has 2 outputs"], loc(0, "if", "If"))
def if_node_more_outputs_than_branches(d):
    return if_node(1, 1, 2)


def loop(body_inputs, body_outputs):
    body = helper.make_graph([node("Identity", ["cond_in"], ["cond_out"], "keep"),
                              node("Add", ["v_in", "v_in"], ["v_out"], "double")], "body",
                             body_inputs, body_outputs)
    return model([node("Loop", ["trip", "", "v0"], ["v_final"], "loop", body=body)],
                 [vi("trip", [], INT64), vi("v0", [4])], [vi("v_final", None)])


@case(SEMANTIC, "Loop with 1 carried value whose body returns only the condition", 3, ["body has 1 outputs"],
      loc(0, "loop", "Loop"))
def loop_body_missing_output(d):
    return loop([vi("i", [], INT64), vi("cond_in", [], TensorProto.BOOL), vi("v_in", [4])],
                [vi("cond_out", [], TensorProto.BOOL)])


@case(SEMANTIC, "Loop with 1 carried value whose body takes 2 inputs (needs 3)", 3,
      ["body has 2 inputs"], loc(0, "loop", "Loop"))
def loop_body_missing_input(d):
    body = helper.make_graph([node("Identity", ["cond_in"], ["cond_out"], "keep"),
                              node("Add", ["v0", "v0"], ["v_out"], "double")], "body",
                             [vi("i", [], INT64), vi("cond_in", [], TensorProto.BOOL)],
                             [vi("cond_out", [], TensorProto.BOOL), vi("v_out", [4])])
    return model([node("Loop", ["trip", "", "v0"], ["v_final"], "loop", body=body)],
                 [vi("trip", [], INT64), vi("v0", [4])], [vi("v_final", None)])


@case(SEMANTIC, "Scan-16 with 1 state and 1 scan output whose body returns only the state", 3,
      ["body has 1 outputs but the node has 2"],
      loc(0, "scan", "Scan"))
def scan_body_missing_output(d):
    body = helper.make_graph([node("Add", ["s_in", "x_t"], ["s_out"], "acc")], "body",
                             [vi("s_in", [4]), vi("x_t", [4])], [vi("s_out", [4])])
    return model([node("Scan", ["s0", "xs"], ["s_final", "ys"], "scan", body=body, num_scan_inputs=1)],
                 [vi("s0", [4]), vi("xs", ["T", 4])], [vi("s_final", None), vi("ys", None)], opset=16)


@case(ATTR, "Loop without its required body", 3, ["missing required attribute 'body'"], loc(0, "loop", "Loop"))
def loop_without_body(d):
    return model([node("Loop", ["trip", "", "v0"], ["v_final"], "loop")], [vi("trip", [], INT64), vi("v0", [4])],
                 [vi("v_final", None)])


def local_function(name, calls):
    return helper.make_function("local", name, ["a"], ["b"], [node(calls, ["a"], ["b"], "call", domain="local")],
                                [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])


def calls_function(functions):
    return model([node("f", ["x"], ["y"], "call_f", domain="local")], [vi("x", [4])], [vi("y", None)],
                 imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)], functions=functions)


@case(SEMANTIC, "a model-local function f whose body calls f", 3, ["recursion"],
      "node #0 'call' (local::f) in function")
def recursive_function(d):
    return calls_function([local_function("f", "f")])


@case(SEMANTIC, "model-local functions f and g that call each other", 3, ["recursion"],
      "node #0 'call' (local::f) in function")
def mutually_recursive_functions(d):
    return calls_function([local_function("f", "g"), local_function("g", "f")])


@case(GRAPH, "two model-local functions both named local::f", 1, ["defined twice"])
def function_defined_twice(d):
    f = local_function("f", "Relu")
    f.node[0].domain = ""
    return calls_function([f, f])


# ---------------------------------------------------------------- extreme models
EXTREME = "extreme"


def nested_if(depth):
    """If nodes nested `depth` deep in then branches (else: Identity), built in
    place: copying subgraphs level by level would be quadratic."""
    m = model([], [vi("c", [], TensorProto.BOOL), vi("x", [4])], [vi("v0", [4])])
    g = m.graph
    for k in range(depth):
        n = g.node.add(op_type="If", name=f"if{k}", input=["c"], output=[f"v{k}"])
        then = n.attribute.add(name="then_branch", type=onnx.AttributeProto.GRAPH).g
        other = n.attribute.add(name="else_branch", type=onnx.AttributeProto.GRAPH).g
        other.name = f"else{k}"
        other.node.add(op_type="Identity", name=f"else_id{k}", input=["x"], output=[f"e{k}"])
        other.output.add(name=f"e{k}")
        then.name = f"then{k}"
        then.output.add(name=f"v{k + 1}")
        g = then
    g.node.add(op_type="Identity", name="innermost", input=["x"], output=[f"v{depth}"])
    return m


@case(EXTREME, "valid: If nested 1000 deep (the loader allows 1024)", 0, stdout=["output v0: float[4]"])
def if_nested_1000(d):
    return nested_if(1000)


@case(EXTREME, "If nested 2000 deep: beyond the loader's 1024 levels", 1, ["nested deeper than 1024"])
def if_nested_2000(d):
    return nested_if(2000)


@case(EXTREME, "If nested 4000 deep: beyond protobuf's raised recursion limit (10000 messages)", 1,
      ["not a valid ONNX model"])
def if_nested_4000(d):
    return nested_if(4000)


@case(EXTREME, "valid: an input dim_param that is a sum of 1,000,000 distinct symbols", 0)
def dim_param_million_terms(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", ["+".join(f"s{i}" for i in range(1000000)), 4])],
                 [vi("y", None)])


@case(EXTREME, "an input dim_param nested 100,000 brackets deep (the expression parser allows 200)", 1,
      ["graph input 'x'", "deeper than"])
def dim_param_100k_brackets(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", ["(" * 100000 + "N" + ")" * 100000, 4])],
                 [vi("y", None)])


@case(EXTREME, "valid: an input dim_param nested 150 brackets deep (within the parser's 200)", 0,
      stdout=["output y: float[N,4]"])
def dim_param_150_brackets(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", ["(" * 150 + "N" + ")" * 150, 4])],
                 [vi("y", None)])


@case(EXTREME, "valid: an input dim_param that is no expression ('batch size': ONNX allows any string)", 0)
def dim_param_not_an_expression(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", ["batch size", 4])], [vi("y", None)])


# One command-line argument holds at most 128 KiB (Linux MAX_ARG_STRLEN): 60,000 levels.
@case(EXTREME, "--input-shape with a dim nested 60,000 brackets deep (a usage error)", 2, ["bad dim", "deeper than"],
      args=["--input-shape", "x=" + "(" * 60000 + "N" + ")" * 60000 + ",4"])
def input_shape_60k_brackets(d):
    return unary()


@case(EXTREME, "valid: a chain of 10,000 unary nodes", 0, stdout=["output v10000: float[N,4]"])
def chain_10000(d):
    ops = ["Relu", "Neg", "Abs", "Sigmoid"]
    nodes = [node(ops[i % 4], [f"v{i}"], [f"v{i + 1}"], f"n{i}") for i in range(10000)]
    return model(nodes, [vi("v0", ["N", 4])], [vi("v10000", ["N", 4])])


RANK64_A = [f"d{i}" if i % 2 else i % 7 + 1 for i in range(64)]
RANK64_AXES = range(0, 64, 3)  # reduced, kept as 1


@case(EXTREME, "valid: rank-64 tensors through Add (broadcast), Transpose and ReduceSum", 0,
      stdout=["output y: float[" + ",".join("1" if i in RANK64_AXES else str(RANK64_A[63 - i]) for i in range(64)) +
              "]"])
def rank_64(d):
    a = RANK64_A
    b = [1] * 64
    return model([node("Add", ["a", "b"], ["s"], "add"),
                  node("Transpose", ["s"], ["t"], "tr", perm=list(reversed(range(64)))),
                  node("ReduceSum", ["t", "ax"], ["y"], "sum", keepdims=1)],
                 [vi("a", a), vi("b", b)], [vi("y", None)], [ints("ax", list(RANK64_AXES))], opset=13)


@case(EXTREME, "valid: Concat of 200 inputs [N,k_i] on axis 1", 0,
      stdout=["output y: float[N," + "+".join(sorted(f"k{i}" for i in range(200))) + "]"])
def concat_200_inputs(d):
    names = [f"x{i}" for i in range(200)]
    return model([node("Concat", names, ["y"], "cat", axis=1)], [vi(n, ["N", f"k{i}"]) for i, n in enumerate(names)],
                 [vi("y", None)])


@case(EXTREME, "valid: Sum of 10,000 inputs", 0, stdout=["output y: float[N,4]"])
def sum_10000_inputs(d):
    names = [f"x{i}" for i in range(10000)]
    return model([node("Sum", names, ["y"], "sum")], [vi(n, ["N", 4]) for n in names], [vi("y", ["N", 4])])


@case(EXTREME, "valid: Split-13 into 1000 outputs", 0, stdout=["output o999: float[N,2]"])
def split_1000_outputs(d):
    outs = [f"o{i}" for i in range(1000)]
    return model([node("Split", ["x"], outs, "split", axis=1)], [vi("x", ["N", 2000])], [vi(o, None) for o in outs],
                 opset=13)


@case(EXTREME, "valid: dims of 2^63-1 through Relu (the largest int64, no arithmetic)", 0,
      stdout=["output y: float[9223372036854775807,1]"])
def max_int64_dim(d):
    return model([node("Relu", ["x"], ["y"], "relu")], [vi("x", [2**63 - 1, 1])], [vi("y", None)])


@case(EXTREME, "valid: a value name of 1,000,000 characters", 0)
def long_value_name(d):
    big = "v" * 1000000
    return model([node("Relu", ["x"], [big], "relu"), node("Neg", [big], ["y"], "neg")], [vi("x", [4])],
                 [vi("y", [4])])


# ---------------------------------------------------------------- main
def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = set()
    manifest = []
    for c in CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        built = c.pop("build")(out)
        path = os.path.join(out, c["file"])
        if built is not None:
            data = built if isinstance(built, bytes) else built.SerializeToString()
            with open(path, "wb") as f:
                f.write(data)
        manifest.append(c)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(manifest)} cases written to {out}")


if __name__ == "__main__":
    main()
