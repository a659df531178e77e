// The chat page: connects with the STOMP client (stomp.js) to /chat-ws on this page's origin, shows every line
// of /topic/chat and sends the form's line to /app/chat.
'use strict';
(function () {
  const state = document.getElementById('chat-state');
  const lines = document.getElementById('chat-lines');
  const form = document.getElementById('chat-form');
  const send = document.getElementById('chat-send');
  const name = document.getElementById('chat-name');
  const text = document.getElementById('chat-text');
  const base = new URL('chat-ws', location.href);
  base.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';

  const stomp = Stomp.connect(base.href, {
    onConnect() {
      stomp.subscribe('/topic/chat', body => {
        const line = JSON.parse(body);
        const item = document.createElement('li');
        item.textContent = line.name + ': ' + line.text;
        item.title = line.time;
        lines.appendChild(item);
        while (lines.children.length > 100) {
          lines.removeChild(lines.firstChild);
        }
      });
      state.textContent = 'connected';
      send.disabled = false;
    },
    onClose() {
      state.textContent = 'closed';
      send.disabled = true;
    },
    onError(frame) {
      state.textContent = 'error: ' + (frame.headers.message || 'unknown');
    },
  });

  form.addEventListener('submit', event => {
    event.preventDefault();
    stomp.sendJson('/app/chat', { name: name.value, text: text.value });
    text.value = '';
    text.focus();
  });
})();
