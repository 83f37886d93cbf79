// Parses and evaluates symshape dimension expressions in the page, with the
// integer semantics of the engine (include/symshape/expr/evaluate.hpp):
// int64 arithmetic where an overflow makes the value unknown, `//` floor
// division and `%` with the sign of the divisor (Python's), min/max, and
// CeilToInt. The grammar is parse.hpp's, precedence low to high:
//   '^' (max)  <  '&' (min)  <  '+' '-'  <  '*' '//' '%'  <  unary '+' '-'
// Unknown (null) is what a dim that does not evaluate shows: an unbound
// symbol, a division by zero, an overflow.
// Plain script (no modules): the report page inlines it before report.js, and
// Node loads it with require() for the tests.
var SymshapeExpr = (function () {
  'use strict';

  const INT64_MAX = (1n << 63n) - 1n;
  const INT64_MIN = -(1n << 63n);

  function inRange(v) {
    return v >= INT64_MIN && v <= INT64_MAX ? v : null;
  }

  // Python's floor division and modulo on BigInt (BigInt's own truncate).
  function floorDiv(n, d) {
    const q = n / d;
    return n % d !== 0n && (n < 0n) !== (d < 0n) ? q - 1n : q;
  }
  function floorMod(n, d) {
    const r = n % d;
    return r !== 0n && (r < 0n) !== (d < 0n) ? r + d : r;
  }

  // --- parsing into a small tree: {k: 'int'|'sym'|'neg'|'+'|'-'|'*'|'//'|'%'|'min'|'max'|'ceil'} ---

  function ParseError(message, position) {
    const e = new Error('position ' + position + ': ' + message);
    e.position = position;
    return e;
  }

  const MAX_DEPTH = 200;  // kMaxParseDepth of parse.hpp

  function parse(text) {
    let pos = 0;
    let depth = 0;
    const isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
    const isDigit = (c) => c >= '0' && c <= '9';
    const isNameStart = (c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
    function peek() {
      while (pos < text.length && isSpace(text[pos])) ++pos;
      return pos < text.length ? text[pos] : '';
    }
    function accept(c) {
      if (peek() !== c) return false;
      ++pos;
      return true;
    }
    function enter() {
      if (++depth > MAX_DEPTH) throw ParseError('nesting deeper than ' + MAX_DEPTH, pos);
    }
    function parseMax() {
      let e = parseMin();
      while (accept('^')) e = {k: 'max', args: [e, parseMin()]};
      return e;
    }
    function parseMin() {
      let e = parseSum();
      while (accept('&')) e = {k: 'min', args: [e, parseSum()]};
      return e;
    }
    function parseSum() {
      let e = parseProduct();
      for (;;) {
        const c = peek();
        if (c !== '+' && c !== '-') return e;
        ++pos;
        e = {k: c, a: e, b: parseProduct()};
      }
    }
    function parseProduct() {
      let e = parseUnary();
      for (;;) {
        const c = peek();
        if (c === '*') {
          ++pos;
          e = {k: '*', a: e, b: parseUnary()};
        } else if (c === '/') {
          if (text[pos + 1] !== '/') throw ParseError("'/' is not supported, use '//' for floor division", pos);
          pos += 2;
          e = {k: '//', a: e, b: parseUnary()};
        } else if (c === '%') {
          ++pos;
          e = {k: '%', a: e, b: parseUnary()};
        } else {
          return e;
        }
      }
    }
    function parseUnary() {
      let negate = false;
      for (let c = peek(); c === '+' || c === '-'; c = peek()) {
        ++pos;
        if (c === '-') negate = !negate;
      }
      const e = parseAtom();
      return negate ? {k: 'neg', a: e} : e;
    }
    function parseAtom() {
      const c = peek();
      if (c === '') throw ParseError("expected a number, a name or '(' but the text ended", pos);
      if (isDigit(c)) {
        const start = pos;
        while (pos < text.length && isDigit(text[pos])) ++pos;
        const v = BigInt(text.slice(start, pos));
        if (v > INT64_MAX) throw ParseError('integer does not fit in int64', start);
        return {k: 'int', v: v};
      }
      if (c === '(') {
        enter();
        ++pos;
        const e = parseMax();
        if (!accept(')')) throw ParseError("expected ')'", pos);
        --depth;
        return e;
      }
      if (c === '`') {
        const close = text.indexOf('`', pos + 1);
        if (close < 0) throw ParseError("a quoted name has no closing '`'", pos);
        if (close === pos + 1) throw ParseError('empty quoted name', pos);
        const name = text.slice(pos + 1, close);
        pos = close + 1;
        return {k: 'sym', name: name};
      }
      if (isNameStart(c)) {
        const start = pos;
        ++pos;
        while (pos < text.length && (isNameStart(text[pos]) || isDigit(text[pos]))) ++pos;
        const name = text.slice(start, pos);
        if (peek() === '(') return parseCall(name, start);
        return {k: 'sym', name: name};
      }
      throw ParseError("unexpected '" + c + "', expected a number, a name or '('", pos);
    }
    function parseCall(name, namePos) {
      const kind = name === 'CeilToInt' ? 'ceil' : name === 'max' || name === 'Max' ? 'max'
                 : name === 'min' || name === 'Min' ? 'min' : null;
      if (!kind) throw ParseError("unknown function '" + name + "' (known: CeilToInt, Max, max, Min, min)", namePos);
      enter();
      ++pos;  // '('
      const args = [parseMax()];
      while (accept(',')) args.push(parseMax());
      if (!accept(')')) throw ParseError("expected ',' or ')' in call of " + name, pos);
      --depth;
      if (kind === 'ceil') {
        if (args.length !== 2) throw ParseError('CeilToInt takes 2 arguments, got ' + args.length, namePos);
        return {k: 'ceil', a: args[0], b: args[1]};
      }
      return {k: kind, args: args};
    }
    const tree = parseMax();
    if (peek() !== '') throw ParseError("unexpected '" + text[pos] + "', expected an operator or the end", pos);
    return tree;
  }

  // --- evaluation: BigInt or null (unknown) ---

  // bindings: an object or Map of name -> BigInt | number | null.
  function lookup(bindings, name) {
    const v = bindings instanceof Map ? bindings.get(name)
            : Object.prototype.hasOwnProperty.call(bindings, name) ? bindings[name] : undefined;
    if (v === undefined || v === null || v === '') return null;
    return typeof v === 'bigint' ? v : BigInt(v);
  }

  function evalTree(t, bindings) {
    switch (t.k) {
      case 'int': return t.v;
      case 'sym': return lookup(bindings, t.name);
      case 'neg': {
        const a = evalTree(t.a, bindings);
        return a === null ? null : inRange(-a);
      }
      case 'min':
      case 'max': {
        let out = null;
        for (const arg of t.args) {
          const v = evalTree(arg, bindings);
          if (v === null) return null;
          if (out === null || (t.k === 'max' ? v > out : v < out)) out = v;
        }
        return out;
      }
    }
    const a = evalTree(t.a, bindings);
    if (a === null) return null;
    const b = evalTree(t.b, bindings);
    if (b === null) return null;
    switch (t.k) {
      case '+': return inRange(a + b);
      case '-': return inRange(a - b);
      case '*': return inRange(a * b);
      case '//': return b === 0n ? null : inRange(floorDiv(a, b));
      case '%': return b === 0n ? null : inRange(floorMod(a, b));
      case 'ceil': return b === 0n ? null : inRange(-floorDiv(-a, b));
    }
    throw new Error('unknown node ' + t.k);
  }

  // The free symbols of a tree, in order of appearance.
  function symbols(t, out) {
    out = out || [];
    if (t.k === 'sym') {
      if (out.indexOf(t.name) < 0) out.push(t.name);
    } else if (t.args) {
      for (const a of t.args) symbols(a, out);
    } else {
      if (t.a) symbols(t.a, out);
      if (t.b) symbols(t.b, out);
    }
    return out;
  }

  // Parsed trees by text: a model repeats the same few dims many times.
  const cache = new Map();
  function compile(text) {
    let t = cache.get(text);
    if (t === undefined) {
      try {
        t = parse(text);
      } catch (e) {
        t = {k: 'bad', error: e.message};
      }
      cache.set(text, t);
    }
    return t;
  }

  // The value of a dim or quantity as the data document holds it: an integer,
  // an expression string, or null. Returns a BigInt, or null when unknown
  // (also for text that does not parse).
  function evaluate(expr, bindings) {
    if (expr === null || expr === undefined) return null;
    if (typeof expr === 'number') return BigInt(expr);
    if (typeof expr === 'bigint') return expr;
    const t = compile(String(expr));
    return t.k === 'bad' ? null : evalTree(t, bindings || {});
  }

  return {
    parse: parse,
    evaluate: evaluate,
    evalTree: evalTree,
    symbols: symbols,
    floorDiv: floorDiv,
    floorMod: floorMod,
    INT64_MAX: INT64_MAX,
    INT64_MIN: INT64_MIN,
  };
})();

if (typeof module !== 'undefined') module.exports = SymshapeExpr;
