"""Writes the exported corpus: small real models exported with torch.onnx.export
(the TorchScript exporter of Debian's python3-torch) with named dynamic axes.

    /usr/bin/python3 tests/exported/make_models.py OUT_DIR

Writes OUT_DIR/NAME.onnx for every model and OUT_DIR/manifest.json: per model
its opset, its inputs (name, ONNX element type, dims with the symbolic ones
named), how record_truth.sh fills them ("gen") and three bindings of the
symbolic dims at which the truth is recorded and checked. The manifest ends with
the entries of nontorch_manifest.json (models of other exporters, which
nontorch_models.py writes), so that rerunning this script keeps them.
"""
import json
import math
import os
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore")
torch.manual_seed(0)  # the same weights on every run
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
D, HEADS = 32, 4
FLOAT, INT64 = 1, 7
MODELS = []


def export(name, model, inputs, outputs, bindings, opset=17, gen=None):
    """inputs: [(name, example tensor, dims)] where a str dim is symbolic."""
    model.eval()
    args = tuple(t for _, t, _ in inputs)
    dynamic = {n: {i: d for i, d in enumerate(dims) if isinstance(d, str)} for n, _, dims in inputs}
    for o in outputs:
        dynamic.setdefault(o, {})
    path = os.path.join(OUT, name + ".onnx")
    with torch.no_grad():
        torch.onnx.export(model, args, path, input_names=[n for n, _, _ in inputs], output_names=outputs,
                          dynamic_axes={k: v for k, v in dynamic.items() if v}, opset_version=opset,
                          do_constant_folding=True)
    size = os.path.getsize(path)
    assert size < 200_000, f"{name}: {size} bytes"
    MODELS.append({"name": name, "opset": opset, "bindings": bindings, "gen": gen or {},
                   "inputs": [[n, INT64 if t.dtype == torch.int64 else FLOAT, dims] for n, t, dims in inputs]})
    print(f"{name}: opset {opset}, {size} bytes")


def attend(q, k, v, bias=None):
    """q, k, v: [b, h, s, hd] (k, v may have more heads' worth of length)."""
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
    if bias is not None:
        scores = scores + bias
    return scores.softmax(-1) @ v


def split_heads(x, heads):
    b, s = x.size(0), x.size(1)
    return x.view(b, s, heads, -1).transpose(1, 2)


def merge_heads(x):
    b, s = x.size(0), x.size(2)
    return x.transpose(1, 2).reshape(b, s, -1)


class Block(nn.Module):
    """A post-norm encoder block; bias: an additive attention bias or None."""

    def __init__(self, d=D, heads=HEADS):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, bias=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        ctx = attend(split_heads(q, self.heads), split_heads(k, self.heads), split_heads(v, self.heads), bias)
        x = self.ln1(x + self.out(merge_heads(ctx)))
        return self.ln2(x + self.ff(x))


# --- transformers -------------------------------------------------------------
class Bert(nn.Module):
    """Learned position table sliced to seq; attention mask turned into an additive bias."""

    def __init__(self):
        super().__init__()
        self.word = nn.Embedding(100, D)
        self.pos = nn.Parameter(torch.randn(64, D))
        self.ln = nn.LayerNorm(D)
        self.layers = nn.ModuleList([Block(), Block()])
        self.pool = nn.Linear(D, D)

    def forward(self, input_ids, attention_mask):
        seq = input_ids.size(1)
        x = self.ln(self.word(input_ids) + self.pos[:seq])
        bias = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return x, torch.tanh(self.pool(x[:, 0]))


class Gpt2(nn.Module):
    """One layer with a KV cache: present = cat(past, new); causal-mask buffer sliced [past:past+seq]."""

    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(100, D), nn.Embedding(64, D)
        self.register_buffer("bias", torch.tril(torch.ones(64, 64, dtype=torch.bool)).view(1, 1, 64, 64))
        self.ln1, self.ln2, self.lnf = nn.LayerNorm(D), nn.LayerNorm(D), nn.LayerNorm(D)
        self.c_attn, self.c_proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, input_ids, past_key, past_value):
        past, seq = past_key.size(2), input_ids.size(1)
        pos = torch.arange(past, past + seq, dtype=torch.long).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(pos)
        q, k, v = self.c_attn(self.ln1(x)).split(D, dim=2)
        q, k, v = split_heads(q, HEADS), split_heads(k, HEADS), split_heads(v, HEADS)
        key, value = torch.cat((past_key, k), dim=-2), torch.cat((past_value, v), dim=-2)
        total = key.size(-2)
        scores = q @ key.transpose(-1, -2) / math.sqrt(q.size(-1))
        causal = self.bias[:, :, total - seq:total, :total]
        scores = torch.where(causal, scores, torch.tensor(-1e4))
        x = x + self.c_proj(merge_heads(scores.softmax(-1) @ value))
        x = x + self.mlp(self.ln2(x))
        return self.lnf(x) @ self.wte.weight.t(), key, value


class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.w


def rotate_half(x):
    h = x.size(-1) // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class Llama(nn.Module):
    """Rotary embeddings from a cached table indexed by arange(seq); 4 query heads on 2 KV heads (repeat_kv)."""

    def __init__(self, kv_heads=2):
        super().__init__()
        self.hd, self.kvh = D // HEADS, kv_heads
        self.embed = nn.Embedding(100, D)
        self.n1, self.n2, self.nf = RMSNorm(D), RMSNorm(D), RMSNorm(D)
        self.q = nn.Linear(D, D, bias=False)
        self.kv = nn.Linear(D, 2 * kv_heads * self.hd, bias=False)
        self.o = nn.Linear(D, D, bias=False)
        self.gate, self.up, self.down = nn.Linear(D, 64, bias=False), nn.Linear(D, 64, bias=False), nn.Linear(64, D)
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd))
        freqs = torch.outer(torch.arange(64).float(), inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())

    def repeat_kv(self, x):
        b, s = x.size(0), x.size(2)
        n_rep = HEADS // self.kvh
        return x[:, :, None, :, :].expand(b, self.kvh, n_rep, s, self.hd).reshape(b, self.kvh * n_rep, s, self.hd)

    def forward(self, input_ids):
        b, seq = input_ids.size(0), input_ids.size(1)
        x = self.embed(input_ids)
        h = self.n1(x)
        q = split_heads(self.q(h), HEADS)
        k, v = self.kv(h).chunk(2, dim=-1)
        k, v = split_heads(k, self.kvh), split_heads(v, self.kvh)
        pos = torch.arange(seq).unsqueeze(0).expand(b, seq)
        cos, sin = self.cos_cached[pos].unsqueeze(1), self.sin_cached[pos].unsqueeze(1)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        mask = torch.full((seq, seq), float("-inf")).triu(1)
        ctx = attend(q, self.repeat_kv(k), self.repeat_kv(v), mask)
        x = x + self.o(merge_heads(ctx))
        h = self.n2(x)
        x = x + self.down(F.silu(self.gate(h)) * self.up(h))
        return self.nf(x)


class T5Bias(nn.Module):
    """Bidirectional bucketed relative positions from arange, an embedding per head, added to the scores."""

    def __init__(self, buckets=8, max_distance=16):
        super().__init__()
        self.buckets, self.max_distance = buckets, max_distance
        self.rel = nn.Embedding(buckets, HEADS)
        self.block = Block()

    def bucket(self, rel):
        nb = self.buckets // 2
        ret = (rel > 0).long() * nb
        n = rel.abs()
        exact = nb // 2
        large = exact + (torch.log(n.float() / exact) / math.log(self.max_distance / exact) * (nb - exact)).long()
        large = torch.min(large, torch.full_like(large, nb - 1))
        return ret + torch.where(n < exact, n, large)

    def forward(self, x):
        q_len = x.size(1)
        ctx = torch.arange(q_len, dtype=torch.long)[:, None]
        mem = torch.arange(q_len, dtype=torch.long)[None, :]
        bias = self.rel(self.bucket(mem - ctx)).permute(2, 0, 1).unsqueeze(0)
        return self.block(x, bias), bias


# --- vision -------------------------------------------------------------------
class ViT(nn.Module):
    """4x4 patches, a class token (expand + cat) and a positional table sliced to patches+1."""

    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, D, 4, stride=4)
        self.cls = nn.Parameter(torch.randn(1, 1, D))
        self.pos = nn.Parameter(torch.randn(1, 65, D))
        self.block = Block()
        self.head = nn.Linear(D, 10)

    def forward(self, pixels):
        x = self.patch(pixels).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls.expand(x.size(0), -1, -1), x), dim=1)
        x = self.block(x + self.pos[:, :x.size(1)])
        return self.head(x[:, 0]), x


class Swin(nn.Module):
    """Window attention over [B, H, W, C]: F.pad to a multiple of the window, partition, reverse, crop."""

    def __init__(self, c=16, ws=4):
        super().__init__()
        self.c, self.ws = c, ws
        self.norm = nn.LayerNorm(c)
        self.qkv, self.proj = nn.Linear(c, 3 * c), nn.Linear(c, c)

    def forward(self, x):
        B, H, W, C = x.shape
        ws = self.ws
        h = self.norm(x)
        pad_b, pad_r = (ws - H % ws) % ws, (ws - W % ws) % ws
        h = F.pad(h, (0, 0, 0, pad_r, 0, pad_b))
        Hp, Wp = h.shape[1], h.shape[2]
        win = h.view(B, Hp // ws, ws, Wp // ws, ws, C).permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws, C)
        q, k, v = self.qkv(win).chunk(3, dim=-1)
        win = self.proj(merge_heads(attend(split_heads(q, 2), split_heads(k, 2), split_heads(v, 2))))
        h = win.view(B, Hp // ws, Wp // ws, ws, ws, C).permute(0, 1, 3, 2, 4, 5).reshape(B, Hp, Wp, C)
        return x + h[:, :H, :W, :].contiguous()


class UNet(nn.Module):
    """Two levels: conv + max-pool down, F.interpolate(scale_factor=2) up, skip concatenation."""

    def __init__(self):
        super().__init__()
        conv = lambda i, o: nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.ReLU())
        self.e1, self.e2, self.mid = conv(3, 8), conv(8, 16), conv(16, 16)
        self.d2, self.d1 = conv(32, 8), conv(16, 8)
        self.out = nn.Conv2d(8, 2, 1)

    def forward(self, image):
        e1 = self.e1(image)
        e2 = self.e2(F.max_pool2d(e1, 2))
        m = self.mid(F.max_pool2d(e2, 2))
        d2 = self.d2(torch.cat((F.interpolate(m, scale_factor=2.0, mode="nearest"), e2), dim=1))
        d1 = self.d1(torch.cat((F.interpolate(d2, scale_factor=2.0, mode="bilinear", align_corners=False), e1), dim=1))
        return self.out(d1)


class Yolo(nn.Module):
    """A stride-4 head decoded on a grid made with meshgrid of arange(ny), arange(nx)."""

    def __init__(self, na=3, nc=2):
        super().__init__()
        self.na, self.no = na, nc + 5
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.SiLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.SiLU())
        self.head = nn.Conv2d(16, na * self.no, 1)
        self.register_buffer("anchors", torch.tensor([[10.0, 13.0], [16.0, 30.0], [33.0, 23.0]]).view(1, na, 1, 1, 2))

    def forward(self, images):
        p = self.head(self.backbone(images))
        b, ny, nx = p.size(0), p.size(2), p.size(3)
        p = p.view(b, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2)
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()
        xy = (p[..., :2].sigmoid() + grid) * 4.0
        wh = torch.exp(p[..., 2:4]) * self.anchors
        return torch.cat((xy, wh, p[..., 4:].sigmoid()), -1).view(b, -1, self.no)


class AdaptiveCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(3, 2, 1),
                               nn.Conv2d(8, 16, 3, 1, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 10)

    def forward(self, images):
        return self.fc(torch.flatten(self.f(images), 1))


class InterpSize(nn.Module):
    """F.interpolate to sizes computed from the input's own shape, then back to it."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x):
        h, w = x.shape[2], x.shape[3]
        y = F.interpolate(x, size=(h * 2 + 1, w // 2 + 1), mode="bilinear", align_corners=False)
        y = self.conv(y)
        return x + F.interpolate(y, size=(h, w), mode="nearest"), y


# --- audio --------------------------------------------------------------------
class WhisperFrontEnd(nn.Module):
    """Two Conv1d (the second stride 2) and a positional table sliced to the frames they leave."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(8, D, 3, padding=1)
        self.conv2 = nn.Conv1d(D, D, 3, stride=2, padding=1)
        self.pos = nn.Parameter(torch.randn(64, D))
        self.block = Block()

    def forward(self, mel):
        x = F.gelu(self.conv2(F.gelu(self.conv1(mel)))).permute(0, 2, 1)
        return self.block(x + self.pos[:x.size(1)])


class Wav2Vec2(nn.Module):
    """Conv feature extractor (strides 5, 2, 2) and the grouped positional conv with its last frame removed."""

    def __init__(self):
        super().__init__()
        self.c0, self.gn = nn.Conv1d(1, 16, 10, 5, bias=False), nn.GroupNorm(16, 16)
        self.c1, self.c2 = nn.Conv1d(16, 16, 3, 2, bias=False), nn.Conv1d(16, 16, 2, 2, bias=False)
        self.ln, self.proj = nn.LayerNorm(16), nn.Linear(16, D)
        self.pos_conv = nn.Conv1d(D, D, 4, padding=2, groups=4)

    def forward(self, audio):
        x = F.gelu(self.gn(self.c0(audio[:, None])))
        x = F.gelu(self.c2(F.gelu(self.c1(x))))
        x = self.proj(self.ln(x.transpose(1, 2)))
        pos = self.pos_conv(x.transpose(1, 2))[:, :, :-1]
        return x + F.gelu(pos).transpose(1, 2)


# --- recurrent and masking ----------------------------------------------------
class Lstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(16, 16, num_layers=2, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(32, 4)

    def forward(self, x):
        y, (h, c) = self.rnn(x)
        return self.fc(y), h, c


class Gru(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(16, 24)

    def forward(self, x, h0):
        y, h = self.rnn(x, h0)
        return y[-1], y, h


class Masking(nn.Module):
    """Length mask from arange(seq) < lengths; masked_fill, where, masked softmax and a masked mean."""

    def forward(self, x, lengths):
        seq = x.size(1)
        mask = torch.arange(seq)[None, :] < lengths[:, None]
        y = x.masked_fill(~mask[..., None], 0.0)
        y = torch.where(y > 0, y, y * 0.1)
        scores = (y @ y.transpose(1, 2)).masked_fill(~mask[:, None, :], float("-inf")).softmax(-1)
        mean = y.sum(1) / lengths[:, None].float()
        ramp = torch.arange(seq, dtype=torch.float32) / seq
        return scores @ y + ramp[None, :, None], mean


class ExpandDyn(nn.Module):
    """A learned token expanded to the input's own (dynamic) batch and seq; arange expanded over the batch."""

    def __init__(self):
        super().__init__()
        self.token = nn.Parameter(torch.randn(1, 1, 16))
        self.table = nn.Embedding(64, 16)

    def forward(self, x):
        b, s = x.size(0), x.size(1)
        tok = self.token.expand(b, s, -1)
        ids = torch.arange(s).unsqueeze(0).expand(b, -1)
        ones = x.new_ones(b, s).unsqueeze(-1).expand_as(x)
        return x * ones + tok + self.table(ids), ids


class DataDep(nn.Module):
    """Data-dependent dims: nonzero of a comparison, unique, topk with k read from the data."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 8)

    def forward(self, x):
        h = self.fc(x)  # static width 8
        nz = torch.nonzero(h > 0)  # [count, 3]
        u = torch.unique(torch.round(x * 2))  # [distinct values]
        flat = h.flatten()
        k = torch.clamp((x[0, 0] > 1).sum(), min=1)  # k from the data, in [1, 16]
        top, _ = torch.topk(flat, k)
        return h, nz, u, top


def ids(b, s):
    return torch.randint(0, 100, (b, s))


B3 = lambda **kw: [{k: v[i] for k, v in kw.items()} for i in range(3)]
ID = {"lo": 0, "hi": 100}

export("bert_encoder", Bert(), [("input_ids", ids(2, 5), ["batch", "seq"]),
                                ("attention_mask", torch.ones(2, 5, dtype=torch.long), ["batch", "seq"])],
       ["last_hidden_state", "pooler_output"], B3(batch=[1, 2, 3], seq=[1, 5, 7]),
       gen={"input_ids": ID, "attention_mask": {"lo": 0, "hi": 2}})
export("bert_encoder_opset14", Bert(), [("input_ids", ids(2, 5), ["batch", "seq"]),
                                        ("attention_mask", torch.ones(2, 5, dtype=torch.long), ["batch", "seq"])],
       ["last_hidden_state", "pooler_output"], B3(batch=[1, 2, 3], seq=[1, 5, 7]), opset=14,
       gen={"input_ids": ID, "attention_mask": {"lo": 0, "hi": 2}})
hd = D // HEADS
export("gpt2_kv_cache", Gpt2(), [("input_ids", ids(2, 3), ["batch", "seq"]),
                                 ("past_key", torch.randn(2, HEADS, 4, hd), ["batch", HEADS, "past", hd]),
                                 ("past_value", torch.randn(2, HEADS, 4, hd), ["batch", HEADS, "past", hd])],
       ["logits", "present_key", "present_value"], B3(batch=[1, 2, 3], seq=[1, 5, 7], past=[0, 3, 4]),
       gen={"input_ids": ID})
export("llama_gqa_rotary", Llama(), [("input_ids", ids(2, 5), ["batch", "seq"])], ["hidden"],
       B3(batch=[1, 2, 3], seq=[1, 5, 7]), gen={"input_ids": ID})
export("t5_relative_bias", T5Bias(), [("x", torch.randn(2, 5, D), ["batch", "seq", D])], ["y", "position_bias"],
       B3(batch=[1, 2, 3], seq=[1, 5, 12]), opset=14)
export("vit_class_token", ViT(), [("pixels", torch.randn(2, 3, 16, 16), ["batch", 3, "height", "width"])],
       ["logits", "tokens"], B3(batch=[1, 2, 3], height=[16, 8, 32], width=[16, 12, 28]))
export("swin_window_pad", Swin(), [("x", torch.randn(2, 6, 7, 16), ["batch", "height", "width", 16])], ["y"],
       B3(batch=[1, 2, 3], height=[4, 6, 9], width=[1, 8, 7]))
export("unet_interpolate", UNet(), [("image", torch.randn(1, 3, 16, 16), ["batch", 3, "height", "width"])], ["mask"],
       B3(batch=[1, 2, 3], height=[8, 16, 12], width=[12, 8, 20]))
export("yolo_grid_head", Yolo(), [("images", torch.randn(1, 3, 32, 32), ["batch", 3, "height", "width"])],
       ["detections"], B3(batch=[1, 2, 3], height=[32, 16, 24], width=[32, 40, 8]))
export("cnn_adaptive_pool", AdaptiveCnn(), [("images", torch.randn(2, 3, 32, 32), ["batch", 3, "height", "width"])],
       ["logits"], B3(batch=[1, 2, 3], height=[32, 9, 17], width=[32, 20, 5]), opset=14)
export("interpolate_sizes", InterpSize(), [("x", torch.randn(2, 4, 6, 8), ["batch", 4, "height", "width"])],
       ["y", "resized"], B3(batch=[1, 2, 3], height=[6, 3, 5], width=[8, 1, 9]))
export("whisper_conv_frontend", WhisperFrontEnd(), [("mel", torch.randn(2, 8, 20), ["batch", 8, "frames"])], ["hidden"],
       B3(batch=[1, 2, 3], frames=[1, 9, 30]))
export("wav2vec2_feature_extractor", Wav2Vec2(), [("audio", torch.randn(2, 400), ["batch", "samples"])], ["features"],
       B3(batch=[1, 2, 3], samples=[57, 400, 1001]))
export("lstm_bidirectional", Lstm(), [("x", torch.randn(2, 5, 16), ["batch", "seq", 16])], ["y", "h_n", "c_n"],
       B3(batch=[1, 2, 3], seq=[1, 5, 7]))
export("gru_seq_first", Gru(), [("x", torch.randn(5, 2, 16), ["seq", "batch", 16]),
                                ("h0", torch.randn(1, 2, 24), [1, "batch", 24])],
       ["last", "y", "h_n"], B3(batch=[1, 2, 3], seq=[1, 5, 7]))
export("masking_where_arange", Masking(), [("x", torch.randn(2, 5, 16), ["batch", "seq", 16]),
                                           ("lengths", torch.tensor([5, 3]), ["batch"])],
       ["y", "mean"], B3(batch=[1, 2, 3], seq=[1, 5, 7]), gen={"lengths": {"lo": 1, "hi": "seq+1"}})
export("expand_dynamic", ExpandDyn(), [("x", torch.randn(2, 5, 16), ["batch", "seq", 16])], ["y", "ids"],
       B3(batch=[1, 2, 3], seq=[1, 5, 7]))
export("data_dependent", DataDep(), [("x", torch.randn(2, 5, 16), ["batch", "seq", 16])],
       ["h", "nonzero", "unique", "top"], B3(batch=[1, 2, 3], seq=[1, 5, 7]))


# --- models added later (after the first 18, so those stay byte-identical) -----
class LlamaKvCache(nn.Module):
    """A LLaMA layer with a KV cache: rotary cos/sin computed on the fly from arange(past, past+seq) outer
    inv_freq, 4 query heads on 2 KV heads (repeat_kv), present = cat(past, new), causal mask [seq, past+seq]."""

    def __init__(self, kv_heads=2):
        super().__init__()
        self.hd, self.kvh = D // HEADS, kv_heads
        self.embed = nn.Embedding(100, D)
        self.n1, self.n2, self.nf = RMSNorm(D), RMSNorm(D), RMSNorm(D)
        self.q = nn.Linear(D, D, bias=False)
        self.k, self.v = nn.Linear(D, kv_heads * self.hd, bias=False), nn.Linear(D, kv_heads * self.hd, bias=False)
        self.o = nn.Linear(D, D, bias=False)
        self.gate, self.up, self.down = nn.Linear(D, 64, bias=False), nn.Linear(D, 64, bias=False), nn.Linear(64, D)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd)))

    def repeat_kv(self, x):
        b, s = x.size(0), x.size(2)
        n_rep = HEADS // self.kvh
        return x[:, :, None, :, :].expand(b, self.kvh, n_rep, s, self.hd).reshape(b, self.kvh * n_rep, s, self.hd)

    def forward(self, input_ids, past_key, past_value):
        seq, past_len = input_ids.size(1), past_key.size(2)
        x = self.embed(input_ids)
        h = self.n1(x)
        q = split_heads(self.q(h), HEADS)
        k, v = split_heads(self.k(h), self.kvh), split_heads(self.v(h), self.kvh)
        t = torch.arange(past_len, past_len + seq, dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[None, None], emb.sin()[None, None]
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        key, value = torch.cat((past_key, k), dim=2), torch.cat((past_value, v), dim=2)
        total = key.size(2)
        rows = torch.arange(seq)[:, None] + past_len
        cols = torch.arange(total)[None, :]
        mask = torch.zeros(seq, total).masked_fill(cols > rows, float("-inf"))
        ctx = attend(q, self.repeat_kv(key), self.repeat_kv(value), mask)
        x = x + self.o(merge_heads(ctx))
        h = self.n2(x)
        x = x + self.down(F.silu(self.gate(h)) * self.up(h))
        return self.nf(x), key, value


class AnchorFree(nn.Module):
    """FCOS/YOLOX-style head on a stride-8 backbone: centers (arange(w) + 0.5) * 8, meshgrid, ltrb decode."""

    def __init__(self, nc=2, stride=8):
        super().__init__()
        self.stride = stride
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.SiLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.SiLU(),
                                      nn.Conv2d(16, 16, 3, 2, 1), nn.SiLU())
        self.reg, self.cls, self.ctr = nn.Conv2d(16, 4, 1), nn.Conv2d(16, nc, 1), nn.Conv2d(16, 1, 1)

    def forward(self, images):
        f = self.backbone(images)
        h, w = f.size(2), f.size(3)
        xs = (torch.arange(w, dtype=torch.float32) + 0.5) * self.stride
        ys = (torch.arange(h, dtype=torch.float32) + 0.5) * self.stride
        gy, gx = torch.meshgrid(ys, xs, indexing="ij")
        centers = torch.stack((gx, gy), dim=-1).reshape(-1, 2)  # [h*w, 2]
        ltrb = F.relu(self.reg(f)).flatten(2).transpose(1, 2) * self.stride  # [b, h*w, 4]
        boxes = torch.cat((centers - ltrb[..., :2], centers + ltrb[..., 2:]), dim=-1)
        scores = (self.cls(f).sigmoid() * self.ctr(f).sigmoid()).flatten(2).transpose(1, 2)
        return boxes, scores


class DetrSine(nn.Module):
    """DETR's PositionEmbeddingSine on a stride-4 feature map, the pixel mask interpolated to its size."""

    def __init__(self, npf=8, temperature=10000):
        super().__init__()
        self.npf, self.temperature = npf, temperature
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.proj = nn.Conv2d(32, 2 * npf, 1)

    def forward(self, pixels, pixel_mask):
        feat = self.backbone(pixels)
        mask = F.interpolate(pixel_mask[:, None], size=feat.shape[-2:])[:, 0] > 0.5
        not_mask = ~mask
        y_embed = not_mask.cumsum(1, dtype=torch.float32)
        x_embed = not_mask.cumsum(2, dtype=torch.float32)
        scale, eps = 2 * math.pi, 1e-6
        y_embed = y_embed / (y_embed[:, -1:, :] + eps) * scale
        x_embed = x_embed / (x_embed[:, :, -1:] + eps) * scale
        dim_t = torch.arange(self.npf, dtype=torch.float32)
        dim_t = self.temperature ** (2 * torch.div(dim_t, 2, rounding_mode="floor") / self.npf)
        pos_x = x_embed[:, :, :, None] / dim_t
        pos_y = y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[:, :, :, 0::2].sin(), pos_x[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[:, :, :, 0::2].sin(), pos_y[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos = torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)
        src = self.proj(feat) + pos
        return src.flatten(2).permute(0, 2, 1), mask


class ConformerRelPos(nn.Module):
    """Relative positional self-attention (Transformer-XL / Conformer): positions arange(seq-1, -seq, -1.0),
    a sinusoid table, the scores' rel_shift by F.pad + view(b, h, klen+1, qlen)[:, :, 1:].view_as."""

    def __init__(self, d=D, heads=HEADS):
        super().__init__()
        self.d, self.heads, self.hd = d, heads, d // heads
        self.qkv, self.pos_proj, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d, bias=False), nn.Linear(d, d)
        self.pos_bias_u = nn.Parameter(torch.randn(heads, 1, self.hd) * 0.1)
        self.pos_bias_v = nn.Parameter(torch.randn(heads, 1, self.hd) * 0.1)
        self.ln = nn.LayerNorm(d)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0.0, d, 2.0) / d)))

    def rel_shift(self, x):
        b, h, qlen, klen = x.size()  # klen = 2 * qlen - 1
        padded = F.pad(x, (1, 0))
        x = padded.view(b, h, klen + 1, qlen)[:, :, 1:].view_as(x)
        return x[:, :, :, :klen // 2 + 1]

    def forward(self, x):
        seq = x.size(1)
        pos_seq = torch.arange(seq - 1, -seq, -1.0)
        sinusoid = torch.outer(pos_seq, self.inv_freq)
        pos_emb = torch.cat((sinusoid.sin(), sinusoid.cos()), dim=-1)[None]  # [1, 2*seq-1, d]
        p = split_heads(self.pos_proj(pos_emb), self.heads)  # [1, h, 2*seq-1, hd]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = split_heads(q, self.heads), split_heads(k, self.heads), split_heads(v, self.heads)
        ac = (q + self.pos_bias_u) @ k.transpose(-1, -2)
        bd = self.rel_shift((q + self.pos_bias_v) @ p.transpose(-1, -2))
        attn = ((ac + bd) / math.sqrt(self.hd)).softmax(-1)
        return self.ln(x + self.out(merge_heads(attn @ v))), pos_emb


class AudioFraming(nn.Module):
    """Frames by gather with arange(n)[:, None] * hop + arange(win)[None], n = (samples - win) // hop + 1,
    a window, a Linear as a DFT, and the frames' timestamps arange(n) * hop / 16000."""

    def __init__(self, win=16, hop=8):
        super().__init__()
        self.win, self.hop = win, hop
        self.register_buffer("window", torch.hann_window(win))
        self.dft = nn.Linear(win, 2 * (win // 2 + 1), bias=False)
        self.proj = nn.Linear(win // 2 + 1, 16)

    def forward(self, waveform):
        samples = waveform.size(1)
        n = (samples - self.win) // self.hop + 1
        idx = torch.arange(n)[:, None] * self.hop + torch.arange(self.win)[None]
        frames = waveform[:, idx]  # [batch, n, win]
        re, im = self.dft(frames * self.window).chunk(2, dim=-1)
        features = self.proj(torch.log(re * re + im * im + 1e-6))
        timestamps = torch.arange(n, dtype=torch.float32) * self.hop / 16000
        return features, timestamps


class ConvSame(nn.Module):
    """timm's Conv2dSame: TF "SAME" padding computed from the input shape with torch ops, then the conv."""

    def __init__(self, cin, cout, k, s):
        super().__init__()
        self.k, self.s = k, s
        self.conv = nn.Conv2d(cin, cout, k, s)

    def forward(self, x):
        shape = torch._shape_as_tensor(x)
        ih, iw = shape[2], shape[3]
        ph = torch.clamp((torch.ceil(ih / self.s) - 1) * self.s + self.k - ih, min=0).long()
        pw = torch.clamp((torch.ceil(iw / self.s) - 1) * self.s + self.k - iw, min=0).long()
        x = F.pad(x, [pw // 2, pw - pw // 2, ph // 2, ph - ph // 2])
        return self.conv(x)


class TfSame(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2, self.c3 = ConvSame(3, 8, 3, 2), ConvSame(8, 16, 5, 2), ConvSame(16, 16, 4, 2)

    def forward(self, images):
        return self.c3(F.relu(self.c2(F.relu(self.c1(images)))))


class RepeatInterleave(nn.Module):
    """repeat_interleave by an int along a dynamic axis (seq, then batch): torch 1.13 exports each as a Loop
    (SequenceAt/SequenceInsert in the body) over SplitToSequence pieces, then ConcatFromSequence. The dim=0
    export is wrong in torch 1.13 (its Reshape [-1, 0, 8] gives z [batch*seq, 3, 8], not [3*batch, seq, 8]);
    the corpus keeps it: the truth is onnxruntime's."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        y = torch.repeat_interleave(self.fc(x), 2, dim=1)  # [batch, 2*seq, 8]
        z = torch.repeat_interleave(x, 3, dim=0)  # [3*batch, seq, 8]
        return y, z


@torch.jit.script
def vad_chunk(x: torch.Tensor) -> torch.Tensor:
    """x [batch, samples] to [batch, 1, 512], like Silero VAD's sample-rate switch but on the chunk's size:
    16 kHz chunks (512 samples) pass as they are; 8 kHz chunks (256 samples) are upsampled 2x by repeating
    every sample, through a reshape to [batch, 256, 1] that only fits 256 samples. Scripted, so the if is an
    ONNX If on Equal(Gather(Shape(x), 1), 512), known from x's static width: only the then branch is valid."""
    if x.size(1) == 512:
        out = x.unsqueeze(1)
    else:
        b = x.size(0)
        out = x.reshape(b, 256, 1).expand(b, 256, 2).reshape(b, 1, 512)
    return out


class SileroVad(nn.Module):
    """Silero-VAD-like: a chunk-size If (vad_chunk), reflect pad, an STFT conv (magnitude), two stride-2 convs,
    a mean over the frames, an LSTM cell on state [2, batch, 64], a sigmoid probability and the new state."""

    def __init__(self, n_fft=32, hop=16, hidden=64):
        super().__init__()
        self.bins, self.hidden = n_fft // 2 + 1, hidden
        self.stft = nn.Conv1d(1, 2 * self.bins, n_fft, hop, bias=False)
        self.enc = nn.Sequential(nn.Conv1d(self.bins, 32, 3, 2, 1), nn.ReLU(), nn.Conv1d(32, 32, 3, 2, 1), nn.ReLU())
        self.ih, self.hh = nn.Linear(32, 4 * hidden), nn.Linear(hidden, 4 * hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, state):
        x = F.pad(vad_chunk(x), (0, 64), mode="reflect")
        re, im = self.stft(x).chunk(2, dim=1)
        feats = self.enc(torch.sqrt(re * re + im * im)).mean(dim=2)
        h, c = state[0], state[1]
        i, f, g, o = (self.ih(feats) + self.hh(h)).chunk(4, dim=-1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        prob = torch.sigmoid(self.out(F.relu(h)))
        return prob, torch.stack((h, c))


export("llama_rotary_kv_cache", LlamaKvCache(), [("input_ids", ids(2, 3), ["batch", "seq"]),
                                                 ("past_key", torch.randn(2, 2, 4, hd), ["batch", 2, "past", hd]),
                                                 ("past_value", torch.randn(2, 2, 4, hd), ["batch", 2, "past", hd])],
       ["hidden", "present_key", "present_value"], B3(batch=[1, 2, 3], seq=[1, 5, 7], past=[0, 3, 4]),
       gen={"input_ids": ID})
export("anchor_free_head", AnchorFree(), [("images", torch.randn(1, 3, 32, 32), ["batch", 3, "height", "width"])],
       ["boxes", "scores"], B3(batch=[1, 2, 3], height=[32, 17, 1], width=[32, 40, 9]))
export("detr_sine_position", DetrSine(), [("pixels", torch.randn(2, 3, 16, 20), ["batch", 3, "height", "width"]),
                                          ("pixel_mask", torch.ones(2, 16, 20), ["batch", "height", "width"])],
       ["features", "mask"], B3(batch=[1, 2, 3], height=[16, 9, 4], width=[16, 20, 1]))
export("conformer_relative_position", ConformerRelPos(), [("x", torch.randn(2, 5, D), ["batch", "seq", D])],
       ["y", "pos_emb"], B3(batch=[1, 2, 3], seq=[1, 5, 7]))
export("audio_framing", AudioFraming(), [("waveform", torch.randn(2, 100), ["batch", "samples"])],
       ["features", "timestamps"], B3(batch=[1, 2, 3], samples=[16, 100, 1001]))
export("tf_same_padding_cnn", TfSame(), [("images", torch.randn(2, 3, 15, 20), ["batch", 3, "height", "width"])],
       ["features"], B3(batch=[1, 2, 3], height=[32, 15, 1], width=[32, 7, 2]))
export("repeat_interleave", RepeatInterleave(), [("x", torch.randn(2, 5, 8), ["batch", "seq", 8])], ["y", "z"],
       B3(batch=[1, 2, 3], seq=[1, 5, 7]))
export("silero_vad_if", SileroVad(), [("x", torch.randn(2, 512), ["batch", 512]),
                                      ("state", torch.zeros(2, 2, 64), [2, "batch", 64])],
       ["prob", "new_state"], B3(batch=[1, 2, 3]))

# The models of other exporters (nontorch_models.py writes them and nontorch_manifest.json)
# come after these, so that rerunning this script keeps them in the manifest.
NONTORCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nontorch_manifest.json")
EXTRA = json.load(open(NONTORCH)) if os.path.exists(NONTORCH) else []
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(MODELS + EXTRA, f, indent=1)
    f.write("\n")
print(f"{len(MODELS)} models" + (f", and {len(EXTRA)} of other exporters ({NONTORCH})" if EXTRA else ""))
