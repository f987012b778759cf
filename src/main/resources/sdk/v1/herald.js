/*! Herald browser SDK v1: <herald-announcements> and a small client. No dependencies. Guide: docs/browser.md */
(() => {
  'use strict';
  const W = globalThis;
  const D = W.document;
  if (W.Herald?.version) return;

  const memory = {};
  const store = {
    // fresh: read again, as another tab may have written since.
    get(name, fresh) {
      try { if (fresh || !memory[name]) memory[name] = JSON.parse(W.localStorage.getItem('herald:' + name)) || memory[name] || []; } catch { memory[name] ??= []; }
      return memory[name];
    },
    add(name, value) {
      const values = store.get(name, true);
      if (values.includes(value)) return false;
      values.push(value);
      memory[name] = values.slice(-500);
      try { W.localStorage.setItem('herald:' + name, JSON.stringify(memory[name])); } catch { /* kept in memory */ }
      return true;
    }
  };

  const safeUrl = (value) => {
    try { return /^\s*https?:\/\//i.test(value) ? new URL(value).href : null; } catch { return null; }
  };

  const el = (tag, attrs, text, ns = 'http://www.w3.org/1999/xhtml') => {
    const node = D.createElementNS(ns, tag);
    for (const name in attrs) node.setAttribute(name, attrs[name]);
    if (text != null) node.textContent = text;
    return node;
  };
  // A token's user, read (not verified) to tell a refreshed token from another user's.
  const subject = (token) => { try { return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).sub; } catch {} };
  const link = (a, href, target = '_blank') => Object.assign(a, { href, target, rel: 'noopener noreferrer' });

  const table = (entries) => Object.assign(Object.create(null), entries);

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
    const href = mark?.type === 'link' && safeUrl(mark.attrs?.href);
    const tag = href ? 'a' : MARK[mark?.type];
    if (!tag) return child;
    const node = el(tag);
    if (href) link(node, href);
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
    if (type === 'image') {
      const src = safeUrl(attrs.src);
      if (src) parent.append(Object.assign(el('img'), { src, alt: String(attrs.alt ?? '') }));
      return;
    }
    let tag = type === 'heading' ? 'h' + Math.min(6, Math.max(3, (parseInt(attrs.level, 10) || 1) + 2)) : BLOCK[type];
    if (type === 'doc' && !depth) tag = null;
    else if (!tag || depth > 32) {
      parent.append(D.createTextNode(textOf(node)));
      return;
    }
    const target = tag ? el(tag) : parent;
    if (tag === 'ol' && parseInt(attrs.start, 10) > 1) target.start = parseInt(attrs.start, 10);
    for (const child of [].concat(node.content || [])) renderNode(child, target, depth + 1);
    if (tag) parent.append(target);
  };

  const HTML = table({ img: 'image', b: 'bold', i: 'italic', del: 'strike', a: 'link', h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 });
  for (const [type, tag] of Object.entries({ ...MARK, ...BLOCK })) HTML[tag] ??= type;
  const ENTITY = table({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\xa0' });
  const decode = (text) => text.replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (all, name) => {
    if (name[0] !== '#') return ENTITY[name] ?? all;
    const code = +('0' + name.slice(1));
    return code < 0x110000 ? String.fromCodePoint(code) : '\ufffd';
  });
  const TOKEN = /<!--[^]*?(?:--!?>|$)|<(script|style|textarea|title|iframe|noembed|noscript)\b(?:[^>"']|"[^"]*"?|'[^']*'?)*>?[^]*?(?:<\/\1\b[^>]*>|$)|<(\/?)([a-z][^\s/>]*)((?:[^>"']|"[^"]*"?|'[^']*'?)*)>?|<[!?/][^>]*>?/gi;
  const DROPPED = /^(template|object|button|select|datalist|svg|math)$/;
  const fromHtml = (html) => {
    const doc = { type: 'doc', content: [] };
    const open = [{ content: doc.content, marks: [] }];
    const text = (data) => {
      const top = open.at(-1);
      if (data && !top.drop) top.content.push({ type: 'text', text: decode(data), marks: top.marks });
    };
    let at = 0;
    for (const token of html.matchAll(TOKEN)) {
      text(html.slice(at, token.index));
      at = token.index + token[0].length;
      const name = token[3]?.toLowerCase();
      if (!name) continue;
      if (token[2]) {
        const i = open.findLastIndex((element) => element.tag === name);
        if (i > 0) open.length = i;
        continue;
      }
      const attrs = table();
      for (const [, key, ...value] of token[4].matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)|'([^']*)|([^\s>]*)))?/g)) {
        attrs[key.toLowerCase()] ??= decode(value.join(''));
      }
      const top = open.at(-1);
      const type = HTML[name];
      const marks = type === 'link' || MARK[type];
      const node = type && !marks && (+type ? { type: 'heading', attrs: { level: type } } : { type, attrs });
      const drop = DROPPED.test(name) && !token[4].endsWith('/');
      if (node && !top.drop) top.content.push(node);
      if (name === 'pre' && html[at] === '\n') at++;
      if (node ? /^(br|hr|img)$/.test(name) : !marks && !drop) continue;
      open.push({
        tag: name, content: node ? (node.content = []) : top.content, drop: top.drop || drop,
        marks: marks && !top.marks.some((m) => m.type === type) ? top.marks.concat({ type, attrs }) : top.marks
      });
    }
    text(html.slice(at));
    return doc;
  };

  // Plain text as the console's editor shows it.
  const plainParagraphs = (text) => text.split(/\n{2,}/).map((part) => {
    const paragraph = el('p');
    part.split('\n').forEach((line, i) => paragraph.append(...(i ? [el('br'), line] : [line])));
    return paragraph;
  });

  const renderMessage = (message) => {
    const out = D.createDocumentFragment();
    let doc = message;
    if (typeof doc === 'string' && doc.trim()[0] === '{') {
      try { doc = JSON.parse(doc); } catch {}
    }
    if (typeof doc === 'string' && !/[<&]/.test(doc)) out.append(...plainParagraphs(doc));
    else renderNode(typeof doc === 'string' ? fromHtml(doc) : doc, out, 0);
    return out;
  };

  const createClient = ({ apiKey, baseUrl = '', token = null, locale = null } = {}) => {
    if (!/^[A-Za-z0-9]{32,64}$/.test(String(apiKey))) throw new TypeError('Herald: api key must be 32 to 64 letters and digits');
    const base = String(baseUrl).replace(/\/+$/, '') + '/api/v1/public/';
    const mine = base + encodeURIComponent(apiKey) + '/';
    const tags = {};
    const last = {};
    let served;
    const auth = () => token ? { Authorization: 'Bearer ' + token } : {};
    const post = (url, body) => W.fetch(url, { method: 'POST', body: JSON.stringify(body), keepalive: true, credentials: 'omit', headers: token ? { ...auth(), 'Content-Type': 'application/json' } : {} })
      .then((response) => response.ok, () => false);
    const send = (path, body) => {
      const url = base + 'track/' + path;
      try {
        if (!token && W.navigator.sendBeacon?.(url, JSON.stringify(body))) return Promise.resolve(true);
      } catch {}
      return post(url, body);
    };
    const get = async (path) => {
      const response = await W.fetch(mine + path, {
        headers: { ...auth(), ...(tags[path] && { 'If-None-Match': tags[path] }) }, cache: 'no-store', credentials: 'omit'
      });
      const same = response.status === 304;
      if (!same && !response.ok) {
        const said = await response.json().catch(() => 0);
        throw Object.assign(new Error('Herald answered ' + response.status), {
          status: response.status, code: typeof said?.code == 'string' ? said.code : null, retryAfter: parseInt(response.headers.get('Retry-After'), 10) || 0
        });
      }
      if (!same) {
        last[path] = [await response.json(), response.headers.get('Content-Language') || undefined];
        tags[path] = response.headers.get('ETag');
      }
      return [last[path][0], same, last[path][1]];
    };
    return {
      async fetch() {
        const [notifications, notModified, language] = await get('notifications' + (locale ? '?locale=' + encodeURIComponent(locale) : ''));
        served = language;
        return { notifications, notModified, locale: language };
      },
      identify(value) { token = value || null; this.reset(); },
      get token() { return token; },
      get locale() { return locale; },
      set locale(value) { locale = value || null; },
      state: () => get('users/me/state'),
      mark: (id, state) => post(mine + 'users/me/state', { notificationId: id, state }),
      readAll: (ids) => post(mine + 'users/me/read-all', { ids }),
      reset() { for (const path in tags) delete tags[path]; },
      trackImpression: (id, shown = served) => send(encodeURIComponent(id), { type: 'impression', locale: shown }),
      trackClick: (id, shown = served) => send(encodeURIComponent(id), { type: 'click', locale: shown }),
      trackConversion: (id, metadata, timestamp, shown = served) => send(encodeURIComponent(id) + '/enhanced', {
        type: 'conversion', metadata: metadata ?? null, locale: shown,
        ...(timestamp != null && { timestamp: new Date(timestamp).toISOString() })
      })
    };
  };

  const SAID = ['heading', 'empty-text', 'error-text', 'close-text', 'dismiss-text', 'action-text', 'unread-text'];
  const WORDS = table({
    en: 'Announcements|Nothing new.|Announcements are unavailable.|Close|Dismiss|Learn more|# unread',
    fr: 'Annonces|Rien de nouveau.|Les annonces sont indisponibles.|Fermer|Ignorer|En savoir plus|Non lues\xa0: #',
    de: 'Ankündigungen|Nichts Neues.|Ankündigungen sind nicht verfügbar.|Schließen|Ausblenden|Mehr erfahren|# ungelesen',
    es: 'Anuncios|No hay novedades.|Los anuncios no están disponibles.|Cerrar|Descartar|Más información|Sin leer: #',
    it: 'Annunci|Nessuna novità.|Gli annunci non sono disponibili.|Chiudi|Ignora|Scopri di più|Non letti: #',
    pt: 'Anúncios|Nada de novo.|Os anúncios não estão disponíveis.|Fechar|Dispensar|Saiba mais|Não lidos: #',
    nl: 'Aankondigingen|Niets nieuws.|Aankondigingen zijn niet beschikbaar.|Sluiten|Negeren|Meer informatie|# ongelezen',
    pl: 'Ogłoszenia|Nic nowego.|Ogłoszenia są niedostępne.|Zamknij|Odrzuć|Dowiedz się więcej|Nieprzeczytane: #',
    sv: 'Meddelanden|Inget nytt.|Meddelandena är inte tillgängliga.|Stäng|Avvisa|Läs mer|Olästa: #',
    da: 'Meddelelser|Intet nyt.|Meddelelserne er ikke tilgængelige.|Luk|Afvis|Læs mere|Ulæste: #',
    nb: 'Kunngjøringer|Ikke noe nytt.|Kunngjøringene er ikke tilgjengelige.|Lukk|Avvis|Les mer|Uleste: #',
    fi: 'Tiedotteet|Ei mitään uutta.|Tiedotteet eivät ole saatavilla.|Sulje|Hylkää|Lue lisää|Lukemattomia: #',
    cs: 'Oznámení|Nic nového.|Oznámení nejsou k dispozici.|Zavřít|Skrýt|Další informace|Nepřečtené: #',
    hu: 'Közlemények|Nincs újdonság.|A közlemények nem érhetők el.|Bezárás|Elvetés|További információ|# olvasatlan',
    ro: 'Anunțuri|Nimic nou.|Anunțurile nu sunt disponibile.|Închide|Ignoră|Află mai multe|Necitite: #',
    ru: 'Объявления|Ничего нового.|Объявления недоступны.|Закрыть|Скрыть|Подробнее|Непрочитанные: #',
    uk: 'Оголошення|Нічого нового.|Оголошення недоступні.|Закрити|Приховати|Докладніше|Непрочитані: #',
    tr: 'Duyurular|Yeni bir şey yok.|Duyurular kullanılamıyor.|Kapat|Yoksay|Daha fazla bilgi|# okunmamış',
    ar: 'الإعلانات|لا جديد.|الإعلانات غير متاحة.|إغلاق|تجاهل|اعرف المزيد|غير مقروءة: #',
    he: 'הודעות|אין חדש.|ההודעות אינן זמינות.|סגירה|התעלמות|מידע נוסף|לא נקראו: #',
    fa: 'اطلاعیه‌ها|خبر تازه‌ای نیست.|اطلاعیه‌ها در دسترس نیستند.|بستن|نادیده گرفتن|بیشتر بدانید|خوانده‌نشده: #',
    hi: 'घोषणाएँ|कुछ नया नहीं।|घोषणाएँ उपलब्ध नहीं हैं।|बंद करें|हटाएँ|और जानें|# अपठित',
    id: 'Pengumuman|Tidak ada yang baru.|Pengumuman tidak tersedia.|Tutup|Abaikan|Selengkapnya|# belum dibaca',
    vi: 'Thông báo|Không có gì mới.|Không thể tải thông báo.|Đóng|Bỏ qua|Tìm hiểu thêm|# chưa đọc',
    ja: 'お知らせ|新しいお知らせはありません。|お知らせを表示できません。|閉じる|非表示|詳しく見る|未読 # 件',
    ko: '공지사항|새 소식이 없습니다.|공지사항을 불러올 수 없습니다.|닫기|숨기기|자세히 알아보기|읽지 않음 #개',
    zh: '公告|暂无新内容。|公告暂时无法显示。|关闭|忽略|了解更多|# 条未读',
    'zh-hant': '公告|暫無新內容。|公告暫時無法顯示。|關閉|忽略|了解更多|# 則未讀'
  });
  WORDS.no = WORDS.nb;
  WORDS['zh-tw'] = WORDS['zh-hk'] = WORDS['zh-mo'] = WORDS['zh-hant'];
  const words = (tag) => {
    for (let t = String(tag).toLowerCase(); t; t = t.replace(/(-.)?-?[^-]*$/, '')) if (WORDS[t]) return WORDS[t].split('|');
    return WORDS.en.split('|');
  };
  const rtl = (tag) => {
    const [, language, script] = /^([a-z]+)(?:-[a-z]{3}\b)*(?:-([a-z]{4})\b)?/i.exec(tag) || [];
    return /^(ar|he|fa|ur|ps|sd|ug|yi|dv|ckb|arab|hebr|thaa|syrc|nkoo|adlm)$/i
      .test(script || language) ? 'rtl' : 'ltr';
  };
  const speak = (node, tag) => tag && Object.assign(node, { lang: tag, dir: rtl(tag) });

  const CSS = `
:host{all:initial;display:inline-block;
--_fg:var(--herald-fg,#1d1d20);--_bg:var(--herald-bg,#fff);--_muted:var(--herald-muted,#5f6068);
--_accent:var(--herald-accent,#3b5bdb);--_on-accent:var(--herald-on-accent,#fff);--_line:var(--herald-line,#d9dae0);
font:var(--herald-font,14px/1.45 system-ui,sans-serif)!important;color:var(--_fg)!important}
@media (prefers-color-scheme:dark){:host{--_fg:var(--herald-fg-dark,#ececf1);--_bg:var(--herald-bg-dark,#1f2024);
--_muted:var(--herald-muted-dark,#a9aab5);--_accent:var(--herald-accent-dark,#8ea2ff);--_on-accent:var(--herald-on-accent-dark,#0d0f1a);--_line:var(--herald-line-dark,#3a3b43)}}
*{box-sizing:border-box;margin:0;padding:0;font:inherit;color:inherit;letter-spacing:normal;text-transform:none;text-align:start;text-indent:0;text-shadow:none}
button,a{cursor:pointer;border:0;background:none;text-decoration:none}
:focus-visible{outline:2px solid var(--_accent);outline-offset:2px}
.launcher{position:relative;display:grid;place-items:center;width:40px;height:40px;border-radius:50%;background:var(--_bg);border:1px solid var(--_line)}
svg{width:22px;height:22px;fill:none;stroke:currentColor;stroke-width:1.8}
[part=badge]{position:absolute;top:-4px;inset-inline-end:-4px;min-width:18px;height:18px;padding:0 5px;border-radius:9px;background:var(--_accent);color:var(--_on-accent);font-size:11px;line-height:18px;font-weight:600;text-align:center}
[part=panel]{position:fixed;z-index:2147483000;width:min(360px,calc(100vw - 16px));max-height:min(70vh,560px);display:flex;flex-direction:column;background:var(--_bg);color:var(--_fg);border:1px solid var(--_line);border-radius:var(--herald-radius,12px);box-shadow:0 8px 28px #0000002e}
@media (prefers-reduced-motion:no-preference){[part=panel]{animation:in .16s ease-out}@keyframes in{from{opacity:0}}}
[hidden]{display:none!important}
header{display:flex;align-items:center;justify-content:space-between;padding:12px 16px;border-bottom:1px solid var(--_line)}
h2{font-size:15px}
.list{overflow:auto;padding:4px 0}
article{padding:12px 16px}article+*{border-top:1px solid var(--_line)}
.message>*+*{margin-top:6px}h2,h3,h4,h5,h6{font-weight:600}h3{font-size:16px}ul,ol{padding-inline-start:20px}
strong{font-weight:700}em{font-style:italic}u{text-decoration:underline}s{text-decoration:line-through}
pre,code{font-family:ui-monospace,monospace;font-size:12.5px}blockquote{padding-inline-start:10px;border-inline-start:3px solid var(--_line);color:var(--_muted)}
.message a{color:var(--_accent);text-decoration:underline}hr{border:0;border-top:1px solid var(--_line)}
img{display:block;max-width:100%;height:auto;margin-top:8px;border-radius:8px}
[part~=action]{display:inline-block;margin-top:10px;padding:6px 12px;border-radius:6px;background:var(--_accent);color:var(--_on-accent);font-weight:600}
.empty{padding:24px 16px;color:var(--_muted);text-align:center}
[part=close]{width:28px;height:28px;border-radius:6px;font-size:20px;line-height:1;color:var(--_muted)}`;
  let sheet = null;
  const widgets = new Set();
  const SVG = 'http://www.w3.org/2000/svg';

  class HeraldAnnouncements extends (W.HTMLElement || Object) {
    static observedAttributes = ['api-key', 'base-url', 'user-token', 'poll-interval', 'locale', ...SAID];

    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
      this.launcher = el('button', {
        part: 'launcher', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': false, 'aria-controls': 'panel'
      });
      this.badge = el('span', { part: 'badge', hidden: '' });
      const bell = el('svg', { viewBox: '0 0 24 24', 'aria-hidden': true }, null, SVG);
      bell.append(el('path', { d: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0' }, null, SVG));
      this.launcher.append(bell, this.badge);
      this.panel = el('div', { part: 'panel', hidden: '', id: 'panel', role: 'dialog', 'aria-modal': true, 'aria-labelledby': 'title' });
      this.titleElement = el('h2', { part: 'title', id: 'title' });
      const close = this.closeButton = el('button', { part: 'close' }, '\u00d7');
      const header = el('header');
      header.append(this.titleElement, close);
      this.list = el('div', { class: 'list', role: 'list' });
      this.panel.append(header, this.list);
      root.append(this.launcher, this.panel);
      this.notifications = [];
      this.skipped = new Set();
      this.failures = this.nextAt = this.asked = this.answered = this.changes = this.marking = 0;
      this.seenTimers = new Map();
      this.rendered = new Map();
      this.launcher.addEventListener('click', () => (this.panel.hidden ? this.open() : this.close()));
      close.addEventListener('click', () => this.close());
      this.panel.addEventListener('keydown', (event) => this.onKey(event));
      this.onVisibility = () => { if (!D.hidden) { this.observe(); if (this.due) this.poll(); } };
      this.onOutside = (event) => { if (!this.panel.hidden && !event.composedPath().includes(this)) this.close(false); };
      this.onMove = () => this.place();
      new ResizeObserver(this.onMove).observe(this.panel);
      this.label();
    }

    connectedCallback() {
      widgets.add(this);
      this.listen(true);
      this.restart();
    }

    disconnectedCallback() {
      widgets.delete(this);
      this.listen(false);
      W.clearTimeout(this.timer);
      this.stopWatching();
    }

    listen(on) {
      const how = on ? 'addEventListener' : 'removeEventListener';
      const open = on && !this.panel.hidden ? how : 'removeEventListener';
      D[how]('visibilitychange', this.onVisibility);
      D[how]('pointerdown', this.onOutside);
      W[open]('resize', this.onMove);
      D[open]('scroll', this.onMove, { capture: true, passive: true });
    }

    attributeChangedCallback(name, before, after) {
      if (before === after || !this.isConnected) return;
      if (name === 'api-key' || name === 'base-url') this.restart();
      else if (name === 'user-token') this.identify(after);
      else if (name === 'poll-interval') this.schedule(Math.min(this.interval, Math.max(0, (this.nextAt - Date.now()) / 1000)));
      else if (name === 'locale' && this.client) {
        this.client.locale = after;
        this.schedule(0);
      } else if (this.failed) this.unavailable();
      else this.show(this.notifications);
    }

    restart() {
      if (this.pending) return;
      this.pending = true;
      W.queueMicrotask(() => {
        this.pending = false;
        if (!this.isConnected) return;
        this.label();
        const apiKey = this.getAttribute('api-key');
        const baseUrl = this.getAttribute('base-url') || '';
        const token = this.getAttribute('user-token') || W.Herald.token;
        if (this.client && this.config === apiKey + ' ' + baseUrl) return token != this.client.token ? this.identify(token) : this.schedule(Math.max(0, (this.nextAt - Date.now()) / 1000));
        this.config = apiKey + ' ' + baseUrl;
        this.failures = 0;
        W.clearTimeout(this.timer);
        try {
          this.client = createClient({ apiKey, baseUrl, token, locale: this.getAttribute('locale') });
        } catch {
          this.client = null;
          this.show([]);
          return this.unavailable();
        }
        this.schedule(0);
      });
    }

    // Another user: nothing of the one before, nor an answer asked for them.
    identify(token) {
      const before = this.client?.token;
      this.client?.identify(token);
      if (subject(token) !== subject(before)) {
        this.user = null;
        this.changes++;
        this.served = null;
        this.answerShown = null;
        this.show([]);
      }
      if (this.client) this.schedule(0);
    }

    label() {
      const tag = this.served || this.getAttribute('locale') || W.navigator.language;
      this.words = words(tag);
      speak(this.panel, tag);
      // Not dir: the bell's place is the page's.
      this.launcher.lang = tag;
      this.titleElement.textContent = this.say(0);
      this.closeButton.setAttribute('aria-label', this.say(3));
      this.updateBadge();
    }

    // An attribute of the page, else the widget's own word in the served language.
    say(i) {
      return this.getAttribute(SAID[i]) || this.words[i];
    }

    get interval() {
      const seconds = parseFloat(this.getAttribute('poll-interval'));
      return Number.isFinite(seconds) ? Math.min(86400, Math.max(5, seconds)) : 60;
    }

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
      const asked = ++this.asked, changes = this.changes;
      try {
        const answer = await client.fetch();
        const [user, same] = client.token ? await client.state() : [null, true];
        // Older than shown: asked before a later answer or a change here.
        if (client !== this.client || asked < this.answered || changes < this.changes || this.marking) return;
        this.answered = asked;
        this.user = user;
        this.served = answer.locale;
        try {
          // A 304 of another answer than shown (a language asked again).
          if (!answer.notModified || !same || this.failed || answer.notifications !== this.answerShown) {
            this.show(answer.notifications);
            this.answerShown = answer.notifications;
          }
        } catch (error) {
          client.reset();
          throw error;
        }
        this.failures = 0;
        this.emit('update', answer);
      } catch (error) {
        if (client !== this.client) return;
        this.failures += 1;
        delay = Math.max(error.retryAfter || 0, Math.min(3600, this.interval * 2 ** Math.min(this.failures, 10)) * (0.5 + Math.random() / 2));
        this.emit('error', { status: error.status || 0, code: (error.status && error.code) || null, retryIn: delay, message: String(error.message || error) });
        if ((error.status === 401 || error.status === 403) && !client.warned) {
          client.warned = true;
          console.warn('Herald: ' + (client.token ? 'user token or ' : '') + 'api-key refused (' + error.status + ')');
        }
        this.unavailable();
      }
      if (this.isConnected) this.schedule(delay);
    }

    emit(name, detail) {
      this.dispatchEvent(new CustomEvent('herald-' + name, { detail }));
    }

    // With a user token the server's state decides what is dismissed and unread, on every device.
    get dismissed() {
      const states = this.user?.notifications || {};
      return this.user ? Object.keys(states).filter((id) => states[id].dismissedAt || states[id].archivedAt) : store.get('dismissed');
    }

    show(notifications) {
      this.label();
      const dismissed = this.dismissed;
      const items = [];
      const old = this.rendered;
      this.rendered = new Map();
      this.notifications = [];
      this.failed = false;
      for (const n of notifications) {
        if (!n || dismissed.includes(n.id)) continue;
        try {
          const key = JSON.stringify(n) + this.say(4) + this.say(5);
          const kept = old.get(n.id);
          const item = kept?.[0] === key ? kept[1] : this.item(n);
          this.rendered.set(n.id, [key, item]);
          items.push(item);
          this.notifications.push(n);
        } catch (error) {
          if (!this.skipped.has(n.id)) this.emit('skipped', { id: n.id, message: String(error) });
          this.skipped.add(n.id);
        }
      }
      this.arrange(items.length ? items : [this.note('empty', this.say(1))]);
      if (!this.panel.hidden) this.notifications.forEach((n) => store.add('seen', n.id));
      this.observe();
      this.updateBadge();
    }

    // No answer shows while a write made here is in flight, nor one asked before; a failed one shows the server's state.
    mark(write) {
      this.marking++;
      this.changes++;
      write.then((ok) => {
        this.marking--;
        this.changes++;
        if (!ok) this.client.reset();
        this.poll();
      });
    }

    // Only what changed moves: a press during a poll still clicks, the focus stays.
    arrange(elements) {
      const list = this.list;
      for (const child of [...list.children]) {
        if (elements.includes(child)) continue;
        if (child.contains(this.shadowRoot.activeElement)) this.closeButton.focus();
        child.remove();
      }
      elements.forEach((e, i) => list.children[i] !== e && list.insertBefore(e, list.children[i] || null));
    }

    note(part, text) {
      return el('p', { part, class: 'empty', role: 'listitem' }, text);
    }

    unavailable() {
      if (this.notifications.length) return;
      this.failed = true;
      this.label();
      this.list.replaceChildren(this.note('empty error', this.say(2)));
    }

    item(n) {
      const article = el('article', { part: 'item preset-' + n.preset, role: 'listitem', 'data-id': n.id });
      speak(article, n.locale);
      const message = el('div', { part: 'message', class: 'message' });
      if (n.title) message.append(el('h3', { part: 'item-title' }, n.title));
      message.append(renderMessage(n.message));
      message.addEventListener('click', (event) => { if (event.target.closest('a')) this.client?.trackClick(n.id, n.locale); });
      article.append(message);
      const image = safeUrl(n.image);
      if (image) article.append(Object.assign(el('img', { part: 'image' }), { src: image, alt: n.imageAlt || '' }));
      const action = n.action || {};
      const url = safeUrl(action.data?.url);
      let button;
      if (action.type === 'LINK' && url) {
        button = link(el('a', { part: 'action' }, action.data.label || this.say(5)), url,
                      action.data.target === '_self' ? '_self' : '_blank');
      } else if (action.type === 'CLOSE') {
        button = el('button', { part: 'action dismiss' }, this.say(4));
        button.addEventListener('click', () => {
          if (this.user) {
            (this.user.notifications[n.id] ??= {}).dismissedAt = new Date().toISOString();
            this.mark(this.client.mark(n.id, 'dismissed'));
          } else store.add('dismissed', n.id);
          this.show(this.notifications);
          this.panel.querySelector('[part=close]').focus();
        });
      }
      if (button) {
        button.addEventListener('click', () => this.client?.trackClick(n.id, n.locale));
        article.append(button);
      }
      return article;
    }

    observe() {
      this.stopWatching();
      if (!W.IntersectionObserver || this.panel.hidden) return;
      this.observer = new IntersectionObserver((entries) => entries.forEach((entry) => {
        const id = entry.target.dataset.id;
        const seen = entry.intersectionRatio >= 0.5 || entry.intersectionRect.height * 2 >= (entry.rootBounds?.height ?? W.innerHeight);
        if (seen && !this.seenTimers.has(id)) {
          this.seenTimers.set(id, W.setTimeout(() => {
            const client = this.client;
            if (client && this.isConnected && !D.hidden && store.add('impressions', id)) client.trackImpression(id, entry.target.lang || undefined);
          }, 1000));
        } else if (!seen) {
          W.clearTimeout(this.seenTimers.get(id));
          this.seenTimers.delete(id);
        }
      }), { threshold: [...Array(11).keys()].map((i) => i / 10) });
      this.list.querySelectorAll('article').forEach((item) => this.observer.observe(item));
    }

    stopWatching() {
      this.observer?.disconnect();
      this.seenTimers.forEach((timer) => W.clearTimeout(timer));
      this.seenTimers.clear();
    }

    updateBadge() {
      const seen = store.get('seen');
      const unread = this.user ? this.user.unread : this.notifications.filter((n) => !seen.includes(n.id)).length;
      this.badge.hidden = !unread;
      this.badge.textContent = unread > 9 ? '9+' : unread;
      this.launcher.setAttribute('aria-label', this.say(0) + (unread ? ', ' + this.say(6).replace('#', unread) : ''));
    }

    open() {
      this.panel.hidden = false;
      this.launcher.setAttribute('aria-expanded', true);
      this.notifications.forEach((n) => store.add('seen', n.id));
      if (this.user?.unread) {
        this.user.unread = 0;
        this.mark(this.client.readAll(this.notifications.map((n) => n.id)));
      }
      this.updateBadge();
      this.listen(true);
      this.place();
      this.observe();
      this.panel.querySelector('[part=close]').focus();
    }

    place() {
      const p = this.panel;
      if (p.hidden) return;
      const b = this.launcher.getBoundingClientRect();
      const w = p.offsetWidth;
      const h = p.offsetHeight;
      const width = D.documentElement.clientWidth;
      const height = W.innerHeight;
      const rtl = getComputedStyle(this).direction === 'rtl';
      let x = rtl ? b.left : b.right - w;
      if (x < 8 || x + w > width - 8) x = rtl ? b.right - w : b.left;
      let y = b.bottom + 8;
      if (y + h > height - 8 && b.top > height - b.bottom) y = b.top - h - 8;
      const to = (left, top) => Object.assign(p.style, { left: left + 'px', top: top + 'px' });
      to(x = Math.max(8, Math.min(x, width - w - 8)), y = Math.max(8, Math.min(y, height - h - 8)));
      const r = p.getBoundingClientRect();
      to(2 * x - r.left, 2 * y - r.top);
    }

    close(refocus = true) {
      const inside = this.panel.contains(this.shadowRoot.activeElement);
      this.panel.hidden = true;
      this.launcher.setAttribute('aria-expanded', false);
      this.listen(this.isConnected);
      this.stopWatching();
      if (refocus && inside) this.launcher.focus();
    }

    onKey(event) {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      } else if (event.key === 'Tab') {
        const ends = [...this.panel.querySelectorAll('a[href],button')];
        const [from, to] = event.shiftKey ? [ends[0], ends.at(-1)] : [ends.at(-1), ends[0]];
        if (this.shadowRoot.activeElement === from) {
          event.preventDefault();
          to.focus();
        }
      }
    }
  }

  const identify = (token) => {
    W.Herald.token = token;
    widgets.forEach((widget) => widget.identify(token));
  };
  W.Herald = { createClient, renderMessage, HeraldAnnouncements, identify, version: '1' };
  if (W.customElements && !W.customElements.get('herald-announcements')) {
    W.customElements.define('herald-announcements', HeraldAnnouncements);
  }
})();
