// The report page in headless Chromium or Firefox (tests/report/chromium.js
// drives Chromium over the DevTools protocol, tests/report/firefox.js Firefox
// over WebDriver BiDi; the checks are the same):
//
//   node browser_test.js SYMSHAPE SOURCE_DIR [--browser chromium|firefox]
//       for each of four example models and two sets of bindings: opens the
//       report at file://...#bindings and checks the concrete shapes and bytes
//       of every value against `symshape show --bind --json`, the totals, the
//       FLOPs per node and per operator and a sweep against `symshape profile`;
//       clicks nodes and checks the node panel; changes a binding field (the
//       URL fragment follows) and the fragment (the fields follow); expands a
//       subgraph. Any exception or console error in the page fails the test.
//   node browser_test.js SYMSHAPE SOURCE_DIR --screenshot DIR
//       writes DIR/report-graph.png, report-profile.png and report-sweep.png
//       of examples/models/gpt2_like.onnx's report.
//   node browser_test.js SYMSHAPE SOURCE_DIR --time MODEL.onnx [--bind a=1,b=2]
//       prints how long the first paint of MODEL's report takes, and a few
//       redraws after zooming and panning.
//
// --browser (default chromium) applies to all three.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawnSync} = require('child_process');
const {Chromium} = require('./chromium.js');
const {Firefox} = require('./firefox.js');

const args = process.argv.slice(2);
const [binary, sourceDir] = args;
if (!binary || !sourceDir) {
  console.error('usage: node browser_test.js SYMSHAPE SOURCE_DIR [--screenshot DIR | --time MODEL [--bind B]] [--browser chromium|firefox]');
  process.exit(2);
}
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : null;
};
const browserName = option('--browser') || 'chromium';
const Browser = {chromium: Chromium, firefox: Firefox}[browserName];
if (!Browser) {
  console.error(`browser_test.js: --browser is chromium or firefox, not ${browserName}`);
  process.exit(2);
}
const models = path.resolve(sourceDir, 'examples/models');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'symshape-report-test-'));

function run(cmd, argv, allowed = [0]) {
  const r = spawnSync(cmd, argv, {encoding: 'utf8', maxBuffer: 1 << 30});
  if (r.error) throw new Error(`cannot run ${cmd}: ${r.error.message}`);
  if (!allowed.includes(r.status)) throw new Error(`${cmd} ${argv.join(' ')} failed (exit ${r.status}): ${r.stderr.trim()}`);
  return r;
}

function bindText(b) {
  return Object.keys(b).map((k) => `${k}=${b[k]}`).join(',');
}

// The report page of a model, as `symshape report` writes it (exit 3: the
// model has inference errors, the page is written and lists them).
function makeReport(model, out) {
  run(binary, ['report', model, '-o', out, '--quiet'], [0, 3]);
  return out;
}

function showJson(model, bindings) {
  return JSON.parse(run(binary, ['show', model, '--bind', bindText(bindings), '--json', '-', '--quiet'], [0, 3]).stdout);
}
function profileJson(model, bindings, extra = []) {
  return JSON.parse(run(binary, ['profile', model, '--bind', bindText(bindings), '--json', '-', '--quiet', ...extra], [0, 3]).stdout);
}
function concreteText(dims) {
  return dims === null || dims === undefined ? '?' : '[' + dims.map((d) => (d === null ? '?' : String(d))).join(',') + ']';
}

// --------------------------------------------------------------- checks

const failures = [];
let checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) failures.push(what);
}
function equal(actual, expected, what) {
  check(actual === expected, `${what}: page ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

// Page problems: exceptions and console errors, collected for the whole run.
function watchErrors(browser, context) {
  browser.onPageError((text) => failures.push(`${context.name}: ${text}`));
}

async function open(browser, file, bindings) {
  const hash = bindings ? '#' + Object.keys(bindings).sort().map((k) => `${encodeURIComponent(k)}=${bindings[k]}`).join('&') : '';
  await browser.navigate('about:blank');
  await browser.navigate('file://' + file + hash);
  await browser.until('document.body.getAttribute("data-report-ready") === "1"');
}

const pageValues = `(() => {
  document.getElementById('tab-values').click();
  const out = {};
  for (const tr of document.querySelectorAll('#values-table tbody tr')) {
    const name = tr.getAttribute('data-value');
    if (tr.getAttribute('data-graph') !== 'main' || name in out) continue;
    out[name] = {concrete: tr.getAttribute('data-concrete'), bytes: tr.getAttribute('data-bytes'),
                 text: tr.querySelector('.shape-concrete').textContent};
  }
  return out;
})()`;

async function checkValues(browser, name, model, bindings) {
  const shown = showJson(model, bindings);
  const page = await browser.evaluate(pageValues);
  let compared = 0;
  for (const v of shown.values) {
    const row = page[v.name];
    const where = `${name} at ${bindText(bindings)}: value '${v.name}'`;
    check(row !== undefined, `${where}: no row in the values table`);
    if (!row) continue;
    const expected = concreteText(v.concrete);
    equal(row.concrete, expected, `${where} concrete shape`);
    equal(row.text, expected, `${where} concrete shape text`);
    equal(row.bytes, v.bytes === null || v.bytes === undefined ? '' : String(v.bytes), `${where} bytes`);
    ++compared;
  }
  check(compared >= 5, `${name}: only ${compared} values compared`);
  // The filter keeps the rows whose name holds the text.
  const probe = shown.values[shown.values.length - 1].name;
  const filtered = await browser.evaluate(`(() => {
    const box = document.getElementById('values-filter');
    box.value = ${JSON.stringify(probe)};
    box.dispatchEvent(new Event('input'));
    const names = [...document.querySelectorAll('#values-table tbody tr')].map((tr) => tr.getAttribute('data-value'));
    box.value = '';
    box.dispatchEvent(new Event('input'));
    return names;
  })()`);
  check(filtered.length >= 1 && filtered.every((n) => n.toLowerCase().includes(probe.toLowerCase())),
        `${name}: values filtered by '${probe}': ${filtered.join(', ')}`);
  return shown;
}

async function checkTotals(browser, name, model, bindings) {
  const profile = profileJson(model, bindings);
  const page = await browser.evaluate(`(() => {
    document.getElementById('tab-profile').click();
    const out = {};
    for (const tr of document.querySelectorAll('#totals-table tbody tr')) out[tr.getAttribute('data-total')] = tr.getAttribute('data-value');
    return out;
  })()`);
  for (const key of ['flops', 'params', 'activation_bytes', 'peak_activation_bytes']) {
    const t = profile.totals[key];
    if (!t) continue;
    equal(page[key], t.value === undefined || t.value === null ? '' : String(t.value), `${name} at ${bindText(bindings)}: total ${key}`);
  }
  return profile;
}

// The node table grouped by operator against `profile --by op`.
async function checkProfileByOp(browser, name, model, bindings) {
  const profile = profileJson(model, bindings, ['--by', 'op']);
  const page = await browser.evaluate(`(() => {
    document.getElementById('tab-profile').click();
    const select = document.getElementById('profile-group');
    select.value = 'op';
    select.dispatchEvent(new Event('change'));
    const out = {};
    for (const tr of document.querySelectorAll('#profile-table tbody tr')) out[tr.getAttribute('data-group')] = tr.getAttribute('data-flops');
    return out;
  })()`);
  equal(Object.keys(page).sort().join(','), profile.groups.map((g) => g.key).sort().join(','), `${name}: operators of the profile table`);
  for (const g of profile.groups) equal(page[g.key], String(g.flops.value), `${name} at ${bindText(bindings)}: FLOPs of ${g.key}`);
  // Sorting: a click on the bytes header orders the rows by bytes, one on
  // FLOPs by FLOPs (either way), a second click on FLOPs the other way.
  const orderAfterClick = (key) => browser.evaluate(`(() => {
    document.querySelector('#profile-table th[data-sort="${key}"]').click();
    return [...document.querySelectorAll('#profile-table tbody tr')].map((tr) => Number(tr.getAttribute('data-flops')));
  })()`);
  await orderAfterClick('bytes');
  const first = await orderAfterClick('flops');
  const descending = first.slice().sort((a, b) => b - a).join(',');
  const ascending = first.slice().sort((a, b) => a - b).join(',');
  check(first.join(',') === descending || first.join(',') === ascending, `${name}: profile rows after a click on FLOPs: ${first}`);
  const second = await orderAfterClick('flops');
  equal(second.join(','), first.join(',') === descending ? ascending : descending, `${name}: profile rows after a second click on FLOPs`);
  check(first.length === profile.groups.length, `${name}: ${first.length} rows after sorting`);
  await browser.evaluate(`(() => { const s = document.getElementById('profile-group'); s.value = 'node'; s.dispatchEvent(new Event('change')); })()`);
}

// The sweep over the first symbol from 1 to 3 against `profile --sweep`.
async function checkSweep(browser, name, model, bindings) {
  const symbol = Object.keys(bindings).sort()[0];
  const others = Object.assign({}, bindings);
  delete others[symbol];
  const profile = profileJson(model, others, ['--sweep', `${symbol}=1..3`]);
  const page = await browser.evaluate(`(() => {
    document.getElementById('tab-sweep').click();
    const sel = document.getElementById('sweep-symbol');
    sel.value = ${JSON.stringify(symbol)};
    sel.dispatchEvent(new Event('change'));
    const lo = document.getElementById('sweep-lo'); lo.value = '1'; lo.dispatchEvent(new Event('change'));
    const hi = document.getElementById('sweep-hi'); hi.value = '3'; hi.dispatchEvent(new Event('change'));
    const out = {};
    for (const td of document.querySelectorAll('#sweep-table td[data-series]'))
      out[td.closest('tr').getAttribute('data-x') + ':' + td.getAttribute('data-series')] = td.getAttribute('data-value');
    out.curves = document.querySelectorAll('#sweep-plot path.curve').length;
    return out;
  })()`);
  check(page.curves >= 2, `${name}: the sweep plot has ${page.curves} curves`);
  for (const point of profile.sweep.points) {
    for (const key of ['flops', 'activation_bytes', 'peak_activation_bytes']) {
      if (!(key in point)) continue;
      equal(page[point[symbol] + ':' + key], point[key] === null ? '' : String(point[key]),
            `${name}: sweep ${symbol}=${point[symbol]} ${key}`);
    }
  }
}

// Clicks the node named `name` with the mouse (after a search centres it)
// and checks the node panel against show and profile.
async function clickNode(browser, nodeName) {
  const box = await browser.evaluate(`(() => {
    document.getElementById('tab-graph').click();
    const g = [...document.querySelectorAll('#graph-svg [data-node-name]')].find((e) => e.getAttribute('data-node-name') === ${JSON.stringify(nodeName)});
    if (!g) return null;
    const r = g.querySelector('rect.box').getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2};
  })()`);
  if (!box) return false;
  await browser.click(box.x, box.y);
  await browser.until(`document.getElementById('node-panel').getAttribute('data-node-name') === ${JSON.stringify(nodeName)}`, 5000)
    .catch(() => null);
  return true;
}

async function search(browser, text) {
  await browser.evaluate(`(() => {
    document.getElementById('tab-graph').click();
    const box = document.getElementById('search');
    box.value = ${JSON.stringify(text)};
    box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}));
  })()`);
  await browser.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

async function checkNodePanel(browser, name, model, bindings, nodeName, shown, profile, infer) {
  const where = `${name}: node '${nodeName}'`;
  await search(browser, nodeName);
  // Another drawn node first, so that the click on nodeName is what opens its panel.
  const other = await browser.evaluate(`(() => {
    const view = document.getElementById('graph').getBoundingClientRect();
    const inside = (e) => { const r = e.querySelector('rect.box').getBoundingClientRect();
      return r.left >= view.left && r.right <= view.right && r.top >= view.top && r.bottom <= view.bottom; };
    const g = [...document.querySelectorAll('#graph-svg [data-node-name]')].find((e) =>
      e.getAttribute('data-node-name') && e.getAttribute('data-node-name') !== ${JSON.stringify(nodeName)} && inside(e));
    return g ? g.getAttribute('data-node-name') : null;
  })()`);
  check(other !== null, `${where}: no other node drawn near it`);
  if (other) {
    check(await clickNode(browser, other), `${where}: node '${other}' not drawn`);
    equal(await browser.evaluate(`document.getElementById('node-panel').getAttribute('data-node-name')`), other, `${where}: panel after clicking '${other}'`);
  }
  check(await clickNode(browser, nodeName), `${where}: not drawn after the search centred it`);
  const panel = await browser.evaluate(`(() => {
    const p = document.getElementById('node-panel');
    const rows = (id) => [...p.querySelectorAll('#' + id + ' tr[data-value]')].map((tr) => ({name: tr.getAttribute('data-value'),
      concrete: tr.getAttribute('data-concrete'), bytes: tr.getAttribute('data-bytes')}));
    return {hidden: p.hidden, name: p.getAttribute('data-node-name'), outputs: rows('node-outputs'), inputs: rows('node-inputs'),
            flops: p.querySelector('[data-cost="flops"]').getAttribute('data-value'),
            contracts: p.querySelectorAll('#node-contracts li').length, text: p.textContent};
  })()`);
  equal(panel.hidden, false, `${where}: panel hidden`);
  equal(panel.name, nodeName, `${where}: panel's node`);
  const outputs = shown.values.filter((v) => v.node === nodeName);
  equal(panel.outputs.map((o) => o.name).join(','), outputs.map((v) => v.name).join(','), `${where}: outputs`);
  for (const v of outputs) {
    const row = panel.outputs.find((o) => o.name === v.name);
    if (!row) continue;
    equal(row.concrete, concreteText(v.concrete), `${where}: output '${v.name}' concrete shape`);
    equal(row.bytes, v.bytes === null ? '' : String(v.bytes), `${where}: output '${v.name}' bytes`);
  }
  check(panel.inputs.length >= 1, `${where}: no inputs listed`);
  for (const row of panel.inputs) {
    const v = shown.values.find((x) => x.name === row.name);
    if (v) equal(row.concrete, concreteText(v.concrete), `${where}: input '${row.name}' concrete shape`);
  }
  const p = profile.nodes.find((n) => n.name === nodeName);
  check(p !== undefined, `${where}: not in the profile`);
  if (p) equal(panel.flops, p.flops && p.flops.value !== undefined ? String(p.flops.value) : '', `${where}: FLOPs`);
  const contracts = infer.contracts.filter((c) => c.node === nodeName);
  equal(panel.contracts, contracts.length, `${where}: contracts listed`);
  for (const c of contracts) check(panel.text.includes(c.relation), `${where}: contract '${c.relation}' not shown`);
}

// Typing into the binding fields re-evaluates and rewrites the fragment; a
// new fragment refills the fields.
async function setFields(browser, bindings) {
  await browser.evaluate(`(() => {
    const b = ${JSON.stringify(bindings)};
    for (const input of document.querySelectorAll('#bindings input[data-symbol]')) {
      const s = input.getAttribute('data-symbol');
      if (s in b) { input.value = String(b[s]); input.dispatchEvent(new Event('input')); }
    }
  })()`);
}

const CASES = [
  {file: 'small_cnn.onnx', binds: [{N: 2, H: 32, W: 32}, {N: 1, H: 17, W: 9}], node: 'conv2'},
  {file: 'gpt2_like.onnx', binds: [{batch: 1, seq: 128, past: 0}, {batch: 3, seq: 7, past: 5}], node: '/blocks.0/Softmax'},
  {file: 'gpt2_table_pos.onnx', binds: [{batch: 2, seq: 16, past: 8}, {batch: 1, seq: 1, past: 63}], node: '/Add_1'},
  {file: 'control_flow.onnx', binds: [{batch: 2}, {batch: 5}], node: null},
];

async function testAll() {
  const browser = await Browser.launch();
  const context = {name: ''};
  watchErrors(browser, context);
  try {
    for (const c of CASES) {
      const model = path.join(models, c.file);
      const file = makeReport(model, path.join(work, c.file.replace(/\.onnx$/, '.html')));
      const infer = JSON.parse(run(binary, ['infer', model, '--json', '-', '--quiet'], [0, 3]).stdout);
      context.name = c.file;
      const [b1, b2] = c.binds;
      // 1. Bindings from the fragment.
      await open(browser, file, b1);
      const fields = await browser.evaluate(`Object.fromEntries([...document.querySelectorAll('#bindings input[data-symbol]')].map((i) => [i.getAttribute('data-symbol'), i.value]))`);
      for (const k in b1) equal(fields[k], String(b1[k]), `${c.file}: field ${k} from the fragment`);
      let shown = await checkValues(browser, c.file, model, b1);
      let profile = await checkTotals(browser, c.file, model, b1);
      if (c.node) await checkNodePanel(browser, c.file, model, b1, c.node, shown, profile, infer);
      // 2. Bindings typed into the fields: the fragment follows.
      await setFields(browser, b2);
      const expectedHash = '#' + Object.keys(b2).sort().map((k) => `${k}=${b2[k]}`).join('&');
      equal(await browser.evaluate('location.hash'), expectedHash, `${c.file}: fragment after typing the bindings`);
      shown = await checkValues(browser, c.file, model, b2);
      profile = await checkTotals(browser, c.file, model, b2);
      if (c.node) await checkNodePanel(browser, c.file, model, b2, c.node, shown, profile, infer);
      if (c.file !== 'control_flow.onnx') await checkProfileByOp(browser, c.file, model, b2);
      await checkSweep(browser, c.file, model, b2);
      // 3. A new fragment: the fields and values follow.
      await browser.evaluate(`location.hash = ${JSON.stringify(Object.keys(b1).map((k) => `${k}=${b1[k]}`).join('&'))}`);
      await browser.until(`document.querySelector('#bindings input[data-symbol]').value === ${JSON.stringify(String(b1[Object.keys(b1).sort()[0]]))}`, 5000)
        .catch(() => check(false, `${c.file}: the fields did not follow a new fragment`));
      await checkValues(browser, c.file, model, b1);
    }
    // A fragment that is not all bindings: the good ones are taken, the rest left.
    context.name = 'small_cnn.onnx odd fragment';
    await browser.navigate('about:blank');
    await browser.navigate('file://' + path.join(work, 'small_cnn.html') + '#N=3&H=%E0%A4%A&W=x&junk&=5&W=8');
    await browser.until('document.body.getAttribute("data-report-ready") === "1"');
    const odd = await browser.evaluate(`Object.fromEntries([...document.querySelectorAll('#bindings input[data-symbol]')].map((i) => [i.getAttribute('data-symbol'), i.value]))`);
    equal(JSON.stringify(odd), JSON.stringify({H: '', N: '3', W: '8'}), 'small_cnn.onnx: fields from an odd fragment');
    // Subgraphs: the If of control_flow.onnx is folded; its "+" shows the branches.
    context.name = 'control_flow.onnx subgraphs';
    const file = path.join(work, 'control_flow.html');
    await open(browser, file, {batch: 2});
    const before = await browser.evaluate(`document.querySelectorAll('#graph-svg [data-op="Relu"], #graph-svg [data-op="Neg"]').length`);
    equal(before, 0, 'control_flow.onnx: branch nodes drawn while folded');
    const toggle = await browser.evaluate(`(() => { const r = document.querySelector('#graph-svg [data-toggle] rect').getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`);
    await browser.click(toggle.x, toggle.y);
    await browser.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const after = await browser.evaluate(`[...document.querySelectorAll('#graph-svg [data-op="Relu"], #graph-svg [data-op="Neg"]')].map((e) => e.getAttribute('data-op')).sort().join(',')`);
    equal(after, 'Neg,Relu', 'control_flow.onnx: branch nodes drawn after a click on +');
    // Clicking a branch node: its panel says which node holds it.
    const branch = await browser.evaluate(`(() => { const r = document.querySelector('#graph-svg [data-op="Relu"] rect.box').getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`);
    await browser.click(branch.x, branch.y);
    const panel = await browser.evaluate(`document.getElementById('node-panel').textContent`);
    check(/Relu/.test(panel) && /in a subgraph of/.test(panel), `control_flow.onnx: the Relu's panel: ${panel.slice(0, 200)}`);
    const concrete = await browser.evaluate(`[...document.querySelectorAll('#node-outputs tr[data-value]')].map((tr) => tr.getAttribute('data-concrete')).join(';')`);
    equal(concrete, '[2,16]', 'control_flow.onnx: the then branch output at batch=2');
    // A graph input's box: its panel shows the value, and follows the bindings.
    const inputBox = await browser.evaluate(`(() => { const r = document.querySelector('#graph-svg [data-input="a"] rect.box').getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`);
    await browser.click(inputBox.x, inputBox.y);
    const inputRow = `document.querySelector('#node-panel tr[data-value="a"]').getAttribute('data-concrete')`;
    equal(await browser.evaluate(inputRow), '[2,16]', 'control_flow.onnx: the panel of input a at batch=2');
    await setFields(browser, {batch: 5});
    equal(await browser.evaluate(inputRow), '[5,16]', 'control_flow.onnx: the panel of input a after typing batch=5');
    // Diagnostics: shape_bug.onnx's MatMul error, in its tab, its node's panel and its box.
    context.name = 'shape_bug.onnx diagnostics';
    const bug = path.join(models, 'shape_bug.onnx');
    const bugInfer = JSON.parse(run(binary, ['infer', bug, '--json', '-', '--quiet'], [0, 3]).stdout);
    check(bugInfer.diagnostics.length >= 1, 'shape_bug.onnx: infer --json lists no diagnostic');
    await open(browser, makeReport(bug, path.join(work, 'shape_bug.html')), {batch: 2, seq: 3});
    const listed = await browser.evaluate(`(() => { document.getElementById('tab-diagnostics').click();
      return [...document.querySelectorAll('#diagnostics-table tbody tr')].map((tr) => tr.textContent); })()`);
    equal(listed.length, bugInfer.diagnostics.length, 'shape_bug.onnx: diagnostics listed');
    for (const d of bugInfer.diagnostics)
      check(listed.some((t) => t.includes(d.message) && t.includes(d.severity)), `shape_bug.onnx: diagnostic '${d.message}' not listed`);
    const first = bugInfer.diagnostics[0];
    await browser.evaluate(`document.querySelector('#diagnostics-table tbody tr .sr-link').click()`);
    const bugPanel = await browser.evaluate(`(() => { const p = document.getElementById('node-panel');
      return {name: p.getAttribute('data-node-name'), diagnostics: [...p.querySelectorAll('#node-diagnostics li')].map((li) => li.textContent),
              boxed: !!document.querySelector('#graph-svg .g-node.diag[data-node-name=' + JSON.stringify(p.getAttribute('data-node-name')) + ']')}; })()`);
    equal(bugPanel.name, first.node, 'shape_bug.onnx: the node a click on the diagnostic selects');
    check(bugPanel.diagnostics.some((t) => t.includes(first.message)), `shape_bug.onnx: the node panel's diagnostics: ${bugPanel.diagnostics}`);
    check(bugPanel.boxed, 'shape_bug.onnx: the node with an error is not marked in the graph');
  } finally {
    await browser.close();
  }
}

async function screenshots(dir) {
  fs.mkdirSync(dir, {recursive: true});
  const model = path.join(models, 'gpt2_like.onnx');
  const file = makeReport(model, path.join(work, 'gpt2_like.html'));
  const browser = await Browser.launch({width: 1400, height: 860});
  const context = {name: 'screenshot'};
  watchErrors(browser, context);
  try {
    await open(browser, file, {batch: 1, seq: 128, past: 0});
    await search(browser, '/blocks.0/Softmax');
    await browser.evaluate('SymshapeReport.current.zoomAt(0.85, 500, 400)');
    await browser.evaluate('new Promise((r) => setTimeout(r, 100))');
    await browser.screenshot(path.join(dir, 'report-graph.png'));
    await browser.evaluate(`document.getElementById('tab-profile').click()`);
    await browser.evaluate(`(() => { const s = document.getElementById('profile-group'); s.value = 'op'; s.dispatchEvent(new Event('change')); })()`);
    await browser.screenshot(path.join(dir, 'report-profile.png'));
    await browser.evaluate(`document.getElementById('tab-sweep').click()`);
    await browser.screenshot(path.join(dir, 'report-sweep.png'));
    console.log(`wrote ${dir}/report-graph.png, report-profile.png, report-sweep.png`);
  } finally {
    await browser.close();
  }
}

async function timing(model, bind) {
  const t0 = Date.now();
  const file = makeReport(path.resolve(model), path.join(work, 'timed.html'));
  console.log(`report written in ${Date.now() - t0} ms (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`);
  const browser = await Browser.launch();
  const context = {name: 'timing'};
  watchErrors(browser, context);
  try {
    const bindings = {};
    for (const item of (bind || '').split(',').filter(Boolean)) bindings[item.split('=')[0]] = Number(item.split('=')[1]);
    for (let i = 0; i < 3; ++i) {
      await open(browser, file, Object.keys(bindings).length ? bindings : null);
      const t = await browser.evaluate(`(() => { const r = SymshapeReport.current; const t = r.timings;
        return {firstPaint: t.firstPaint, parse: t.parse, layout: t.layout, render: t.render, nodes: r.model.nodes.length,
                drawn: r.drawn.nodes, load: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd}; })()`);
      console.log(`run ${i + 1}: first paint ${t.firstPaint.toFixed(0)} ms after navigation start (HTML and data loaded at ` +
                  `${t.load.toFixed(0)} ms; JSON.parse ${t.parse.toFixed(0)} ms, layout ${t.layout.toFixed(0)} ms, ` +
                  `render ${t.render.toFixed(0)} ms); ${t.nodes} nodes, ${t.drawn} drawn`);
    }
    const redraw = await browser.evaluate(`(async () => {
      const r = SymshapeReport.current; const times = [];
      for (const [f, dx, dy] of [[0.5, 0, 0], [0.3, 0, 0], [0.1, 0, 0], [1, 0, -20000], [10, 0, 0], [1, 3000, 0]]) {
        r.zoomAt(f, 500, 400); r.view.x += dx; r.view.y += dy;
        const t0 = performance.now(); r.drawGraph(); times.push({scale: +r.view.s.toFixed(3), ms: +(performance.now() - t0).toFixed(1), drawn: r.drawn.nodes, overview: r.drawn.overview});
      }
      const t1 = performance.now();
      const input = document.querySelector('#bindings input[data-symbol]');
      if (input) { input.value = '7'; input.dispatchEvent(new Event('input')); }
      return {draws: times, rebind: +(performance.now() - t1).toFixed(1)};
    })()`);
    for (const d of redraw.draws) console.log(`redraw at scale ${d.scale}: ${d.ms} ms, ${d.drawn} nodes in view${d.overview ? ' (overview)' : ''}`);
    console.log(`changing a binding (re-evaluating the drawn labels and the totals): ${redraw.rebind} ms`);
  } finally {
    await browser.close();
  }
}

(async () => {
  try {
    if (option('--screenshot')) await screenshots(path.resolve(option('--screenshot')));
    else if (option('--time')) await timing(option('--time'), option('--bind'));
    else await testAll();
  } finally {
    fs.rmSync(work, {recursive: true, force: true});
  }
  if (failures.length) {
    console.error(`${failures.length} of ${checks} checks failed:`);
    for (const f of failures.slice(0, 60)) console.error('  ' + f);
    process.exit(1);
  }
  if (checks) console.log(`report page in ${browserName}: ${checks} checks passed`);
})().catch((e) => {
  console.error('browser_test.js: ' + (e.stack || e.message));
  process.exit(1);
});
