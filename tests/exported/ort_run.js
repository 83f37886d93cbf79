// Runs models in onnxruntime-node (CPU provider, graph optimizations off) at
// bindings of their symbolic input dims, with random inputs, and records the
// dims and byte length of every listed value. Shared by record_truth.sh and
// tests/profile/ort_profile_check.sh (onnxruntime-node comes from NODE_PATH):
//
//   NODE_PATH=WORK/node_modules node ort_run.js CASES.json OUT.json TAG
//
// CASES: [{name, model, inputs: [[name, dtype, dims]], gen: {input: {lo, hi}},
// bindings: [{symbol: value}], values: [name]}], as expose_outputs.py writes
// them. Inputs: floats (dtype 1) in [0.5, 1.5); int64 in [lo, hi) of "gen"
// (bounds may be expressions of the binding), else [0, 8).
// OUT: {name: [{value: {dims, bytes}} for each binding]}; a value the run does
// not return as a tensor is absent. TAG prefixes error messages.
const ort = require('onnxruntime-node');
const fs = require('fs');
const [cases_path, out_path, tag] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(cases_path));
// A bound: a number or an expression of the binding's symbols ("seq+1").
const evalExpr = (e, b) =>
  (typeof e === 'number' ? e : Function(...Object.keys(b), `return (${e});`)(...Object.values(b)));
const options = {logSeverityLevel: 3, graphOptimizationLevel: 'disabled'};

function feedsOf(c, b) {
  const feeds = {};
  for (const [name, dtype, dims] of c.inputs) {
    const shape = dims.map((d) => evalExpr(d, b));
    const n = shape.reduce((a, x) => a * x, 1);
    if (dtype === 1) {
      feeds[name] = new ort.Tensor('float32', Float32Array.from({length: n}, () => Math.random() + 0.5), shape);
    } else {
      const g = (c.gen || {})[name] || {lo: 0, hi: 8};
      const lo = evalExpr(g.lo, b), hi = evalExpr(g.hi, b);
      const vals = BigInt64Array.from({length: n}, () => BigInt(lo + Math.floor(Math.random() * (hi - lo))));
      feeds[name] = new ort.Tensor('int64', vals, shape);
    }
  }
  return feeds;
}

(async () => {
  const result = {};
  for (const c of cases) {
    const session = await ort.InferenceSession.create(c.model, options);
    result[c.name] = [];
    for (const b of c.bindings) {
      const out = await session.run(feedsOf(c, b));
      const values = {};
      for (const v of c.values) {
        const t = out[v];
        if (t instanceof ort.Tensor && t.data && t.data.byteLength !== undefined)
          values[v] = {dims: t.dims.map(Number), bytes: t.data.byteLength};
      }
      result[c.name].push(values);
    }
  }
  fs.writeFileSync(out_path, JSON.stringify(result));
})().catch((e) => { console.error(`${tag}: ${e.message || e}`); process.exit(1); });
