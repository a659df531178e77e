// Weft demo page: live statistics from the SSE stream, plus buttons for the JSON and upload endpoints.
'use strict';

const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat();

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
}

function duration(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + s + 's';
}

function setState(text, ok) {
  const badge = $('live-state');
  badge.textContent = text;
  badge.className = 'badge ' + (ok ? 'ok' : 'bad');
}

// ---- live statistics --------------------------------------------------------------------------------------

let previous = null;

function show(stats) {
  if (!stats.available) {
    setState('not running on Weft', false);
    return;
  }
  for (const key of ['connectionsActive', 'exchangesActive', 'requests', 'connectionsAccepted',
    'connectionsRejected', 'handlerExceptions']) {
    $('s-' + key).textContent = number.format(stats[key]);
  }
  $('s-bytesReceived').textContent = bytes(stats.bytesReceived);
  $('s-bytesSent').textContent = bytes(stats.bytesSent);
  $('s-closes').textContent = number.format(stats.idleCloses) + ' / ' + number.format(stats.timeoutCloses);
  const errors = Object.entries(stats.protocolErrors);
  const total = errors.reduce((sum, [, n]) => sum + n, 0);
  const errorsCell = $('s-errors');
  errorsCell.textContent = number.format(total);
  errorsCell.title = errors.map(([kind, n]) => kind + ': ' + n).join('\n') || 'none';
  $('s-uptime').textContent = duration(stats.uptimeSeconds);
  const h2 = stats.http2;
  $('s-h2Connections').textContent = number.format(h2.connections);
  $('s-h2StreamsActive').textContent = number.format(h2.streamsActive);
  $('s-h2StreamsOpened').textContent = number.format(h2.streamsOpened);
  const ws = stats.webSocket;
  $('s-wsActive').textContent = number.format(ws.sessionsActive);
  $('s-wsOpened').textContent = number.format(ws.sessionsOpened) + ' (' + number.format(ws.sessionsOverHttp2) + ')';
  $('s-wsMessages').textContent = number.format(ws.messagesReceived) + ' / ' + number.format(ws.messagesSent);
  const h2Resets = $('s-h2Resets');
  h2Resets.textContent = number.format(h2.streamsReset) + ' / '
    + number.format(h2.goAwaysSent + h2.goAwaysReceived);
  h2Resets.title = 'GOAWAY sent: ' + h2.goAwaysSent + '\nGOAWAY received: ' + h2.goAwaysReceived;
  if (previous && stats.time > previous.time) {
    const rate = (stats.requests - previous.requests) * 1000 / (stats.time - previous.time);
    $('s-rate').textContent = rate.toFixed(1);
  }
  previous = stats;
}

function pollOnce() {
  fetch('api/stats')
    .then((r) => r.json())
    .then((stats) => {
      show(stats);
      setState('polling', true);
    })
    .catch(() => setState('server unreachable', false));
}

fetch('api/protocol')
  .then((r) => r.json())
  .then((p) => {
    $('s-protocol').textContent = p.protocol + (p.secure ? ' (TLS)' : '');
  })
  .catch(() => {
    $('s-protocol').textContent = '?';
  });

if ('EventSource' in window) {
  const source = new EventSource('api/ticks');
  source.addEventListener('stats', (e) => {
    show(JSON.parse(e.data));
    if (previous) {
      setState('live', true);
    }
  });
  // EventSource reconnects by itself; tell the reader meanwhile.
  source.onerror = () => setState('reconnecting…', false);
} else {
  pollOnce();
  setInterval(pollOnce, 1000);
}

// ---- JSON endpoints -------------------------------------------------------------------------------------------

async function call(output, request) {
  const out = $(output);
  out.textContent = '…';
  try {
    const response = await request();
    const text = await response.text();
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch (ignored) {
      // not JSON: show as is
    }
    out.textContent = 'HTTP ' + response.status + '\n' + body;
    out.className = 'out ' + (response.ok ? 'ok' : 'bad');
  } catch (e) {
    out.textContent = String(e);
    out.className = 'out bad';
  }
}

$('greeting-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = encodeURIComponent($('name').value);
  call('greeting-out', () => fetch('api/greeting?name=' + name));
});

$('echo-form').addEventListener('submit', (e) => {
  e.preventDefault();
  call('echo-out', () => fetch('api/echo', {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: $('echo-body').value,
  }));
});

$('upload-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const file = $('file').files[0];
  if (!file) {
    return;
  }
  call('upload-out', () => fetch('api/upload', {
    method: 'POST',
    headers: {'Content-Type': 'application/octet-stream'},
    body: file,
  }));
});
