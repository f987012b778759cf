/*! Herald browser SDK v1: <herald-announcements> and a small client. No dependencies. Guide: docs/browser.md */
(() => {
  'use strict';
  const W = globalThis;
  const D = W.document;
  // Once per page; an element with id="Herald" is not us.
  if (W.Herald && W.Herald.version) return;

  // Read once; memory stays right where storage is refused or full, so nothing counts twice.
  const memory = {};
  const store = {
    get(name) {
      if (!memory[name]) {
        try { memory[name] = JSON.parse(W.localStorage.getItem('herald:' + name)) || []; } catch (e) { memory[name] = []; }
      }
      return memory[name];
    },
    add(name, value) {
      const values = store.get(name);
      if (values.includes(value)) return false;
      values.push(value);
      memory[name] = values.slice(-500);
      try { W.localStorage.setItem('herald:' + name, JSON.stringify(memory[name])); } catch (e) { /* kept in memory */ }
      return true;
    }
  };

  // Absolute http(s) only: every link and image passes here.
  const safeUrl = (value) => {
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value.trim())) return null;
    try { return new URL(value.trim()).href; } catch (e) { return null; }
  };

  const el = (tag, part, text) => {
    const node = D.createElement(tag);
    if (part) node.setAttribute('part', part);
    if (text != null) node.textContent = text;
    return node;
  };

  // No prototype: type "constructor" finds nothing.
  const table = (entries) => Object.assign(Object.create(null), entries);

  // Rich text (or HTML, parsed inert into the same tree) becomes DOM through an allow-list.
  const BLOCK = table({
    paragraph: 'p', blockquote: 'blockquote', bulletList: 'ul', bullet_list: 'ul', orderedList: 'ol',
    ordered_list: 'ol', listItem: 'li', list_item: 'li', codeBlock: 'pre', code_block: 'pre',
    horizontalRule: 'hr', horizontal_rule: 'hr', hardBreak: 'br', hard_break: 'br'
  });
  const MARK = table({ bold: 'strong', strong: 'strong', italic: 'em', em: 'em', underline: 'u', strike: 's', code: 'code' });
  const textOf = (node, depth = 0) => !node || typeof node !== 'object' || depth > 64 ? ''
    : node.type === 'text' ? String(node.text ?? '')
    : [].concat(node.content || []).map((child) => textOf(child, depth + 1)).join('');

  const wrap = (mark, child) => {
    const type = mark && mark.type;
    if (type === 'link') {
      const href = safeUrl(mark.attrs && mark.attrs.href);
      if (!href) return child;
      const a = el('a');
      a.href = href;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.append(child);
      return a;
    }
    if (!MARK[type]) return child;
    const node = el(MARK[type]);
    node.append(child);
    return node;
  };

  const renderNode = (node, parent, depth) => {
    if (!node || typeof node !== 'object') return;
    const type = node.type;
    const attrs = node.attrs || {};
    if (type === 'text') {
      parent.append([].concat(node.marks || []).reduceRight((child, mark) => wrap(mark, child), D.createTextNode(textOf(node))));
      return;
    }
    let tag = BLOCK[type];
    if (type === 'heading') tag = 'h' + Math.min(6, Math.max(3, (parseInt(attrs.level, 10) || 1) + 2));
    if (type === 'image') {
      const src = safeUrl(attrs.src);
      if (src) {
        const img = el('img');
        img.src = src;
        img.alt = String(attrs.alt ?? '');
        parent.append(img);
      }
      return;
    }
    if (type === 'doc' && depth === 0) tag = null;
    else if (!tag || depth > 32) {
      // Unknown or too deep: text only.
      parent.append(D.createTextNode(textOf(node)));
      return;
    }
    const target = tag ? el(tag) : parent;
    if (tag === 'ol' && parseInt(attrs.start, 10) > 1) target.start = parseInt(attrs.start, 10);
    for (const child of [].concat(node.content || [])) renderNode(child, target, depth + 1);
    if (tag) parent.append(target);
  };

  // HTML kept as the tree's nodes or marks; the rest keeps its text, or goes with it.
  const HTML_BLOCK = table({
    P: 'paragraph', BLOCKQUOTE: 'blockquote', UL: 'bulletList', OL: 'orderedList', LI: 'listItem', PRE: 'codeBlock',
    HR: 'horizontalRule', BR: 'hardBreak', IMG: 'image', H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6
  });
  const HTML_MARK = table({ STRONG: 'bold', B: 'bold', EM: 'italic', I: 'italic', U: 'underline', S: 'strike', DEL: 'strike', CODE: 'code', A: 'link' });
  const DROPPED = /^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT|NOEMBED|IFRAME|OBJECT|EMBED|HEAD|TITLE|BUTTON|INPUT|SELECT|OPTION|OPTGROUP|TEXTAREA|DATALIST|OUTPUT)$/;
  const fromHtml = (node, marks) => {
    if (node.nodeType === 3) return [{ type: 'text', text: node.data, marks }];
    // SVG and MathML go whole.
    if (node.nodeType !== 1 || node.namespaceURI !== 'http://www.w3.org/1999/xhtml' || DROPPED.test(node.tagName)) return [];
    const tag = node.tagName;
    const mark = HTML_MARK[tag];
    const inner = mark ? marks.concat({ type: mark, attrs: { href: node.getAttribute('href') } }) : marks;
    const content = [...node.childNodes].flatMap((child) => fromHtml(child, inner));
    const block = HTML_BLOCK[tag];
    if (typeof block === 'number') return [{ type: 'heading', attrs: { level: block }, content }];
    if (block === 'image') return [{ type: 'image', attrs: { src: node.getAttribute('src'), alt: node.getAttribute('alt') } }];
    return block ? [{ type: block, content }] : content;
  };

  // A message (tree, its JSON, HTML or text) as DOM nodes, never markup.
  const renderMessage = (message) => {
    const out = D.createDocumentFragment();
    let doc = message;
    if (typeof doc === 'string' && doc.trim()[0] === '{') {
      try { doc = JSON.parse(doc); } catch (e) { /* not a document: HTML or text */ }
    }
    if (typeof doc === 'string' && !/[<&]/.test(doc)) {
      // Plain text needs no parser.
      out.append(el('p', null, doc));
      return out;
    }
    if (typeof doc === 'string') {
      const body = new DOMParser().parseFromString(doc, 'text/html').body;
      doc = { type: 'doc', content: [...body.childNodes].flatMap((child) => fromHtml(child, [])) };
    }
    renderNode(doc, out, 0);
    return out;
  };

  // The client: the feed with ETag revalidation; interactions that survive leaving the page.
  const createClient = ({ apiKey, baseUrl = '' } = {}) => {
    if (!/^[A-Za-z0-9]{32,64}$/.test(String(apiKey))) throw new TypeError('Herald: api key must be 32 to 64 letters and digits');
    const base = String(baseUrl).replace(/\/+$/, '') + '/api/v1/public/';
    let etag = null;
    let last = [];
    const send = (path, body) => {
      const url = base + 'track/' + path;
      const data = JSON.stringify(body);
      try {
        // text/plain: no preflight; a beacon outlives the page.
        if (W.navigator.sendBeacon && W.navigator.sendBeacon(url, new Blob([data], { type: 'text/plain' }))) return Promise.resolve(true);
      } catch (e) { /* fall back below */ }
      return W.fetch(url, { method: 'POST', body: data, headers: { 'Content-Type': 'text/plain' }, keepalive: true, credentials: 'omit' })
        .then((response) => response.ok, () => false);
    };
    return {
      // { notifications, notModified }; an Error with status and retryAfter (s) otherwise.
      async fetch() {
        const response = await W.fetch(base + encodeURIComponent(apiKey) + '/notifications', {
          headers: etag ? { 'If-None-Match': etag } : {}, cache: 'no-store', credentials: 'omit'
        });
        if (response.status === 304) return { notifications: last, notModified: true };
        if (!response.ok) {
          const error = new Error('Herald answered ' + response.status);
          error.status = response.status;
          error.retryAfter = parseInt(response.headers.get('Retry-After'), 10) || 0;
          throw error;
        }
        last = await response.json();
        etag = response.headers.get('ETag');
        return { notifications: last, notModified: false };
      },
      reset() { etag = null; },
      trackImpression: (id) => send(encodeURIComponent(id), { type: 'impression' }),
      trackClick: (id) => send(encodeURIComponent(id), { type: 'click' }),
      trackConversion: (id, metadata, timestamp) => send(encodeURIComponent(id) + '/enhanced', {
        type: 'conversion', metadata: metadata ?? null,
        ...(timestamp != null && { timestamp: new Date(timestamp).toISOString() })
      })
    };
  };

  const CSS = `
:host{all:initial;display:inline-block;position:relative;
--_fg:var(--herald-fg,#1d1d20);--_bg:var(--herald-bg,#fff);--_muted:var(--herald-muted,#5f6068);
--_accent:var(--herald-accent,#3b5bdb);--_on-accent:var(--herald-on-accent,#fff);--_line:var(--herald-line,#d9dae0);
font:var(--herald-font,14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif)!important;color:var(--_fg)!important}
@media (prefers-color-scheme:dark){:host{--_fg:var(--herald-fg-dark,#ececf1);--_bg:var(--herald-bg-dark,#1f2024);
--_muted:var(--herald-muted-dark,#a9aab5);--_accent:var(--herald-accent-dark,#8ea2ff);--_on-accent:var(--herald-on-accent-dark,#0d0f1a);--_line:var(--herald-line-dark,#3a3b43)}}
*{box-sizing:border-box;margin:0;padding:0;font:inherit;color:inherit;letter-spacing:normal;text-transform:none;text-align:start;text-indent:0;text-shadow:none}
button,a{cursor:pointer;border:0;background:none;text-decoration:none}
:focus-visible{outline:2px solid var(--_accent);outline-offset:2px}
.launcher{position:relative;display:grid;place-items:center;width:40px;height:40px;border-radius:50%;background:var(--_bg);border:1px solid var(--_line)}
.launcher svg{width:22px;height:22px;fill:none;stroke:currentColor;stroke-width:1.8}
[part=badge]{position:absolute;top:-4px;right:-4px;min-width:18px;height:18px;padding:0 5px;border-radius:9px;background:var(--_accent);color:var(--_on-accent);font-size:11px;line-height:18px;font-weight:600;text-align:center}
[part=panel]{position:absolute;z-index:2147483000;top:48px;right:0;width:min(360px,calc(100vw - 16px));max-height:min(70vh,560px);display:flex;flex-direction:column;background:var(--_bg);color:var(--_fg);border:1px solid var(--_line);border-radius:var(--herald-radius,12px);box-shadow:0 8px 28px rgba(0,0,0,.18)}
@media (max-width:480px){[part=panel]{position:fixed;inset:8px;width:auto;max-height:none}}
@media (prefers-reduced-motion:no-preference){[part=panel]{animation:in .16s ease-out}@keyframes in{from{opacity:0;transform:translateY(-4px)}}}
[hidden]{display:none!important}
header{display:flex;align-items:center;justify-content:space-between;padding:12px 16px;border-bottom:1px solid var(--_line)}
h2{font-size:15px;font-weight:600}
.list{overflow:auto;padding:4px 0}
[part=item]{padding:12px 16px;border-bottom:1px solid var(--_line)}
[part=item]:last-child{border-bottom:0}
.message>*+*{margin-top:6px}h3,h4,h5,h6{font-weight:600}h3{font-size:16px}ul,ol{padding-left:20px}
strong{font-weight:700}em{font-style:italic}u{text-decoration:underline}s{text-decoration:line-through}
pre,code{font-family:ui-monospace,monospace;font-size:12.5px}blockquote{padding-left:10px;border-left:3px solid var(--_line);color:var(--_muted)}
.message a{color:var(--_accent);text-decoration:underline}hr{border:0;border-top:1px solid var(--_line)}
img{display:block;max-width:100%;height:auto;margin-top:8px;border-radius:8px}
[part~=action]{display:inline-block;margin-top:10px;padding:6px 12px;border-radius:6px;background:var(--_accent);color:var(--_on-accent);font-weight:600}
.empty{padding:24px 16px;color:var(--_muted);text-align:center}
[part=close]{width:28px;height:28px;border-radius:6px;font-size:20px;line-height:1;color:var(--_muted)}`;
  let sheet = null;
  const bell = () => {
    const svg = D.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    for (const d of ['M6 16V11a6 6 0 0 1 12 0v5l2 2H4z', 'M10 20a2 2 0 0 0 4 0']) {
      const path = D.createElementNS(svg.namespaceURI, 'path');
      path.setAttribute('d', d);
      svg.append(path);
    }
    return svg;
  };

  class HeraldAnnouncements extends (W.HTMLElement || Object) {
    static get observedAttributes() {
      return ['api-key', 'base-url', 'heading', 'poll-interval', 'empty-text', 'error-text', 'action-text', 'dismiss-text'];
    }

    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(CSS);
      }
      root.adoptedStyleSheets = [sheet];
      this.launcher = el('button', 'launcher');
      this.launcher.className = 'launcher';
      this.launcher.setAttribute('aria-haspopup', 'dialog');
      this.launcher.setAttribute('aria-expanded', 'false');
      this.launcher.append(bell());
      this.badge = el('span', 'badge');
      this.badge.hidden = true;
      this.launcher.append(this.badge);
      this.panel = el('div', 'panel');
      this.panel.hidden = true;
      this.panel.id = 'panel';
      this.panel.setAttribute('role', 'dialog');
      this.panel.setAttribute('aria-modal', 'true');
      this.panel.setAttribute('aria-labelledby', 'title');
      this.launcher.setAttribute('aria-controls', 'panel');
      const header = el('header');
      const title = this.titleElement = el('h2', 'title');
      title.id = 'title';
      const close = el('button', 'close', '\u00d7');
      close.setAttribute('aria-label', 'Close');
      header.append(title, close);
      this.list = el('div');
      this.list.className = 'list';
      this.list.setAttribute('role', 'list');
      this.panel.append(header, this.list);
      root.append(this.launcher, this.panel);
      this.notifications = [];
      this.skipped = new Set();
      this.failures = 0;
      this.seenTimers = new Map();
      this.launcher.addEventListener('click', () => (this.panel.hidden ? this.open() : this.close()));
      close.addEventListener('click', () => this.close());
      this.panel.addEventListener('keydown', (event) => this.onKey(event));
      this.nextAt = 0;
      this.onVisibility = () => { if (!D.hidden && this.due) this.poll(); };
      // A click elsewhere closes the panel.
      this.onOutside = (event) => { if (!this.panel.hidden && !event.composedPath().includes(this)) this.close(false); };
      this.label();
    }

    connectedCallback() {
      D.addEventListener('visibilitychange', this.onVisibility);
      D.addEventListener('pointerdown', this.onOutside);
      this.restart();
    }

    disconnectedCallback() {
      D.removeEventListener('visibilitychange', this.onVisibility);
      D.removeEventListener('pointerdown', this.onOutside);
      W.clearTimeout(this.timer);
      this.stopWatching();
    }

    attributeChangedCallback(name, before, after) {
      if (before === after || !this.isConnected) return;
      if (name === 'api-key' || name === 'base-url') this.restart();
      else if (name === 'poll-interval') this.schedule(Math.min(this.interval, Math.max(0, (this.nextAt - Date.now()) / 1000)));
      else if (name === 'heading') this.label();
      else if (this.failed) this.unavailable();
      else this.show(this.notifications);
    }

    // The markup's attributes and the insertion come at once: one start. Re-inserted with the same key and address,
    // it keeps its ETag and next poll time (a back-off, a Retry-After).
    restart() {
      if (this.pending) return;
      this.pending = true;
      W.queueMicrotask(() => {
        this.pending = false;
        if (!this.isConnected) return;
        this.label();
        const key = this.getAttribute('api-key');
        const base = this.getAttribute('base-url') || '';
        if (this.client && this.config === key + ' ' + base) {
          this.schedule(Math.max(0, (this.nextAt - Date.now()) / 1000));
          return;
        }
        this.config = key + ' ' + base;
        this.failures = 0;
        W.clearTimeout(this.timer);
        try {
          this.client = createClient({ apiKey: key, baseUrl: base });
        } catch (e) {
          this.client = null;
          this.show([]);
          this.unavailable();
          return;
        }
        this.schedule(0);
      });
    }

    label() {
      this.titleElement.textContent = this.getAttribute('heading') || 'Announcements';
      this.updateBadge();
    }

    // Seconds: 60 by default, 5 s to a day.
    get interval() {
      const seconds = parseFloat(this.getAttribute('poll-interval'));
      return Number.isFinite(seconds) ? Math.min(86400, Math.max(5, seconds)) : 60;
    }

    // In a hidden tab, the poll waits until it is shown.
    schedule(seconds) {
      W.clearTimeout(this.timer);
      this.nextAt = Date.now() + seconds * 1000;
      this.timer = W.setTimeout(() => { if (D.hidden) this.due = true; else this.poll(); }, Math.min(seconds * 1000, 2 ** 31 - 1));
    }

    async poll() {
      W.clearTimeout(this.timer);
      this.due = false;
      const client = this.client;
      if (!client || !this.isConnected) return;
      let delay = this.interval;
      try {
        const answer = await client.fetch();
        if (client !== this.client) return;
        try {
          if (!answer.notModified) this.show(answer.notifications);
        } catch (error) {
          // Not shown: the next poll must get the whole feed, not a 304.
          client.reset();
          throw error;
        }
        this.failures = 0;
        this.emit('update', answer);
      } catch (error) {
        if (client !== this.client) return;
        // Back-off with jitter, up to an hour; a 429's Retry-After at least.
        this.failures += 1;
        delay = Math.min(3600, this.interval * 2 ** Math.min(this.failures, 10)) * (0.5 + Math.random() / 2);
        delay = Math.max(delay, error.retryAfter || 0);
        this.emit('error', { status: error.status || 0, retryIn: delay, message: String(error.message || error) });
        if ((error.status === 401 || error.status === 403) && !client.warned) {
          client.warned = true;
          console.warn('Herald: api-key refused (' + error.status + ')');
        }
        this.unavailable();
      }
      if (this.isConnected) this.schedule(delay);
    }

    emit(name, detail) {
      this.dispatchEvent(new CustomEvent('herald-' + name, { detail }));
    }

    show(notifications) {
      const dismissed = store.get('dismissed');
      const items = [];
      this.notifications = [];
      this.failed = false;
      for (const n of notifications) {
        if (!n || dismissed.includes(n.id)) continue;
        try {
          items.push(this.item(n));
          this.notifications.push(n);
        } catch (error) {
          if (!this.skipped.has(n.id)) this.emit('skipped', { id: n.id, message: String(error) });
          this.skipped.add(n.id);
        }
      }
      this.list.replaceChildren(...items);
      if (!this.notifications.length) this.list.append(this.note('empty', this.getAttribute('empty-text') || 'Nothing new.'));
      // Arrived while open: not unread.
      if (!this.panel.hidden) this.notifications.forEach((n) => store.add('seen', n.id));
      this.observe();
      this.updateBadge();
    }

    note(part, text) {
      const line = el('p', part, text);
      line.className = 'empty';
      line.setAttribute('role', 'listitem');
      return line;
    }

    // Refused or unreachable: what is shown stays.
    unavailable() {
      if (this.notifications.length) return;
      this.failed = true;
      this.list.replaceChildren(this.note('empty error', this.getAttribute('error-text') || 'Announcements are unavailable.'));
    }

    item(n) {
      const article = el('article', 'item');
      article.setAttribute('role', 'listitem');
      article.dataset.id = n.id;
      const message = el('div', 'message');
      message.className = 'message';
      message.append(renderMessage(n.message));
      message.addEventListener('click', (event) => { if (event.target.closest('a')) this.client?.trackClick(n.id); });
      article.append(message);
      const image = n.image && safeUrl(n.image);
      if (image) {
        const img = el('img', 'image');
        img.src = image;
        img.alt = '';
        article.append(img);
      }
      const action = n.action || {};
      if (action.type === 'LINK' && action.data && safeUrl(action.data.url)) {
        const a = el('a', 'action', this.getAttribute('action-text') || 'Learn more');
        a.href = safeUrl(action.data.url);
        a.target = action.data.target === '_self' ? '_self' : '_blank';
        a.rel = 'noopener noreferrer';
        a.addEventListener('click', () => this.client?.trackClick(n.id));
        article.append(a);
      } else if (action.type === 'CLOSE') {
        const button = el('button', 'action dismiss', this.getAttribute('dismiss-text') || 'Dismiss');
        button.addEventListener('click', () => {
          this.client?.trackClick(n.id);
          store.add('dismissed', n.id);
          this.show(this.notifications);
          this.panel.querySelector('[part=close]').focus();
        });
        article.append(button);
      }
      return article;
    }

    // An impression: half of it (of a tall one, half a screen) on screen for 1 s in a visible tab, once per browser.
    observe() {
      this.stopWatching();
      if (!W.IntersectionObserver || this.panel.hidden) return;
      this.observer = new IntersectionObserver((entries) => entries.forEach((entry) => {
        const id = entry.target.dataset.id;
        const screen = entry.rootBounds ? entry.rootBounds.height : W.innerHeight;
        const seen = entry.intersectionRatio >= 0.5 || entry.intersectionRect.height >= screen / 2;
        if (seen && !this.seenTimers.has(id)) {
          this.seenTimers.set(id, W.setTimeout(() => {
            const client = this.client;
            if (client && this.isConnected && !D.hidden && store.add('impressions', id)) client.trackImpression(id);
          }, 1000));
        } else if (!seen) {
          W.clearTimeout(this.seenTimers.get(id));
          this.seenTimers.delete(id);
        }
      }), { threshold: [...Array(11).keys()].map((i) => i / 10) });
      this.list.querySelectorAll('[part=item]').forEach((item) => this.observer.observe(item));
    }

    stopWatching() {
      this.observer?.disconnect();
      this.observer = null;
      this.seenTimers.forEach((timer) => W.clearTimeout(timer));
      this.seenTimers.clear();
    }

    updateBadge() {
      const seen = store.get('seen');
      const unread = this.notifications.filter((n) => !seen.includes(n.id)).length;
      this.badge.hidden = !unread;
      this.badge.textContent = unread > 9 ? '9+' : String(unread);
      this.launcher.setAttribute('aria-label', (this.getAttribute('heading') || 'Announcements') + (unread ? ', ' + unread + ' unread' : ''));
    }

    open() {
      this.panel.hidden = false;
      this.launcher.setAttribute('aria-expanded', 'true');
      this.notifications.forEach((n) => store.add('seen', n.id));
      this.updateBadge();
      this.observe();
      this.panel.querySelector('[part=close]').focus();
    }

    // The focus goes back to the launcher if it was in the panel.
    close(refocus = true) {
      const inside = this.panel.contains(this.shadowRoot.activeElement);
      this.panel.hidden = true;
      this.launcher.setAttribute('aria-expanded', 'false');
      this.stopWatching();
      if (refocus && inside) this.launcher.focus();
    }

    // Escape closes; Tab stays within the open panel.
    onKey(event) {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      } else if (event.key === 'Tab') {
        const focusable = [...this.panel.querySelectorAll('a[href],button')];
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        const active = this.shadowRoot.activeElement;
        if (event.shiftKey ? active === first : active === last) {
          event.preventDefault();
          (event.shiftKey ? last : first).focus();
        }
      }
    }
  }

  W.Herald = { createClient, renderMessage, HeraldAnnouncements, version: '1' };
  if (W.customElements && !W.customElements.get('herald-announcements')) {
    W.customElements.define('herald-announcements', HeraldAnnouncements);
  }
})();
