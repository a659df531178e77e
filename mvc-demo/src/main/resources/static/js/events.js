// Shows the server's tick events as they arrive (EventSource reconnects by itself if the stream drops).
'use strict';
(function () {
  const list = document.getElementById('events');
  const state = document.getElementById('events-state');
  const source = new EventSource('api/events?count=1000&intervalMs=1000');
  source.onopen = () => { state.textContent = 'open'; };
  source.onerror = () => { state.textContent = 'reconnecting'; };
  source.addEventListener('tick', event => {
    const tick = JSON.parse(event.data);
    const item = document.createElement('li');
    item.textContent = 'tick ' + tick.n + ' at ' + tick.time;
    list.appendChild(item);
    while (list.children.length > 20) {
      list.removeChild(list.firstChild);
    }
  });
})();
