// web/index.html in headless Chromium (tests/report/chromium.js drives it),
// served over http as docs/wasm.md says, with the WebAssembly module of
// scripts/build-wasm.sh:
//   - a model picked in the file field (as a user does) is reported in the page:
//     the status line says exit 0, and report.js has drawn the report (its
//     values table holds every value of the data `symshape report --json` writes);
//   - more arguments (--bind) run it again: the bindings fields take the values;
//   - a model with an inference error: exit 3 and its diagnostic shown;
//   - ?model=URL reports on a file the server has;
//   - opened from file:// the page says that it must be served over http.
// Any exception or console error in the page (file:// aside) fails the test.
//
//   node page_test.js SYMSHAPE SOURCE_DIR WASM_DIR
'use strict';
const assert = require('assert');
const fs = require('fs');
const http = require('http');
const path = require('path');
const { spawnSync } = require('child_process');
const { Chromium } = require('../report/chromium.js');

const [binary, sourceDir, wasmDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
if (!binary || !sourceDir || !wasmDir) {
  console.error('usage: node page_test.js SYMSHAPE SOURCE_DIR WASM_DIR');
  process.exit(2);
}

// The repository root, with /build-wasm/ the module's folder.
function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (url === '/favicon.ico') {  // the browser asks for it; the page has none
      res.writeHead(204).end();
      return;
    }
    const file = url.startsWith('/build-wasm/') ? path.join(wasmDir, url.slice('/build-wasm/'.length))
                                                 : path.join(sourceDir, url);
    if (!file.startsWith(sourceDir + path.sep) && !file.startsWith(wasmDir + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// The values `symshape report --json` lists for a model.
function reportValues(model, args) {
  const r = spawnSync(binary, ['report', model, '--json', '-', '--quiet', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error || !r.stdout) throw new Error('symshape report ' + model + ' failed: ' + (r.error || r.stderr));
  return JSON.parse(r.stdout).values.map((v) => v.name);
}

async function main() {
  const server = await serve();
  const base = 'http://127.0.0.1:' + server.address().port;
  const browser = await Chromium.launch();
  const problems = [];
  let context = '';
  browser.onPageError((text) => problems.push(context + ': ' + text));
  const status = () => browser.evaluate("document.getElementById('status').textContent");
  const untilStatus = async (pattern) => {
    try {
      await browser.until(`/${pattern.source}/.test(document.getElementById('status').textContent)`, 60000);
    } catch (e) {
      throw new Error('status never matched ' + pattern + ': it says ' + JSON.stringify(await status()));
    }
  };
  // The names in report.js's values table (its Values tab).
  const tableValues = async () => {
    await browser.until("document.getElementById('tab-values')");
    await browser.evaluate("document.getElementById('tab-values').click()");
    await browser.until("document.querySelector('#report #values-table')");
    return browser.evaluate(
      "[...document.querySelectorAll('#report #values-table tbody tr')].map((r) => r.getAttribute('data-value'))");
  };
  const models = path.join(sourceDir, 'examples/models');

  try {
    context = 'pick gpt2_like.onnx';
    await browser.navigate(base + '/web/index.html');
    await untilStatus(/^Ready/);
    const { root } = await browser.send('DOM.getDocument');
    const { nodeId } = await browser.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#file' });
    await browser.send('DOM.setFileInputFiles', { nodeId, files: [path.join(models, 'gpt2_like.onnx')] });
    await untilStatus(/^gpt2_like\.onnx: exit 0 /);
    const shown = await tableValues();
    const expected = reportValues(path.join(models, 'gpt2_like.onnx'), []);
    assert.deepStrictEqual([...shown].sort(), [...expected].sort(), context + ': the values table');

    context = 'gpt2_like.onnx --bind';
    await browser.evaluate(`(() => { const t = document.getElementById('more');
      t.value = '--bind\\nbatch=2,seq=128,past=0'; t.dispatchEvent(new Event('change')); })()`);
    await browser.until("(document.querySelector('#bindings input[data-symbol=\"seq\"]') || {}).value === '128'");
    const fields = await browser.evaluate(
      "Object.fromEntries([...document.querySelectorAll('#bindings input[data-symbol]')].map((i) => [i.getAttribute('data-symbol'), i.value]))");
    assert.deepStrictEqual(fields, { batch: '2', past: '0', seq: '128' }, context + ': the bindings fields');

    context = '?model=shape_bug.onnx';
    await browser.navigate(base + '/web/index.html?model=../examples/models/shape_bug.onnx');
    await untilStatus(/^shape_bug\.onnx: exit 3 /);
    const messages = await browser.evaluate("document.getElementById('messages').textContent");
    assert.match(messages, /^symshape report: shape_bug\.onnx: error: node #2 'proj_out' \(MatMul\): incompatible inner dimensions/,
                 context + ': the diagnostic');
    assert.deepStrictEqual([...(await tableValues())].sort(), reportValues(path.join(models, 'shape_bug.onnx'), []).sort(),
                           context + ': the values table');

    context = 'file://';
    const before = problems.length;
    await browser.navigate('file://' + path.join(sourceDir, 'web/index.html'));
    await untilStatus(/serve the repository root over http/);
    problems.length = before;  // the refused fetch is logged as an error there
  } finally {
    await browser.close();
    server.close();
  }
  if (problems.length) throw new Error('the page reported problems:\n  ' + problems.join('\n  '));
  console.log('page_test: web/index.html picks, reports, rebinds and refuses file:// as expected');
}

main().catch((e) => {
  console.error('page_test: ' + (e.stack || e));
  process.exit(1);
});
