// The WebAssembly module's speed against the native command, on one model
// (docs/benchmarks.md, "WebAssembly in Node"):
//   - native: `symshape infer MODEL --json FILE --quiet`, the whole process;
//   - wasm, warm: one symshape_infer_json call in a module that has run the
//     model before (the same work: the same arguments, the JSON written to a
//     file in memory); V8 has then optimised the code;
//   - wasm, cold: in a new node process, instantiating the module (from the
//     .wasm bytes already read) and its first call, as a page does once;
//   - wasm, whole process: that node process from start to end, and for
//     scale `node -e 0`.
// Each is the median of --runs runs (default 11) after one not counted.
//
//   node bench/wasm_bench.js --module build-wasm/symshape.js --symshape build/bin/symshape \
//        [--runs N] MODEL.onnx
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { performance } = require('perf_hooks');

const { infer: symshapeInfer } = require('../web/wasm/symshape_wasm.js');

function parseArgs(argv) {
  const a = { runs: 11 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--module') a.module = path.resolve(argv[++i]);
    else if (argv[i] === '--symshape') a.symshape = path.resolve(argv[++i]);
    else if (argv[i] === '--runs') a.runs = Number(argv[++i]);
    else if (argv[i] === '--cold') a.cold = true;  // the child process of the cold runs
    else a.model = path.resolve(argv[i]);
  }
  if (!a.module || !a.model || (!a.symshape && !a.cold))
    throw new Error('usage: --module JS --symshape BIN [--runs N] MODEL.onnx');
  return a;
}

const median = (xs) => xs.slice().sort((x, y) => x - y)[xs.length >> 1];

// The median milliseconds of `runs` calls of fn (after one not counted).
async function timed(runs, fn) {
  await fn();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

// Runs a command; its standard output.
function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(cmd + ' ' + args.join(' ') + ': exit ' + r.status + ' ' + r.stderr);
  return r.stdout;
}

// --cold: prints the milliseconds from having the bytes to the first call's result.
async function cold(a) {
  const bytes = fs.readFileSync(a.model);
  const wasmBinary = fs.readFileSync(path.join(path.dirname(a.module), 'symshape.wasm'));
  const t0 = performance.now();
  const Module = await require(a.module)({ wasmBinary });
  const r = symshapeInfer(Module, bytes, path.basename(a.model), []);
  const ms = performance.now() - t0;
  if (!r.json) throw new Error('no report: ' + r.stderr);
  console.log(ms);
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (a.cold) return cold(a);
  const bytes = fs.readFileSync(a.model);
  const name = path.basename(a.model);
  const out = path.join(os.tmpdir(), 'symshape-wasm-bench-' + process.pid + '.json');

  const native = await timed(a.runs, () => run(a.symshape, ['infer', a.model, '--json', out, '--quiet']));
  fs.rmSync(out, { force: true });
  const wasmBinary = fs.readFileSync(path.join(path.dirname(a.module), 'symshape.wasm'));
  const Module = await require(a.module)({ wasmBinary });
  const first = symshapeInfer(Module, bytes, name, []);
  if (!first.json) throw new Error(name + ': no report: ' + first.stderr);
  for (let i = 0; i < 20; i++) symshapeInfer(Module, bytes, name, []);  // time for V8 to optimise
  const warm = await timed(a.runs, () => symshapeInfer(Module, bytes, name, []));
  const coldArgs = [__filename, '--cold', '--module', a.module, a.model];
  const colds = [];
  const whole = await timed(a.runs, () => colds.push(Number(run(process.execPath, coldArgs))));
  const coldMs = median(colds);
  const empty = await timed(a.runs, () => run(process.execPath, ['-e', '0']));

  const row = (what, ms, ratio = true) =>
    console.log(what.padEnd(48) + ms.toFixed(1).padStart(8) + ' ms' + (ratio ? ((ms / native).toFixed(2) + 'x').padStart(9) : ''));
  console.log(name + ': ' + first.json.values.length + ' values; median of ' + a.runs + ' runs; node ' + process.version +
              ', ' + os.cpus().length + ' cores, load ' + os.loadavg()[0].toFixed(1));
  row('native symshape infer, whole process', native, false);
  row('wasm, warm call (module instantiated, optimised)', warm);
  row('wasm, cold: instantiation + first call', coldMs);
  row('wasm, whole node process (cold)', whole);
  row('  (node -e 0, whole process)', empty);
}

main().catch((e) => {
  console.error('wasm_bench: ' + (e.stack || e));
  process.exit(1);
});
