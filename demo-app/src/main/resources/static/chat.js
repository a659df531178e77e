'use strict';

const $ = id => document.getElementById(id);
const log = $('chat-log');

function line(text, cls) {
  const item = document.createElement('li');
  item.textContent = text;
  if (cls) item.className = cls;
  log.appendChild(item);
  log.scrollTop = log.scrollHeight;
}

function state(text, ok) {
  $('chat-state').textContent = text;
  $('chat-state').className = 'badge ' + (ok ? 'ok' : 'bad');
}

const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host
    + location.pathname.replace(/[^/]*$/, '') + 'ws/chat';
const socket = new WebSocket(url);

socket.onopen = () => state('connected', true);
socket.onclose = event => state('closed (' + event.code + ')', false);
socket.onerror = () => state('error', false);
socket.onmessage = event => {
  const m = JSON.parse(event.data);
  if (m.type === 'welcome') {
    $('chat-name').textContent = m.name;
    $('chat-protocol').textContent = m.protocol;
  } else if (m.type === 'joined') {
    line(m.from + ' joined', 'note');
  } else if (m.type === 'left') {
    line(m.from + ' left', 'note');
  } else if (m.type === 'message') {
    line(m.from + ': ' + m.text);
  }
};

$('chat-form').addEventListener('submit', event => {
  event.preventDefault();
  const text = $('chat-text').value.trim();
  if (text && socket.readyState === WebSocket.OPEN) {
    socket.send(text);
    $('chat-text').value = '';
  }
});
