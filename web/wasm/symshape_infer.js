// Calls symshape_infer_json of the WebAssembly module (web/wasm/symshape_wasm.cpp)
// from JavaScript: for web/index.html (a global `symshapeInfer`) and for Node
// (require: tests/wasm/wasm_test.js, bench/wasm/wasm_bench.js).
//
//   symshapeInfer(Module, bytes, name, args)
//     Module: the instance createSymshape() resolves to (build-wasm/symshape.js)
//     bytes:  the model file's bytes (Uint8Array)
//     name:   the file's name, as the report names the model
//     args:   more arguments of `symshape infer`, e.g. ["--policy", "strict"]
//   returns {exit, stdout, stderr, json}: json is the symshape/infer/1
//   document (docs/json.md), or null when the command wrote none.
//   Throws when the module itself fails (the JavaScript engine's stack or the
//   module's memory exhausted): the module is then left in an unknown state
//   and must be instantiated again.
(function (root) {
  'use strict';

  function symshapeInfer(Module, bytes, name, args) {
    const size = bytes.length;
    const at = Module._malloc(Math.max(size, 1));
    if (!at) throw new Error('symshape: no memory for a model of ' + size + ' bytes');
    try {
      Module.HEAPU8.set(bytes, at);
      const text = Module.ccall('symshape_infer_json', 'string', ['number', 'number', 'string', 'string'],
                                [at, size, name, (args || []).join('\n')]);
      return JSON.parse(text);
    } catch (e) {
      throw new Error('symshape: the WebAssembly module failed on ' + name + ' (' + (e && e.message || e) +
                      '); instantiate it again before the next model');
    } finally {
      Module._free(at);
    }
  }

  if (typeof module === 'object' && module.exports) module.exports = symshapeInfer;
  else root.symshapeInfer = symshapeInfer;
})(this);
