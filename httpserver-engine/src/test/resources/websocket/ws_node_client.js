// Node `ws` client with perMessageDeflate against Weft's echo endpoint; prints one JSON object.
// usage: node ws_node_client.js URL
const WebSocket = require('ws');

const url = process.argv[2];
const out = {};
const ws = new WebSocket(url, { perMessageDeflate: { threshold: 0 } });
const received = [];
let waiting = null;

ws.on('message', (data, isBinary) => {
  received.push({ data, isBinary });
  if (waiting) { const w = waiting; waiting = null; w(); }
});
ws.on('pong', (data) => { out.pong = data.toString(); if (waiting) { const w = waiting; waiting = null; w(); } });
ws.on('error', (e) => { out.error = String(e); console.log(JSON.stringify(out)); process.exit(1); });

function next() {
  return new Promise((resolve) => {
    if (received.length > 0) { resolve(received.shift()); return; }
    waiting = () => resolve(received.shift());
  });
}

ws.on('open', async () => {
  out.extensions = ws.extensions;
  ws.send('hello from node');
  out.text = (await next()).data.toString();
  const big = Buffer.alloc(500000, 'abcdefghij');
  ws.send(big);
  const echoed = await next();
  out.bigEqual = Buffer.compare(echoed.data, big) === 0 && echoed.isBinary;
  ws.send('frag', { fin: false });
  ws.send('ment', { fin: false });
  ws.send('ed', { fin: true });
  out.fragmented = (await next()).data.toString();
  await new Promise((resolve) => { waiting = resolve; ws.ping('node-ping'); });
  ws.close(1000, 'done');
});

ws.on('close', (code, reason) => {
  out.closeCode = code;
  out.closeReason = reason.toString();
  console.log(JSON.stringify(out));
  process.exit(0);
});
setTimeout(() => { out.error = 'timeout'; console.log(JSON.stringify(out)); process.exit(2); }, 20000);
