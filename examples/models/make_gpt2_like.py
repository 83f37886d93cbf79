#!/usr/bin/python3
"""Exports gpt2_like.onnx, the example of docs/profile.md (needs Debian's python3-torch):

    /usr/bin/python3 examples/models/make_gpt2_like.py [OUTDIR]

A GPT-2-style decoder with a KV cache, small enough to commit (about 0.8 MB):
vocab 512, d_model 64, 4 heads of 16, 2 layers, MLP 4 x d_model, learned
positions (512), untied LM head. Inputs input_ids [batch, seq] and one
past_key / past_value [batch, 4, past, 16] per layer; outputs logits
[batch, seq, 512] and present_key_i / present_value_i [batch, 4, past+seq, 16].
Positions are ids arange(past, past+seq) looked up in the table (a Gather, not
a slice of it), and the causal mask is built at run time from those sizes
(key j > past + i masked), so the shapes carry no cap such as min(512, past+seq).
torch 1.13's TorchScript exporter, opset 17; seeded, so the same torch writes
the same file.
"""
import os
import sys

import torch
from torch import nn

VOCAB, D, HEADS, LAYERS, POSITIONS = 512, 64, 4, 2, 512
HD = D // HEADS
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.c_attn, self.c_proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x, past_k, past_v, mask):
        b, s, _ = x.shape
        q, k, v = self.c_attn(self.ln1(x)).split(D, dim=2)
        q, k, v = (t.view(b, s, HEADS, HD).transpose(1, 2) for t in (q, k, v))
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        att = (q @ k.transpose(-2, -1)) / (HD ** 0.5)
        att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, D)
        x = x + self.c_proj(y)
        return x + self.mlp(self.ln2(x)), k, v


class Gpt2Like(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, D), nn.Embedding(POSITIONS, D)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, input_ids, *past):
        s = input_ids.shape[1]
        p = past[0].shape[2]
        pos = torch.arange(p, p + s)
        x = self.wte(input_ids) + self.wpe(pos)
        # Query i (at position p+i) sees keys j <= p+i.
        mask = torch.arange(p + s)[None, :] > (pos[:, None])
        presents = []
        for i, block in enumerate(self.blocks):
            x, k, v = block(x, past[2 * i], past[2 * i + 1], mask)
            presents += [k, v]
        return (self.lm_head(self.ln_f(x)), *presents)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    model = Gpt2Like().eval()
    ids = torch.randint(0, VOCAB, (2, 3))
    past = [torch.randn(2, HEADS, 5, HD) for _ in range(2 * LAYERS)]
    past_names = [f"past_{kv}_{i}" for i in range(LAYERS) for kv in ("key", "value")]
    present_names = [f"present_{kv}_{i}" for i in range(LAYERS) for kv in ("key", "value")]
    axes = {"input_ids": {0: "batch", 1: "seq"}, "logits": {0: "batch", 1: "seq"}}
    axes.update({n: {0: "batch", 2: "past"} for n in past_names})
    axes.update({n: {0: "batch", 2: "past+seq"} for n in present_names})
    with torch.no_grad():
        torch.onnx.export(model, (ids, *past), os.path.join(out, "gpt2_like.onnx"), opset_version=17,
                          input_names=["input_ids"] + past_names, output_names=["logits"] + present_names,
                          dynamic_axes=axes, do_constant_folding=True)


if __name__ == "__main__":
    main()
