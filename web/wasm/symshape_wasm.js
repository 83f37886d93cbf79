// Calls the WebAssembly module's functions (web/wasm/symshape_wasm.cpp) from
// JavaScript: for web/index.html (a global `SymshapeWasm`) and for Node
// (require: tests/wasm/wasm_test.js, bench/wasm_bench.js).
//
//   SymshapeWasm.infer(Module, bytes, name, args)       `symshape infer --json`
//   SymshapeWasm.reportData(Module, bytes, name, args)  `symshape report --json`
//     Module: the instance createSymshape() resolves to (build-wasm/symshape.js)
//     bytes:  the model file's bytes (Uint8Array)
//     name:   the file's name, as the report names the model
//     args:   more arguments of the command, e.g. ["--policy", "strict"]
//   return {exit, stdout, stderr, json}: json is the command's document,
//   "symshape/infer/1" or "symshape/report/1" (docs/json.md), or null when
//   the command wrote none.
//   They throw when the module itself fails (the JavaScript engine's stack or
//   the module's memory exhausted): the module is then left in an unknown
//   state and must be instantiated again.
(function (root) {
  'use strict';

  function call(exported, Module, bytes, name, args) {
    const size = bytes.length;
    const at = Module._malloc(Math.max(size, 1));
    if (!at) throw new Error('symshape: no memory for a model of ' + size + ' bytes');
    try {
      Module.HEAPU8.set(bytes, at);
      const text = Module.ccall(exported, 'string', ['number', 'number', 'string', 'string'],
                                [at, size, name, (args || []).join('\n')]);
      return JSON.parse(text);
    } catch (e) {
      throw new Error('symshape: the WebAssembly module failed on ' + name + ' (' + (e && e.message || e) +
                      '); instantiate it again before the next model');
    } finally {
      Module._free(at);
    }
  }

  const SymshapeWasm = {
    infer: (Module, bytes, name, args) => call('symshape_infer_json', Module, bytes, name, args),
    reportData: (Module, bytes, name, args) => call('symshape_report_json', Module, bytes, name, args),
  };

  if (typeof module === 'object' && module.exports) module.exports = SymshapeWasm;
  else root.SymshapeWasm = SymshapeWasm;
})(this);
