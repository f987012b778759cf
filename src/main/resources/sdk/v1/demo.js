// The demo page's own script (a file, as its Content-Security-Policy allows no inline script): the API key comes
// from ?key= (and a language from ?locale=), and the widget talks to the instance that served the page.
(() => {
  'use strict';
  const widget = document.getElementById('widget');
  const input = document.getElementById('key');
  const status = document.getElementById('status');
  const query = new URLSearchParams(location.search);
  const key = query.get('key') || '';
  input.value = key;
  widget.addEventListener('herald-update', (event) => {
    status.textContent = event.detail.notifications.length + ' notification(s) for this key.';
  });
  widget.addEventListener('herald-error', (event) => {
    status.textContent = 'Herald answered ' + event.detail.status + '; next try in ' + Math.round(event.detail.retryIn) + ' s.';
  });
  widget.setAttribute('base-url', location.origin);
  if (query.get('locale')) widget.setAttribute('locale', query.get('locale'));
  if (key) widget.setAttribute('api-key', key);
  else status.textContent = 'Enter an API key (create one through the management API: README, First five minutes).';
})();
