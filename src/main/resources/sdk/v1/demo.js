// The demo page's own script (a file, as its Content-Security-Policy allows no inline script): the API key comes
// from ?key=, and the widget talks to the instance that served the page.
(() => {
  'use strict';
  const widget = document.getElementById('widget');
  const input = document.getElementById('key');
  const status = document.getElementById('status');
  const key = new URLSearchParams(location.search).get('key') || '';
  input.value = key;
  widget.addEventListener('herald-update', (event) => {
    status.textContent = event.detail.notifications.length + ' notification(s) for this key.';
  });
  widget.addEventListener('herald-error', (event) => {
    status.textContent = 'Herald answered ' + event.detail.status + '; next try in ' + Math.round(event.detail.retryIn) + ' s.';
  });
  widget.setAttribute('base-url', location.origin);
  if (key) widget.setAttribute('api-key', key);
  else status.textContent = 'Enter an API key (create one through the management API: README, First five minutes).';
})();
