// The page's graph layout (SymshapeReport.layoutGraph in web/report/report.js)
// in Node, on graphs built here:
//   node layout_test.js SOURCE_DIR
// every edge of a DAG points down (its target in a later layer), boxes of a
// layer do not overlap, a source sits just above its first consumer, a cycle
// still lays out, and the time grows about linearly with the size (a
// 200,000-node layered graph lays out in a few seconds at most).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const sourceDir = process.argv[2];
if (!sourceDir) {
  console.error('usage: node layout_test.js SOURCE_DIR');
  process.exit(2);
}
const context = {performance: performance, console: console};
vm.createContext(context);
for (const file of ['expr_eval.js', 'report.js'])
  vm.runInContext(fs.readFileSync(path.resolve(sourceDir, 'web/report', file), 'utf8'), context, {filename: file});
const layoutGraph = vm.runInContext('SymshapeReport.layoutGraph', context);

const failures = [];
let checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) failures.push(what);
}

// A transformer-like graph: `blocks` blocks of a chain with side branches
// that join again, a weight (source) per matrix product, and a mask input
// read by every block.
function transformerLike(blocks) {
  const widths = [];
  const from = [];
  const to = [];
  const node = (w) => widths.push(w) - 1;
  const edge = (a, b) => {
    from.push(a);
    to.push(b);
  };
  const mask = node(90);
  let x = node(120);
  for (let b = 0; b < blocks; ++b) {
    const norm = node(150);
    edge(x, norm);
    const heads = [];
    for (let h = 0; h < 3; ++h) {
      const weight = node(100);
      const mm = node(110);
      edge(norm, mm);
      edge(weight, mm);
      const shape = node(80);
      edge(mm, shape);
      const reshape = node(100);
      edge(mm, reshape);
      edge(shape, reshape);
      heads.push(reshape);
    }
    const scores = node(110);
    edge(heads[0], scores);
    edge(heads[1], scores);
    const masked = node(90);
    edge(scores, masked);
    edge(mask, masked);
    const out = node(110);
    edge(masked, out);
    edge(heads[2], out);
    const residual = node(90);
    edge(out, residual);
    edge(x, residual);
    x = residual;
  }
  return {widths: Float64Array.from(widths), from: from, to: to};
}

function checkLayout(name, g, lay) {
  const n = g.widths.length;
  let down = 0;
  for (let e = 0; e < g.from.length; ++e) if (lay.layer[g.to[e]] > lay.layer[g.from[e]]) ++down;
  check(down === g.from.length, `${name}: ${g.from.length - down} of ${g.from.length} edges do not point down`);
  const layers = new Map();
  for (let u = 0; u < n; ++u) {
    if (!layers.has(lay.layer[u])) layers.set(lay.layer[u], []);
    layers.get(lay.layer[u]).push(u);
  }
  let overlaps = 0;
  for (const list of layers.values()) {
    list.sort((a, b) => lay.x[a] - lay.x[b]);
    for (let i = 1; i < list.length; ++i) {
      const a = list[i - 1];
      const b = list[i];
      if (lay.x[a] + g.widths[a] / 2 > lay.x[b] - g.widths[b] / 2 + 1e-6) ++overlaps;
    }
  }
  check(overlaps === 0, `${name}: ${overlaps} pairs of boxes overlap in a layer`);
  let finite = true;
  for (let u = 0; u < n; ++u) finite = finite && Number.isFinite(lay.x[u]);
  check(finite, `${name}: a position is not a finite number`);
}

// 1. Small graphs: a diamond, a source above its first consumer, a cycle.
{
  const g = {widths: Float64Array.from([100, 100, 100, 100]), from: [0, 0, 1, 2], to: [1, 2, 3, 3]};
  const lay = layoutGraph(g.widths, g.from, g.to);
  checkLayout('diamond', g, lay);
  check(lay.layer[0] === 0 && lay.layer[1] === 1 && lay.layer[2] === 1 && lay.layer[3] === 2,
        `diamond: layers ${Array.from(lay.layer)}`);
  check(Math.abs(lay.x[3] - lay.x[0]) < 1e-6, `diamond: the join is not under the fork (${lay.x[0]} vs ${lay.x[3]})`);
}
{
  // chain 0 -> 1 -> 2 -> 3, and a source 4 read by 3 only.
  const g = {widths: Float64Array.from([100, 100, 100, 100, 100]), from: [0, 1, 2, 4], to: [1, 2, 3, 3]};
  const lay = layoutGraph(g.widths, g.from, g.to);
  checkLayout('late source', g, lay);
  check(lay.layer[4] === lay.layer[3] - 1, `late source: the source is in layer ${lay.layer[4]}, its consumer in ${lay.layer[3]}`);
}
{
  const g = {widths: Float64Array.from([100, 100, 100]), from: [0, 1, 2], to: [1, 2, 0]};
  const lay = layoutGraph(g.widths, g.from, g.to);
  check(lay.layer.length === 3 && Array.from(lay.x).every(Number.isFinite), 'cycle: no layout');
}
{
  const lay = layoutGraph(new Float64Array(0), [], []);
  check(lay.layerCount === 0, 'empty graph: layers');
}

// 2. Transformer-like graphs: properties, no drift across the page, and time.
const times = [];
for (const blocks of [500, 5000]) {
  const g = transformerLike(blocks);
  const t0 = performance.now();
  const lay = layoutGraph(g.widths, g.from, g.to);
  const ms = performance.now() - t0;
  times.push({nodes: g.widths.length, ms: ms});
  checkLayout(`${blocks} blocks`, g, lay);
  // The chain of residual adds stays about where it starts: the page is a
  // column, not a slant across thousands of pixels.
  let minX = Infinity;
  let maxX = -Infinity;
  for (let u = 0; u < g.widths.length; ++u) {
    minX = Math.min(minX, lay.x[u]);
    maxX = Math.max(maxX, lay.x[u]);
  }
  check(maxX - minX < 3000, `${blocks} blocks: the layout is ${Math.round(maxX - minX)} px wide`);
}
const [small, large] = times;
const perNodeRatio = large.ms / large.nodes / (small.ms / small.nodes);
check(large.ms < 5000, `${large.nodes} nodes laid out in ${large.ms.toFixed(0)} ms`);
check(perNodeRatio < 4, `time per node grows ${perNodeRatio.toFixed(1)}x from ${small.nodes} to ${large.nodes} nodes`);

if (failures.length) {
  console.error(`${failures.length} of ${checks} checks failed:`);
  for (const f of failures) console.error('  ' + f);
  process.exit(1);
}
console.log(`layout: ${checks} checks passed (${times.map((t) => `${t.nodes} nodes in ${t.ms.toFixed(0)} ms`).join(', ')})`);
