// Headless Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: the browser reads commands on fd 3 and writes
// replies and events on fd 4, each a JSON message ended by '\0'), so that the
// browser tests need no WebSocket client and no npm package.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawn} = require('child_process');
const {PageDriver} = require('./page_driver.js');

class Chromium extends PageDriver {
  // Starts the browser; fails with a clear message when it is missing.
  static async launch(options = {}) {
    const binary = options.binary || process.env.SYMSHAPE_CHROMIUM || '/usr/bin/chromium';
    if (!fs.existsSync(binary))
      throw new Error(`chromium not found at ${binary} (install it with scripts/install-deps.sh, or set SYMSHAPE_CHROMIUM)`);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'symshape-chromium-'));
    const args = ['--headless', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu', '--no-first-run',
                  '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
                  '--disable-dev-shm-usage', '--hide-scrollbars', '--mute-audio', `--user-data-dir=${profile}`,
                  `--window-size=${options.width || 1400},${options.height || 900}`, 'about:blank'];
    // Its own process group: close() ends the browser's helper processes with it.
    const child = spawn(binary, args, {stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true});
    const browser = new Chromium(child, profile);
    await browser.attach(options);
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
    child.stderr.on('data', (d) => (this.stderr = (this.stderr + d).slice(-4000)));
    child.on('exit', (code, signal) => {
      this.exited = `chromium exited (${signal || code}); its stderr: ${this.stderr.trim()}`;
      for (const {reject} of this.pending.values()) reject(new Error(this.exited));
      this.pending.clear();
    });
    this.input = child.stdio[3];
    let buffer = '';
    child.stdio[4].on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        this.dispatch(message);
      }
    });
  }

  dispatch(message) {
    if (message.id !== undefined) {
      const p = this.pending.get(message.id);
      if (!p) return;
      this.pending.delete(message.id);
      if (message.error) p.reject(new Error(`${p.method}: ${message.error.message}`));
      else p.resolve(message.result);
      return;
    }
    for (const l of this.listeners.slice()) l(message);
  }

  // One command; with sessionId, to the attached page.
  send(method, params = {}, sessionId = this.sessionId) {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = this.nextId++;
    const message = {id: id, method: method, params: params};
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {resolve, reject, method});
      this.input.write(JSON.stringify(message) + '\0');
    });
  }

  on(listener) {
    this.listeners.push(listener);
  }

  // Calls callback(text) for each exception and console error in the page.
  onPageError(callback) {
    this.on((m) => {
      if (m.method === 'Runtime.exceptionThrown') {
        const d = m.params.exceptionDetails;
        callback(`exception in the page: ${(d.exception && d.exception.description) || d.text}`);
      } else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') {
        callback(`console error: ${m.params.entry.text} ${m.params.entry.url || ''}`);
      } else if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert')) {
        callback(`console.${m.params.type}: ${m.params.args.map((a) => a.value || a.description).join(' ')}`);
      }
    });
  }

  // Resolves with the first event of that method the predicate accepts;
  // `cancel` stops waiting (the promise then never settles).
  waitFor(method, predicate = () => true, timeoutMs = 30000) {
    let cancel;
    const promise = new Promise((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${method}`));
      }, timeoutMs);
      const listener = (m) => {
        if (m.method !== method || !predicate(m.params)) return;
        stop();
        resolve(m.params);
      };
      this.listeners.push(listener);
      cancel = stop;
    });
    promise.cancel = cancel;
    return promise;
  }

  async attach(options) {
    const {targetId} = await this.send('Target.createTarget', {url: 'about:blank'}, null);
    const {sessionId} = await this.send('Target.attachToTarget', {targetId: targetId, flatten: true}, null);
    this.sessionId = sessionId;
    await this.send('Page.enable');
    await this.send('Runtime.enable');
    await this.send('Log.enable');
    await this.send('Emulation.setDeviceMetricsOverride',
                    {width: options.width || 1400, height: options.height || 900, deviceScaleFactor: 1, mobile: false});
  }

  // Loads url and waits for its load event.
  async navigate(url) {
    const loaded = this.waitFor('Page.loadEventFired', () => true, 60000);
    let r;
    try {
      r = await this.send('Page.navigate', {url: url});
    } finally {
      if (!r || r.errorText) loaded.cancel();
    }
    if (r.errorText) throw new Error(`cannot open ${url}: ${r.errorText}`);
    await loaded;
  }

  // The value of a JavaScript expression in the page (awaited when a promise).
  async evaluate(expression) {
    const r = await this.send('Runtime.evaluate', {expression: expression, returnByValue: true, awaitPromise: true});
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new Error(`in the page: ${(d.exception && d.exception.description) || d.text} (evaluating ${expression.slice(0, 200)})`);
    }
    return r.result.value;
  }

  async click(x, y) {
    await this.send('Input.dispatchMouseEvent', {type: 'mouseMoved', x: x, y: y});
    await this.send('Input.dispatchMouseEvent', {type: 'mousePressed', x: x, y: y, button: 'left', buttons: 1, clickCount: 1});
    await this.send('Input.dispatchMouseEvent', {type: 'mouseReleased', x: x, y: y, button: 'left', buttons: 0, clickCount: 1});
  }

  async screenshot(file) {
    const {data} = await this.send('Page.captureScreenshot', {format: 'png'});
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
  }

  async close() {
    if (!this.exited) {
      try {
        await Promise.race([this.send('Browser.close', {}, null), new Promise((r) => setTimeout(r, 3000))]);
      } catch (e) {
        // closing anyway
      }
      if (!this.exited) this.child.kill('SIGKILL');
    }
    await new Promise((r) => (this.exited ? r() : this.child.once('exit', r)));
    try {
      process.kill(-this.child.pid, 'SIGKILL');  // helpers left in the browser's group (crash handler)
    } catch (e) {
      // none left
    }
    // Chromium's helper processes may still write there for a moment.
    try {
      fs.rmSync(this.profile, {recursive: true, force: true, maxRetries: 30, retryDelay: 100});
    } catch (e) {
      console.error(`note: could not remove ${this.profile}: ${e.message}`);
    }
  }
}

module.exports = {Chromium};
