#!/usr/bin/python3
"""Exports gpt2_table_pos.onnx (needs Debian's python3-torch):

    /usr/bin/python3 examples/models/make_gpt2_table_pos.py [OUTDIR]

A GPT-2-style decoder with a KV cache whose positions come from a learned
table of 64 rows sliced at run time, pos_table[past:past+seq] (the pattern of
Hugging Face decoders that index their position embeddings by the cache
length). d_model 32, 2 heads of 16, 2 layers. Inputs ids [batch, seq] and
one past_key / past_value [batch, 2, past, 16] per layer; outputs the hidden
states and the present keys and values [batch, 2, past+seq, 16].

ONNX's Slice clamps its end to the table, so the slice has
max(0, min(64, past+seq) - past) rows: seq while past+seq <= 64. The add of
the token and position embeddings then needs `past+seq <= 64` (or a side of
1); every shape after it is exact for every valid run, and readable under
that fact (`symshape infer --assume-contracts` or `--assume 'past+seq<=64'`).
torch's TorchScript exporter, opset 17; seeded.
"""
import os
import sys

import torch
from torch import nn

VOCAB, D, HEADS, LAYERS, TABLE = 100, 32, 2, 2, 64
HD = D // HEADS
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)

    def forward(self, x, past_k, past_v):
        b, s, _ = x.shape
        q, k, v = self.qkv(self.ln(x)).split(D, dim=2)
        q, k, v = (t.view(b, s, HEADS, HD).transpose(1, 2) for t in (q, k, v))
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        att = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return x + self.proj((att @ v).transpose(1, 2).reshape(b, s, D)), k, v


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D)
        self.pos_table = nn.Parameter(torch.randn(TABLE, D))
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))

    def forward(self, ids, *past):
        s = ids.shape[1]
        p = past[0].shape[2]
        x = self.wte(ids) + self.pos_table[p:p + s]
        presents = []
        for i, block in enumerate(self.blocks):
            x, k, v = block(x, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        return (x, *presents)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    ids = torch.randint(0, VOCAB, (2, 3))
    past = [torch.randn(2, HEADS, 5, HD) for _ in range(2 * LAYERS)]
    past_names = [f"past_{kv}_{i}" for i in range(LAYERS) for kv in ("key", "value")]
    present_names = [f"present_{kv}_{i}" for i in range(LAYERS) for kv in ("key", "value")]
    axes = {"ids": {0: "batch", 1: "seq"}}
    axes.update({n: {0: "batch", 2: "past"} for n in past_names})
    with torch.no_grad():
        torch.onnx.export(Decoder().eval(), (ids, *past), os.path.join(out, "gpt2_table_pos.onnx"), opset_version=17,
                          input_names=["ids"] + past_names, output_names=["hidden"] + present_names,
                          dynamic_axes=axes, do_constant_folding=True)


if __name__ == "__main__":
    main()
