// The WebAssembly build (scripts/build-wasm.sh) against the native command:
// for every model in the folders given, `symshape infer --json - --quiet MODEL`
// natively and symshape_infer_json in the module under Node must give the
// same exit code, the same standard error and the same JSON; so must
// `symshape report --json - --quiet MODEL` and symshape_report_json. The
// native command runs in the model's folder on the file's name, since the
// module sees the bytes and the name only: then nothing may differ, the
// "model" field included. Then a few options (compared the same way) and bad
// input.
//
//   node wasm_test.js --module build-wasm/symshape.js --symshape build/bin/symshape \
//        --models DIR [--models DIR]... [--min-models N] [--too-deep FILE.onnx]...
//
// Folders are searched recursively for *.onnx. A --too-deep model has
// subgraphs nested deeper than the module's limit (512 levels, half the
// command's: include/symshape/onnx/load.hpp) and must give exit 1 and that
// problem in the module instead of the command's answer. Exits 1 on the first
// difference of each model (all models are compared), naming the model.
// Node 18 (Debian 12's) is enough.
'use strict';
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const SymshapeWasm = require('../../web/wasm/symshape_wasm.js');

// The commands compared: the command's name and the module's function.
const COMMANDS = { infer: SymshapeWasm.infer, report: SymshapeWasm.reportData };

function parseArgs(argv) {
  const a = { models: [], minModels: 1, tooDeep: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(key + ' needs a value');
    if (key === '--module') a.module = value;
    else if (key === '--symshape') a.symshape = value;
    else if (key === '--models') a.models.push(value);
    else if (key === '--min-models') a.minModels = Number(value);
    else if (key === '--too-deep') a.tooDeep.push(path.basename(value));
    else throw new Error('unknown argument ' + key);
  }
  if (!a.module || !a.symshape || a.models.length === 0) throw new Error('usage: --module JS --symshape BIN --models DIR...');
  return a;
}

function onnxFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...onnxFiles(p));
    else if (e.name.endsWith('.onnx')) out.push(p);
  }
  return out;
}

// The native command's run: {exit, stderr, json} (json parsed, or null). It
// runs in the model's folder and is given the file's name, as the module is.
function runNative(bin, command, model, args) {
  const r = spawnSync(path.resolve(bin), [command, '--json', '-', '--quiet', ...args, '--', path.basename(model)],
                      { cwd: path.dirname(model), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw new Error('cannot run ' + bin + ': ' + r.error.message);
  return { exit: r.status, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : null };
}

// The module's run on the same file's bytes and name.
function runWasm(Module, command, model, args, bytes) {
  const r = COMMANDS[command](Module, bytes || fs.readFileSync(model), path.basename(model), args);
  assert.strictEqual(r.stdout, '', 'the module wrote to standard output');
  return { exit: r.exit, stderr: r.stderr, json: r.json };
}

function compare(what, native, wasm) {
  assert.strictEqual(wasm.exit, native.exit, what + ': exit code');
  assert.strictEqual(wasm.stderr, native.stderr, what + ': standard error');
  assert.deepStrictEqual(wasm.json, native.json, what + ': the JSON report');
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  for (const f of [a.module, a.symshape])
    if (!fs.existsSync(f)) throw new Error(f + ' does not exist (build-wasm: bash scripts/build-wasm.sh; the command: cmake --build build --target symshape_cli)');
  const createSymshape = require(path.resolve(a.module));
  // The wasm file is handed over: emscripten 3.1.6 would fetch() it, which Node's fetch cannot do for a path.
  const wasmFile = path.join(path.dirname(a.module), 'symshape.wasm');
  const Module = await createSymshape({ wasmBinary: fs.readFileSync(wasmFile) });

  const failures = [];
  const check = (what, fn) => {
    try {
      fn();
    } catch (e) {
      failures.push(what + ': ' + e.message);
    }
  };

  const models = a.models.flatMap(onnxFiles);
  if (models.length < a.minModels) throw new Error('found ' + models.length + ' models, expected at least ' + a.minModels + ' in ' + a.models.join(', '));
  // One model, one command, the same arguments: natively and in the module.
  const same = (command, m, args) => {
    const what = command + ' ' + m + (args.length ? ' ' + args.join(' ') : '');
    check(what, () => compare(what, runNative(a.symshape, command, m, args), runWasm(Module, command, m, args)));
  };
  for (const m of models) {
    for (const command of Object.keys(COMMANDS)) {
      if (!a.tooDeep.includes(path.basename(m))) {
        same(command, m, []);
        continue;
      }
      check(command + ' ' + m, () => {
        const wasm = runWasm(Module, command, m, []);
        assert.strictEqual(wasm.exit, 1, 'exit code');
        const error = new RegExp('^symshape ' + command + ': file [^\\n]*: subgraphs nested deeper than 512\\n$');
        assert.match(wasm.stderr, error, 'standard error');
      });
    }
  }
  const missing = a.tooDeep.filter((name) => !models.some((m) => path.basename(m) === name));
  if (missing.length) failures.push('--too-deep names no model found: ' + missing.join(', '));

  // Options pass through as the command's arguments (on examples/models).
  const byName = (name) => {
    const m = models.find((x) => path.basename(x) === name);
    if (!m) throw new Error('no model ' + name + ' in ' + a.models.join(', ') + ' (examples/models is needed)');
    return m;
  };
  const withOptions = [
    ['infer', 'transformer_block.onnx', ['--policy', 'strict']],
    ['infer', 'transformer_block.onnx', ['--input-shape', 'x=2,seq+1,32']],
    ['infer', 'gpt2_table_pos.onnx', ['--assume-contracts']],
    ['infer', 'gpt2_table_pos.onnx', ['--assume', 'past + seq <= 64', '--assume-nonempty']],
    ['infer', 'transformer_block.onnx', ['--input-shape', 'nope=1']],  // usage error: exit 2, no JSON
    ['infer', 'transformer_block.onnx', ['--bogus']],
    ['report', 'gpt2_like.onnx', ['--bind', 'batch=2,seq=128,past=0']],
    ['report', 'gpt2_table_pos.onnx', ['--assume-contracts', '--bind', 'batch=1']],
    ['report', 'transformer_block.onnx', ['--bind', 'nope=1']],  // usage error
  ];
  for (const [command, name, args] of withOptions) same(command, byName(name), args);

  // Bad input: a cut model, and no bytes at all, give the command's one-line error (exit 1).
  // A file whose name starts with '-' is a model all the same.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'symshape-wasm-'));
  try {
    const whole = fs.readFileSync(byName('gpt2_like.onnx'));
    fs.writeFileSync(path.join(tmp, '-dash.onnx'), whole);
    for (const command of Object.keys(COMMANDS)) same(command, path.join(tmp, '-dash.onnx'), []);
    for (const [name, bytes] of [['cut.onnx', whole.subarray(0, whole.length >> 1)], ['empty.onnx', whole.subarray(0, 0)]]) {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, bytes);
      for (const command of Object.keys(COMMANDS))
        check(command + ' ' + name, () => {
          const wasm = runWasm(Module, command, file, [], bytes);
          assert.strictEqual(wasm.exit, 1, name + ': exit code');
          assert.strictEqual(wasm.json, null, name + ': no JSON');
          compare(name, runNative(a.symshape, command, file, []), wasm);
        });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  // The module is used again after all that: the first model still gives its report.
  same('infer', models[0], []);

  if (failures.length) {
    console.error(failures.length + ' difference(s) between the WebAssembly module and the native command:');
    for (const f of failures) console.error('  ' + f.split('\n').slice(0, 12).join('\n    '));
    process.exit(1);
  }
  console.log('wasm_test: infer and report on ' + models.length + ' models and ' + withOptions.length +
              ' option sets agree with ' + a.symshape);
}

main().catch((e) => {
  console.error('wasm_test: ' + (e.stack || e));
  process.exit(1);
});
