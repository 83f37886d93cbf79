// The WebSocket client of firefox.js (tests/report/websocket.js) against a
// WebSocket server written here on `net`, in the same process:
//   node websocket_test.js
// the handshake (a fresh random key, the accept checked: a wrong one or no 101
// fails connect), masked messages from the client with 7-, 16- and 64-bit
// lengths, messages from the server of those lengths, in 3 fragments (with a
// ping between two), one byte per TCP chunk and several frames in one chunk,
// ping answered by pong, a protocol error, and closing from either side.
'use strict';
const crypto = require('crypto');
const net = require('net');
const {connect} = require('./websocket.js');

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const failures = [];
let checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) failures.push(what);
}

// A test must not hang on a client that never answers.
const deadline = setTimeout(() => finish('timed out after 30 s'), 30000);

// ------------------------------------------------------------------ server

// One server frame: unmasked unless mask is set; fin false for a fragment.
function serverFrame(opcode, payload, {fin = true, mask = false} = {}) {
  const n = payload.length;
  const ext = n < 126 ? 0 : n < 65536 ? 2 : 8;
  const head = Buffer.alloc(2 + ext + (mask ? 4 : 0));
  head[0] = (fin ? 0x80 : 0) | opcode;
  head[1] = (mask ? 0x80 : 0) | (ext === 0 ? n : ext === 2 ? 126 : 127);
  if (ext === 2) head.writeUInt16BE(n, 2);
  if (ext === 8) head.writeBigUInt64BE(BigInt(n), 2);
  if (!mask) return Buffer.concat([head, payload]);
  const key = crypto.randomBytes(4);
  key.copy(head, 2 + ext);
  return Buffer.concat([head, Buffer.from(payload.map((b, i) => b ^ key[i & 3]))]);
}
const text = (s, options) => serverFrame(0x1, Buffer.from(s, 'utf8'), options);

// What the server saw, for the checks.
const seen = {keys: [], frames: [], pongs: [], closes: []};

// A client connection: the handshake (the path picks a broken one), then the
// client's frames, each message a command.
function serve(tcp) {
  tcp.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  tcp.on('error', () => null);
  tcp.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
      buffer = buffer.subarray(end + 4);
      const headers = {};
      for (const l of lines.slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      const key = headers['sec-websocket-key'] || '';
      seen.keys.push(key);
      check(/^GET \/\S* HTTP\/1\.1$/.test(lines[0]), `request line: ${lines[0]}`);
      check(/^websocket$/i.test(headers['upgrade']) && /upgrade/i.test(headers['connection']) &&
            headers['sec-websocket-version'] === '13' && headers['host'] === `127.0.0.1:${port}`,
            `upgrade request headers: ${JSON.stringify(headers)}`);
      check(Buffer.from(key, 'base64').length === 16, `Sec-WebSocket-Key is 16 bytes in base64: ${key}`);
      const path = lines[0].split(' ')[1];
      if (path === '/not-101') return tcp.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      const accept = crypto.createHash('sha1').update(key + (path === '/bad-accept' ? 'x' : GUID)).digest('base64');
      let reply = `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`;
      // A first message in the same chunk as the handshake's answer.
      if (path === '/greet') reply = Buffer.concat([Buffer.from(reply), text('hello')]);
      tcp.write(reply);
      upgraded = true;
    }
    for (;;) {
      if (buffer.length < 2) return;
      const masked = (buffer[1] & 0x80) !== 0;
      let n = buffer[1] & 0x7f;
      let at = 2;
      let form = 7;
      if (n === 126) {
        if (buffer.length < 4) return;
        n = buffer.readUInt16BE(2), at = 4, form = 16;
      } else if (n === 127) {
        if (buffer.length < 10) return;
        n = Number(buffer.readBigUInt64BE(2)), at = 10, form = 64;
      }
      const key = masked ? buffer.subarray(at, at + 4) : Buffer.alloc(4);
      if (masked) at += 4;
      if (buffer.length < at + n) return;
      const payload = Buffer.from(buffer.subarray(at, at + n).map((b, i) => b ^ key[i & 3]));
      const frame = {fin: (buffer[0] & 0x80) !== 0, opcode: buffer[0] & 0x0f, masked, form, key: key.toString('hex'), payload};
      buffer = buffer.subarray(at + n);
      seen.frames.push(frame);
      command(tcp, frame);
    }
  });
}

function command(tcp, frame) {
  if (frame.opcode === 0xa) return seen.pongs.push(frame.payload.toString());
  if (frame.opcode === 0x8) {
    seen.closes.push({code: frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : null});
    // Answers a close it did not start, then ends the connection.
    if (!tcp.closeSent) tcp.write(serverFrame(0x8, frame.payload.subarray(0, 2)));
    return tcp.end();
  }
  const message = frame.payload.toString('utf8');
  const space = message.indexOf(' ');
  const [verb, arg] = space < 0 ? [message, ''] : [message.slice(0, space), message.slice(space + 1)];
  if (verb === 'echo') {
    tcp.write(text(arg));
  } else if (verb === 'frag3' || verb === 'frag3ping') {
    // The bytes cut in three, through a multi-byte character if there is one.
    const b = Buffer.from(arg, 'utf8');
    const cut1 = Math.floor(b.length / 3) + 1, cut2 = Math.floor((2 * b.length) / 3) + 1;
    tcp.write(serverFrame(0x1, b.subarray(0, cut1), {fin: false}));
    if (verb === 'frag3ping') tcp.write(serverFrame(0x9, Buffer.from('between')));
    tcp.write(serverFrame(0x0, b.subarray(cut1, cut2), {fin: false}));
    tcp.write(serverFrame(0x0, b.subarray(cut2), {fin: true}));
  } else if (verb === 'bytes') {
    // One byte per write, a few milliseconds apart: one per TCP chunk.
    const all = text(arg);
    let i = 0;
    const next = () => {
      if (i < all.length) tcp.write(all.subarray(i, ++i), () => setTimeout(next, 1));
    };
    next();
  } else if (verb === 'many') {
    // Four messages (one in two fragments) and a ping in one write.
    tcp.write(Buffer.concat([text('one'), text('two'.repeat(100)), serverFrame(0x9, Buffer.from('in the middle')),
                             text('thr', {fin: false}), serverFrame(0x0, Buffer.from('ee')), text('four')]));
  } else if (verb === 'ping') {
    tcp.write(serverFrame(0x9, Buffer.from(arg)));
  } else if (verb === 'close') {
    tcp.closeSent = true;
    tcp.write(serverFrame(0x8, Buffer.concat([Buffer.from([0x03, 0xe8]), Buffer.from('bye')])));
  } else if (verb === 'masked') {
    tcp.write(text('a masked frame', {mask: true}));
  }
}

// ------------------------------------------------------------------ client

// Rejects when promise has not settled in 5 s, saying what was awaited.
function within5s(promise, what) {
  let timer;
  const timeout = new Promise((resolve, reject) => (timer = setTimeout(() => reject(new Error(`nothing in 5 s: ${what}`)), 5000)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Each message of socket, in order, awaited one at a time; and its close.
function listen(socket) {
  const queue = [];
  const waiting = [];
  socket.onmessage = (m) => (waiting.length ? waiting.shift()(m) : queue.push(m));
  const closed = new Promise((resolve) => (socket.onclose = resolve));
  socket.whenClosed = (what) => within5s(closed, what);
  socket.nextMessage = (what) =>
    within5s(queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)), what);
  return socket;
}

// Text of n characters, varied enough that a wrong mask byte shows, with
// 2-, 3- and 4-byte UTF-8 characters.
function sample(n) {
  const alphabet = Array.from('abcdefghijklmnopqrstuvwxyz0123456789 {}":,é∑€😀');  // characters, not UTF-16 units
  let s = '';
  let x = 12345;
  while (s.length < n) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += alphabet[x % alphabet.length];
  }
  return s;
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const url = `ws://127.0.0.1:${port}`;
  const socket = listen(await connect(`${url}/session`));

  // Messages both ways: 7-bit, 16-bit and 64-bit lengths (200 KB).
  for (const [s, form] of [['short é', 7], [sample(1000), 16], [sample(200 * 1024), 64]]) {
    const before = seen.frames.length;
    socket.send('echo ' + s);
    const back = await socket.nextMessage(`the echo of ${s.length} characters`);
    const f = seen.frames[before];
    check(back === s, `echo of ${s.length} characters: got ${back.length} characters${back.length < 50 ? ': ' + back : ''}`);
    check(f && f.masked && f.fin && f.opcode === 1 && f.form === form,
          `client frame of ${s.length} characters: masked text with a ${form}-bit length (${f && JSON.stringify({...f, payload: undefined})})`);
  }
  const keys = new Set(seen.frames.map((f) => f.key));
  check(keys.size === seen.frames.length, `a fresh mask per frame: ${[...keys].join(' ')}`);

  // Fragmented messages, with a ping between the fragments of one.
  const long = sample(5000);
  socket.send('frag3 ' + long);
  check((await socket.nextMessage('a message in 3 fragments')) === long, 'a message in 3 fragments');
  socket.send('frag3ping ∑∑∑∑∑∑');
  check((await socket.nextMessage('a message in 3 fragments with a ping')) === '∑∑∑∑∑∑', 'a message in 3 fragments (cut inside characters) with a ping between');
  await wait(50);
  check(seen.pongs.includes('between'), `the ping between fragments answered: pongs ${JSON.stringify(seen.pongs)}`);

  // One byte per TCP chunk: a short frame and a 16-bit one.
  for (const s of ['é byte by byte', sample(300)]) {
    socket.send('bytes ' + s);
    check((await socket.nextMessage(`${s.length} characters one byte at a time`)) === s, `a ${s.length}-character message one byte at a time`);
  }

  // Several frames, a ping among them, in one chunk.
  socket.send('many');
  const got = [];
  for (let i = 0; i < 4; ++i) got.push(await socket.nextMessage(`message ${i + 1} of 4 in one chunk (got ${JSON.stringify(got)})`));
  check(JSON.stringify(got) === JSON.stringify(['one', 'two'.repeat(100), 'three', 'four']), `several frames in one chunk: ${got}`);

  // Ping answered by a pong with its payload.
  socket.send('ping are you there');
  await wait(100);
  check(seen.pongs.includes('are you there'), `ping answered by pong: pongs ${JSON.stringify(seen.pongs)}`);
  const pong = seen.frames.find((f) => f.opcode === 0xa && f.payload.toString() === 'are you there');
  check(pong && pong.masked, 'the pong is masked');

  // The server closes: the client answers with the same code and reports it.
  const closesBefore = seen.closes.length;
  socket.send('close');
  const why = await socket.whenClosed("onclose after the server's close frame");
  check(/closed by the server \(1000 bye\)/.test(why), `onclose after the server's close: ${why}`);
  check(seen.closes.length === closesBefore + 1 && seen.closes[closesBefore].code === 1000,
        `the client answered the close: ${JSON.stringify(seen.closes)}`);
  let threw = false;
  try {
    socket.send('echo too late');
  } catch (e) {
    threw = true;
  }
  check(threw, 'send after close throws');

  // The client closes: the server sees code 1000, onclose is called once.
  const second = listen(await connect(`${url}/greet`));
  check((await second.nextMessage('a message with the handshake answer')) === 'hello', 'a message in the same chunk as the handshake answer');
  let closeCalls = 0;
  const onclose = second.onclose;
  second.onclose = (w) => (++closeCalls, onclose(w));
  second.close();
  const why2 = await second.whenClosed('onclose after close()');
  await wait(50);
  check(/closed by us/.test(why2) && closeCalls === 1, `onclose after close(): ${why2} (${closeCalls} calls)`);
  check(seen.closes.length === closesBefore + 2 && seen.closes[closesBefore + 1].code === 1000,
        `the server saw the client's close: ${JSON.stringify(seen.closes)}`);
  check(seen.keys.length >= 2 && seen.keys[0] !== seen.keys[1], `a fresh key per connection: ${seen.keys}`);

  // A masked frame from the server is a protocol error: close 1002.
  const third = listen(await connect(`${url}/x`));
  third.send('masked');
  const why3 = await third.whenClosed('onclose after a masked server frame');
  check(/protocol error: a masked frame/.test(why3), `a masked server frame: ${why3}`);
  check(seen.closes.length === closesBefore + 3 && seen.closes[closesBefore + 2].code === 1002,
        `close 1002 after a masked server frame: ${JSON.stringify(seen.closes)}`);

  // Handshakes that must fail.
  for (const [path, expected] of [['/bad-accept', /wrong Sec-WebSocket-Accept/], ['/not-101', /404 Not Found/]]) {
    const r = await connect(url + path).then(() => 'connected', (e) => e.message);
    check(expected.test(r), `connect to ${path} fails: ${r}`);
  }
  const closed = await connect(`ws://127.0.0.1:${unusedPort}/`).then(() => 'connected', (e) => e.message);
  check(/ECONNREFUSED/.test(closed), `connect to a closed port fails: ${closed}`);
}

function finish(error) {
  if (error) failures.push(error.split('\n').slice(0, 3).join('\n'));
  clearTimeout(deadline);
  if (failures.length) {
    console.error(`websocket_test.js: ${failures.length} of ${checks} checks failed:`);
    for (const f of failures.slice(0, 30)) console.error('  ' + f.slice(0, 400));
    process.exit(1);
  }
  console.log(`websocket_test.js: ${checks} checks passed`);
  process.exit(0);
}

// A free port and one nobody listens on.
let port;
let unusedPort;
const server = net.createServer(serve);
const spare = net.createServer();
server.listen(0, '127.0.0.1', () => {
  port = server.address().port;
  spare.listen(0, '127.0.0.1', () => {
    unusedPort = spare.address().port;
    spare.close(() => main().then(() => finish(), (e) => finish(`exception: ${e.stack}`)));
  });
});
