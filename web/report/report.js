// The symshape report page: draws the data document of `symshape report`
// (schema symshape/report/1, docs/report.md) as a layered graph with panels
// for the bindings, the selected node, the values, the profile, a sweep plot,
// contracts and diagnostics. Every shape, byte size and FLOP count is
// re-evaluated in the page at the bindings by SymshapeExpr (expr_eval.js,
// inlined before this file). Plain script: no modules, no network, runs from
// file://.
var SymshapeReport = (function () {
  'use strict';
  const E = SymshapeExpr;
  const SVG = 'http://www.w3.org/2000/svg';

  // ---------------------------------------------------------------- helpers

  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k === 'className') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children || []) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  }

  // 3 significant digits and a unit: 16384 -> "16 KiB", 43680001 -> "43.7 M".
  function human(v, base, units) {
    if (v === null) return '?';
    let x = Number(v);
    const neg = x < 0;
    if (neg) x = -x;
    let i = 0;
    while (x >= base && i < units.length - 1) {
      x /= base;
      ++i;
    }
    const digits = i === 0 ? String(x) : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
    return (neg ? '-' : '') + digits.replace(/\.0+$|(\.\d*?)0+$/, '$1') + (units[i] ? ' ' + units[i] : '');
  }
  const humanBytes = (v) => human(v, 1024, ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']);
  const humanCount = (v) => human(v, 1000, ['', 'k', 'M', 'G', 'T', 'P', 'E']);

  function dimText(d) {
    return d === null || d === undefined ? '?' : String(d);
  }
  function symbolicShape(dims) {
    return dims === null || dims === undefined ? '?' : '[' + dims.map(dimText).join(',') + ']';
  }
  // The scope of a node name and the scopes holding it, as `symshape profile
// --by scope` has them (include/symshape/profile/profile.hpp): the part before
// the last '/', or in a name without '/' before the last '.'; "(none)" for a
// name with neither. "/blocks.0/attn/MatMul" -> "/blocks.0/attn", "/blocks.0".
function scopeAndParents(name) {
  const scopeOf = (n) => {
    const cut = n.lastIndexOf(n.includes('/') ? '/' : '.');
    return cut < 0 ? '' : n.slice(0, cut);
  };
  const out = [];
  for (let s = scopeOf(name); s !== ''; s = scopeOf(s)) out.push(s);
  return out.length ? out : ['(none)'];
}

function sumValues(list) {
    let total = 0n;
    for (const v of list) {
      if (v === null) return null;
      total += v;
    }
    return total;
  }

  // ----------------------------------------------------------- the model

  // Every node of every graph in one flat list, with the graph that holds
  // it, its parent node (for subgraphs) and the producer and consumers of
  // every value.
  class Model {
    constructor(data) {
      this.data = data;
      this.values = data.values || [];
      this.nodes = [];  // {id, doc, parent, graphPath, depth}
      this.producer = new Int32Array(this.values.length).fill(-1);
      this.consumers = new Array(this.values.length);
      this.valueGraph = new Array(this.values.length).fill('');
      this.graphInputs = [];
      this.graphOutputs = [];
      this.subgraphNodes = new Map();  // node id -> ids of the nodes of its subgraphs
      this.addGraph(data.graph || {nodes: []}, -1, 'main', 0);
      // Values a subgraph reads from outside: the folded node reads them too.
      this.outerInputs = new Map();
      for (const [id] of this.subgraphNodes) this.outerInputs.set(id, this.collectOuterInputs(id));
    }

    addGraph(graph, parent, graphPath, depth) {
      const ids = [];
      for (const v of graph.initializers || []) if (this.valueGraph[v] === '') this.valueGraph[v] = graphPath;
      for (const v of graph.inputs || []) {
        if (this.valueGraph[v] === '') this.valueGraph[v] = graphPath;
        if (depth === 0) this.graphInputs.push(v);
      }
      if (depth === 0) this.graphOutputs = (graph.outputs || []).slice();
      for (const doc of graph.nodes || []) {
        const id = this.nodes.length;
        const node = {id: id, doc: doc, parent: parent, graphPath: graphPath, depth: depth, graphOutputs: null};
        this.nodes.push(node);
        ids.push(id);
        for (const v of doc.outputs || []) {
          if (v === null) continue;
          this.producer[v] = id;
          this.valueGraph[v] = graphPath;
        }
        for (const v of doc.inputs || []) {
          if (v === null) continue;
          (this.consumers[v] || (this.consumers[v] = [])).push(id);
        }
        if (doc.subgraphs && doc.subgraphs.length) {
          const inner = [];
          const innerOutputs = [];
          for (const sub of doc.subgraphs) {
            const path = graphPath + '/' + (doc.name || '#' + id) + '.' + sub.attribute;
            inner.push(...this.addGraph(sub.graph, id, path, depth + 1));
            innerOutputs.push(...(sub.graph.outputs || []));
          }
          this.subgraphNodes.set(id, inner);
          node.graphOutputs = innerOutputs;
        }
      }
      return ids;
    }

    collectOuterInputs(id) {
      const inside = new Set(this.subgraphNodes.get(id));
      const out = new Set();
      for (const inner of inside) {
        for (const v of this.nodes[inner].doc.inputs || []) {
          if (v === null) continue;
          const p = this.producer[v];
          if (p >= 0 && inside.has(p)) continue;
          if (p < 0 && this.valueGraph[v] !== '' && this.valueGraph[v] !== this.nodes[id].graphPath &&
              this.valueGraph[v].startsWith(this.nodes[id].graphPath + '/')) continue;  // a subgraph's own input
          out.add(v);
        }
      }
      for (const v of this.nodes[id].doc.inputs || []) out.delete(v);
      return [...out];
    }

    nodeName(id) {
      const d = this.nodes[id].doc;
      return d.name || d.op_type + ' #' + id;
    }
  }

  // ------------------------------------------------------------ the layout

  const ROW_LIMIT = 2000;  // rows of the values and profile tables before "show all"
  const NODE_H = 38;
  const LAYER_GAP = 62;
  const NODE_GAP = 26;

  function nodeWidth(op, name) {
    const chars = Math.max(op.length * 1.1, name.length);
    return Math.round(Math.min(240, Math.max(84, chars * 6.4 + 22)));
  }

  // Layered layout of items (boxes of width w) joined by edges [from, to]:
  // layers by longest path from the sources (a source sits just above its
  // first consumer), order within a layer by barycenter sweeps, x packed
  // left to right near the barycenter. O(E + n log n) per sweep.
  function layoutGraph(widths, edgeFrom, edgeTo) {
    const n = widths.length;
    const m = edgeFrom.length;
    // Adjacency lists in compressed form.
    const outStart = new Int32Array(n + 1);
    const inStart = new Int32Array(n + 1);
    for (let e = 0; e < m; ++e) {
      ++outStart[edgeFrom[e] + 1];
      ++inStart[edgeTo[e] + 1];
    }
    for (let i = 0; i < n; ++i) {
      outStart[i + 1] += outStart[i];
      inStart[i + 1] += inStart[i];
    }
    const outAdj = new Int32Array(m);
    const inAdj = new Int32Array(m);
    const outFill = outStart.slice(0, n);
    const inFill = inStart.slice(0, n);
    for (let e = 0; e < m; ++e) {
      outAdj[outFill[edgeFrom[e]]++] = edgeTo[e];
      inAdj[inFill[edgeTo[e]]++] = edgeFrom[e];
    }
    // Topological order (Kahn); nodes on a cycle follow in index order.
    const indeg = new Int32Array(n);
    for (let i = 0; i < n; ++i) indeg[i] = inStart[i + 1] - inStart[i];
    const order = new Int32Array(n);
    const placed = new Uint8Array(n);
    let head = 0;
    let tail = 0;
    for (let i = 0; i < n; ++i) if (indeg[i] === 0) order[tail++] = i;
    for (let scan = 0; head < n; ) {
      if (head === tail) {  // a cycle: take the first node not yet placed
        while (placed[scan] || indeg[scan] === 0) ++scan;
        order[tail++] = scan;
        indeg[scan] = 0;
      }
      const u = order[head++];
      placed[u] = 1;
      for (let k = outStart[u]; k < outStart[u + 1]; ++k) {
        const v = outAdj[k];
        if (indeg[v] > 0 && --indeg[v] === 0) order[tail++] = v;
      }
    }
    const rank = new Int32Array(n);
    for (let i = 0; i < n; ++i) rank[order[i]] = i;
    // Longest path layering along the order (edges against it are ignored).
    const layer = new Int32Array(n);
    for (let i = 0; i < n; ++i) {
      const u = order[i];
      for (let k = inStart[u]; k < inStart[u + 1]; ++k) {
        const p = inAdj[k];
        if (rank[p] < i && layer[p] + 1 > layer[u]) layer[u] = layer[p] + 1;
      }
    }
    // Sources (inputs, constants) move down to just above their first consumer.
    for (let u = 0; u < n; ++u) {
      if (inStart[u + 1] !== inStart[u] || outStart[u + 1] === outStart[u]) continue;
      let lowest = Infinity;
      for (let k = outStart[u]; k < outStart[u + 1]; ++k) lowest = Math.min(lowest, layer[outAdj[k]]);
      layer[u] = Math.max(0, lowest - 1);
    }
    let layerCount = 0;
    for (let u = 0; u < n; ++u) layerCount = Math.max(layerCount, layer[u] + 1);
    const layers = [];
    for (let l = 0; l < layerCount; ++l) layers.push([]);
    for (let i = 0; i < n; ++i) layers[layer[order[i]]].push(order[i]);

    const isSource = (u) => inStart[u] === inStart[u + 1];
    const x = new Float64Array(n);  // centres
    // Places a layer's boxes left to right, each at its desired centre or
    // just right of the previous box, then moves the layer back so that its
    // nodes other than sources are, on average, where they want to be: the
    // sources (weights, constants) make room, the chain does not drift.
    function pack(list, desired) {
      let right = -Infinity;
      let shift = 0;
      let shiftAll = 0;
      let counted = 0;
      for (const u of list) {
        const left = Math.max(desired[u] - widths[u] / 2, right + NODE_GAP);
        x[u] = left + widths[u] / 2;
        right = left + widths[u];
        shiftAll += x[u] - desired[u];
        if (!isSource(u)) {
          shift += x[u] - desired[u];
          ++counted;
        }
      }
      shift = counted ? shift / counted : shiftAll / (list.length || 1);
      for (const u of list) x[u] -= shift;
    }
    const desired = new Float64Array(n);
    for (const list of layers) {
      let right = 0;
      for (const u of list) {
        desired[u] = right + widths[u] / 2;
        right += widths[u] + NODE_GAP;
      }
      pack(list, desired);
    }
    // Barycenter sweeps: down (by predecessors), up (by successors), down.
    // A source (an input, a constant, a weight) sits above its consumer and
    // pulls nothing: else each layer would lean a little towards the side
    // its weights were put on, and a deep model would slant across the page.
    function barycenter(u, start, adj, skipSources) {
      let s = 0;
      let count = 0;
      for (let k = start[u]; k < start[u + 1]; ++k) {
        if (skipSources && isSource(adj[k])) continue;
        s += x[adj[k]];
        ++count;
      }
      return count ? s / count : NaN;
    }
    function sweep(down) {
      for (let i = 0; i < layerCount; ++i) {
        const list = layers[down ? i : layerCount - 1 - i];
        for (const u of list) {
          // Going down, a source stays: its consumers below have not moved yet.
          let b = !down ? barycenter(u, outStart, outAdj, false) : isSource(u) ? NaN : barycenter(u, inStart, inAdj, true);
          if (Number.isNaN(b) && down && !isSource(u)) b = barycenter(u, inStart, inAdj, false);
          desired[u] = Number.isNaN(b) ? x[u] : b;
        }
        list.sort((p, q) => desired[p] - desired[q]);
        pack(list, desired);
      }
    }
    sweep(true);
    sweep(false);
    sweep(true);
    // A model repeats blocks whose branches are not symmetric, and the
    // barycenters move each block a little to one side: over hundreds of
    // blocks the graph slants across the page. Take away the drift, the
    // centre of the layers averaged over a window of layers, keeping the
    // alignment within the window.
    const centre = new Float64Array(layerCount + 1);  // prefix sums of layer centres
    for (let l = 0; l < layerCount; ++l) {
      let sum = 0;
      let count = 0;
      for (const u of layers[l]) {
        if (isSource(u)) continue;
        sum += x[u];
        ++count;
      }
      if (!count) for (const u of layers[l]) sum += x[u];
      centre[l + 1] = centre[l] + (count ? sum / count : layers[l].length ? sum / layers[l].length : 0);
    }
    const window = 80;
    for (let l = 0; l < layerCount; ++l) {
      const a = Math.max(0, l - window);
      const b = Math.min(layerCount, l + window + 1);
      const drift = (centre[b] - centre[a]) / (b - a);
      for (const u of layers[l]) x[u] -= drift;
    }
    // Then the sources go above their consumers, now in place.
    for (const list of layers) {
      if (!list.some(isSource)) continue;
      for (const u of list) {
        const b = isSource(u) ? barycenter(u, outStart, outAdj, false) : NaN;
        desired[u] = Number.isNaN(b) ? x[u] : b;
      }
      list.sort((p, q) => desired[p] - desired[q]);
      pack(list, desired);
    }
    return {x: x, layer: layer, layerCount: layerCount};
  }

  // ------------------------------------------------------------- the page

  class Report {
    constructor(container, data) {
      this.container = container;
      this.data = data;
      this.model = new Model(data);
      this.symbols = data.symbols || [];
      this.bindings = {};
      this.evalCache = new Map();
      this.expanded = new Set();
      this.selected = -1;  // item index in the layout
      this.selectedNode = -1;  // node id
      this.view = {x: 0, y: 0, s: 1};
      this.profileGroup = 'node';
      this.profileSort = {key: 'flops', desc: true};
      this.timings = {};
      this.searchState = {text: '', index: -1};
      this.readBindings();
      this.build();
      this.relayout();
      this.fitInitial();
      this.updateAll();
    }

    // A new fragment (a link, the back button) sets the bindings.
    onHashChange() {
      this.readBindings();
      this.syncBindingFields();
      this.updateAll();
    }

    // ---------------------------------------------------------- bindings

    readBindings() {
      const fromHash = new Map();
      const decode = (t) => {
        try {
          return decodeURIComponent(t);
        } catch (e) {
          return null;  // a malformed %-escape: not a binding
        }
      };
      for (const part of (location.hash || '').replace(/^#/, '').split('&')) {
        const eq = part.indexOf('=');
        if (eq <= 0) continue;
        const name = decode(part.slice(0, eq));
        const text = decode(part.slice(eq + 1));
        if (name !== null && text !== null && /^[0-9]+$/.test(text)) fromHash.set(name, BigInt(text));
      }
      const defaults = this.data.bindings || {};
      this.bindings = {};
      for (const s of this.symbols) {
        if (fromHash.has(s)) this.bindings[s] = fromHash.get(s);
        else if (defaults[s] !== undefined && defaults[s] !== null) this.bindings[s] = BigInt(defaults[s]);
        else this.bindings[s] = null;
      }
      this.evalCache.clear();
    }

    writeHash() {
      const parts = [];
      for (const s of this.symbols)
        if (this.bindings[s] !== null) parts.push(encodeURIComponent(s) + '=' + this.bindings[s]);
      const hash = parts.length ? '#' + parts.join('&') : '';
      if (hash === location.hash) return;
      try {
        history.replaceState(null, '', hash || location.pathname + location.search);
      } catch (e) {
        // A browser that refuses it for file:// pages: set the fragment (the
        // hashchange it fires reads the same values back).
        location.hash = hash;
      }
    }

    value(expr) {
      if (expr === null || expr === undefined) return null;
      if (typeof expr === 'number') return BigInt(expr);
      let v = this.evalCache.get(expr);
      if (v === undefined) {
        v = E.evaluate(expr, this.bindings);
        this.evalCache.set(expr, v);
      }
      return v;
    }

    concreteShape(dims) {
      if (dims === null || dims === undefined) return '?';
      return '[' + dims.map((d) => dimText(this.value(d))).join(',') + ']';
    }

    bound() {
      return this.symbols.some((s) => this.bindings[s] !== null);
    }

    // --------------------------------------------------------- the frame

    build() {
      const d = this.data;
      const root = el('div', {className: 'symshape-report', id: 'symshape-report'});
      this.container.append(root);
      const m = this.model;
      this.totalsBox = el('div', {className: 'sr-totals', id: 'totals-summary'});
      root.append(el('div', {className: 'sr-header'}, [
        el('h1', {text: (d.model || 'model').replace(/^.*[\\/]/, ''), id: 'model-name', title: d.model || ''}),
        el('span', {className: 'sr-meta',
                    text: `${m.nodes.length} nodes · ${m.values.length} values · policy ${d.policy || '?'}`}),
        this.totalsBox,
      ]));
      const body = el('div', {className: 'sr-body'});
      root.append(body);
      const main = el('div', {className: 'sr-main'});
      body.append(main);
      const side = el('div', {className: 'sr-side', id: 'side'});
      body.append(side);

      // Tabs.
      const diagCount = (d.diagnostics || []).length;
      const tabs = [
        ['graph', 'Graph'], ['values', 'Values'], ['profile', 'Profile'], ['sweep', 'Sweep'],
        ['contracts', `Contracts & facts (${(d.contracts || []).length})`], ['diagnostics', `Diagnostics (${diagCount})`],
      ];
      const bar = el('div', {className: 'sr-tabs', role: 'tablist'});
      main.append(bar);
      this.tabs = {};
      this.tabButtons = {};
      for (const [key, label] of tabs) {
        const b = el('button', {text: label, id: 'tab-' + key, 'data-tab': key, onclick: () => this.showTab(key)});
        bar.append(b);
        this.tabButtons[key] = b;
        const panel = el('div', {className: 'sr-tab' + (key === 'graph' ? ' sr-graph-tab' : ''), id: 'panel-' + key});
        panel.hidden = true;
        main.append(panel);
        this.tabs[key] = panel;
      }
      this.buildGraphTab(this.tabs.graph);

      // Side: bindings, then the node panel.
      side.append(el('h2', {text: 'Bindings'}));
      const grid = el('div', {className: 'sr-bindings', id: 'bindings'});
      this.bindingFields = {};
      for (const s of this.symbols) {
        const id = 'bind-' + s.replace(/[^A-Za-z0-9_-]/g, '_');
        const input = el('input', {type: 'number', min: '0', step: '1', id: id, 'data-symbol': s, placeholder: 'symbolic'});
        input.addEventListener('input', () => this.onBindingInput());
        this.bindingFields[s] = input;
        grid.append(el('label', {for: id, text: s}), input);
      }
      side.append(this.symbols.length ? grid : el('div', {className: 'sr-empty', text: 'no symbols: every dim is a number'}));
      side.append(el('div', {className: 'sr-note',
                             text: 'Shapes, bytes and FLOPs are evaluated at these values; the URL keeps them (#sym=value&…).'}));
      this.nodePanel = el('div', {className: 'sr-node-panel', id: 'node-panel', hidden: true});
      side.append(el('h2', {text: 'Node'}), this.nodePanel);
      this.nodeHint = el('div', {className: 'sr-empty', text: 'click a node of the graph'});
      side.append(this.nodeHint);
      this.syncBindingFields();
      this.showTab('graph');
    }

    syncBindingFields() {
      for (const s of this.symbols) {
        const v = this.bindings[s];
        this.bindingFields[s].value = v === null ? '' : String(v);
      }
    }

    onBindingInput() {
      for (const s of this.symbols) {
        const text = this.bindingFields[s].value.trim();
        this.bindings[s] = /^[0-9]+$/.test(text) ? BigInt(text) : null;
      }
      this.evalCache.clear();
      this.writeHash();
      this.updateAll();
    }

    showTab(key) {
      this.activeTab = key;
      for (const k in this.tabs) {
        this.tabs[k].hidden = k !== key;
        this.tabButtons[k].classList.toggle('active', k === key);
      }
      this.renderTab(key);
    }

    renderTab(key) {
      if (key === 'graph') this.drawGraph();
      else if (key === 'values') this.renderValues();
      else if (key === 'profile') this.renderProfile();
      else if (key === 'sweep') this.renderSweep();
      else if (key === 'contracts') this.renderContracts();
      else if (key === 'diagnostics') this.renderDiagnostics();
    }

    // Everything that shows a number at the bindings.
    updateAll() {
      this.renderTotalsSummary();
      this.renderTab(this.activeTab);
      if (this.selectedNode >= 0) this.renderNodePanel(this.selectedNode);
      else if (this.selectedValue) this.renderValuePanel(this.selectedValue.value, this.selectedValue.kind);
    }

    renderTotalsSummary() {
      const t = this.data.totals || {};
      this.totalsBox.textContent = '';
      const shown = [['flops', 'FLOPs', humanCount], ['params', 'params', humanCount],
                     ['peak_activation_bytes', 'peak activations', humanBytes], ['activation_bytes', 'activations', humanBytes],
                     ['output_bytes', 'outputs', humanBytes]];
      for (const [key, label, fmt] of shown) {
        if (!(key in t) || (key === 'output_bytes' && 'activation_bytes' in t)) continue;
        const v = this.value(t[key]);
        this.totalsBox.append(el('span', {className: 'sr-total', 'data-total': key, 'data-value': v === null ? '' : String(v),
                                          title: String(t[key])},
                                         [label + ' ', el('b', {text: v === null ? '?' : fmt(v)})]));
      }
    }

    // --------------------------------------------------------- the graph

    buildGraphTab(panel) {
      const bar = el('div', {className: 'sr-toolbar'});
      this.searchBox = el('input', {type: 'search', id: 'search', placeholder: 'find a node or value (Enter)'});
      this.searchBox.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') this.search(this.searchBox.value, ev.shiftKey ? -1 : 1);
      });
      this.searchStatus = el('span', {className: 'sr-note', id: 'search-status'});
      bar.append(this.searchBox, this.searchStatus,
                 el('button', {className: 'sr-button', text: 'Fit', onclick: () => this.fitAll()}),
                 el('button', {className: 'sr-button', text: '+', title: 'zoom in', onclick: () => this.zoomBy(1.25)}),
                 el('button', {className: 'sr-button', text: '−', title: 'zoom out', onclick: () => this.zoomBy(0.8)}),
                 el('span', {className: 'sr-hint', text: 'wheel: zoom · drag: pan · click: details'}));
      panel.append(bar);
      this.graphBox = el('div', {className: 'sr-graph', id: 'graph'});
      panel.append(this.graphBox);
      this.svg = document.createElementNS(SVG, 'svg');
      this.svg.setAttribute('id', 'graph-svg');
      this.viewport = document.createElementNS(SVG, 'g');
      this.svg.append(this.viewport);
      this.graphBox.append(this.svg);

      let drag = null;
      this.graphBox.addEventListener('pointerdown', (ev) => {
        if (ev.button !== 0) return;
        drag = {x: ev.clientX, y: ev.clientY, vx: this.view.x, vy: this.view.y, moved: false};
      });
      window.addEventListener('pointermove', (ev) => {
        if (!drag) return;
        const dx = ev.clientX - drag.x;
        const dy = ev.clientY - drag.y;
        if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
        drag.moved = true;
        this.graphBox.classList.add('dragging');
        this.view.x = drag.vx + dx;
        this.view.y = drag.vy + dy;
        this.scheduleDraw();
      });
      window.addEventListener('pointerup', (ev) => {
        if (!drag) return;
        const moved = drag.moved;
        drag = null;
        this.graphBox.classList.remove('dragging');
        if (!moved) this.onGraphClick(ev);
      });
      this.graphBox.addEventListener('wheel', (ev) => {
        ev.preventDefault();
        const r = this.graphBox.getBoundingClientRect();
        this.zoomAt(Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015)), ev.clientX - r.left, ev.clientY - r.top);
      }, {passive: false});
      window.addEventListener('resize', () => this.scheduleDraw());
    }

    onGraphClick(ev) {
      const target = ev.target && ev.target.closest ? ev.target : null;
      if (!target) return;
      const toggle = target.closest('[data-toggle]');
      if (toggle) {
        this.toggleExpanded(Number(toggle.getAttribute('data-toggle')));
        return;
      }
      const g = target.closest('[data-item]');
      if (g) this.selectItem(Number(g.getAttribute('data-item')), false);
    }

    // The items of the layout: the visible nodes (the main graph and every
    // expanded subgraph) and a box per graph input and output.
    relayout() {
      const t0 = performance.now();
      const m = this.model;
      const items = [];  // {kind: 'node'|'input'|'output', id, value, w}
      const itemOfNode = new Int32Array(m.nodes.length).fill(-1);
      const visible = (id) => {
        for (let p = m.nodes[id].parent; p >= 0; p = m.nodes[p].parent) if (!this.expanded.has(p)) return false;
        return true;
      };
      const itemOfInput = new Map();
      for (const v of m.graphInputs) {
        if ((m.consumers[v] || []).length === 0 && m.graphOutputs.indexOf(v) < 0) continue;
        itemOfInput.set(v, items.length);
        const name = m.values[v].name;
        items.push({kind: 'input', value: v, op: 'input', name: name, w: nodeWidth('input', name)});
      }
      for (const node of m.nodes) {
        if (node.parent >= 0 && !visible(node.id)) continue;
        itemOfNode[node.id] = items.length;
        const op = node.doc.op_type || '?';
        const name = node.doc.name || '';
        items.push({kind: 'node', id: node.id, op: op, name: name, w: nodeWidth(op, name)});
      }
      const from = [];
      const to = [];
      const edgeValue = [];
      const edgeImplicit = [];
      const addEdge = (a, b, v, implicit) => {
        if (a < 0 || b < 0 || a === b) return;
        from.push(a);
        to.push(b);
        edgeValue.push(v);
        edgeImplicit.push(implicit);
      };
      const sourceOf = (v) => {
        const p = m.producer[v];
        if (p >= 0) {  // the producer, or its outermost folded ancestor
          let q = p;
          for (let a = m.nodes[p].parent; a >= 0; a = m.nodes[a].parent) if (!this.expanded.has(a)) q = a;
          return itemOfNode[q];
        }
        return itemOfInput.has(v) ? itemOfInput.get(v) : -1;
      };
      for (const node of m.nodes) {
        const target = itemOfNode[node.id];
        if (target < 0) continue;
        for (const v of node.doc.inputs || []) if (v !== null) addEdge(sourceOf(v), target, v, false);
        if (m.subgraphNodes.has(node.id)) {
          if (this.expanded.has(node.id)) {
            for (const v of node.graphOutputs) addEdge(sourceOf(v), target, v, true);
          } else {
            for (const v of m.outerInputs.get(node.id)) addEdge(sourceOf(v), target, v, true);
          }
        }
      }
      for (const v of m.graphOutputs) {
        const src = sourceOf(v);
        if (src < 0) continue;
        const name = m.values[v].name;
        items.push({kind: 'output', value: v, op: 'output', name: name, w: nodeWidth('output', name)});
        addEdge(src, items.length - 1, v, false);
      }
      const widths = new Float64Array(items.length);
      items.forEach((it, i) => (widths[i] = it.w));
      const lay = layoutGraph(widths, from, to);
      const n = items.length;
      const X = new Float64Array(n);
      const Y = new Float64Array(n);
      let minX = Infinity;
      let maxX = -Infinity;
      for (let i = 0; i < n; ++i) {
        X[i] = lay.x[i] - widths[i] / 2;
        Y[i] = lay.layer[i] * (NODE_H + LAYER_GAP);
        minX = Math.min(minX, X[i]);
        maxX = Math.max(maxX, X[i] + widths[i]);
      }
      if (n === 0) minX = maxX = 0;
      for (let i = 0; i < n; ++i) X[i] -= minX;
      // Ports: inputs along the top of a box, outputs along the bottom.
      const outValues = new Array(n);  // per item, the values its edges leave with: their slots
      const outSlot = new Int32Array(from.length);
      const inCount = new Int32Array(n);
      const inSlot = new Int32Array(from.length);
      for (let e = 0; e < from.length; ++e) {
        const list = outValues[from[e]] || (outValues[from[e]] = []);
        let k = list.indexOf(edgeValue[e]);
        if (k < 0) k = list.push(edgeValue[e]) - 1;
        outSlot[e] = k;
        inSlot[e] = inCount[to[e]]++;
      }
      const outCount = (item) => (outValues[item] ? outValues[item].length : 0);
      const m4 = from.length;
      const ex = new Float64Array(m4 * 4);
      for (let e = 0; e < m4; ++e) {
        const a = from[e];
        const b = to[e];
        ex[4 * e] = X[a] + (widths[a] * (outSlot[e] + 1)) / (outCount(a) + 1);
        ex[4 * e + 1] = Y[a] + NODE_H;
        ex[4 * e + 2] = X[b] + (widths[b] * (inSlot[e] + 1)) / (inCount[b] + 1);
        ex[4 * e + 3] = Y[b];
      }
      // Clusters: the bounding box of each expanded subgraph's visible nodes.
      const clusters = [];
      for (const id of this.expanded) {
        if (itemOfNode[id] < 0) continue;
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (const inner of m.subgraphNodes.get(id) || []) {
          const it = itemOfNode[inner];
          if (it < 0) continue;
          x0 = Math.min(x0, X[it]);
          y0 = Math.min(y0, Y[it]);
          x1 = Math.max(x1, X[it] + widths[it]);
          y1 = Math.max(y1, Y[it] + NODE_H);
        }
        if (x0 < Infinity) clusters.push({id: id, x: x0 - 12, y: y0 - 12, w: x1 - x0 + 24, h: y1 - y0 + 40});
      }
      // Each value's label sits below its producer's port, once.
      const labels = [];
      for (let item = 0; item < n; ++item) {
        const list = outValues[item];
        if (!list) continue;
        list.forEach((v, s) => labels.push({item: item, value: v, x: X[item] + (widths[item] * (s + 1)) / (list.length + 1) + 4,
                                            y: Y[item] + NODE_H + 12, slot: s}));
      }
      this.layout = {items: items, X: X, Y: Y, W: widths, itemOfNode: itemOfNode, from: from, to: to, edgeValue: edgeValue,
                     edgeImplicit: edgeImplicit, ex: ex, clusters: clusters, labels: labels, width: maxX - minX,
                     height: lay.layerCount * (NODE_H + LAYER_GAP)};
      this.diagNodes = new Set((this.data.diagnostics || []).map((d) => d.node).filter((x) => x));
      this.timings.layout = performance.now() - t0;
    }

    viewSize() {
      return {w: this.graphBox.clientWidth || 800, h: this.graphBox.clientHeight || 600};
    }

    fitInitial() {
      const {w, h} = this.viewSize();
      const L = this.layout;
      const fit = Math.min(1, (w - 40) / Math.max(1, L.width), (h - 40) / Math.max(1, L.height));
      if (fit >= 0.45) {
        this.view.s = fit;
        this.view.x = (w - L.width * fit) / 2;
        this.view.y = (h - L.height * fit) / 2 + 10;
        return;
      }
      // Too big to fit: the top of the graph (its inputs), as wide as fits.
      const s = Math.max(0.45, Math.min(1, (w - 40) / Math.max(1, L.width)));
      this.view.s = s;
      const centres = [];
      for (let i = 0; i < L.items.length; ++i) if (L.Y[i] <= (h / s) * 0.8) centres.push(L.X[i] + L.W[i] / 2);
      centres.sort((a, b) => a - b);
      this.view.x = w / 2 - (centres[centres.length >> 1] || 0) * s;
      this.view.y = 20;
    }

    fitAll() {
      const {w, h} = this.viewSize();
      const L = this.layout;
      const s = Math.max(0.005, Math.min(1, (w - 40) / Math.max(1, L.width), (h - 40) / Math.max(1, L.height)));
      this.view = {s: s, x: (w - L.width * s) / 2, y: (h - L.height * s) / 2};
      this.scheduleDraw();
    }

    zoomBy(f) {
      const {w, h} = this.viewSize();
      this.zoomAt(f, w / 2, h / 2);
    }

    zoomAt(f, cx, cy) {
      const s = Math.min(4, Math.max(0.005, this.view.s * f));
      const k = s / this.view.s;
      this.view.x = cx - (cx - this.view.x) * k;
      this.view.y = cy - (cy - this.view.y) * k;
      this.view.s = s;
      this.scheduleDraw();
    }

    centreOn(item) {
      const L = this.layout;
      const {w, h} = this.viewSize();
      if (this.view.s < 0.6) this.view.s = 1;
      this.view.x = w / 2 - (L.X[item] + L.W[item] / 2) * this.view.s;
      this.view.y = h / 2 - (L.Y[item] + NODE_H / 2) * this.view.s;
      this.scheduleDraw();
    }

    scheduleDraw() {
      if (this.drawPending) return;
      this.drawPending = true;
      requestAnimationFrame(() => {
        this.drawPending = false;
        this.drawGraph();
      });
    }

    // Draws what is in view (plus a margin): boxes, edges and labels when
    // few enough are visible, else one path of boxes and one of edges.
    drawGraph() {
      if (this.activeTab !== 'graph' || !this.layout) return;
      const t0 = performance.now();
      const L = this.layout;
      const {w, h} = this.viewSize();
      const s = this.view.s;
      const margin = 60 / s;
      const vx0 = -this.view.x / s - margin;
      const vy0 = -this.view.y / s - margin;
      const vx1 = vx0 + w / s + 2 * margin;
      const vy1 = vy0 + h / s + 2 * margin;
      const inView = (x0, y0, x1, y1) => x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1;
      const n = L.items.length;
      const shown = [];
      for (let i = 0; i < n; ++i) if (inView(L.X[i], L.Y[i], L.X[i] + L.W[i], L.Y[i] + NODE_H)) shown.push(i);
      const edges = [];
      const ex = L.ex;
      for (let e = 0; e < L.from.length; ++e) {
        const x0 = Math.min(ex[4 * e], ex[4 * e + 2]);
        const x1 = Math.max(ex[4 * e], ex[4 * e + 2]);
        const y0 = Math.min(ex[4 * e + 1], ex[4 * e + 3]);
        const y1 = Math.max(ex[4 * e + 1], ex[4 * e + 3]);
        if (inView(x0, y0, x1, y1)) edges.push(e);
      }
      const overview = shown.length > 1500 || s < 0.22;
      const out = [];
      out.push(`<g transform="translate(${this.view.x.toFixed(1)},${this.view.y.toFixed(1)}) scale(${s})">`);
      for (const c of L.clusters)
        if (inView(c.x, c.y, c.x + c.w, c.y + c.h))
          out.push(`<rect class="g-cluster" x="${c.x}" y="${c.y}" width="${c.w}" height="${c.h}" rx="10"/>`);
      const curve = (e) => {
        const x0 = ex[4 * e], y0 = ex[4 * e + 1], x1 = ex[4 * e + 2], y1 = ex[4 * e + 3];
        const dy = Math.max(20, (y1 - y0) / 2);
        return `M${x0.toFixed(1)},${y0}C${x0.toFixed(1)},${y0 + dy} ${x1.toFixed(1)},${y1 - dy} ${x1.toFixed(1)},${y1}`;
      };
      if (overview) {
        const ed = edges.map((e) => `M${ex[4 * e].toFixed(0)},${ex[4 * e + 1]}L${ex[4 * e + 2].toFixed(0)},${ex[4 * e + 3]}`);
        out.push(`<path class="g-overview-edges" d="${ed.join('')}"/>`);
        const boxes = shown.map((i) => `M${L.X[i].toFixed(0)},${L.Y[i]}h${L.W[i]}v${NODE_H}h${-L.W[i]}z`);
        out.push(`<path class="g-overview-nodes" d="${boxes.join('')}"/>`);
        if (this.selected >= 0)
          out.push(`<rect x="${L.X[this.selected] - 20}" y="${L.Y[this.selected] - 20}" width="${L.W[this.selected] + 40}" ` +
                   `height="${NODE_H + 40}" fill="none" stroke="#2f6fde" stroke-width="${4 / s}"/>`);
      } else {
        const sel = this.selected;
        for (const e of edges) {
          const hl = sel >= 0 && (L.from[e] === sel || L.to[e] === sel);
          out.push(`<path class="g-edge${L.edgeImplicit[e] ? ' implicit' : ''}${hl ? ' hl' : ''}" d="${curve(e)}"/>`);
        }
        for (const i of shown) out.push(this.nodeMarkup(i));
        // Labels: the symbolic shape, and the concrete one at the bindings.
        const bound = this.bound();
        for (const lab of L.labels) {
          if (lab.y < vy0 || lab.y > vy1 || lab.x > vx1 || lab.x + 300 < vx0) continue;
          const v = this.model.values[lab.value];
          const y = lab.y + lab.slot * (bound ? 24 : 12);
          out.push(`<text class="g-label" x="${lab.x.toFixed(1)}" y="${y}" data-label="${esc(v.name)}">` +
                   `${esc((v.dtype || '') + symbolicShape(v.dims))}</text>`);
          if (bound)
            out.push(`<text class="g-label concrete" x="${lab.x.toFixed(1)}" y="${y + 11}">${esc(this.concreteShape(v.dims))}</text>`);
        }
      }
      out.push('</g>');
      this.viewport.innerHTML = out.join('');
      this.drawn = {nodes: shown.length, edges: edges.length, overview: overview};
      this.timings.draw = performance.now() - t0;
      this.svg.setAttribute('data-drawn-nodes', String(shown.length));
    }

    nodeMarkup(i) {
      const L = this.layout;
      const it = L.items[i];
      const x = L.X[i];
      const y = L.Y[i];
      const w = L.W[i];
      const cls = ['g-node'];
      if (it.kind !== 'node') cls.push('g-' + it.kind);
      if (i === this.selected) cls.push('sel');
      if (it.kind === 'node' && it.name && this.diagNodes.has(it.name)) cls.push('diag');
      const maxChars = Math.floor((w - 14) / 6.2);
      const cut = (t) => (t.length > maxChars ? t.slice(0, Math.max(1, maxChars - 1)) + '…' : t);
      const attrs = it.kind === 'node'
        ? `data-item="${i}" data-node="${it.id}" data-node-name="${esc(it.name)}" data-op="${esc(it.op)}"`
        : `data-item="${i}" data-${it.kind}="${esc(it.name)}"`;
      let s = `<g class="${cls.join(' ')}" ${attrs}><title>${esc(it.op + ' ' + it.name)}</title>` +
              `<rect class="box" x="${x}" y="${y}" width="${w}" height="${NODE_H}" rx="5"/>` +
              `<rect class="band" x="${x}" y="${y}" width="4" height="${NODE_H}" fill="${opColour(it.op)}"/>` +
              `<text class="op" x="${x + 10}" y="${y + 15}">${esc(cut(it.op))}</text>` +
              `<text class="name" x="${x + 10}" y="${y + 30}">${esc(cut(it.name))}</text>`;
      if (it.kind === 'node' && this.model.subgraphNodes.has(it.id)) {
        const open = this.expanded.has(it.id);
        s += `<g class="toggle" data-toggle="${it.id}"><title>${open ? 'fold' : 'expand'} the subgraphs</title>` +
             `<rect x="${x + w - 20}" y="${y + 4}" width="15" height="15" rx="3"/>` +
             `<text x="${x + w - 16.5}" y="${y + 16}">${open ? '−' : '+'}</text></g>`;
      }
      return s + '</g>';
    }

    toggleExpanded(id) {
      if (this.expanded.has(id)) {
        this.expanded.delete(id);
        for (const inner of this.model.subgraphNodes.get(id)) this.expanded.delete(inner);
      } else {
        this.expanded.add(id);
      }
      const keep = this.selectedNode;
      this.relayout();
      this.selected = keep >= 0 ? this.itemForNode(keep) : -1;
      this.drawGraph();
      if (keep >= 0) this.renderNodePanel(keep);
    }

    // The item that shows node id: itself, or its outermost folded ancestor.
    itemForNode(id) {
      const m = this.model;
      let q = id;
      for (let a = m.nodes[id].parent; a >= 0; a = m.nodes[a].parent) if (!this.expanded.has(a)) q = a;
      return this.layout.itemOfNode[q];
    }

    selectItem(item, centre) {
      const it = this.layout.items[item];
      this.selected = item;
      if (it.kind === 'node') {
        this.selectNode(it.id, centre);
        return;
      }
      this.selectedNode = -1;
      this.selectedValue = {value: it.value, kind: it.kind};
      this.renderValuePanel(it.value, it.kind);
      if (centre) this.centreOn(item);
      else this.scheduleDraw();
    }

    // Shows node id: expands the subgraphs that hold it, selects and
    // (optionally) centres it.
    selectNode(id, centre) {
      const m = this.model;
      let grew = false;
      for (let a = m.nodes[id].parent; a >= 0; a = m.nodes[a].parent) {
        if (!this.expanded.has(a)) {
          this.expanded.add(a);
          grew = true;
        }
      }
      if (grew) this.relayout();
      this.selectedNode = id;
      this.selectedValue = null;
      this.selected = this.layout.itemOfNode[id];
      this.renderNodePanel(id);
      if (this.activeTab !== 'graph' && centre) this.showTab('graph');
      if (centre) this.centreOn(this.selected);
      else this.scheduleDraw();
    }

    search(text, step) {
      text = text.trim().toLowerCase();
      if (!text) return;
      const m = this.model;
      if (text !== this.searchState.text) {
        const exact = [];
        const partial = [];
        const seen = new Set();
        const add = (id, name) => {
          if (id < 0 || seen.has(id)) return;
          const lower = name.toLowerCase();
          if (lower === text) exact.push(id);
          else if (lower.includes(text)) partial.push(id);
          else return;
          seen.add(id);
        };
        for (const node of m.nodes) add(node.id, node.doc.name || '');
        m.values.forEach((v, i) => {
          const id = m.producer[i] >= 0 ? m.producer[i] : (m.consumers[i] || [-1])[0];
          add(id, v.name || '');
        });
        this.searchState = {text: text, index: -1, matches: exact.concat(partial)};
      }
      const st = this.searchState;
      if (!st.matches.length) {
        this.searchStatus.textContent = 'no match';
        return;
      }
      st.index = (st.index + step + st.matches.length) % st.matches.length;
      this.searchStatus.textContent = `${st.index + 1} of ${st.matches.length}`;
      this.selectNode(st.matches[st.index], true);
    }

    // ---------------------------------------------------- the node panel

    valueRow(v, label) {
      const val = this.model.values[v];
      const concrete = this.concreteShape(val.dims);
      const bytes = this.value(val.bytes);
      // Stacked in one cell: the side panel is narrow.
      return el('tr', {'data-value': val.name, 'data-concrete': concrete, 'data-bytes': bytes === null ? '' : String(bytes)}, [
        el('td', {}, [
          el('div', {className: 'mono sr-value-name'}, [label ? el('span', {className: 'sr-note', text: label + ' '}) : null,
                                                        this.valueLink(v)]),
          el('div', {className: 'shape-sym', text: (val.dtype || '?') + symbolicShape(val.dims)}),
          el('div', {}, [el('span', {className: 'shape-concrete', text: concrete}), ' ',
                         el('span', {className: 'bytes', text: bytes === null ? '? bytes' : humanBytes(bytes), title: String(val.bytes)})]),
        ]),
      ]);
    }

    // A value's name; a click selects the node that produces it.
    valueLink(v) {
      const p = this.model.producer[v];
      const name = this.model.values[v].name;
      if (p < 0 || p === this.selectedNode) return name;
      return el('span', {className: 'sr-link', text: name, title: 'produced by ' + this.model.nodeName(p),
                         onclick: () => this.selectNode(p, true)});
    }

    valueTable(list, labels) {
      const body = el('tbody');
      list.forEach((v, i) => {
        if (v === null) body.append(el('tr', {}, [el('td', {className: 'sr-empty', text: '(absent)'})]));
        else body.append(this.valueRow(v, labels ? labels[i] : null));
      });
      return el('table', {className: 'sr-table sr-values-stack'}, [body]);
    }

    nodeLink(name, text) {
      return el('span', {className: 'sr-link', text: text || name, onclick: () => this.selectByName(name)});
    }

    selectByName(name) {
      const node = this.model.nodes.find((n) => n.doc.name === name);
      if (node) this.selectNode(node.id, true);
    }

    renderNodePanel(id) {
      const m = this.model;
      const node = m.nodes[id];
      const d = node.doc;
      const p = this.nodePanel;
      p.textContent = '';
      p.hidden = false;
      this.nodeHint.hidden = true;
      p.setAttribute('data-node-name', d.name || '');
      p.setAttribute('data-node', String(id));
      p.append(el('div', {className: 'sr-op', text: (d.domain ? d.domain + '.' : '') + d.op_type}),
               el('div', {className: 'mono', id: 'node-name', text: d.name || '(no name)'}),
               el('div', {className: 'sr-where', text: d.where || ''}));
      if (node.parent >= 0)
        p.append(el('div', {className: 'sr-note'}, ['in a subgraph of ', this.nodeLink(m.nodes[node.parent].doc.name)]));
      const flops = this.value(d.flops);
      const outBytes = sumValues((d.outputs || []).filter((v) => v !== null).map((v) => this.value(m.values[v].bytes)));
      p.append(el('table', {className: 'sr-table', id: 'node-costs'}, [el('tbody', {}, [
        el('tr', {'data-cost': 'flops', 'data-value': flops === null ? '' : String(flops)}, [
          el('th', {text: 'FLOPs'}), el('td', {className: 'num', text: flops === null ? '?' : String(flops)}),
          clipped(d.flops === null || d.flops === undefined ? 'not counted' : String(d.flops))]),
        el('tr', {'data-cost': 'output_bytes', 'data-value': outBytes === null ? '' : String(outBytes)}, [
          el('th', {text: 'output bytes'}), el('td', {className: 'num', text: outBytes === null ? '?' : String(outBytes)}),
          el('td', {className: 'expr', text: outBytes === null ? '' : humanBytes(outBytes)})]),
      ])]));
      if (d.flops_note) p.append(el('div', {className: 'sr-note', text: d.flops_note}));
      p.append(el('h2', {text: 'Inputs'}));
      const inputs = d.inputs || [];
      p.append(inputs.length ? el('div', {id: 'node-inputs'}, [this.valueTable(inputs)]) : el('div', {className: 'sr-empty', text: 'none'}));
      if (m.outerInputs.has(id) && m.outerInputs.get(id).length) {
        p.append(el('div', {className: 'sr-note', text: 'read by the subgraphs:'}),
                 el('div', {id: 'node-outer-inputs'}, [this.valueTable(m.outerInputs.get(id))]));
      }
      p.append(el('h2', {text: 'Outputs'}));
      p.append(el('div', {id: 'node-outputs'}, [this.valueTable((d.outputs || []).filter((v) => v !== null))]));
      if ((d.attributes || []).length) {
        p.append(el('h2', {text: 'Attributes'}));
        p.append(el('table', {className: 'sr-table', id: 'node-attributes'}, [el('tbody', {}, d.attributes.map((a) =>
          el('tr', {'data-attribute': a.name}, [el('td', {className: 'mono', text: a.name}), el('td', {className: 'mono', text: a.text})])))]));
      }
      if (m.subgraphNodes.has(id)) {
        const open = this.expanded.has(id);
        p.append(el('h2', {text: 'Subgraphs'}),
                 el('div', {}, [(d.subgraphs || []).map((sg) => `${sg.attribute} (${(sg.graph.nodes || []).length} nodes)`).join(', '), ' ',
                   el('button', {className: 'sr-button', id: 'node-toggle-subgraphs', text: open ? 'fold' : 'expand',
                                 onclick: () => this.toggleExpanded(id)})]));
      }
      const diags = (this.data.diagnostics || []).filter((x) => d.name && x.node === d.name);
      if (diags.length) {
        p.append(el('h2', {text: 'Diagnostics'}));
        p.append(el('ul', {className: 'sr-list', id: 'node-diagnostics'}, diags.map((x) =>
          el('li', {}, [el('span', {className: 'sev-' + x.severity, text: x.severity + ': '}), x.message]))));
      }
      const contracts = (this.data.contracts || []).filter((c) => d.name && c.node === d.name);
      if (contracts.length) {
        p.append(el('h2', {text: 'Contracts'}));
        p.append(el('ul', {className: 'sr-list', id: 'node-contracts'}, contracts.map((c) =>
          el('li', {}, [el('span', {className: 'mono', text: c.relation}), ` (${c.kind || c.origin || ''})`]))));
      }
    }

    renderValuePanel(v, kind) {
      const p = this.nodePanel;
      p.textContent = '';
      p.hidden = false;
      this.nodeHint.hidden = true;
      p.setAttribute('data-node-name', '');
      p.setAttribute('data-node', '');
      const val = this.model.values[v];
      p.append(el('div', {className: 'sr-op', text: 'graph ' + kind}), el('div', {className: 'mono', id: 'node-name', text: val.name}));
      p.append(el('div', {id: 'node-outputs'}, [this.valueTable([v])]));
      const users = (this.model.consumers[v] || []).slice(0, 50);
      if (users.length) {
        p.append(el('h2', {text: 'Read by'}));
        p.append(el('ul', {className: 'sr-list'}, users.map((u) => el('li', {}, [this.nodeLink(this.model.nodes[u].doc.name, this.model.nodeName(u))]))));
      }
    }

    // -------------------------------------------------------- the values

    renderValues() {
      const m = this.model;
      const panel = this.tabs.values;
      const rows = [];
      const limit = this.allRows ? m.values.length : ROW_LIMIT;
      const filter = (this.valuesFilter || '').toLowerCase();
      let matching = 0;
      m.values.forEach((v, i) => {
        if (filter && !(v.name || '').toLowerCase().includes(filter)) return;
        if (matching++ >= limit) return;
        const concrete = this.concreteShape(v.dims);
        const bytes = this.value(v.bytes);
        const producer = m.producer[i] >= 0 ? m.nodes[m.producer[i]].doc : null;
        rows.push(`<tr data-value="${esc(v.name)}" data-graph="${esc(m.valueGraph[i])}" data-role="${esc(v.role || '')}" ` +
                  `data-concrete="${esc(concrete)}" data-bytes="${bytes === null ? '' : bytes}">` +
                  `<td class="mono">${esc(v.name)}</td><td>${esc(v.role || '')}${v.parameter ? ' (parameter)' : ''}</td>` +
                  `<td class="mono">${producer ? `<span class="sr-link" data-select="${m.producer[i]}">${esc(producer.name || producer.op_type)}</span>` : ''}</td>` +
                  `<td class="shape-sym">${esc((v.dtype || '?') + symbolicShape(v.dims))}</td>` +
                  `<td class="shape-concrete">${esc(concrete)}</td>` +
                  `<td class="bytes num" title="${esc(v.bytes)}">${bytes === null ? '?' : bytes}</td>` +
                  `<td class="num">${bytes === null ? '' : humanBytes(bytes)}</td></tr>`);
      });
      if (!this.valuesTable) {
        // The filter stays (and keeps its focus) while the table is redrawn.
        const box = el('input', {type: 'search', id: 'values-filter', placeholder: 'filter by name'});
        box.addEventListener('input', () => {
          this.valuesFilter = box.value;
          this.renderValues();
        });
        this.valuesTable = el('div');
        panel.append(el('div', {className: 'sr-controls'}, [box]), this.valuesTable);
      }
      this.valuesTable.innerHTML = '<table class="sr-table" id="values-table"><thead><tr><th>value</th><th>role</th><th>node</th>' +
                                   '<th>symbolic shape</th><th>at bindings</th><th class="num">bytes</th><th></th></tr></thead><tbody>' +
                                   rows.join('') + '</tbody></table>';
      this.moreRows(this.valuesTable, matching);
      if (!panel.hasAttribute('data-clicks')) {
        panel.setAttribute('data-clicks', '1');
        panel.addEventListener('click', (ev) => {
          const link = ev.target.closest('[data-select]');
          if (link) this.selectNode(Number(link.getAttribute('data-select')), true);
        });
      }
    }

    // A button under a table cut at ROW_LIMIT rows: a 20,000-row table takes
    // a second or more to lay out.
    moreRows(panel, total) {
      if (this.allRows || total <= ROW_LIMIT) return;
      panel.append(el('div', {className: 'sr-note'}, [`the first ${ROW_LIMIT} of ${total} rows `,
        el('button', {className: 'sr-button', id: 'show-all-rows', text: 'show all', onclick: () => {
          this.allRows = true;
          this.renderTab(this.activeTab);
        }})]));
    }

    // ------------------------------------------------------- the profile

    profileRows() {
      const m = this.model;
      const groups = new Map();
      for (const node of m.nodes) {
        if (node.depth > 0) continue;  // subgraphs are counted in their node
        const d = node.doc;
        // By scope, as `symshape profile --by scope`: a node counts in its scope and in
        // every scope holding it.
        const keys = this.profileGroup === 'node' ? [String(node.id)]
                   : this.profileGroup === 'op' ? [d.op_type]
                   : scopeAndParents(d.name || '');
        const f = d.flops === null || d.flops === undefined ? null : this.value(d.flops);
        const b = sumValues((d.outputs || []).filter((v) => v !== null).map((v) => this.value(m.values[v].bytes)));
        const pr = d.params === undefined ? 0n : this.value(d.params);
        for (const key of keys) {
          let g = groups.get(key);
          if (!g) {
            g = {key: key, name: this.profileGroup === 'node' ? m.nodeName(node.id) : key, op: d.op_type, nodes: 0,
                 flops: 0n, bytes: 0n, params: 0n, exprs: [], notCounted: 0, id: node.id};
            groups.set(key, g);
          }
          ++g.nodes;
          if (d.flops === null || d.flops === undefined) ++g.notCounted;
          else g.flops = g.flops === null || f === null ? null : g.flops + f;
          g.exprs.push(d.flops);
          g.bytes = g.bytes === null || b === null ? null : g.bytes + b;
          g.params = g.params === null || pr === null ? null : g.params + pr;
        }
      }
      return [...groups.values()];
    }

    renderProfile() {
      const panel = this.tabs.profile;
      panel.textContent = '';
      const t = this.data.totals || {};
      panel.append(el('h2', {text: 'Totals'}));
      const totalsBody = el('tbody');
      for (const key in t) {
        const expr = t[key];
        if (typeof expr !== 'string' && typeof expr !== 'number') continue;
        const v = this.value(expr);
        const fmt = /bytes/.test(key) ? humanBytes : humanCount;
        totalsBody.append(el('tr', {'data-total': key, 'data-value': v === null ? '' : String(v)}, [
          el('td', {className: 'mono', text: key}), el('td', {className: 'num', text: v === null ? '?' : String(v)}),
          el('td', {className: 'num', text: v === null ? '' : fmt(v)}), clipped(String(expr))]));
      }
      panel.append(el('table', {className: 'sr-table', id: 'totals-table'}, [
        el('thead', {}, [el('tr', {}, [el('th', {text: 'total'}), el('th', {className: 'num', text: 'at bindings'}),
                                         el('th', {}), el('th', {text: 'expression'})])]), totalsBody]));

      const group = el('select', {id: 'profile-group', onchange: (ev) => {
        this.profileGroup = ev.target.value;
        this.renderProfile();
      }}, [['node', 'node'], ['op', 'operator'], ['scope', 'scope (nested scopes included)']].map(([k, label]) =>
        el('option', {value: k, text: label, selected: k === this.profileGroup})));
      panel.append(el('h2', {text: 'By ' + this.profileGroup}),
                   el('div', {className: 'sr-controls'}, [el('label', {text: 'group by '}), group]));

      const rows = this.profileRows();
      const totalFlops = this.value(t.flops);
      const {key, desc} = this.profileSort;
      const num = (v) => (v === null ? -1 : Number(v));
      const cmp = {
        name: (a, b) => a.name.localeCompare(b.name), op: (a, b) => a.op.localeCompare(b.op), nodes: (a, b) => a.nodes - b.nodes,
        flops: (a, b) => num(a.flops) - num(b.flops), bytes: (a, b) => num(a.bytes) - num(b.bytes),
        params: (a, b) => num(a.params) - num(b.params),
      }[key] || (() => 0);
      rows.sort((a, b) => (desc ? -cmp(a, b) : cmp(a, b)) || a.id - b.id);
      const byNode = this.profileGroup === 'node';
      // Parameters per node when the data has them (an addition to the schema).
      const hasParams = this.model.nodes.some((n) => n.doc.params !== undefined);
      const cols = [['name', byNode ? 'node' : this.profileGroup, ''], byNode ? ['op', 'op', ''] : ['nodes', 'nodes', 'num'],
                    ['flops', 'FLOPs', 'num'], ['pct', '%', 'num'], ['bytes', 'output bytes', 'num']];
      if (hasParams) cols.push(['params', 'params', 'num']);
      if (byNode) cols.push(['expr', 'FLOPs expression', '']);
      const head = el('tr', {}, cols.map(([k, label, cls]) => {
        const sortable = k !== 'pct' && k !== 'expr';
        const th = el('th', {className: cls + (k === key ? (desc ? ' sorted-desc' : ' sorted-asc') : ''), text: label,
                             'data-sort': sortable ? k : null});
        if (sortable) th.addEventListener('click', () => {
          this.profileSort = {key: k, desc: k === key ? !desc : k !== 'name' && k !== 'op'};
          this.renderProfile();
        });
        return th;
      }));
      const html = [];
      for (const r of this.allRows ? rows : rows.slice(0, ROW_LIMIT)) {
        const pct = r.flops === null || totalFlops === null || totalFlops === 0n ? '' : (Number(r.flops) * 100 / Number(totalFlops)).toFixed(1) + '%';
        const nameCell = byNode ? `<td class="mono"><span class="sr-link" data-select="${r.id}">${esc(r.name)}</span></td>`
                                : `<td class="mono">${esc(r.name)}</td>`;
        html.push(`<tr data-group="${esc(r.name)}" data-flops="${r.flops === null ? '' : r.flops}">${nameCell}` +
                  (byNode ? `<td>${esc(r.op)}</td>` : `<td class="num">${r.nodes}</td>`) +
                  `<td class="num" title="${r.flops === null ? '' : humanCount(r.flops)}">${r.notCounted === r.nodes ? 'not counted' : r.flops === null ? '?' : r.flops}</td>` +
                  `<td class="num">${pct}</td><td class="num" title="${r.bytes === null ? '' : r.bytes}">${r.bytes === null ? '?' : humanBytes(r.bytes)}</td>` +
                  (hasParams ? `<td class="num">${r.params === null ? '?' : r.params}</td>` : '') +
                  (byNode ? `<td class="expr"><div class="clip">${esc(r.exprs[0] === null || r.exprs[0] === undefined ? '' : r.exprs[0])}</div></td>` : '') + '</tr>');
      }
      const tbody = el('tbody');
      tbody.innerHTML = html.join('');
      tbody.addEventListener('click', (ev) => {
        const link = ev.target.closest('[data-select]');
        if (link) this.selectNode(Number(link.getAttribute('data-select')), true);
      });
      const sumF = sumValues(rows.map((r) => (r.notCounted === r.nodes ? 0n : r.flops)));
      const sumB = sumValues(rows.map((r) => r.bytes));
      const foot = el('tfoot', {}, [el('tr', {}, [el('td', {text: `total (${rows.length} rows)`}), el('td', {}),
        el('td', {className: 'num', text: sumF === null ? '?' : String(sumF)}), el('td', {}),
        el('td', {className: 'num', text: sumB === null ? '?' : humanBytes(sumB)}), hasParams ? el('td', {}) : null,
        byNode ? el('td', {}) : null])]);
      panel.append(el('table', {className: 'sr-table', id: 'profile-table', 'data-group-by': this.profileGroup},
                      [el('thead', {}, [head]), tbody, foot]));
      this.moreRows(panel, rows.length);
    }

    // --------------------------------------------------------- the sweep

    renderSweep() {
      const panel = this.tabs.sweep;
      panel.textContent = '';
      const t = this.data.totals || {};
      if (!this.symbols.length) {
        panel.append(el('div', {className: 'sr-empty', text: 'the model has no symbols to sweep'}));
        return;
      }
      const st = this.sweep || (this.sweep = {symbol: this.symbols.includes('seq') ? 'seq' : this.symbols[0], lo: 1, hi: 0});
      if (!st.hi) {
        const b = this.bindings[st.symbol];
        st.hi = b !== null && b > 0n ? Number(b) * 4 : 1024;
      }
      const sel = el('select', {id: 'sweep-symbol'}, this.symbols.map((s) => el('option', {value: s, text: s, selected: s === st.symbol})));
      const lo = el('input', {type: 'number', min: '0', id: 'sweep-lo', value: String(st.lo)});
      const hi = el('input', {type: 'number', min: '0', id: 'sweep-hi', value: String(st.hi)});
      const change = () => {
        st.symbol = sel.value;
        st.lo = Math.max(0, parseInt(lo.value, 10) || 0);
        st.hi = Math.max(st.lo + 1, parseInt(hi.value, 10) || st.lo + 1);
        this.renderSweep();
      };
      sel.addEventListener('change', () => {
        st.hi = 0;
        st.symbol = sel.value;
        this.renderSweep();
      });
      lo.addEventListener('change', change);
      hi.addEventListener('change', change);
      const others = this.symbols.filter((s) => s !== st.symbol).map((s) => `${s}=${this.bindings[s] === null ? '?' : this.bindings[s]}`);
      panel.append(el('h2', {text: 'The totals against one symbol'}),
                   el('div', {className: 'sr-controls'}, ['symbol ', sel, ' from ', lo, ' to ', hi,
                     el('span', {className: 'sr-note', text: others.length ? 'the others at the bindings: ' + others.join(', ') : ''})]));
      const keys = Object.keys(t).filter((k) => (typeof t[k] === 'string' || typeof t[k] === 'number') && !/^params$|^param_bytes$|not_counted/.test(k));
      // At most ~120 points, evenly spaced integers.
      const count = Math.min(120, st.hi - st.lo + 1);
      const xs = [];
      for (let i = 0; i < count; ++i) {
        const v = Math.round(st.lo + ((st.hi - st.lo) * i) / Math.max(1, count - 1));
        if (!xs.length || xs[xs.length - 1] !== v) xs.push(v);
      }
      const series = keys.map((k) => {
        const tree = typeof t[k] === 'string' ? E.parse(t[k]) : null;
        const b = Object.assign({}, this.bindings);
        return {key: k, ys: xs.map((x) => {
          b[st.symbol] = BigInt(x);
          const v = tree ? E.evalTree(tree, b) : BigInt(t[k]);
          return v === null ? null : Number(v);
        })};
      });
      panel.append(this.plot(st.symbol, xs, series, this.bindings[st.symbol]));
      const table = el('table', {className: 'sr-table', id: 'sweep-table'}, [
        el('thead', {}, [el('tr', {}, [el('th', {text: st.symbol}), ...keys.map((k) => el('th', {className: 'num', text: k}))])]),
        el('tbody', {}, xs.filter((_, i) => xs.length <= 12 || i % Math.ceil(xs.length / 12) === 0 || i === xs.length - 1).map((x) =>
          el('tr', {'data-x': String(x)}, [el('td', {text: String(x)}), ...series.map((s) => {
            const y = s.ys[xs.indexOf(x)];
            return el('td', {className: 'num', 'data-series': s.key, 'data-value': y === null ? '' : String(y),
                             text: y === null ? '?' : /bytes/.test(s.key) ? humanBytes(y) : humanCount(y)});
          })])))]);
      panel.append(table);
    }

    // One panel per quantity over a shared x axis.
    plot(symbol, xs, series, marker) {
      const W = 760, panelH = 150, left = 70, right = 20, top = 10;
      const H = top + series.length * (panelH + 30) + 30;
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('class', 'sr-plot');
      svg.setAttribute('id', 'sweep-plot');
      svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
      svg.setAttribute('width', String(W));
      const x0 = xs[0], x1 = xs[xs.length - 1] === x0 ? x0 + 1 : xs[xs.length - 1];
      const sx = (x) => left + ((x - x0) / (x1 - x0)) * (W - left - right);
      const colours = ['#2f6fde', '#d9480f', '#2b8a3e', '#7048e8', '#c2255c'];
      const out = [];
      series.forEach((s, k) => {
        const y0 = top + k * (panelH + 30) + 16;
        const known = s.ys.filter((y) => y !== null);
        const ymax = known.length ? Math.max(...known, 1) : 1;
        const sy = (y) => y0 + panelH - (y / ymax) * panelH;
        const fmt = /bytes/.test(s.key) ? humanBytes : humanCount;
        out.push(`<text class="title" x="${left}" y="${y0 - 4}">${esc(s.key)}</text>`);
        for (let i = 0; i <= 4; ++i) {
          const yv = (ymax * i) / 4;
          out.push(`<line class="grid" x1="${left}" x2="${W - right}" y1="${sy(yv)}" y2="${sy(yv)}"/>`,
                   `<text x="${left - 6}" y="${sy(yv) + 4}" text-anchor="end">${esc(fmt(Math.round(yv)))}</text>`);
        }
        out.push(`<line class="axis" x1="${left}" x2="${left}" y1="${y0}" y2="${y0 + panelH}"/>`,
                 `<line class="axis" x1="${left}" x2="${W - right}" y1="${y0 + panelH}" y2="${y0 + panelH}"/>`);
        let d = '';
        let pen = false;
        xs.forEach((x, i) => {
          const y = s.ys[i];
          if (y === null) {
            pen = false;
            return;
          }
          d += (pen ? 'L' : 'M') + sx(x).toFixed(1) + ',' + sy(y).toFixed(1);
          pen = true;
        });
        out.push(`<path class="curve" stroke="${colours[k % colours.length]}" d="${d}" data-series="${esc(s.key)}"/>`);
        if (marker !== null && marker !== undefined && Number(marker) >= x0 && Number(marker) <= x1)
          out.push(`<line class="marker" x1="${sx(Number(marker))}" x2="${sx(Number(marker))}" y1="${y0}" y2="${y0 + panelH}"/>`);
      });
      const yAxis = H - 22;
      for (let i = 0; i <= 6; ++i) {
        const x = Math.round(x0 + ((x1 - x0) * i) / 6);
        out.push(`<text x="${sx(x)}" y="${yAxis}" text-anchor="middle">${x}</text>`);
      }
      out.push(`<text x="${(left + W - right) / 2}" y="${H - 4}" text-anchor="middle">${esc(symbol)}</text>`);
      svg.innerHTML = out.join('');
      return svg;
    }

    // ------------------------------------------- contracts, diagnostics

    renderContracts() {
      const panel = this.tabs.contracts;
      panel.textContent = '';
      const d = this.data;
      panel.append(el('h2', {text: 'Contracts: relations that valid inputs satisfy'}));
      const contracts = d.contracts || [];
      panel.append(contracts.length ? el('table', {className: 'sr-table', id: 'contracts-table'}, [
        el('thead', {}, [el('tr', {}, ['relation', 'holds at bindings', 'kind', 'node', 'exact condition'].map((t) => el('th', {text: t})))]),
        el('tbody', {}, contracts.map((c) => {
          const holds = this.relationHolds(c.relation);
          return el('tr', {'data-contract': c.relation}, [
            el('td', {className: 'mono', text: c.relation}),
            el('td', {className: holds === false ? 'sev-error' : '', text: holds === null ? '?' : holds ? 'yes' : 'NO'}),
            el('td', {text: c.kind || c.origin || ''}),
            el('td', {}, [c.node ? this.nodeLink(c.node, c.where || c.node) : '']),
            clipped(c.exact || '')]);
        }))]) : el('div', {className: 'sr-empty', text: 'none'}));
      panel.append(el('h2', {text: 'Facts in force'}));
      const facts = d.facts || [];
      panel.append(facts.length ? el('ul', {className: 'sr-list', id: 'facts-list'}, facts.map((f) =>
        el('li', {className: 'mono', text: typeof f === 'string' ? f : f.fact || JSON.stringify(f)}))) : el('div', {className: 'sr-empty', text: 'none'}));
      panel.append(el('h2', {text: 'Assumptions'}));
      const assumptions = d.assumptions || [];
      panel.append(assumptions.length ? el('ul', {className: 'sr-list', id: 'assumptions-list'}, assumptions.map((a) =>
        el('li', {}, typeof a === 'string' ? [a] : [el('span', {className: 'mono', text: a.fact || a.relation || ''}),
          ' ', a.source || '', a.node ? ' from ' : '', a.node ? this.nodeLink(a.node, a.where || a.node) : '']))) :
        el('div', {className: 'sr-empty', text: 'none'}));
    }

    // A relation `A <= B` (or >=, ==, <, >, !=) at the bindings: true, false
    // or null when a side does not evaluate.
    relationHolds(text) {
      const m = /^(.*?)\s*(<=|>=|==|!=|<|>)\s*(.*)$/.exec(text || '');
      if (!m) return null;
      const a = this.value(m[1]);
      const b = this.value(m[3]);
      if (a === null || b === null) return null;
      return {'<=': a <= b, '>=': a >= b, '==': a === b, '!=': a !== b, '<': a < b, '>': a > b}[m[2]];
    }

    renderDiagnostics() {
      const panel = this.tabs.diagnostics;
      panel.textContent = '';
      const diags = this.data.diagnostics || [];
      panel.append(el('h2', {text: 'Diagnostics of the inference'}));
      panel.append(diags.length ? el('table', {className: 'sr-table', id: 'diagnostics-table'}, [
        el('thead', {}, [el('tr', {}, ['severity', 'kind', 'where', 'message'].map((t) => el('th', {text: t})))]),
        el('tbody', {}, diags.map((x) => el('tr', {'data-severity': x.severity}, [
          el('td', {className: 'sev-' + x.severity, text: x.severity}), el('td', {text: x.kind || ''}),
          el('td', {}, [x.node ? this.nodeLink(x.node, x.where || x.node) : x.where || '']), el('td', {text: x.message})])))]) :
        el('div', {className: 'sr-empty', text: 'none: every node was inferred without a problem'}));
    }
  }

  // An expression cell that shows two lines until clicked.
  function clipped(text) {
    const box = el('div', {className: 'clip', text: text, title: 'click to show it whole'});
    box.addEventListener('click', () => box.classList.toggle('clip'));
    return el('td', {className: 'expr'}, [box]);
  }

  // A stable colour per operator family for the band at the left of a box.
  function opColour(op) {
    const families = [
      [/^(MatMul|Gemm|Conv|ConvTranspose|Einsum|Attention)/, '#2f6fde'],
      [/^(Add|Sub|Mul|Div|Pow|Sqrt|Erf|Tanh|Relu|Gelu|Sigmoid|Neg|Exp|Log|Where|Softmax|LayerNormalization|Reduce)/, '#2b8a3e'],
      [/^(Reshape|Transpose|Concat|Split|Slice|Gather|Unsqueeze|Squeeze|Flatten|Expand|Shape|Identity)/, '#e67700'],
      [/^(If|Loop|Scan)/, '#7048e8'], [/^(input)$/, '#4f9a6a'], [/^(output)$/, '#c98b3c'],
    ];
    for (const [re, c] of families) if (re.test(op)) return c;
    return '#868e96';
  }

  function render(container, data) {
    if (!data || data.schema !== 'symshape/report/1')
      throw new Error('symshape report: expected a data document with "schema": "symshape/report/1"');
    const t0 = performance.now();
    const report = new Report(container, data);
    report.timings.render = performance.now() - t0;
    SymshapeReport.current = report;
    return report;
  }

  // One listener for the page, whatever the number of renders (web/index.html
  // renders a report per dropped file): the report shown now follows the fragment.
  if (typeof window !== 'undefined')
    window.addEventListener('hashchange', () => {
      if (SymshapeReport.current) SymshapeReport.current.onHashChange();
    });

  // The page the command writes: the data is in #symshape-data (its text is
  // not the template's placeholder).
  function autoRender() {
    const holder = document.getElementById('symshape-data');
    if (!holder) return;
    const text = holder.textContent.trim();
    if (!text || text === '@REPORT_' + 'DATA@') return;
    const t0 = performance.now();
    const data = JSON.parse(text);
    const parsed = performance.now();
    const report = render(document.body, data);
    report.timings.parse = parsed - t0;
    // Ready once the first frame with the graph is painted.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      report.timings.firstPaint = performance.now();
      document.body.setAttribute('data-report-ready', '1');
    }));
  }

  if (typeof document !== 'undefined') {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', autoRender);
    else autoRender();
  }

  return {render: render, humanBytes: humanBytes, humanCount: humanCount, layoutGraph: layoutGraph, Model: Model, Report: Report,
          current: null};
})();
