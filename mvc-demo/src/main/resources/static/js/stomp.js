// A small STOMP 1.2 client over a browser WebSocket: CONNECT, SUBSCRIBE, SEND and the frames the server sends
// back (CONNECTED, MESSAGE, ERROR), with the header escapes of STOMP 1.2. Enough for the chat page; no
// heart-beats, receipts or transactions.
'use strict';
const Stomp = (function () {
  const NUL = '\u0000';

  function escape(value) {
    return String(value).replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/:/g, '\\c');
  }

  function unescape(value) {
    return value.replace(/\\(.)/g, (all, c) => ({ '\\': '\\', r: '\r', n: '\n', c: ':' })[c] ?? all);
  }

  function frame(command, headers, body) {
    const lines = [command];
    const raw = command === 'CONNECT'; // STOMP 1.2: CONNECT headers are not escaped
    for (const [name, value] of Object.entries(headers)) {
      lines.push(raw ? name + ':' + value : escape(name) + ':' + escape(value));
    }
    return lines.join('\n') + '\n\n' + (body ?? '') + NUL;
  }

  // One frame of text (without its NUL): { command, headers, body }; null for a heart-beat (EOLs alone).
  function parse(text) {
    const stripped = text.replace(/^(\r?\n)+/, '');
    if (stripped === '') {
      return null;
    }
    const end = stripped.search(/\r?\n\r?\n/);
    const head = end < 0 ? stripped : stripped.substring(0, end);
    const body = end < 0 ? '' : stripped.substring(end).replace(/^\r?\n\r?\n/, '');
    const [command, ...lines] = head.split(/\r?\n/);
    const headers = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = unescape(line.substring(0, colon));
      if (!(name in headers)) { // STOMP 1.2: the first of repeated headers counts
        headers[name] = unescape(line.substring(colon + 1));
      }
    }
    return { command, headers, body };
  }

  // Connects to a STOMP endpoint (ws:// or wss:// URL); callbacks: onConnect(), onClose(event), onError(frame).
  function connect(url, callbacks) {
    const socket = new WebSocket(url, ['v12.stomp']);
    const subscriptions = new Map();
    let buffer = '';
    let nextId = 0;
    const client = {
      subscribe(destination, onMessage) {
        const id = 'sub-' + nextId++;
        subscriptions.set(id, onMessage);
        socket.send(frame('SUBSCRIBE', { id, destination }));
        return id;
      },
      sendJson(destination, value) {
        socket.send(frame('SEND', { destination, 'content-type': 'application/json' }, JSON.stringify(value)));
      },
      disconnect() {
        socket.send(frame('DISCONNECT', {}));
        socket.close();
      },
    };
    socket.onopen = () => socket.send(frame('CONNECT', { 'accept-version': '1.2', host: location.hostname }));
    socket.onclose = event => callbacks.onClose?.(event);
    socket.onmessage = event => {
      buffer += event.data;
      let end;
      while ((end = buffer.indexOf(NUL)) >= 0) {
        const received = parse(buffer.substring(0, end));
        buffer = buffer.substring(end + 1);
        if (received === null) {
          continue;
        }
        if (received.command === 'CONNECTED') {
          callbacks.onConnect?.();
        } else if (received.command === 'MESSAGE') {
          subscriptions.get(received.headers.subscription)?.(received.body, received.headers);
        } else if (received.command === 'ERROR') {
          callbacks.onError?.(received);
        }
      }
      buffer = buffer.replace(/^(\r?\n)+$/, ''); // heart-beats between frames
    };
    return client;
  }

  return { connect, frame, parse };
})();
