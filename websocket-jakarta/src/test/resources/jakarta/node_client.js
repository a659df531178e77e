// Node `ws` client for the Jakarta endpoints; prints one JSON object.
// usage: node node_client.js URL deflate|none
const WebSocket = require('ws');

const [url, mode] = process.argv.slice(2);
const out = {};
const ws = new WebSocket(url, ['chat'], { perMessageDeflate: mode === 'deflate' ? { threshold: 0 } : false });
const received = [];
let waiting = null;
ws.on('message', (data, isBinary) => {
  received.push({ data, isBinary });
  if (waiting) { const w = waiting; waiting = null; w(); }
});
ws.on('error', (e) => { out.error = String(e); console.log(JSON.stringify(out)); process.exit(1); });
function next() {
  return new Promise((resolve) => {
    if (received.length > 0) { resolve(received.shift()); return; }
    waiting = () => resolve(received.shift());
  });
}
ws.on('open', async () => {
  out.extensions = ws.extensions;
  out.subprotocol = ws.protocol;
  ws.send('hello from node');
  out.text = (await next()).data.toString();
  const bin = Buffer.alloc(70000, 'xyz');
  ws.send(bin);
  const echoed = await next();
  out.binaryEqual = echoed.isBinary && Buffer.compare(echoed.data, bin) === 0;
  ws.close(1000, 'done');
});
ws.on('close', (code) => { out.closeCode = code; console.log(JSON.stringify(out)); process.exit(0); });
setTimeout(() => { out.error = 'timeout'; console.log(JSON.stringify(out)); process.exit(2); }, 20000);
