// What the browser drivers (chromium.js, firefox.js) share: each has its own
// protocol for evaluate(); waiting on the page is the same for both.
'use strict';

class PageDriver {
  // Polls a page expression until it is truthy.
  async until(expression, timeoutMs = 30000) {
    const start = Date.now();
    for (;;) {
      const v = await this.evaluate(expression);
      if (v) return v;
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

module.exports = {PageDriver};
