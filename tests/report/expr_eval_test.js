// The page's evaluator (web/report/expr_eval.js) against the native one
// (`symshape eval`, and the concrete dims of `symshape show --bind`):
//   node expr_eval_test.js SYMSHAPE_BINARY SOURCE_DIR
// on every expression of examples/expressions.txt at three sets of bindings,
// on every dim of every model in examples/models/, and on edge cases (negative
// floor division and modulo, overflow, division by zero). A value that the
// native command refuses (overflow, division by zero) must be unknown (null)
// in the page. Exit 1 on the first mismatch list, with every mismatch named.
'use strict';
const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');

const [binary, sourceDir] = process.argv.slice(2);
if (!binary || !sourceDir) {
  console.error('usage: node expr_eval_test.js SYMSHAPE_BINARY SOURCE_DIR');
  process.exit(2);
}
const E = require(path.resolve(sourceDir, 'web/report/expr_eval.js'));

const failures = [];
let checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) failures.push(what);
}

// The native value: a BigInt, or null when `symshape eval` refuses with
// overflow or division by zero (any other failure is a test failure).
function nativeEval(expr, bindings) {
  const names = Object.keys(bindings);
  const args = ['eval', '--', expr];
  if (names.length) args.splice(1, 0, '--bind', names.map((n) => n + '=' + bindings[n]).join(','));
  const r = spawnSync(binary, args, {encoding: 'utf8'});
  if (r.error) throw new Error('cannot run ' + binary + ': ' + r.error.message);
  if (r.status === 0) return BigInt(r.stdout.trim());
  if (/overflow|division by zero|modulo by zero/.test(r.stderr)) return null;
  throw new Error(`symshape eval '${expr}' failed unexpectedly (exit ${r.status}): ${r.stderr.trim()}`);
}

function compare(expr, bindings, context) {
  const native = nativeEval(expr, bindings);
  const page = E.evaluate(expr, bindings);
  check(native === page, `${context}: '${expr}' at ${JSON.stringify(bindings)}: symshape eval ${native}, page ${page}`);
}

// Three sets of bindings for a list of symbols: small, larger, all ones.
function bindingSets(symbols) {
  const sets = [{}, {}, {}];
  symbols.forEach((s, i) => {
    sets[0][s] = 2 + i;
    sets[1][s] = 17 + 5 * i;
    sets[2][s] = 1;
  });
  return sets;
}

// 1. examples/expressions.txt: every line that holds an expression.
const lines = fs.readFileSync(path.join(sourceDir, 'examples/expressions.txt'), 'utf8').split('\n');
let expressionLines = 0;
for (const raw of lines) {
  const expr = raw.replace(/#.*/, '').trim();
  if (!expr) continue;
  ++expressionLines;
  for (const b of bindingSets(E.symbols(E.parse(expr)))) compare(expr, b, 'examples/expressions.txt');
}
check(expressionLines >= 10, `examples/expressions.txt: only ${expressionLines} expressions found`);

// 2. Every dim of every example model: the page's value against the concrete
// dim `symshape show --bind` writes (one run per model and set of bindings),
// and against `symshape eval` for each distinct dim of the first set.
function showJson(model, bindings) {
  const args = ['show', model, '--json', '-', '--quiet'];
  const names = Object.keys(bindings || {});
  if (names.length) args.push('--bind', names.map((n) => n + '=' + bindings[n]).join(','));
  const r = spawnSync(binary, args, {encoding: 'utf8', maxBuffer: 1 << 28});
  if (r.error) throw new Error('cannot run ' + binary + ': ' + r.error.message);
  if (!r.stdout) throw new Error(`symshape ${args.join(' ')} wrote no JSON (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}
const modelDir = path.join(sourceDir, 'examples/models');
const models = fs.readdirSync(modelDir).filter((f) => f.endsWith('.onnx')).sort();
check(models.length >= 3, 'fewer than 3 models in examples/models');
let modelDims = 0;
for (const file of models) {
  const model = path.join(modelDir, file);
  const symbolic = showJson(model);
  const symbols = new Set();
  for (const v of symbolic.values)
    for (const d of v.dims || [])
      if (typeof d === 'string') for (const s of E.symbols(E.parse(d))) symbols.add(s);
  const sets = bindingSets([...symbols].sort());
  sets.forEach((bindings, setIndex) => {
    const shown = showJson(model, bindings);
    for (const v of shown.values) {
      if (!v.dims) continue;
      v.dims.forEach((d, i) => {
        ++modelDims;
        const page = E.evaluate(d, bindings);
        const native = v.concrete ? v.concrete[i] : null;
        check((native === null ? null : BigInt(native)) === page,
              `${file}: value '${v.name}' dim ${i} '${d}' at ${JSON.stringify(bindings)}: show ${native}, page ${page}`);
      });
    }
    if (setIndex !== 0) return;
    const distinct = new Set();
    for (const v of symbolic.values) for (const d of v.dims || []) if (typeof d === 'string') distinct.add(d);
    for (const d of distinct) compare(d, bindings, file);
  });
}
check(modelDims > 100, `only ${modelDims} model dims checked`);

// 3. Edge cases. Bindings are dims (>= 0), negative operands come from the
// expressions themselves.
const edge = [
  ['(x-10)//3', {x: 2}], ['(x-10)%3', {x: 2}], ['x%(y-10)', {x: 7, y: 2}], ['(x-10)%(y-10)', {x: 3, y: 7}],
  ['(x-10)//(y-10)', {x: 3, y: 7}], ['x//(y-10)', {x: 7, y: 8}], ['(0-7)//2', {}], ['(0-7)%2', {}],
  ['7%(0-2)', {}], ['-x//2', {x: 7}], ['-(x//2)', {x: 7}], ['-x%3', {x: 7}], ['(x-9)%3', {x: 0}],
  ['CeilToInt(x-10, 4)', {x: 1}], ['CeilToInt(x, 4)', {x: 9}], ['CeilToInt(x, y-10)', {x: 9, y: 7}],
  ['9223372036854775807 + x', {x: 1}], ['9223372036854775807 + x', {x: 0}], ['x*x*x', {x: 3000000}],
  ['x*x*x', {x: 2000000}], ['(-9223372036854775807-1)//(x-2)', {x: 1}], ['(-9223372036854775807-1)%(x-2)', {x: 1}],
  ['-9223372036854775807 - x', {x: 1}], ['-9223372036854775807 - x', {x: 2}], ['0 - x - 9223372036854775807', {x: 1}],
  ['x//(y-y)', {x: 3, y: 4}], ['x%(y-3)', {x: 5, y: 3}], ['min(x, y, 3)', {x: 5, y: 4}], ['max(x-y, y-x)', {x: 2, y: 9}],
  ['Max(x, Min(y, 3))', {x: 1, y: 9}], ['2^x&1', {x: 3}], ['x^y&3', {x: 1, y: 8}], ['-x*y', {x: 3, y: 4}],
  ['--x', {x: 3}], ['`H/2`*2+`p.0`', {'H/2': 3, 'p.0': 4}], ['min(x, 9223372036854775807)', {x: 12}],
  ['(x+1)//2*2 - x', {x: 9}], ['x - 2*(x//2) - x%2', {x: 11}],
];
for (const [expr, bindings] of edge) compare(expr, bindings, 'edge case');

// Unknowns the native command cannot express: an unbound symbol, a dim that is
// null, text that does not parse.
check(E.evaluate('x + 1', {}) === null, 'an unbound symbol must be unknown');
check(E.evaluate('x + 1', {x: null}) === null, 'a symbol bound to null must be unknown');
check(E.evaluate(null, {}) === null, 'a null dim must be unknown');
check(E.evaluate('a +', {a: 1}) === null, 'text that does not parse must be unknown');
check(E.evaluate(32, {}) === 32n, 'an integer dim is itself');
let threw = null;
try {
  E.parse('a / 2');
} catch (e) {
  threw = e.message;
}
check(threw !== null && /position 2: .*\/\//.test(threw), `'a / 2' must be refused at position 2, got ${threw}`);

// Floor division and modulo over a grid, by their definition: n == d*q + r,
// r has the sign of d and |r| < |d|.
for (let n = -13n; n <= 13n; ++n) {
  for (let d = -5n; d <= 5n; ++d) {
    if (d === 0n) continue;
    const q = E.floorDiv(n, d);
    const r = E.floorMod(n, d);
    const signOk = r === 0n || (r < 0n) === (d < 0n);
    const sizeOk = (r < 0n ? -r : r) < (d < 0n ? -d : d);
    check(d * q + r === n && signOk && sizeOk, `floorDiv/floorMod(${n}, ${d}) = ${q}, ${r}`);
  }
}

if (failures.length) {
  console.error(`${failures.length} of ${checks} checks failed:`);
  for (const f of failures.slice(0, 50)) console.error('  ' + f);
  process.exit(1);
}
console.log(`expr_eval.js agrees with symshape on ${checks} checks (${expressionLines} expressions, ` +
            `${modelDims} model dims in ${models.length} models, ${edge.length} edge cases)`);
