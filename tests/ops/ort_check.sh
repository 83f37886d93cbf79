#!/bin/bash
# Compares symshape's symbolic output shapes and element types with what
# onnxruntime (the npm package onnxruntime-node, CPU provider) produces, at two
# bindings of the symbolic input dims: newer ai.onnx operators, the
# com.microsoft contrib operators and ai.onnx.ml. Not run in CI (it downloads
# onnxruntime-node).
#
#   tests/ops/ort_check.sh [BUILD_DIR]      (default: build; needs build/bin/symshape)
#
# Steps: python3 (onnx, numpy) writes small models whose inputs have symbolic
# dims and whose outputs carry no type; `symshape infer -o` annotates them;
# each output dim expression is evaluated at the binding and compared, with the
# element type, with onnxruntime's result for random inputs of that binding
# (integer inputs in the range a case asks for). A model both refuse counts as
# agreement; one only onnxruntime refuses (an operator missing from the CPU
# build, a kernel limit) is listed as SKIP; symshape reporting an error for a
# model onnxruntime runs is a disagreement. Exit status 1 on any disagreement.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
SYMSHAPE=$BUILD/bin/symshape
[ -x "$SYMSHAPE" ] || { echo "ort_check: $SYMSHAPE not built" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "ort_check: installing onnxruntime-node into $WORK"
(cd "$WORK" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null 2>&1)
echo "ort_check: onnxruntime-node $(node -p "require('$WORK/node_modules/onnxruntime-node/package.json').version")"

# Shared by make_models.py and compare.py (Python puts $WORK, their folder, on sys.path).
cat > "$WORK/type_str.py" <<'EOF'
from onnx import TensorProto as T


def type_str(t):
    """A TypeProto without shapes: tensor(float), seq(map(int64,tensor(float)))."""
    k = t.WhichOneof("value")
    if k == "tensor_type": return f"tensor({T.DataType.Name(t.tensor_type.elem_type).lower()})"
    if k == "sequence_type": return f"seq({type_str(t.sequence_type.elem_type)})"
    if k == "map_type": return f"map({T.DataType.Name(t.map_type.key_type).lower()},{type_str(t.map_type.value_type)})"
    if k == "optional_type": return f"optional({type_str(t.optional_type.elem_type)})"
    return "?"
EOF

cat > "$WORK/make_models.py" <<'EOF'
import json, sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto as T
work = sys.argv[1]
F, U8, I8, I16, I32, I64 = T.FLOAT, T.UINT8, T.INT8, T.INT16, T.INT32, T.INT64
MS, ML = ("com.microsoft", 1), ("ai.onnx.ml", 3)
rng = np.random.default_rng(0)

def vi(name, dtype, dims):
    return helper.make_tensor_value_info(name, dtype, dims)

def model(name, opset, node, inputs, outputs, inits=(), extra_opsets=()):
    """extra_opsets: further (domain, version) imports, e.g. ("com.microsoft", 1)."""
    g = helper.make_graph([node], name, inputs, outputs, initializer=list(inits))
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(g, opset_imports=imports)
    m.ir_version = 10
    path = f"{work}/{name}.onnx"
    onnx.save(m, path)
    return path

def seq_map_type(key=I64):
    """seq(map(key, tensor(float))), ZipMap's output type."""
    t = onnx.TypeProto()
    t.sequence_type.elem_type.map_type.key_type = key
    t.sequence_type.elem_type.map_type.value_type.tensor_type.elem_type = F
    return t

from type_str import type_str

cases = []
def case(name, opset, node, inputs, outputs, bindings, inits=(), opsets=(), gen=None, declared=None):
    """inputs: [(name, dtype, dims)] with str dims symbolic; bindings: two dicts.
    Graph outputs carry no type: symshape infers it and onnxruntime reports it.
    gen: {input: {"lo": a, "hi": b} (integers in [a, b); a, b numbers or
    expressions of the binding's symbols) or {"fill": expr}}; other inputs get
    random values (floats in [0.5, 1.5), integers in [0, 8)).
    declared: for a non-tensor output onnxruntime-node cannot return, a TypeProto
    to declare on a second model; onnxruntime checks a declared output type
    against its own when it loads the model, so the load succeeding gives the type."""
    outs = [helper.make_value_info(o, onnx.TypeProto()) for o in outputs]
    path = model(name, opset, node, [vi(*i) for i in inputs], outs, inits, opsets)
    c = {"name": name, "model": path, "inputs": [[i[0], i[1], i[2]] for i in inputs],
         "outputs": outputs, "bindings": bindings, "gen": gen or {}}
    if declared is not None:
        c["declared_model"] = model(name + ".declared", opset, node, [vi(*i) for i in inputs],
                                    [helper.make_value_info(o, declared) for o in outputs], inits, opsets)
        c["declared"] = type_str(declared)
    cases.append(c)

ints = lambda name, v: helper.make_tensor(name, T.INT64, [len(v)], v)
scalar = lambda name, v: helper.make_tensor(name, T.INT64, [], [v])
def const(name, dtype, dims, lo=0, hi=8):
    """A random initializer (floats in [lo, hi) scaled to [0.5, 1.5) when lo = hi = None)."""
    np_t = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[dtype]
    if dtype == F: a = rng.random(dims, dtype=np.float32) * 0.5 + 0.5
    else: a = rng.integers(lo, hi, size=dims).astype(np_t)
    return numpy_helper.from_array(np.asarray(a, dtype=np_t).reshape(dims), name)
fscalar = lambda name, v: helper.make_tensor(name, F, [], [v])
u8scalar = lambda name, v, dt=U8: helper.make_tensor(name, dt, [], [v])
N = helper.make_node
def msn(op, i, o, **kw): return N(op, i, o, domain="com.microsoft", **kw)
def mln(op, i, o, **kw): return N(op, i, o, domain="ai.onnx.ml", **{k: v for k, v in kw.items() if v is not None})

# --- ai.onnx, newer opsets -------------------------------------------------
case("attention_4d_past", 23,
     N("Attention", ["Q", "K", "V", "", "pk", "pv"], ["Y", "present_key", "present_value"]),
     [("Q", F, ["B", 8, "S", 16]), ("K", F, ["B", 2, "S", 16]), ("V", F, ["B", 2, "S", 12]),
      ("pk", F, ["B", 2, "P", 16]), ("pv", F, ["B", 2, "P", 12])],
     ["Y", "present_key", "present_value"], [{"B": 1, "S": 3, "P": 5}, {"B": 2, "S": 1, "P": 9}])
case("attention_3d", 23,
     N("Attention", ["Q", "K", "V"], ["Y"], q_num_heads=4, kv_num_heads=2),
     [("Q", F, ["B", "S", 32]), ("K", F, ["B", "T", 16]), ("V", F, ["B", "T", 24])],
     ["Y"], [{"B": 1, "S": 3, "T": 5}, {"B": 2, "S": 4, "T": 2}])
case("rms_norm", 23, N("RMSNormalization", ["X", "scale"], ["Y"]),
     [("X", F, ["B", "S", 8]), ("scale", F, [8])], ["Y"], [{"B": 1, "S": 3}, {"B": 2, "S": 5}])
case("dft_onesided", 20, N("DFT", ["X", "", "axis"], ["Y"], onesided=1),
     [("X", F, ["B", "N", 1])], ["Y"], [{"B": 1, "N": 8}, {"B": 3, "N": 11}], [scalar("axis", 1)])
case("dft_length", 20, N("DFT", ["X", "len"], ["Y"]),
     [("X", F, ["B", "N", 2])], ["Y"], [{"B": 1, "N": 8}, {"B": 2, "N": 5}], [scalar("len", 6)])
case("center_crop_pad", 18, N("CenterCropPad", ["X", "shape"], ["Y"], axes=[1, 2]),
     [("X", F, ["N", "H", "W"])], ["Y"], [{"N": 1, "H": 20, "W": 8}, {"N": 2, "H": 4, "W": 30}], [ints("shape", [10, 9])])
case("affine_grid", 20, N("AffineGrid", ["theta", "size"], ["grid"]),
     [("theta", F, [2, 2, 3])], ["grid"], [{}, {}], [ints("size", [2, 3, 5, 7])])
case("grid_sample", 20, N("GridSample", ["X", "grid"], ["Y"]),
     [("X", F, ["N", 3, "H", "W"]), ("grid", F, ["N", "h", "w", 2])], ["Y"],
     [{"N": 1, "H": 4, "W": 4, "h": 2, "w": 3}, {"N": 2, "H": 5, "W": 6, "h": 7, "w": 1}])
case("quantize_blocked", 21,
     N("QuantizeLinear", ["X", "scale"], ["Y"], axis=1, block_size=2, output_dtype=I8),
     [("X", F, ["N", 6]), ("scale", F, ["N", 3])], ["Y"], [{"N": 1}, {"N": 4}])

# --- com.microsoft ---------------------------------------------------------
BS = [{"B": 1, "S": 3}, {"B": 2, "S": 5}]
BSP = [{"B": 1, "S": 3, "P": 4}, {"B": 2, "S": 1, "P": 7}]
case("ms_attention", 17, msn("Attention", ["X", "W", "bias"], ["Y"], num_heads=2),
     [("X", F, ["B", "S", 16]), ("W", F, [16, 48]), ("bias", F, [48])], ["Y"], BS, opsets=[MS])
case("ms_attention_past", 17,
     msn("Attention", ["X", "W", "bias", "", "past"], ["Y", "present"], num_heads=2, unidirectional=1),
     [("X", F, ["B", "S", 16]), ("W", F, [16, 48]), ("bias", F, [48]), ("past", F, [2, "B", 2, "P", 8])],
     ["Y", "present"], BSP, opsets=[MS])
case("ms_attention_qkv_sizes", 17,
     msn("Attention", ["X", "W", "bias"], ["Y"], num_heads=2, qkv_hidden_sizes=[16, 16, 8]),
     [("X", F, ["B", "S", 12]), ("W", F, [12, 40]), ("bias", F, [40])], ["Y"], BS, opsets=[MS])
case("ms_mha", 17, msn("MultiHeadAttention", ["Q", "K", "V", "bias"], ["Y"], num_heads=2),
     [("Q", F, ["B", "S", 16]), ("K", F, ["B", "L", 16]), ("V", F, ["B", "L", 16]), ("bias", F, [48])],
     ["Y"], [{"B": 1, "S": 3, "L": 5}, {"B": 2, "S": 4, "L": 2}], opsets=[MS])
case("ms_mha_past", 17,
     msn("MultiHeadAttention", ["Q", "K", "V", "", "", "", "pk", "pv"], ["Y", "present_key", "present_value"], num_heads=2),
     [("Q", F, ["B", "S", 16]), ("K", F, ["B", "S", 16]), ("V", F, ["B", "S", 16]),
      ("pk", F, ["B", 2, "P", 8]), ("pv", F, ["B", 2, "P", 8])],
     ["Y", "present_key", "present_value"], BSP, opsets=[MS])
case("ms_mha_bnsh_kv", 17, msn("MultiHeadAttention", ["Q", "K", "V"], ["Y"], num_heads=2),
     [("Q", F, ["B", "S", 16]), ("K", F, ["B", 2, "L", 8]), ("V", F, ["B", 2, "L", 8])],
     ["Y"], [{"B": 1, "S": 3, "L": 5}, {"B": 2, "S": 4, "L": 2}], opsets=[MS])
case("ms_mha_packed_qkv", 17, msn("MultiHeadAttention", ["QKV"], ["Y"], num_heads=2),
     [("QKV", F, ["B", "S", 2, 3, 8])], ["Y"], BS, opsets=[MS])
case("ms_gqa_past", 17,
     msn("GroupQueryAttention", ["Q", "K", "V", "pk", "pv", "seqlens_k", "total"], ["Y", "present_key", "present_value"],
         num_heads=4, kv_num_heads=2),
     [("Q", F, ["B", "S", 32]), ("K", F, ["B", "S", 16]), ("V", F, ["B", "S", 16]),
      ("pk", F, ["B", 2, "P", 8]), ("pv", F, ["B", 2, "P", 8]), ("seqlens_k", I32, ["B"]), ("total", I32, [])],
     ["Y", "present_key", "present_value"], [{"B": 1, "S": 1, "P": 4}, {"B": 2, "S": 1, "P": 7}], opsets=[MS],
     gen={"seqlens_k": {"fill": "P+S-1"}, "total": {"fill": "P+S"}})
case("ms_gqa_prompt", 17,
     msn("GroupQueryAttention", ["Q", "K", "V", "", "", "seqlens_k", "total"], ["Y", "present_key", "present_value"],
         num_heads=4, kv_num_heads=2),
     [("Q", F, ["B", "S", 32]), ("K", F, ["B", "S", 16]), ("V", F, ["B", "S", 16]),
      ("seqlens_k", I32, ["B"]), ("total", I32, [])],
     ["Y", "present_key", "present_value"], BS, opsets=[MS],
     gen={"seqlens_k": {"fill": "S-1"}, "total": {"fill": "S"}})
case("ms_gqa_const_total", 17,
     msn("GroupQueryAttention", ["Q", "K", "V", "pk", "pv", "seqlens_k", "total"], ["Y", "present_key", "present_value"],
         num_heads=4, kv_num_heads=2),
     [("Q", F, ["B", "S", 32]), ("K", F, ["B", "S", 16]), ("V", F, ["B", "S", 16]),
      ("pk", F, ["B", 2, "P", 8]), ("pv", F, ["B", 2, "P", 8]), ("seqlens_k", I32, ["B"])],
     ["Y", "present_key", "present_value"], [{"B": 1, "S": 1, "P": 7}, {"B": 2, "S": 1, "P": 7}], opsets=[MS],
     gen={"seqlens_k": {"fill": "P+S-1"}}, inits=[helper.make_tensor("total", I32, [], [8])])
case("ms_rotary_embedding_4d", 17,
     msn("RotaryEmbedding", ["X", "pos", "cos", "sin"], ["Y"]),
     [("X", F, ["B", 2, "S", 8]), ("pos", I64, ["B", "S"]), ("cos", F, ["M", 4]), ("sin", F, ["M", 4])],
     ["Y"], [{"B": 1, "S": 3, "M": 8}, {"B": 2, "S": 5, "M": 16}], opsets=[MS], gen={"pos": {"lo": 0, "hi": "M"}})
case("ms_rotary_embedding", 17,
     msn("RotaryEmbedding", ["X", "pos", "cos", "sin"], ["Y"], num_heads=2),
     [("X", F, ["B", "S", 16]), ("pos", I64, ["B", "S"]), ("cos", F, ["M", 4]), ("sin", F, ["M", 4])],
     ["Y"], [{"B": 1, "S": 3, "M": 8}, {"B": 2, "S": 5, "M": 16}], opsets=[MS], gen={"pos": {"lo": 0, "hi": "M"}})
case("ms_rotary_embedding_offset", 17,
     msn("RotaryEmbedding", ["X", "pos", "cos", "sin"], ["Y"], num_heads=2),
     [("X", F, ["B", "S", 16]), ("pos", I64, [1]), ("cos", F, [16, 4]), ("sin", F, [16, 4])],
     ["Y"], [{"B": 1, "S": 3}, {"B": 2, "S": 5}], opsets=[MS], gen={"pos": {"lo": 0, "hi": "16-S"}})
case("ms_skip_layer_norm", 17,
     msn("SkipLayerNormalization", ["X", "skip", "gamma", "beta", "bias"], ["Y", "mean", "inv_std_var", "sum"]),
     [("X", F, ["B", "S", 8]), ("skip", F, ["B", "S", 8]), ("gamma", F, [8]), ("beta", F, [8]), ("bias", F, [8])],
     ["Y", "mean", "inv_std_var", "sum"], BS, opsets=[MS])
case("ms_skip_layer_norm_y_sum", 17,
     msn("SkipLayerNormalization", ["X", "skip", "gamma", "beta"], ["Y", "", "", "sum"]),
     [("X", F, ["B", "S", 8]), ("skip", F, ["B", "S", 8]), ("gamma", F, [8]), ("beta", F, [8])],
     ["Y", "sum"], BS, opsets=[MS])
case("ms_skip_layer_norm_2d", 17,
     msn("SkipLayerNormalization", ["X", "skip", "gamma", "beta"], ["Y", "mean", "inv_std_var", "sum"]),
     [("X", F, ["T", 8]), ("skip", F, ["T", 8]), ("gamma", F, [8]), ("beta", F, [8])],
     ["Y", "mean", "inv_std_var", "sum"], [{"T": 1}, {"T": 6}], opsets=[MS])
case("ms_skip_layer_norm_skip_bcast", 17,
     msn("SkipLayerNormalization", ["X", "skip", "gamma"], ["Y", "", "", "sum"]),
     [("X", F, ["B", "S", 8]), ("skip", F, ["S", 8]), ("gamma", F, [8])],
     ["Y", "sum"], BS, opsets=[MS])
case("ms_skip_simplified_layer_norm", 17,
     msn("SkipSimplifiedLayerNormalization", ["X", "skip", "gamma", "bias"], ["Y", "mean", "inv_std_var", "sum"]),
     [("X", F, ["B", "S", 8]), ("skip", F, ["B", "S", 8]), ("gamma", F, [8]), ("bias", F, [8])],
     ["Y", "mean", "inv_std_var", "sum"], BS, opsets=[MS])
case("ms_embed_layer_norm", 17,
     msn("EmbedLayerNormalization", ["ids", "seg", "word", "pos", "segemb", "gamma", "beta", "mask"],
         ["Y", "mask_index", "embedding_sum"]),
     [("ids", I32, ["B", "S"]), ("seg", I32, ["B", "S"]), ("word", F, [10, 8]), ("pos", F, [16, 8]),
      ("segemb", F, [2, 8]), ("gamma", F, [8]), ("beta", F, [8]), ("mask", I32, ["B", "S"])],
     ["Y", "mask_index", "embedding_sum"], BS, opsets=[MS],
     gen={"ids": {"lo": 0, "hi": 10}, "seg": {"lo": 0, "hi": 2}, "mask": {"fill": "1"}})
case("ms_embed_layer_norm_no_mask", 17,
     msn("EmbedLayerNormalization", ["ids", "", "word", "pos", "", "gamma", "beta"], ["Y", "mask_index"]),
     [("ids", I32, ["B", "S"]), ("word", F, [10, 8]), ("pos", F, [16, 8]), ("gamma", F, [8]), ("beta", F, [8])],
     ["Y", "mask_index"], BS, opsets=[MS], gen={"ids": {"lo": 0, "hi": 10}})
case("ms_fast_gelu", 17, msn("FastGelu", ["X", "bias"], ["Y"]),
     [("X", F, ["B", "S", 8]), ("bias", F, [8])], ["Y"], BS, opsets=[MS])
case("ms_bias_gelu", 17, msn("BiasGelu", ["X", "bias"], ["Y"]),
     [("X", F, ["B", "S", 8]), ("bias", F, [8])], ["Y"], BS, opsets=[MS])
case("ms_quick_gelu", 17, msn("QuickGelu", ["X"], ["Y"], alpha=1.5),
     [("X", F, ["B", "S", 8])], ["Y"], BS, opsets=[MS])
case("ms_bias_add", 17, msn("BiasAdd", ["X", "bias", "skip"], ["Y"]),
     [("X", F, ["B", "S", 8]), ("bias", F, [8]), ("skip", F, ["B", "S", 8])], ["Y"], BS, opsets=[MS])
case("ms_fused_matmul_trans", 17, msn("FusedMatMul", ["A", "Bm"], ["Y"], transA=1, transB=1, alpha=0.5),
     [("A", F, ["B", "K", "M"]), ("Bm", F, ["B", "N", "K"])], ["Y"],
     [{"B": 1, "K": 3, "M": 4, "N": 5}, {"B": 2, "K": 6, "M": 1, "N": 2}], opsets=[MS])
case("ms_fused_matmul_bcast", 17, msn("FusedMatMul", ["A", "Bm"], ["Y"], transB=1),
     [("A", F, ["B", 1, "M", "K"]), ("Bm", F, [3, "N", "K"])], ["Y"],
     [{"B": 1, "K": 3, "M": 4, "N": 5}, {"B": 2, "K": 6, "M": 1, "N": 2}], opsets=[MS])
case("ms_matmul_nbits", 17, msn("MatMulNBits", ["A", "Bq", "scales"], ["Y"], K=32, N=8, bits=4, block_size=16),
     [("A", F, ["B", "S", 32])], ["Y"], BS, opsets=[MS],
     inits=[const("Bq", U8, [8, 2, 8], 0, 256), const("scales", F, [16])])
case("ms_fused_matmul_vector", 17, msn("FusedMatMul", ["A", "Bm"], ["Y"], alpha=2.0),
     [("A", F, ["B", "M", "K"]), ("Bm", F, ["K"])], ["Y"],
     [{"B": 1, "K": 3, "M": 4}, {"B": 2, "K": 6, "M": 1}], opsets=[MS])
case("ms_matmul_nbits_2d", 17, msn("MatMulNBits", ["A", "Bq", "scales"], ["Y"], K=32, N=8, bits=4, block_size=32),
     [("A", F, ["M", 32])], ["Y"], [{"M": 1}, {"M": 7}], opsets=[MS],
     inits=[const("Bq", U8, [8, 1, 16], 0, 256), const("scales", F, [8])])
case("ms_gather_block_quantized", 17,
     msn("GatherBlockQuantized", ["data", "idx", "scales"], ["Y"], gather_axis=0, quantize_axis=1, block_size=16, bits=4),
     [("idx", I64, ["B", "S"])], ["Y"], BS, opsets=[MS], gen={"idx": {"lo": 0, "hi": 6}},
     inits=[const("data", U8, [6, 16], 0, 256), const("scales", F, [6, 2])])
case("ms_gather_block_quantized_axis1", 17,
     msn("GatherBlockQuantized", ["data", "idx", "scales"], ["Y"], gather_axis=1, quantize_axis=2, block_size=16),
     [("idx", I64, ["B"])], ["Y"], [{"B": 1}, {"B": 5}], opsets=[MS], gen={"idx": {"lo": 0, "hi": 6}},
     inits=[const("data", U8, [4, 6, 16], 0, 256), const("scales", F, [4, 6, 2])])
case("ms_dynamic_quantize_matmul", 17, msn("DynamicQuantizeMatMul", ["A", "Bq", "b_scale", "b_zp", "bias"], ["Y"]),
     [("A", F, ["B", "S", 8])], ["Y"], BS, opsets=[MS],
     inits=[const("Bq", I8, [8, 5], -8, 8), const("b_scale", F, [5]), const("b_zp", I8, [5], 0, 1), const("bias", F, [5])])
case("ms_matmul_integer_to_float", 17,
     msn("MatMulIntegerToFloat", ["A", "Bq", "a_scale", "b_scale", "a_zp", "b_zp", "bias"], ["Y"]),
     [("A", U8, ["B", "S", 8])], ["Y"], BS, opsets=[MS], gen={"A": {"lo": 0, "hi": 256}},
     inits=[const("Bq", U8, [8, 5], 0, 256), fscalar("a_scale", 0.1), const("b_scale", F, [5]),
            u8scalar("a_zp", 128), const("b_zp", U8, [5], 120, 130), const("bias", F, [5])])
case("ms_qattention", 17,
     msn("QAttention", ["X", "W", "bias", "x_scale", "w_scale", "", "x_zp", "w_zp"], ["Y"], num_heads=2),
     [("X", U8, ["B", "S", 16])], ["Y"], BS, opsets=[MS], gen={"X": {"lo": 0, "hi": 256}},
     inits=[const("W", U8, [16, 48], 0, 256), const("bias", F, [48]), fscalar("x_scale", 0.02),
            fscalar("w_scale", 0.02), u8scalar("x_zp", 128), u8scalar("w_zp", 128)])
case("ms_qgemm_float", 17,
     msn("QGemm", ["A", "a_scale", "a_zp", "Bq", "b_scale", "b_zp"], ["Y"], transB=1, alpha=1.0),
     [("A", U8, ["M", 8])], ["Y"], [{"M": 1}, {"M": 6}], opsets=[MS], gen={"A": {"lo": 0, "hi": 256}},
     inits=[fscalar("a_scale", 0.1), u8scalar("a_zp", 128), const("Bq", I8, [5, 8], -8, 8), fscalar("b_scale", 0.1),
            u8scalar("b_zp", 0, I8)])
case("ms_qgemm_quant", 17,
     msn("QGemm", ["A", "a_scale", "a_zp", "Bq", "b_scale", "b_zp", "", "y_scale", "y_zp"], ["Y"]),
     [("A", U8, ["M", 8])], ["Y"], [{"M": 1}, {"M": 6}], opsets=[MS], gen={"A": {"lo": 0, "hi": 256}},
     inits=[fscalar("a_scale", 0.1), u8scalar("a_zp", 128), const("Bq", U8, [8, 5], 0, 256), fscalar("b_scale", 0.1),
            u8scalar("b_zp", 128), fscalar("y_scale", 0.5), u8scalar("y_zp", 128)])
QI = lambda p: [fscalar(p + "_scale", 0.05), u8scalar(p + "_zp", 128)]
case("ms_qlinear_add", 17,
     msn("QLinearAdd", ["A", "a_scale", "a_zp", "Bb", "b_scale", "b_zp", "c_scale", "c_zp"], ["Y"]),
     [("A", U8, ["B", "S", 8]), ("Bb", U8, ["S", 1])], ["Y"], BS, opsets=[MS],
     gen={"A": {"lo": 0, "hi": 256}, "Bb": {"lo": 0, "hi": 256}}, inits=QI("a") + QI("b") + QI("c"))
case("ms_qlinear_conv", 17,
     msn("QLinearConv", ["X", "x_scale", "x_zp", "W", "w_scale", "w_zp", "y_scale", "y_zp"], ["Y"],
         kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
     [("X", U8, ["N", 3, "H", "W"])], ["Y"], [{"N": 1, "H": 8, "W": 7}, {"N": 2, "H": 5, "W": 12}], opsets=[MS], gen={"X": {"lo": 0, "hi": 256}},
     inits=QI("x") + [const("W", U8, [4, 3, 3, 3], 0, 256)] + QI("w") + QI("y"))
case("ms_qlinear_conv_nhwc", 17,
     msn("QLinearConv", ["X", "x_scale", "x_zp", "W", "w_scale", "w_zp", "y_scale", "y_zp"], ["Y"],
         kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], channels_last=1),
     [("X", U8, ["N", "H", "W", 3])], ["Y"], [{"N": 1, "H": 8, "W": 7}, {"N": 2, "H": 5, "W": 12}], opsets=[MS],
     gen={"X": {"lo": 0, "hi": 256}},
     inits=QI("x") + [const("W", U8, [4, 3, 3, 3], 0, 256)] + QI("w") + QI("y"))
case("ms_qlinear_global_avg_pool", 17,
     msn("QLinearGlobalAveragePool", ["X", "x_scale", "x_zp", "y_scale", "y_zp"], ["Y"]),
     [("X", U8, ["N", "C", "H", "W"])], ["Y"], [{"N": 1, "C": 3, "H": 4, "W": 5}, {"N": 2, "C": 1, "H": 7, "W": 2}],
     opsets=[MS], gen={"X": {"lo": 0, "hi": 256}}, inits=QI("x") + QI("y"))
case("ms_qlinear_global_avg_pool_nhwc", 17,
     msn("QLinearGlobalAveragePool", ["X", "x_scale", "x_zp", "y_scale", "y_zp"], ["Y"], channels_last=1),
     [("X", U8, ["N", "H", "W", "C"])], ["Y"], [{"N": 1, "C": 3, "H": 4, "W": 5}, {"N": 2, "C": 1, "H": 7, "W": 2}],
     opsets=[MS], gen={"X": {"lo": 0, "hi": 256}}, inits=QI("x") + QI("y"))
case("ms_qlinear_softmax", 17,
     msn("QLinearSoftmax", ["X", "x_scale", "x_zp", "y_scale", "y_zp"], ["Y"], axis=-1, opset=13),
     [("X", U8, ["B", "S", 8])], ["Y"], BS, opsets=[MS], gen={"X": {"lo": 0, "hi": 256}},
     inits=QI("x") + [fscalar("y_scale", 1.0 / 256), u8scalar("y_zp", 0)])
case("ms_matmul_integer16", 17, msn("MatMulInteger16", ["A", "Bm"], ["Y"]),
     [("A", I16, ["B", "M", "K"]), ("Bm", I16, ["K", "N"])], ["Y"],
     [{"B": 1, "M": 2, "K": 3, "N": 4}, {"B": 3, "M": 1, "K": 5, "N": 2}], opsets=[MS])
case("ms_nhwc_conv", 17, msn("NhwcConv", ["X", "W"], ["Y"], kernel_shape=[3, 3], strides=[2, 2]),
     [("X", F, ["N", "H", "W", 3]), ("W", F, [4, 3, 3, 3])], ["Y"],
     [{"N": 1, "H": 8, "W": 7}, {"N": 2, "H": 5, "W": 12}], opsets=[MS])
case("ms_group_norm", 17,
     msn("GroupNorm", ["X", "gamma", "beta"], ["Y"], groups=2, activation=0, epsilon=1e-5, channels_last=1),
     [("X", F, ["N", "H", "W", 4]), ("gamma", F, [4]), ("beta", F, [4])], ["Y"],
     [{"N": 1, "H": 2, "W": 3}, {"N": 2, "H": 4, "W": 1}], opsets=[MS])

# --- com.microsoft quantization (msquant) ----------------------------------
# MulInteger (no CPU kernel) and ReduceSumInteger (onnxruntime cannot infer its
# output type, no kernel) are left out: onnxruntime-node refuses both.
DQ_LSTM = lambda d, h, i: [const("W", I8, [d, i, 4 * h], -8, 8), const("R", I8, [d, h, 4 * h], -8, 8),
                           const("w_scale", F, [d]), const("w_zp", I8, [d], 0, 1), const("r_scale", F, [d]),
                           const("r_zp", I8, [d], 0, 1)]
case("ms_dynamic_quantize_lstm", 17,
     msn("DynamicQuantizeLSTM", ["X", "W", "R", "", "", "", "", "", "w_scale", "w_zp", "r_scale", "r_zp"],
         ["Y", "Y_h", "Y_c"], hidden_size=8),
     [("X", F, ["S", "B", 4])], ["Y", "Y_h", "Y_c"], BS, opsets=[MS], inits=DQ_LSTM(1, 8, 4))
case("ms_dynamic_quantize_lstm_bidirectional", 17,
     msn("DynamicQuantizeLSTM", ["X", "W", "R", "", "", "", "", "", "w_scale", "w_zp", "r_scale", "r_zp"],
         ["Y", "Y_h", "Y_c"], hidden_size=4, direction="bidirectional"),
     [("X", F, ["S", "B", 6])], ["Y", "Y_h", "Y_c"], BS, opsets=[MS], inits=DQ_LSTM(2, 4, 6))
case("ms_matmul_bnb4", 17,
     msn("MatMulBnb4", ["A", "Bq", "absmax"], ["Y"], K=32, N=16, block_size=16, quant_type=1),
     [("A", F, ["B", "S", 32])], ["Y"], BS, opsets=[MS],
     inits=[const("Bq", U8, [256], 0, 256), const("absmax", F, [32])])
case("ms_matmul_bnb4_fp4_2d", 17,
     msn("MatMulBnb4", ["A", "Bq", "absmax"], ["Y"], K=48, N=5, block_size=32, quant_type=0),
     [("A", F, ["M", 48])], ["Y"], [{"M": 1}, {"M": 7}], opsets=[MS],
     inits=[const("Bq", U8, [120], 0, 256), const("absmax", F, [8])])
case("ms_matmul_fpq4", 17,
     msn("MatMulFpQ4", ["A", "Bq", "b_shape"], ["Y"], blk_quant_type=0),
     [("A", F, ["B", "M", 64])], ["Y"], [{"B": 1, "M": 3}, {"B": 2, "M": 1}], opsets=[MS],
     inits=[const("Bq", U8, [320], 0, 256), ints("b_shape", [64, 8])])

# --- com.microsoft, the other contrib operators (msother) -------------------
i32s = lambda name, v: helper.make_tensor(name, I32, [], [v])
NHW = [{"N": 1, "H": 8, "W": 7}, {"N": 2, "H": 5, "W": 12}]
case("ms_expand_dims", 17, msn("ExpandDims", ["X", "axis"], ["Y"]),
     [("X", F, ["B", "S"])], ["Y"], BS, opsets=[MS], inits=[i32s("axis", -1)])
case("ms_expand_dims_front", 17, msn("ExpandDims", ["X", "axis"], ["Y"]),
     [("X", F, ["B", "S"])], ["Y"], BS, opsets=[MS], inits=[i32s("axis", 0)])
case("ms_fused_conv", 17,
     msn("FusedConv", ["X", "W", "Bc"], ["Y"], activation="Relu", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
     [("X", F, ["N", 3, "H", "W"])], ["Y"], NHW, opsets=[MS], inits=[const("W", F, [4, 3, 3, 3]), const("Bc", F, [4])])
case("ms_fused_gemm", 17, msn("FusedGemm", ["A", "Bm", "C"], ["Y"], transB=1, activation="LeakyRelu", activation_alpha=0.1),
     [("A", F, ["M", 8])], ["Y"], [{"M": 1}, {"M": 6}], opsets=[MS], inits=[const("Bm", F, [5, 8]), const("C", F, [5])])
case("ms_conv_transpose_dynamic_pads", 17,
     msn("ConvTransposeWithDynamicPads", ["X", "W", "P"], ["Y"], kernel_shape=[3, 3], strides=[2, 2]),
     [("X", F, ["N", 4, "H", "W"])], ["Y"], NHW, opsets=[MS], inits=[const("W", F, [4, 2, 3, 3]), ints("P", [1, 0, 1, 0])])
case("ms_inverse", 17, msn("Inverse", ["X"], ["Y"]), [("X", F, ["B", 3, 3])], ["Y"], [{"B": 1}, {"B": 4}], opsets=[MS])
case("ms_cdist", 17, msn("CDist", ["A", "Bm"], ["Y"], metric="euclidean"),
     [("A", F, ["M", 4]), ("Bm", F, ["K", 4])], ["Y"], [{"M": 1, "K": 3}, {"M": 5, "K": 2}], opsets=[MS])
case("ms_crop_and_resize", 17, msn("CropAndResize", ["X", "rois", "idx", "crop"], ["Y"]),
     [("X", F, ["N", 3, "H", "W"])], ["Y"], NHW, opsets=[MS],
     inits=[helper.make_tensor("rois", F, [2, 4], [0.1, 0.1, 0.6, 0.7, 0.0, 0.2, 0.9, 0.8]),
            helper.make_tensor("idx", I32, [2], [0, 0]), helper.make_tensor("crop", I32, [2], [5, 4])])
case("ms_maxpool_with_mask", 17, msn("MaxpoolWithMask", ["X", "M"], ["Y"], kernel_shape=[2, 2], strides=[2, 2]),
     [("X", F, ["N", 3, "H", "W"]), ("M", I32, ["N", 3, "H", "W"])], ["Y"], NHW, opsets=[MS],
     gen={"M": {"lo": 0, "hi": 2}})
case("ms_murmur_hash3", 17, msn("MurmurHash3", ["X"], ["Y"], positive=0), [("X", I32, ["B", "S"])], ["Y"], BS, opsets=[MS])
case("ms_murmur_hash3_positive", 17, msn("MurmurHash3", ["X"], ["Y"]), [("X", I64, ["B", "S"])], ["Y"], BS, opsets=[MS])
case("ms_ngram_repeat_block", 17, msn("NGramRepeatBlock", ["ids", "scores"], ["Y"], ngram_size=2),
     [("ids", I64, ["B", "S"]), ("scores", F, ["B", 10])], ["Y"], BS, opsets=[MS], gen={"ids": {"lo": 0, "hi": 10}})
case("ms_nhwc_max_pool", 17, msn("NhwcMaxPool", ["X"], ["Y"], kernel_shape=[3, 3], strides=[2, 2]),
     [("X", U8, ["N", "H", "W", 4])], ["Y"], NHW, opsets=[MS], gen={"X": {"lo": 0, "hi": 256}})
case("ms_nhwc_max_pool_ceil", 17, msn("NhwcMaxPool", ["X"], ["Y"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
     [("X", I8, ["N", "H", "W", 4])], ["Y"], NHW, opsets=[MS])
case("ms_pad", 17, msn("Pad", ["X", "P"], ["Y"]), [("X", F, ["N", 5])], ["Y"], [{"N": 1}, {"N": 5}], opsets=[MS], inits=[ints("P", [0, 2, 1, 1])])
case("ms_pad_2d_pads", 17, msn("Pad", ["X", "P"], ["Y"], mode="edge"), [("X", F, ["N", 5])], ["Y"], [{"N": 1}, {"N": 5}], opsets=[MS],
     inits=[helper.make_tensor("P", I64, [1, 4], [1, 0, 2, 3])])
case("ms_range_no_delta", 17, msn("Range", ["start", "limit"], ["Y"]), [], ["Y"], [{}], opsets=[MS],
     inits=[scalar("start", 2), scalar("limit", 9)])
case("ms_sample_op", 17, msn("SampleOp", ["X"], ["Y"]), [("X", F, ["B", "S"])], ["Y"], BS, opsets=[MS])
case("ms_trilu", 17, msn("Trilu", ["X", "k"], ["Y"], upper=0), [("X", F, ["B", 4, "S"])], ["Y"], BS, opsets=[MS],
     inits=[scalar("k", 1)])
case("ms_unique", 17, msn("Unique", ["X"], ["Y", "idx", "counts"]), [("X", F, ["N"])], ["Y", "idx", "counts"], [{"N": 1}, {"N": 5}],
     opsets=[MS])
case("ms_word_conv_embedding", 17, msn("WordConvEmbedding", ["Seq", "W", "Bc", "C"], ["Y"]),
     [("Seq", I32, ["S", "L"])], ["Y"], [{"S": 1, "L": 4}, {"S": 3, "L": 6}], opsets=[MS],
     gen={"Seq": {"lo": 0, "hi": 20}}, inits=[const("W", F, [10, 1, 2, 6]), const("Bc", F, [10]), const("C", F, [20, 6])])
case("ms_grid_sample", 17, msn("GridSample", ["X", "grid"], ["Y"]),
     [("X", F, ["N", 3, "H", "W"]), ("grid", F, ["N", "h", "w", 2])], ["Y"],
     [{"N": 1, "H": 4, "W": 4, "h": 2, "w": 3}, {"N": 2, "H": 5, "W": 6, "h": 7, "w": 1}], opsets=[MS])
case("ms_gather_nd", 17, msn("GatherND", ["X", "idx"], ["Y"]),
     [("X", F, ["A", "Bd", "C"]), ("idx", I64, ["N", 2])], ["Y"],
     [{"A": 2, "Bd": 3, "C": 4, "N": 5}, {"A": 3, "Bd": 2, "C": 1, "N": 1}], opsets=[MS], gen={"idx": {"lo": 0, "hi": 2}})
case("ms_dynamic_time_warping", 17, msn("DynamicTimeWarping", ["X"], ["Y"]),
     [("X", F, ["M", "N"])], ["Y"], [{"M": 3, "N": 5}, {"M": 6, "N": 2}], opsets=[MS])
case("ms_unfold_tensor", 17, msn("UnfoldTensor", ["X"], ["Y"], dim=1, size=3, step=2),
     [("X", F, ["B", "L", 4])], ["Y"], [{"B": 1, "L": 3}, {"B": 2, "L": 10}], opsets=[MS])
case("ms_mul_integer", 17, msn("MulInteger", ["A", "A_zp", "Bm"], ["Y"]),
     [("A", U8, ["B", "S"]), ("Bm", U8, ["S"])], ["Y"], BS, opsets=[MS], inits=[u8scalar("A_zp", 3)])
case("ms_reduce_sum_integer", 17, msn("ReduceSumInteger", ["X"], ["Y"], axes=[-1], keepdims=1),
     [("X", I8, ["B", "S", 4])], ["Y"], BS, opsets=[MS])
case("ms_bias_softmax", 17, msn("BiasSoftmax", ["X", "bias"], ["Y"], axis=-1, is_inner_broadcast=0),
     [("X", F, ["B", 2, "S"]), ("bias", F, [1, 2, "S"])], ["Y"], BS, opsets=[MS])
case("ms_bias_dropout", 17, msn("BiasDropout", ["X", "bias"], ["Y", "mask"]),
     [("X", F, ["B", "S", 8]), ("bias", F, [8])], ["Y", "mask"], BS, opsets=[MS])
case("ms_bitmask_dropout", 17, msn("BitmaskDropout", ["X"], ["Y", "mask"]),
     [("X", F, ["B", "S", 8])], ["Y", "mask"], BS, opsets=[MS])
case("ms_torch_embedding", 17, msn("TorchEmbedding", ["Wt", "idx"], ["Y"]),
     [("idx", I64, ["B", "S"])], ["Y"], BS, opsets=[MS], gen={"idx": {"lo": 0, "hi": 10}}, inits=[const("Wt", F, [10, 4])])
case("ms_complex_mul", 17, msn("ComplexMul", ["A", "Bm"], ["Y"]),
     [("A", F, ["B", 1, 2]), ("Bm", F, ["S", 2])], ["Y"], BS, opsets=[MS])
case("ms_rfft", 17, msn("Rfft", ["X"], ["Y"], signal_ndim=1), [("X", F, ["B", 8])], ["Y"], [{"B": 1}, {"B": 3}], opsets=[MS])
case("ms_irfft", 17, msn("Irfft", ["X"], ["Y"], signal_ndim=1), [("X", F, ["B", 5, 2])], ["Y"], [{"B": 1}, {"B": 3}],
     opsets=[MS])
case("ms_ngram_hash_mapping", 17,
     msn("NGramHashMapping", ["ids", "mult", "vocab"], ["H", "present"], max_ngram_size=3, n_head_per_ngram=2, pad_id=0),
     [("ids", I64, ["B", "S"])], ["H", "present"], BS, opsets=[MS], gen={"ids": {"lo": 0, "hi": 50}},
     inits=[ints("mult", [3, 5, 7]), ints("vocab", [11, 13, 17, 19])])
case("ms_causal_conv_with_state", 17, msn("CausalConvWithState", ["X", "W"], ["Y", "state"]),
     [("X", F, ["B", 4, "S"])], ["Y", "state"], BS, opsets=[MS], inits=[const("W", F, [4, 1, 3])])
case("ms_linear_attention", 17,
     msn("LinearAttention", ["Q", "K", "V"], ["Y", "state"], q_num_heads=2, kv_num_heads=2, update_rule="linear"),
     [("Q", F, ["B", "S", 8]), ("K", F, ["B", "S", 8]), ("V", F, ["B", "S", 6])], ["Y", "state"], BS, opsets=[MS])
case("ms_gated_add", 17, msn("GatedAdd", ["X", "Yi", "gate"], ["Y"]),
     [("X", F, ["B", "S", 8]), ("Yi", F, ["B", "S", 8]), ("gate", F, ["B", "S", 1])], ["Y"], BS, opsets=[MS])
case("ms_gated_rms_norm", 17, msn("GatedRMSNorm", ["X", "scale", "gate"], ["Y"], epsilon=1e-5),
     [("X", F, ["B", "S", 8]), ("gate", F, ["B", "S", 8])], ["Y"], BS, opsets=[MS], inits=[const("scale", F, [4])])
# AttnLSTM is not run: onnxruntime-node 1.30 crashes (SIGSEGV) on a model without the attention inputs.
# DFT with inverse=1 and onesided=1 (an inverse real FFT, outside the ONNX spec text): onnxruntime runs it.
case("dft_inverse_onesided", 20, N("DFT", ["X", "", "axis"], ["Y"], inverse=1, onesided=1),
     [("X", F, ["B", "M", 2])], ["Y"], [{"B": 1, "M": 5}, {"B": 2, "M": 9}], [scalar("axis", 1)])
case("dft_inverse_onesided_length", 17, N("DFT", ["X", "len"], ["Y"], inverse=1, onesided=1, axis=1),
     [("X", F, ["B", "M", 2])], ["Y"], [{"B": 1, "M": 4}, {"B": 3, "M": 6}], [scalar("len", 7)])
case("dft_inverse_onesided_real", 20, N("DFT", ["X", "", "axis"], ["Y"], inverse=1, onesided=1),
     [("X", F, ["B", "M", 1])], ["Y"], [{"B": 1, "M": 5}, {"B": 2, "M": 8}], [scalar("axis", 1)])

# --- ai.onnx.ml ------------------------------------------------------------
NB = [{"N": 1}, {"N": 5}]
case("ml_linear_classifier", 17,
     mln("LinearClassifier", ["X"], ["Y", "Z"], coefficients=[0.1 * i for i in range(12)], intercepts=[0.1, 0.2, 0.3],
         classlabels_ints=[7, 8, 9]),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_linear_classifier_binary", 17,
     mln("LinearClassifier", ["X"], ["Y", "Z"], coefficients=[0.1, -0.2, 0.3, 0.4], intercepts=[0.1],
         classlabels_ints=[0, 1]),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_linear_classifier_strings", 17,
     mln("LinearClassifier", ["X"], ["Y", "Z"], coefficients=[0.1 * i for i in range(12)], intercepts=[0.1, 0.2, 0.3],
         classlabels_strings=["a", "b", "c"], post_transform="SOFTMAX"),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_linear_classifier_1d", 17,
     mln("LinearClassifier", ["X"], ["Y", "Z"], coefficients=[0.1 * i for i in range(12)], intercepts=[0.1, 0.2, 0.3],
         classlabels_ints=[7, 8, 9]),
     [("X", F, [4])], ["Y", "Z"], [{}, {}], opsets=[ML])
case("ml_linear_regressor", 17,
     mln("LinearRegressor", ["X"], ["Y"], coefficients=[0.1 * i for i in range(8)], intercepts=[0.1, 0.2], targets=2),
     [("X", F, ["N", 4])], ["Y"], NB, opsets=[ML])
case("ml_svm_classifier_linear", 17,
     mln("SVMClassifier", ["X"], ["Y", "Z"], kernel_type="LINEAR", kernel_params=[0.5, 0.0, 3.0], coefficients=[0.1 * i for i in range(12)],
         rho=[0.1, 0.2, 0.3], classlabels_ints=[0, 1, 2]),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_svm_classifier_sv", 17,
     mln("SVMClassifier", ["X"], ["Y", "Z"], kernel_type="RBF", kernel_params=[0.5, 0.0, 3.0],
         support_vectors=[0.1 * i for i in range(12)], vectors_per_class=[1, 1, 1],
         coefficients=[0.5, -0.5, 0.2, 0.3, -0.3, 0.1], rho=[0.1, 0.2, 0.3], classlabels_ints=[0, 1, 2]),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_svm_regressor", 17,
     mln("SVMRegressor", ["X"], ["Y"], kernel_type="LINEAR", kernel_params=[0.5, 0.0, 3.0], coefficients=[0.1, 0.2, 0.3, 0.4], rho=[0.1],
         n_supports=0),
     [("X", F, ["N", 4])], ["Y"], NB, opsets=[ML])
def tree_attrs(n_classes):
    # one tree: root x[0] <= 0.9 -> leaf 1 else leaf 2
    return dict(nodes_treeids=[0, 0, 0], nodes_nodeids=[0, 1, 2], nodes_featureids=[0, 0, 0],
                nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"], nodes_values=[0.9, 0.0, 0.0],
                nodes_truenodeids=[1, 0, 0], nodes_falsenodeids=[2, 0, 0])
def tree_classifier(labels, ids, weights):
    a = tree_attrs(len(labels))
    a.update(class_treeids=[0] * len(ids), class_nodeids=[1 + (i % 2) for i in range(len(ids))], class_ids=ids,
             class_weights=weights, classlabels_int64s=labels)
    return a
case("ml_tree_classifier_binary", 17,
     mln("TreeEnsembleClassifier", ["X"], ["Y", "Z"], **tree_classifier([0, 1], [0, 0], [0.3, 0.8])),
     [("X", F, ["N", 3])], ["Y", "Z"], NB, opsets=[ML])
case("ml_tree_classifier_multi", 17,
     mln("TreeEnsembleClassifier", ["X"], ["Y", "Z"], **tree_classifier([4, 5, 6], [0, 1, 2, 2], [0.3, 0.8, 0.1, 0.4])),
     [("X", F, ["N", 3])], ["Y", "Z"], NB, opsets=[ML])
case("ml_tree_classifier_strings", 17,
     mln("TreeEnsembleClassifier", ["X"], ["Y", "Z"], **dict(tree_classifier([0, 1, 2], [0, 1], [0.3, 0.8]),
         classlabels_int64s=None, classlabels_strings=["x", "y", "z"])),
     [("X", F, ["N", 3])], ["Y", "Z"], NB, opsets=[ML])
case("ml_tree_regressor", 17,
     mln("TreeEnsembleRegressor", ["X"], ["Y"], n_targets=2, target_treeids=[0, 0, 0], target_nodeids=[1, 2, 2],
         target_ids=[0, 0, 1], target_weights=[1.0, 2.0, 3.0], **tree_attrs(0)),
     [("X", F, ["N", 3])], ["Y"], NB, opsets=[ML])
case("ml_tree_ensemble_v5", 17,
     mln("TreeEnsemble", ["X"], ["Y"], n_targets=2, aggregate_function=1, post_transform=0,
         tree_roots=[0], nodes_modes=helper.make_tensor("m", U8, [1], [0]), nodes_featureids=[0],
         nodes_splits=helper.make_tensor("s", F, [1], [0.9]), nodes_truenodeids=[0], nodes_trueleafs=[1],
         nodes_falsenodeids=[1], nodes_falseleafs=[1], leaf_targetids=[0, 1],
         leaf_weights=helper.make_tensor("w", F, [2], [1.0, 2.0])),
     [("X", F, ["N", 3])], ["Y"], NB, opsets=[("ai.onnx.ml", 5)])
case("ml_normalizer", 17, mln("Normalizer", ["X"], ["Y"], norm="L2"),
     [("X", F, ["N", 4])], ["Y"], NB, opsets=[ML])
case("ml_normalizer_int", 17, mln("Normalizer", ["X"], ["Y"], norm="MAX"),
     [("X", I64, ["N", 4])], ["Y"], NB, opsets=[ML])
case("ml_normalizer_1d", 17, mln("Normalizer", ["X"], ["Y"], norm="L1"),
     [("X", F, ["C"])], ["Y"], [{"C": 1}, {"C": 5}], opsets=[ML])
case("ml_scaler", 17, mln("Scaler", ["X"], ["Y"], offset=[0.5], scale=[2.0]),
     [("X", F, ["N", 4])], ["Y"], NB, opsets=[ML])
case("ml_scaler_int", 17, mln("Scaler", ["X"], ["Y"], offset=[0.5, 1, 2], scale=[2.0, 1, 1]),
     [("X", I32, ["N", 3])], ["Y"], NB, opsets=[ML])
case("ml_binarizer", 17, mln("Binarizer", ["X"], ["Y"], threshold=1.0),
     [("X", F, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[ML])
case("ml_array_feature_extractor", 17, mln("ArrayFeatureExtractor", ["X", "idx"], ["Y"]),
     [("X", F, ["N", "C"]), ("idx", I64, ["K"])], ["Y"], [{"N": 1, "C": 3, "K": 2}, {"N": 4, "C": 6, "K": 5}],
     opsets=[ML], gen={"idx": {"lo": 0, "hi": "C"}})
case("ml_array_feature_extractor_1d", 17, mln("ArrayFeatureExtractor", ["X", "idx"], ["Y"]),
     [("X", F, ["C"]), ("idx", I64, ["K"])], ["Y"], [{"C": 3, "K": 2}, {"C": 6, "K": 5}],
     opsets=[ML], gen={"idx": {"lo": 0, "hi": "C"}})
case("ml_array_feature_extractor_3d", 17, mln("ArrayFeatureExtractor", ["X", "idx"], ["Y"]),
     [("X", I64, ["N", "M", "C"]), ("idx", I64, ["A", "K"])], ["Y"],
     [{"N": 1, "M": 2, "C": 3, "A": 1, "K": 2}, {"N": 2, "M": 3, "C": 6, "A": 2, "K": 2}],
     opsets=[ML], gen={"idx": {"lo": 0, "hi": "C"}})
case("ml_one_hot_encoder", 17, mln("OneHotEncoder", ["X"], ["Y"], cats_int64s=[1, 3, 5, 7], zeros=1),
     [("X", I64, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[ML])
case("ml_one_hot_encoder_1d", 17, mln("OneHotEncoder", ["X"], ["Y"], cats_int64s=[1, 3, 5, 7], zeros=1),
     [("X", I64, ["N"])], ["Y"], NB, opsets=[ML])
case("ml_label_encoder_v2", 17,
     mln("LabelEncoder", ["X"], ["Y"], keys_int64s=[1, 2, 3], values_int64s=[10, 20, 30], default_int64=-1),
     [("X", I64, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[("ai.onnx.ml", 2)])
case("ml_label_encoder_v4", 17,
     mln("LabelEncoder", ["X"], ["Y"], keys_int64s=[1, 2, 3], values_floats=[0.5, 1.5, 2.5], default_float=-1.0),
     [("X", I64, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[("ai.onnx.ml", 4)])
case("ml_label_encoder_to_string", 17,
     mln("LabelEncoder", ["X"], ["Y"], keys_int64s=[1, 2, 3], values_strings=["a", "b", "c"], default_string="?"),
     [("X", I64, ["N"])], ["Y"], NB, opsets=[("ai.onnx.ml", 2)])
case("ml_imputer_int", 17, mln("Imputer", ["X"], ["Y"], imputed_value_int64s=[0], replaced_value_int64=1),
     [("X", I64, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[ML])
case("ml_imputer", 17, mln("Imputer", ["X"], ["Y"], imputed_value_floats=[0.0], replaced_value_float=1.0),
     [("X", F, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[ML])
def empty_list(node, name, kind):
    """Adds the list attribute `name` with no entries (kind: "ints" or "strings")."""
    a = onnx.AttributeProto(name=name, type=onnx.AttributeProto.INTS if kind == "ints" else onnx.AttributeProto.STRINGS)
    node.attribute.append(a)
    return node
# onnxruntime's kernels and inference functions test the label/category lists
# for emptiness: an empty list counts as absent.
case("ml_linear_classifier_empty_ints", 17,
     empty_list(mln("LinearClassifier", ["X"], ["Y", "Z"], coefficients=[0.1 * i for i in range(12)],
                    intercepts=[0.1, 0.2, 0.3], classlabels_strings=["a", "b", "c"]), "classlabels_ints", "ints"),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_svm_classifier_empty_strings", 17,
     empty_list(mln("SVMClassifier", ["X"], ["Y", "Z"], kernel_type="LINEAR", kernel_params=[0.5, 0.0, 3.0],
                    coefficients=[0.1 * i for i in range(12)], rho=[0.1, 0.2, 0.3], classlabels_ints=[0, 1, 2]),
                "classlabels_strings", "strings"),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_tree_classifier_empty_ints", 17,
     empty_list(mln("TreeEnsembleClassifier", ["X"], ["Y", "Z"], **dict(tree_classifier([0, 1, 2], [0, 1], [0.3, 0.8]),
                classlabels_int64s=None, classlabels_strings=["x", "y", "z"])), "classlabels_int64s", "ints"),
     [("X", F, ["N", 3])], ["Y", "Z"], NB, opsets=[ML])
case("ml_linear_classifier_empty_strings", 17,
     empty_list(mln("LinearClassifier", ["X"], ["Y", "Z"], coefficients=[0.1 * i for i in range(12)],
                    intercepts=[0.1, 0.2, 0.3], classlabels_ints=[4, 5, 6]), "classlabels_strings", "strings"),
     [("X", F, ["N", 4])], ["Y", "Z"], NB, opsets=[ML])
case("ml_tree_classifier_empty_strings", 17,
     empty_list(mln("TreeEnsembleClassifier", ["X"], ["Y", "Z"], **tree_classifier([0, 1, 2], [0, 1], [0.3, 0.8])),
                "classlabels_strings", "strings"),
     [("X", F, ["N", 3])], ["Y", "Z"], NB, opsets=[ML])
case("ml_one_hot_encoder_empty_strings", 17,
     empty_list(mln("OneHotEncoder", ["X"], ["Y"], cats_int64s=[1, 3, 5, 7], zeros=1), "cats_strings", "strings"),
     [("X", I64, ["N", "C"])], ["Y"], [{"N": 1, "C": 3}, {"N": 4, "C": 2}], opsets=[ML])
case("ml_zip_map_empty_strings", 17,
     empty_list(mln("ZipMap", ["X"], ["Z"], classlabels_int64s=[4, 5, 6]), "classlabels_strings", "strings"),
     [("X", F, ["N", 3])], ["Z"], NB, opsets=[ML], declared=seq_map_type())
case("ml_zip_map_empty_ints", 17,
     empty_list(mln("ZipMap", ["X"], ["Z"], classlabels_strings=["a", "b", "c"]), "classlabels_int64s", "ints"),
     [("X", F, ["N", 3])], ["Z"], NB, opsets=[ML], declared=seq_map_type(T.STRING))
case("ml_zip_map", 17, mln("ZipMap", ["X"], ["Z"], classlabels_int64s=[4, 5, 6]),
     [("X", F, ["N", 3])], ["Z"], NB, opsets=[ML], declared=seq_map_type())
json.dump(cases, open(f"{work}/cases.json", "w"))
EOF

cat > "$WORK/run_ort.js" <<'EOF'
const ort = require('onnxruntime-node');
const fs = require('fs');
const [cases_path, out_path] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(cases_path));
// ONNX elem type -> [onnxruntime-node type, typed array]
const TYPES = {1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  5: ['int16', Int16Array], 6: ['int32', Int32Array], 7: ['int64', BigInt64Array], 9: ['bool', Uint8Array],
  11: ['float64', Float64Array]};
// A dim or generator bound: a number, a symbol, or an expression of the binding's symbols.
const evalExpr = (e, b) => (typeof e === 'number' ? e : Function(...Object.keys(b), `return (${e});`)(...Object.values(b)));
(async () => {
  const results = {};
  for (const c of cases) {
    results[c.name] = [];
    if (c.declared_model) {
      // onnxruntime-node returns tensors only: load the model that declares the output type.
      try {
        await ort.InferenceSession.create(c.declared_model, {logSeverityLevel: 4});
        results[c.name] = c.bindings.map(() => Object.fromEntries(c.outputs.map((o) => [o, {type: c.declared}])));
      } catch (e) {
        results[c.name] = c.bindings.map(() => ({error: String(e.message || e).split('\n')[0]}));
      }
      continue;
    }
    for (const b of c.bindings) {
      try {
        const s = await ort.InferenceSession.create(c.model, {logSeverityLevel: 4});
        const feeds = {};
        for (const [name, dtype, dims] of c.inputs) {
          const shape = dims.map((d) => evalExpr(d, b));
          const n = shape.reduce((a, x) => a * x, 1);
          const [tname, Arr] = TYPES[dtype];
          const g = c.gen[name];
          let vals;
          if (g && 'fill' in g) vals = Array.from({length: n}, () => evalExpr(g.fill, b));
          else if (dtype === 1 || dtype === 11) vals = Array.from({length: n}, () => Math.random() + 0.5);
          else {
            const lo = g ? evalExpr(g.lo, b) : 0, hi = g ? evalExpr(g.hi, b) : 8;
            vals = Array.from({length: n}, () => lo + Math.floor(Math.random() * (hi - lo)));
          }
          feeds[name] = new ort.Tensor(tname, Arr.from(vals, (v) => (Arr === BigInt64Array ? BigInt(v) : v)), shape);
        }
        const out = await s.run(feeds);
        results[c.name].push(Object.fromEntries(c.outputs.map((o) => {
          const t = out[o];
          if (t === undefined) return [o, {error: 'output not returned'}];
          if (!(t instanceof ort.Tensor)) return [o, {kind: Array.isArray(t) ? 'sequence' : typeof t, value: JSON.stringify(t).slice(0, 80)}];
          return [o, {dims: t.dims.map(Number), type: t.type}];
        })));
      } catch (e) {
        results[c.name].push({error: String(e.message || e).split('\n')[0]});
      }
    }
  }
  fs.writeFileSync(out_path, JSON.stringify(results));
})();
EOF

cat > "$WORK/compare.py" <<'EOF'
import json, re, subprocess, sys
import onnx
from onnx import TensorProto as T
symshape, work = sys.argv[1], sys.argv[2]
cases = json.load(open(f"{work}/cases.json"))
ort = json.load(open(f"{work}/ort.json"))
env = {"Max": max, "Min": min, "max": max, "min": min}
def ceil_to_int(a, b): return -((-a) // b)
env["CeilToInt"] = ceil_to_int
# onnxruntime-node's tensor.type names
ORT_TYPE = {T.FLOAT: "float32", T.UINT8: "uint8", T.INT8: "int8", T.UINT16: "uint16", T.INT16: "int16",
            T.INT32: "int32", T.INT64: "int64", T.STRING: "string", T.BOOL: "bool", T.FLOAT16: "float16",
            T.DOUBLE: "float64", T.UINT32: "uint32", T.UINT64: "uint64"}
from type_str import type_str
bad = skipped = compared = refused = unknown = 0
for c in cases:
    out = f"{work}/{c['name']}.inferred.onnx"
    # exit status 3: symshape reported an error for the node (--allow-errors still writes the model)
    p = subprocess.run([symshape, "infer", c["model"], "-o", out, "--allow-errors"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode not in (0, 3): sys.exit(f"ort_check: symshape failed on {c['name']}:\n{p.stdout}")
    sym_error = next((l for l in p.stdout.splitlines() if ": error: " in l), "error") if p.returncode == 3 else None
    m = onnx.load(out)
    types = {v.name: v.type for v in list(m.graph.output) + list(m.graph.value_info)}
    for b, actual in zip(c["bindings"], ort[c["name"]]):
        if "error" in actual:
            if sym_error:  # both refuse the model
                print(f"OK   {c['name']} {b}: both refuse: onnxruntime: {actual['error'][:150]}; symshape: {sym_error}")
                refused += 1
            else:
                print(f"SKIP {c['name']} {b}: onnxruntime: {actual['error'][:200]}")
                skipped += 1
            continue
        if sym_error:
            print(f"FAIL {c['name']} {b}: onnxruntime runs it, symshape: {sym_error}")
            bad += 1
            continue
        for o in c["outputs"]:
            t = types[o]
            exp = actual[o]
            if "error" in exp:
                print(f"SKIP {c['name']}.{o} {b}: onnxruntime: {exp['error']}")
                skipped += 1
                continue
            compared += 1
            if "dims" not in exp:  # non-tensor output: type only
                ok = type_str(t) == exp["type"]
                bad += not ok
                print(f"{'OK  ' if ok else 'FAIL'} {c['name']}.{o}: symshape {type_str(t)}, onnxruntime {exp['type']}")
                continue
            got_type = ORT_TYPE.get(t.tensor_type.elem_type, T.DataType.Name(t.tensor_type.elem_type))
            got = None
            if t.tensor_type.HasField("shape"):
                got = []
                for d in t.tensor_type.shape.dim:
                    if d.HasField("dim_value"): got.append(d.dim_value)
                    elif not d.dim_param or re.fullmatch(r"_d\d+", d.dim_param):
                        got.append(None)
                        unknown += 1
                    else: got.append(eval(d.dim_param, dict(env), dict(b)))
                sym = [d.dim_param or d.dim_value for d in t.tensor_type.shape.dim]
            else:
                sym = "unranked"
            dims = exp["dims"]
            ok = (got is not None and len(got) == len(dims) and all(g is None or g == e for g, e in zip(got, dims))
                  and got_type == exp["type"])
            bad += not ok
            print(f"{'OK  ' if ok else 'FAIL'} {c['name']}.{o} at {b}: symshape {got_type}{sym} -> {got}, "
                  f"onnxruntime {exp['type']}{dims}")
print(f"ort_check: {len(cases)} models; {compared} outputs compared ({unknown} dims left unknown by symshape, "
      f"not compared), {refused} runs refused by both, {bad} disagreements, {skipped} runs onnxruntime refuses")
sys.exit(1 if bad else 0)
EOF

"${PYTHON:-/usr/bin/python3}" "$WORK/make_models.py" "$WORK"
node "$WORK/run_ort.js" "$WORK/cases.json" "$WORK/ort.json"
"${PYTHON:-/usr/bin/python3}" "$WORK/compare.py" "$SYMSHAPE" "$WORK"
