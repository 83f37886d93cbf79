#!/usr/bin/python3
"""Generates the small example models of symshape (run with Debian's python3-onnx):

    /usr/bin/python3 examples/models/make_models.py [OUTDIR]

- transformer_block.onnx: one pre-norm transformer encoder block over
  input [batch, seq, 32]: LayerNormalization, MatMul + Add projections,
  multi-head reshapes built at run time (Shape -> Gather -> Unsqueeze ->
  Concat -> Reshape), Transpose, scaled Softmax attention, a ReLU MLP and
  residual Adds. The output is [batch, seq, 32]; the attention scores are
  [batch, 4, seq, seq].
- small_cnn.onnx: image [N, 3, H, W] -> Conv (stride 2) -> Relu -> MaxPool ->
  Conv -> Relu -> GlobalAveragePool -> Flatten -> Gemm -> logits [N, 10].
  Spatial dims become (H+1)//2 and ((H+1)//2)//2 style expressions.
Graph outputs declare only their rank (anonymous dims): ONNX's checker
requires a shape there, and symshape fills in the dims.
- shape_bug.onnx: a deliberate shape bug for the diagnostics: a projection
  whose weight expects 64 features applied to a [batch, seq, 32] input.
- control_flow.onnx: an If with two branches reading an outer value and a
  call of a model-local function (FunctionProto), to exercise subgraphs.

The files are deterministic (fixed seed, no producer timestamps) and are
committed next to this script; regenerate them after changing it.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
rng = np.random.default_rng(1234)


def weight(name, *shape):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.02).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def finish(graph, path, functions=None):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="symshape-examples", functions=functions or [])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    print("wrote", path, os.path.getsize(path), "bytes")


def transformer_block(path, d_model=32, heads=4, d_ff=128):
    d_head = d_model // heads
    nodes = []
    inits = [
        weight("ln1_gamma", d_model), weight("ln1_beta", d_model),
        weight("wq", d_model, d_model), weight("bq", d_model),
        weight("wk", d_model, d_model), weight("bk", d_model),
        weight("wv", d_model, d_model), weight("bv", d_model),
        weight("wo", d_model, d_model), weight("bo", d_model),
        weight("ln2_gamma", d_model), weight("ln2_beta", d_model),
        weight("w1", d_model, d_ff), weight("b1", d_ff),
        weight("w2", d_ff, d_model), weight("b2", d_model),
        ints("zero", 0), ints("one", 1), ints("axes0", [0]),
        ints("heads_dims", [heads, d_head]), ints("model_dim", [d_model]),
        numpy_helper.from_array(np.array(1.0 / np.sqrt(d_head), dtype=np.float32), "scale"),
    ]
    N = helper.make_node
    nodes.append(N("LayerNormalization", ["x", "ln1_gamma", "ln1_beta"], ["ln1"], name="ln1", axis=-1, epsilon=1e-5))
    # Run-time shape: [batch, seq] from the input.
    nodes += [
        N("Shape", ["x"], ["x_shape"], name="shape"),
        N("Gather", ["x_shape", "zero"], ["batch"], name="get_batch", axis=0),
        N("Gather", ["x_shape", "one"], ["seq"], name="get_seq", axis=0),
        N("Unsqueeze", ["batch", "axes0"], ["batch_1d"], name="batch_1d"),
        N("Unsqueeze", ["seq", "axes0"], ["seq_1d"], name="seq_1d"),
        N("Concat", ["batch_1d", "seq_1d", "heads_dims"], ["split_heads_shape"], name="split_heads_shape", axis=0),
        N("Concat", ["batch_1d", "seq_1d", "model_dim"], ["merge_heads_shape"], name="merge_heads_shape", axis=0),
    ]
    for p in "qkv":
        nodes += [
            N("MatMul", ["ln1", "w" + p], [p + "_mm"], name=p + "_proj"),
            N("Add", [p + "_mm", "b" + p], [p], name=p + "_bias"),
            N("Reshape", [p, "split_heads_shape"], [p + "_heads"], name=p + "_split_heads"),
        ]
    nodes += [
        N("Transpose", ["q_heads"], ["q_t"], name="q_transpose", perm=[0, 2, 1, 3]),
        N("Transpose", ["k_heads"], ["k_t"], name="k_transpose", perm=[0, 2, 3, 1]),
        N("Transpose", ["v_heads"], ["v_t"], name="v_transpose", perm=[0, 2, 1, 3]),
        N("MatMul", ["q_t", "k_t"], ["scores_raw"], name="scores"),
        N("Mul", ["scores_raw", "scale"], ["scores"], name="scale_scores"),
        N("Softmax", ["scores"], ["attn"], name="softmax", axis=-1),
        N("MatMul", ["attn", "v_t"], ["context"], name="context"),
        N("Transpose", ["context"], ["context_t"], name="context_transpose", perm=[0, 2, 1, 3]),
        N("Reshape", ["context_t", "merge_heads_shape"], ["context_merged"], name="merge_heads"),
        N("MatMul", ["context_merged", "wo"], ["o_mm"], name="o_proj"),
        N("Add", ["o_mm", "bo"], ["attn_out"], name="o_bias"),
        N("Add", ["x", "attn_out"], ["h1"], name="residual1"),
        N("LayerNormalization", ["h1", "ln2_gamma", "ln2_beta"], ["ln2"], name="ln2", axis=-1, epsilon=1e-5),
        N("MatMul", ["ln2", "w1"], ["ff1_mm"], name="ff1"),
        N("Add", ["ff1_mm", "b1"], ["ff1_b"], name="ff1_bias"),
        N("Relu", ["ff1_b"], ["ff1_act"], name="ff1_relu"),
        N("MatMul", ["ff1_act", "w2"], ["ff2_mm"], name="ff2"),
        N("Add", ["ff2_mm", "b2"], ["ff2_b"], name="ff2_bias"),
        N("Add", ["h1", "ff2_b"], ["y"], name="residual2"),
    ]
    graph = helper.make_graph(
        nodes, "transformer_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", d_model])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 3),
         helper.make_tensor_value_info("attn", TensorProto.FLOAT, [None] * 4)],
        inits)
    finish(graph, path)


def small_cnn(path):
    N = helper.make_node
    inits = [weight("conv1_w", 8, 3, 3, 3), weight("conv1_b", 8),
             weight("conv2_w", 16, 8, 3, 3), weight("conv2_b", 16),
             weight("fc_w", 10, 16), weight("fc_b", 10)]
    nodes = [
        N("Conv", ["image", "conv1_w", "conv1_b"], ["c1"], name="conv1", kernel_shape=[3, 3], strides=[2, 2],
          pads=[1, 1, 1, 1]),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        N("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        N("Conv", ["p1", "conv2_w", "conv2_b"], ["c2"], name="conv2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        N("Relu", ["c2"], ["r2"], name="relu2"),
        N("GlobalAveragePool", ["r2"], ["gap"], name="gap"),
        N("Flatten", ["gap"], ["flat"], name="flatten", axis=1),
        N("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1),
    ]
    graph = helper.make_graph(
        nodes, "small_cnn",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["N", 3, "H", "W"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [None] * 2)],
        inits)
    finish(graph, path)


def control_flow(path):
    N = helper.make_node
    # A model-local function: ScaleAdd(X, B) = X * 2 + B.
    fn = helper.make_function(
        "local", "ScaleAdd", ["X", "B"], ["Y"],
        [N("Constant", [], ["two"], value=helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])),
         N("Mul", ["X", "two"], ["X2"]),
         N("Add", ["X2", "B"], ["Y"])],
        [helper.make_opsetid("", OPSET)])
    then_graph = helper.make_graph(
        [N("Relu", ["a"], ["then_out"], name="then_relu")], "then_branch", [],
        [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [None] * 2)])
    else_graph = helper.make_graph(
        [N("Neg", ["a"], ["else_out"], name="else_neg")], "else_branch", [],
        [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [None] * 2)])
    nodes = [
        N("ScaleAdd", ["a", "b"], ["a2"], name="scale_add", domain="local"),
        N("If", ["cond"], ["branch"], name="if", then_branch=then_graph, else_branch=else_graph),
        N("Add", ["branch", "a2"], ["out"], name="sum"),
    ]
    graph = helper.make_graph(
        nodes, "control_flow",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["batch", 16]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [16]),
         helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [None] * 2)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("local", 1)],
                              producer_name="symshape-examples", functions=[fn])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    print("wrote", path, os.path.getsize(path), "bytes")


def shape_bug(path):
    N = helper.make_node
    graph = helper.make_graph(
        [N("MatMul", ["x", "w_in"], ["h"], name="proj_in"),
         N("Relu", ["h"], ["a"], name="act"),
         N("MatMul", ["a", "w_out"], ["y"], name="proj_out")],
        "shape_bug",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 3)],
        [weight("w_in", 32, 48), weight("w_out", 64, 16)])
    finish(graph, path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    transformer_block(os.path.join(out, "transformer_block.onnx"))
    small_cnn(os.path.join(out, "small_cnn.onnx"))
    control_flow(os.path.join(out, "control_flow.onnx"))
    shape_bug(os.path.join(out, "shape_bug.onnx"))


if __name__ == "__main__":
    main()
