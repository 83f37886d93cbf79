// A small WebSocket client (the client side of RFC 6455) on Node's `net`, for
// firefox.js: Firefox serves WebDriver BiDi on a WebSocket, Node 18 has no
// WebSocket client of its own (Node 20's is behind a flag), and the tests use
// no npm package. Only what the driver needs: ws:// (no TLS), text messages,
// no extensions or subprotocols.
//
//   const socket = await connect('ws://127.0.0.1:9222/session');
//   socket.onmessage = (text) => ...;   // each whole text message
//   socket.onclose = (why) => ...;      // once, with a sentence saying why
//   socket.send(text);                  // throws once the socket is closed
//   socket.close();
'use strict';
const crypto = require('crypto');
const net = require('net');

// The fixed GUID of RFC 6455 section 1.3, hashed with the key for the accept.
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

const OP = {continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa};

// Opens a WebSocket on url (ws://host:port/path); resolves once the server
// accepted the upgrade, rejects with the reason otherwise.
function connect(url, options = {}) {
  const u = new URL(url);
  if (u.protocol !== 'ws:') return Promise.reject(new Error(`websocket.js: only ws:// URLs, not ${url}`));
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');  // [::1] -> ::1 for net
  const port = Number(u.port || 80);
  const key = crypto.randomBytes(16).toString('base64');
  const expectedAccept = crypto.createHash('sha1').update(key + GUID).digest('base64');
  const timeoutMs = options.timeoutMs || 30000;

  return new Promise((resolve, reject) => {
    const tcp = net.connect({host: host, port: port});
    let head = Buffer.alloc(0);
    const fail = (why) => {
      tcp.destroy();
      reject(new Error(`cannot open a WebSocket on ${url}: ${why}`));
    };
    tcp.setTimeout(timeoutMs, () => fail(`no answer in ${timeoutMs / 1000} s`));
    tcp.on('error', (e) => fail(e.message));
    tcp.on('close', () => fail('the server closed the connection during the handshake'));
    tcp.on('connect', () => {
      // Commands are small and each waits for its reply: no Nagle delay.
      tcp.setNoDelay(true);
      tcp.write([`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, 'Upgrade: websocket', 'Connection: Upgrade',
                 `Sec-WebSocket-Key: ${key}`, 'Sec-WebSocket-Version: 13', '', ''].join('\r\n'));
    });
    const onHead = (chunk) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 65536) fail('no end to the HTTP response header');
        return;
      }
      const lines = head.subarray(0, end).toString('latin1').split('\r\n');
      const headers = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (!/^HTTP\/1\.1 101\b/.test(lines[0])) return fail(`the server answered "${lines[0]}", not 101 Switching Protocols`);
      if ((headers['upgrade'] || '').toLowerCase() !== 'websocket' || !/\bupgrade\b/i.test(headers['connection'] || ''))
        return fail('the server did not upgrade the connection to websocket');
      // Proves that the server read our key as a WebSocket server would.
      if (headers['sec-websocket-accept'] !== expectedAccept)
        return fail(`wrong Sec-WebSocket-Accept (${headers['sec-websocket-accept']}, expected ${expectedAccept})`);
      if (headers['sec-websocket-extensions'])
        return fail(`the server chose extensions we did not ask for: ${headers['sec-websocket-extensions']}`);
      tcp.removeAllListeners();
      tcp.setTimeout(0);
      // What came after the header already belongs to the frames.
      resolve(new WebSocketClient(tcp, head.subarray(end + 4)));
    };
    tcp.on('data', onHead);
  });
}

class WebSocketClient {
  constructor(tcp, rest) {
    this.tcp = tcp;
    this.onmessage = null;
    this.onclose = null;
    this.open = true;         // false once a close frame went out or the TCP connection ended
    this.closeSent = false;
    this.reported = false;    // onclose called
    this.done = false;        // no more frames read: a close frame came, or a protocol error
    this.why = null;          // what onclose will say
    this.chunks = rest.length ? [rest] : [];  // received bytes not yet parsed as frames
    this.buffered = rest.length;
    this.fragments = null;    // the payloads of a fragmented message so far
    this.decoder = new TextDecoder('utf-8', {fatal: true});
    tcp.on('data', (chunk) => this.received(chunk));
    tcp.on('error', (e) => (this.why = this.why || `connection error: ${e.message}`));
    tcp.on('close', () => this.ended());
    // Frames that came with the handshake's answer: read once the caller has
    // set onmessage (its await resumes before this runs, and before more data).
    if (rest.length) setImmediate(() => this.parse());
  }

  // Sends one text message, as a single masked frame.
  send(text) {
    if (!this.open) throw new Error(`the WebSocket is closed (${this.why})`);
    this.tcp.write(encodeFrame(OP.text, Buffer.from(String(text), 'utf8')));
  }

  // Starts the closing handshake; the TCP connection ends once the server
  // answers with its close frame, or after a second at most.
  close(code = 1000, reason = '') {
    if (this.reported || this.closeSent) return;
    this.why = this.why || `closed by us (${code}${reason ? ' ' + reason : ''})`;
    this.sendClose(code, reason);
    setTimeout(() => this.tcp.destroy(), 1000).unref();
  }

  sendClose(code, reason) {
    if (this.closeSent || this.tcp.destroyed) return;
    this.closeSent = true;
    this.open = false;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.tcp.write(encodeFrame(OP.close, payload));
  }

  // A protocol error of the server: close with code (RFC 6455 7.4.1) and say why.
  fail(code, why) {
    this.why = this.why || `protocol error: ${why}`;
    this.done = true;
    this.sendClose(code, why.slice(0, 100));
    this.tcp.end();
    setTimeout(() => this.tcp.destroy(), 1000).unref();
  }

  ended() {
    this.open = false;
    if (this.reported) return;
    this.reported = true;
    this.fragments = null;
    this.why = this.why || 'the connection closed without a close frame';
    if (this.onclose) this.onclose(this.why);
  }

  received(chunk) {
    // Chunks are only joined once a whole frame is there, so that a large
    // message arriving in many TCP chunks is copied once, not once per chunk.
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.parse();
  }

  // Handles every whole frame received so far.
  parse() {
    while (!this.done && this.buffered >= 2) {
      const h = this.peek(Math.min(this.buffered, 14));
      const fin = (h[0] & 0x80) !== 0;
      const opcode = h[0] & 0x0f;
      const masked = (h[1] & 0x80) !== 0;
      let length = h[1] & 0x7f;
      let headerLength = 2;
      if (length === 126) headerLength = 4;
      else if (length === 127) headerLength = 10;
      if (h.length < headerLength) return;
      if (length === 126) {
        length = h.readUInt16BE(2);
      } else if (length === 127) {
        const high = h.readUInt32BE(2);
        if (high >= 0x200000) return this.fail(1009, 'a frame longer than 2^53 bytes');
        length = high * 0x100000000 + h.readUInt32BE(6);
      }
      if (h[0] & 0x70) return this.fail(1002, 'reserved bits set (no extension was negotiated)');
      // A server never masks its frames (RFC 6455 5.1).
      if (masked) return this.fail(1002, 'a masked frame from the server');
      if (this.buffered < headerLength + length) return;
      const payload = this.take(headerLength + length).subarray(headerLength);
      this.handleFrame(fin, opcode, payload);
    }
  }

  // The first n bytes received (n <= buffered), joining chunks if needed.
  peek(n) {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }

  // Removes and returns the first n bytes received.
  take(n) {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = all.length > n ? [all.subarray(n)] : [];
    this.buffered -= n;
    return all.subarray(0, n);
  }

  handleFrame(fin, opcode, payload) {
    if (opcode >= 0x8) {
      // Control frames may come between the fragments of a message.
      if (!fin || payload.length > 125) return this.fail(1002, 'a fragmented or long control frame');
      if (opcode === OP.ping) {
        if (!this.closeSent) this.tcp.write(encodeFrame(OP.pong, payload));
      } else if (opcode === OP.close) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        const reason = payload.subarray(2).toString('utf8');
        this.why = this.why || `closed by the server (${code}${reason ? ' ' + reason : ''})`;
        // Answer with the same code, then the server closes TCP (RFC 6455 7.1.1).
        this.done = true;
        this.sendClose(code === 1005 ? 1000 : code, '');
        this.tcp.end();
        setTimeout(() => this.tcp.destroy(), 1000).unref();
      } else if (opcode !== OP.pong) {
        return this.fail(1002, `unknown opcode ${opcode}`);
      }
      return;
    }
    if (opcode === OP.continuation) {
      if (!this.fragments) return this.fail(1002, 'a continuation frame without a message to continue');
      this.fragments.push(payload);
    } else if (opcode === OP.text) {
      if (this.fragments) return this.fail(1002, 'a new message before the end of the fragmented one');
      this.fragments = [payload];
    } else if (opcode === OP.binary) {
      return this.fail(1003, 'a binary message (BiDi sends text)');
    } else {
      return this.fail(1002, `unknown opcode ${opcode}`);
    }
    if (!fin) return;
    const data = this.fragments.length === 1 ? this.fragments[0] : Buffer.concat(this.fragments);
    this.fragments = null;
    let text;
    try {
      text = this.decoder.decode(data);
    } catch (e) {
      return this.fail(1007, 'a text message that is not UTF-8');
    }
    if (this.onmessage && !this.closeSent) this.onmessage(text);
  }
}

// One frame from the client: FIN set, masked with a random key as a client
// must (RFC 6455 5.3), the length in 7, 16 or 64 bits.
function encodeFrame(opcode, payload) {
  const n = payload.length;
  const lengthBytes = n < 126 ? 0 : n < 65536 ? 2 : 8;
  const out = Buffer.allocUnsafe(2 + lengthBytes + 4 + n);
  out[0] = 0x80 | opcode;
  if (lengthBytes === 0) {
    out[1] = 0x80 | n;
  } else if (lengthBytes === 2) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(n, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeUInt32BE(Math.floor(n / 0x100000000), 2);
    out.writeUInt32BE(n % 0x100000000, 6);
  }
  const maskAt = 2 + lengthBytes;
  crypto.randomFillSync(out, maskAt, 4);
  for (let i = 0; i < n; ++i) out[maskAt + 4 + i] = payload[i] ^ out[maskAt + (i & 3)];
  return out;
}

module.exports = {connect, WebSocketClient};
