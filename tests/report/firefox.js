// Headless Firefox driven over WebDriver BiDi, with the interface of
// chromium.js so that the browser tests run in either. Firefox serves BiDi on
// a WebSocket (no pipe); the client is websocket.js, on Node's net module, so
// that any Node from 18 on runs it without a flag and still no npm package.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawn} = require('child_process');
const websocket = require('./websocket.js');
const {PageDriver} = require('./page_driver.js');

// Written to the fresh profile's user.js. Once it starts, the remote agent
// applies its own recommended prefs (remote.prefs.recommended: no updates,
// telemetry, safe browsing, first-run pages, ...); those suffice but for one
// that must act from the very start: no fetch of remote settings (Nimbus
// experiments) during startup, which wants the network and, without it, logs
// errors on stderr.
const PREFS = {
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
};

// Settles as promise does, or rejects with `message` after ms.
function within(promise, ms, message) {
  let timer;
  const timeout = new Promise((resolve, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class Firefox extends PageDriver {
  // Starts the browser; fails with a clear message when it is missing.
  static async launch(options = {}) {
    const binary = options.binary || process.env.SYMSHAPE_FIREFOX || '/usr/bin/firefox-esr';
    if (!fs.existsSync(binary))
      throw new Error(`firefox not found at ${binary} (install firefox-esr with scripts/install-deps.sh, or set SYMSHAPE_FIREFOX)`);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'symshape-firefox-'));
    fs.writeFileSync(path.join(profile, 'user.js'),
                     Object.entries(PREFS).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`).join(''));
    // Port 0: the system picks a free one, which Firefox prints on stderr.
    const args = ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port=0', 'about:blank'];
    // A process group of its own, which close() ends with the content
    // processes in it; and since Firefox, unlike Chromium on its pipe, would
    // outlive a test that dies (Ctrl-C, a crash), a shell starts it and ends
    // the group once its stdin, our pipe, closes: when node exits, however.
    const guard = ['exec 3<&0', '"$0" "$@" </dev/null 3<&- & browser=$!', '(read _ <&3; kill -KILL 0) </dev/null &',
                   'exec 3<&-', 'wait $browser'].join('\n');
    const child = spawn('/bin/sh', ['-c', guard, binary, ...args], {stdio: ['pipe', 'ignore', 'pipe'], detached: true});
    const browser = new Firefox(child, profile);
    try {
      await browser.attach(options);
    } catch (e) {
      await browser.close();
      throw e;
    }
    return browser;
  }

  constructor(child, profile) {
    super();
    this.child = child;
    this.profile = profile;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    this.stderr = '';
    this.exited = null;
    this.socket = null;
    this.listening = new Promise((resolve) => (this.foundUrl = resolve));
    child.stderr.on('data', (d) => {
      this.stderr = (this.stderr + d).slice(-4000);
      const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(this.stderr);
      if (m) this.foundUrl(m[1]);
    });
    this.exit = new Promise((resolve) => child.once('exit', resolve));
    child.on('exit', (code, signal) => {
      this.exited = `firefox exited (${signal || code}); its stderr: ${this.stderr.trim()}`;
      this.failPending(this.exited);
    });
  }

  failPending(why) {
    for (const {reject} of this.pending.values()) reject(new Error(why));
    this.pending.clear();
  }

  dispatch(message) {
    if (message.id !== undefined) {
      const p = this.pending.get(message.id);
      if (!p) return;
      this.pending.delete(message.id);
      if (message.type === 'error') p.reject(new Error(`${p.method}: ${message.error}: ${message.message}`));
      else p.resolve(message.result);
      return;
    }
    for (const l of this.listeners.slice()) l(message);
  }

  // One BiDi command.
  send(method, params = {}) {
    if (this.exited) return Promise.reject(new Error(this.exited));
    if (!this.socket) return Promise.reject(new Error(`${method}: not connected to firefox`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {resolve, reject, method});
      this.socket.send(JSON.stringify({id: id, method: method, params: params}));
    });
  }

  // Every BiDi event, raw ({type: 'event', method, params}).
  on(listener) {
    this.listeners.push(listener);
  }

  // Calls callback(text) for each exception and console error in the page.
  onPageError(callback) {
    this.on((m) => {
      if (m.method !== 'log.entryAdded' || m.params.level !== 'error') return;
      const e = m.params;
      if (e.type === 'javascript') callback(`exception in the page: ${e.text}`);
      else if (e.type === 'console') callback(`console.${e.method}: ${e.text}`);
      else callback(`console error: ${e.text}`);
    });
  }

  async attach(options) {
    const exited = this.exit.then(() => Promise.reject(new Error(this.exited)));
    const url = await within(Promise.race([this.listening, exited]), 60000, 'firefox did not start its WebDriver BiDi server in 60 s');
    this.socket = await Promise.race([websocket.connect(url + '/session'), exited]);
    this.socket.onmessage = (text) => this.dispatch(JSON.parse(text));
    this.socket.onclose = (why) => this.failPending(this.exited || `the connection to firefox closed: ${why}`);
    await this.send('session.new', {capabilities: {}});
    const {contexts} = await this.send('browsingContext.getTree', {maxDepth: 0});
    this.context = contexts[0].context;
    await this.send('browsingContext.setViewport',
                    {context: this.context, viewport: {width: options.width || 1400, height: options.height || 900}, devicePixelRatio: 1});
    await this.send('session.subscribe', {events: ['log.entryAdded']});
  }

  // Loads url and waits for its load event.
  async navigate(url) {
    try {
      await within(this.send('browsingContext.navigate', {context: this.context, url: url, wait: 'complete'}), 60000, 'timed out after 60 s');
    } catch (e) {
      throw new Error(`cannot open ${url}: ${e.message}`);
    }
  }

  // The value of a JavaScript expression in the page (awaited when a promise).
  // It comes back as JSON text: BiDi would otherwise return its own typed
  // serialization of objects.
  async evaluate(expression) {
    const wrapped = `(async () => JSON.stringify(await (\n${expression}\n)))()`;
    const r = await this.send('script.evaluate',
                              {expression: wrapped, target: {context: this.context}, awaitPromise: true, resultOwnership: 'none'});
    if (r.type === 'exception')
      throw new Error(`in the page: ${r.exceptionDetails.text} (evaluating ${expression.slice(0, 200)})`);
    return r.result.type === 'string' ? JSON.parse(r.result.value) : undefined;
  }

  async click(x, y) {
    await this.send('input.performActions', {context: this.context, actions: [{
      type: 'pointer', id: 'mouse', parameters: {pointerType: 'mouse'},
      actions: [{type: 'pointerMove', x: x, y: y, origin: 'viewport'},
                {type: 'pointerDown', button: 0}, {type: 'pointerUp', button: 0}],
    }]});
  }

  async screenshot(file) {
    const {data} = await this.send('browsingContext.captureScreenshot', {context: this.context});
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
  }

  async close() {
    if (!this.exited && this.socket) {
      await within(this.send('browser.close'), 3000, '').catch(() => null);  // closing anyway
      await within(this.exit, 5000, '').catch(() => null);  // a few seconds to shut down by itself
    }
    // Then the whole group killed: the browser if still there, content
    // processes left, the shell's watch.
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch (e) {
      // none left
    }
    await this.exit;
    this.child.stdin.destroy();
    if (this.socket) this.socket.close();
    try {
      fs.rmSync(this.profile, {recursive: true, force: true, maxRetries: 30, retryDelay: 100});
    } catch (e) {
      console.error(`note: could not remove ${this.profile}: ${e.message}`);
    }
  }
}

module.exports = {Firefox};
