#!/usr/bin/python3
"""Plots the JSON of bench/whole_process.py as two SVG files (written by hand: log-log
axes, decade ticks, a legend; no plotting library needed):

  PREFIX_nodes.svg    wall time and peak RSS against node count: the chains (1k to 1M
                      nodes, lines) and the transformer stacks (hollow markers), for
                      `symshape infer` and onnx_ref_infer
  PREFIX_weights.svg  wall time and peak RSS against weight bytes (the CNNs with real-size
                      initializers): `symshape infer` vs onnx_ref_infer, and
                      `symshape infer -o` vs `cp`

Usage:
  /usr/bin/python3 bench/plot_whole_process.py RESULTS.json [--out docs/img/whole_process]
"""

import argparse
import json
import math
import os
import sys

W, H = 430, 300  # one panel
ML, MR, MT, MB = 62, 14, 34, 46  # margins inside a panel
COLORS = {"infer": "#1f77b4", "onnx_ref": "#d62728", "infer_o": "#2ca02c", "cp": "#7f7f7f"}
LABELS = {"infer": "symshape infer", "onnx_ref": "onnx_ref_infer (ONNX)", "infer_o": "symshape infer -o",
          "cp": "cp"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fmt_tick(v, unit):
    if unit == "s":
        for div, suf in ((1, " s"), (1e-3, " ms"), (1e-6, " us")):
            if v >= div * 0.999:
                return "%g%s" % (round(v / div, 6), suf)
    if unit == "MiB":
        return "%g MiB" % v
    if unit == "B":
        for div, suf in ((1e9, " GB"), (1e6, " MB"), (1e3, " kB")):
            if v >= div * 0.999:
                return "%g%s" % (round(v / div, 6), suf)
        return "%g B" % v
    for div, suf in ((1e6, "M"), (1e3, "k")):
        if v >= div * 0.999:
            return "%g%s" % (round(v / div, 6), suf)
    return "%g" % v


class Panel:
    def __init__(self, x0, y0, title, xlabel, xunit, ylabel, yunit, xs, ys):
        self.x0, self.y0 = x0, y0
        self.title, self.xlabel, self.xunit, self.ylabel, self.yunit = title, xlabel, xunit, ylabel, yunit
        pos = [v for v in xs if v > 0] or [1]
        self.lx = (math.floor(math.log10(min(pos))), math.ceil(math.log10(max(pos))))
        pos = [v for v in ys if v > 0] or [1]
        self.ly = (math.floor(math.log10(min(pos))), math.ceil(math.log10(max(pos))))
        if self.lx[0] == self.lx[1]:
            self.lx = (self.lx[0], self.lx[0] + 1)
        if self.ly[0] == self.ly[1]:
            self.ly = (self.ly[0], self.ly[0] + 1)
        self.out = []

    def px(self, v):
        f = (math.log10(v) - self.lx[0]) / (self.lx[1] - self.lx[0])
        return self.x0 + ML + f * (W - ML - MR)

    def py(self, v):
        f = (math.log10(v) - self.ly[0]) / (self.ly[1] - self.ly[0])
        return self.y0 + H - MB - f * (H - MT - MB)

    def axes(self):
        o = self.out
        left, right, top, bottom = self.x0 + ML, self.x0 + W - MR, self.y0 + MT, self.y0 + H - MB
        o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>' %
                 (left, top, right - left, bottom - top))
        for e in range(self.lx[0], self.lx[1] + 1):
            x = self.px(10 ** e)
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (x, top, x, bottom))
            o.append('<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>' %
                     (x, bottom + 14, esc(fmt_tick(10.0 ** e, self.xunit))))
            for m in range(2, 10) if e < self.lx[1] else []:
                xm = self.px(m * 10 ** e)
                o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>' % (xm, bottom, xm, bottom - 3))
        for e in range(self.ly[0], self.ly[1] + 1):
            y = self.py(10 ** e)
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, y, right, y))
            o.append('<text x="%.1f" y="%.1f" text-anchor="end">%s</text>' %
                     (left - 4, y + 4, esc(fmt_tick(10.0 ** e, self.yunit))))
            for m in range(2, 10) if e < self.ly[1] else []:
                ym = self.py(m * 10 ** e)
                o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>' % (left, ym, left + 3, ym))
        o.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>' %
                 ((left + right) / 2, self.y0 + 18, esc(self.title)))
        o.append('<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>' %
                 ((left + right) / 2, bottom + 32, esc(self.xlabel)))
        o.append('<text x="%.1f" y="%.1f" text-anchor="middle" transform="rotate(-90 %.1f %.1f)">%s</text>' %
                 (self.x0 + 12, (top + bottom) / 2, self.x0 + 12, (top + bottom) / 2, esc(self.ylabel)))

    def series(self, pts, color, line=True, hollow=False):
        pts = [(x, y) for x, y in pts if x > 0 and y > 0]
        if line and len(pts) > 1:
            self.out.append('<polyline fill="none" stroke="%s" stroke-width="1.8" points="%s"/>' %
                            (color, " ".join("%.1f,%.1f" % (self.px(x), self.py(y)) for x, y in pts)))
        for x, y in pts:
            fill = "white" if hollow else color
            self.out.append('<circle cx="%.1f" cy="%.1f" r="3.2" fill="%s" stroke="%s" stroke-width="1.4"/>' %
                            (self.px(x), self.py(y), fill, color))

    def legend(self, items):
        x, y = self.x0 + ML + 8, self.y0 + MT + 14
        for text, color, hollow in items:
            self.out.append('<circle cx="%.1f" cy="%.1f" r="3.2" fill="%s" stroke="%s" stroke-width="1.4"/>' %
                            (x, y - 4, "white" if hollow else color, color))
            self.out.append('<text x="%.1f" y="%.1f">%s</text>' % (x + 8, y, esc(text)))
            y += 14


def svg(panels, cols, title, note):
    rows = (len(panels) + cols - 1) // cols
    width, height = cols * W, rows * H + 40
    body = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif" font-size="11">' % (width, height, width, height),
            '<rect width="100%" height="100%" fill="white"/>',
            '<text x="%d" y="18" text-anchor="middle" font-size="13" font-weight="bold">%s</text>' %
            (width // 2, esc(title)),
            '<text x="%d" y="34" text-anchor="middle" fill="#555">%s</text>' % (width // 2, esc(note))]
    for p in panels:
        body.extend(p.out)
    body.append("</svg>")
    return "\n".join(body) + "\n"


def pick(models, kind, key):
    ms = sorted((m for m in models.values() if m["kind"] == kind), key=lambda m: m[key])
    return ms


def value(m, cmd, what):
    med = m["median"].get(cmd)
    return None if med is None else med["wall_s" if what == "time" else "rss_mib"]


def panel_pair(row, col_offset, x_of, groups, cmds, xlabel, xunit):
    """Time and RSS panels for the models in groups [(models, line, hollow)] and two commands."""
    out = []
    for i, what in enumerate(("time", "rss")):
        xs, ys = [], []
        for ms, _, _ in groups:
            for m in ms:
                for c in cmds:
                    v = value(m, c, what)
                    if v:
                        xs.append(x_of(m))
                        ys.append(v)
        p = Panel((col_offset + i) * W, 40 + row * H,
                  ("wall time" if what == "time" else "peak RSS") + ": " + " vs ".join(LABELS[c] for c in cmds),
                  xlabel, xunit, "wall time (median)" if what == "time" else "peak RSS (median)",
                  "s" if what == "time" else "MiB", xs, ys)
        p.axes()
        legend = []
        for ms, line, hollow in groups:
            for c in cmds:
                pts = [(x_of(m), value(m, c, what)) for m in ms if value(m, c, what)]
                p.series(pts, COLORS[c], line=line, hollow=hollow)
        for c in cmds:
            legend.append((LABELS[c], COLORS[c], False))
        if len(groups) > 1:
            legend.append(("hollow: transformer stacks", "#333", True))
        p.legend(legend)
        out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="JSON written by bench/whole_process.py")
    ap.add_argument("--out", default="docs/img/whole_process", help="output prefix (default docs/img/whole_process)")
    args = ap.parse_args()
    with open(args.results) as f:
        res = json.load(f)
    models, meta = res["models"], res["meta"]
    note = "%s; %s; median of %d runs, warm page cache" % (meta.get("label") or meta.get("symshape_version", ""),
                                                           meta["date"][:10], meta["reps"])
    chains = pick(models, "chain", "nodes")
    transformers = pick(models, "transformer", "nodes")
    cnns = pick(models, "cnn", "weight_bytes")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    written = []
    if chains or transformers:
        panels = panel_pair(0, 0, lambda m: m["nodes"], [(chains, True, False), (transformers, False, True)],
                            ("infer", "onnx_ref"), "nodes", "n")
        path = args.out + "_nodes.svg"
        with open(path, "w") as f:
            f.write(svg(panels, 2, "Whole process vs node count (weight-free graphs)", note))
        written.append(path)
    if cnns:
        panels = panel_pair(0, 0, lambda m: m["weight_bytes"], [(cnns, True, False)], ("infer", "onnx_ref"),
                            "weight bytes (initializer payload)", "B")
        panels += panel_pair(1, 0, lambda m: m["weight_bytes"], [(cnns, True, False)], ("infer_o", "cp"),
                             "weight bytes (initializer payload)", "B")
        path = args.out + "_weights.svg"
        with open(path, "w") as f:
            f.write(svg(panels, 2, "Whole process vs weight bytes (CNNs with real-size initializers)", note))
        written.append(path)
    for p in written:
        print("wrote " + p)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
