/*! Herald browser SDK v1: one announcement in the widget's own panel, for a preview. Guide: docs/browser.md */
import './herald.js';

const { HeraldAnnouncements } = globalThis.Herald;

// The custom properties of the widget's light rule (its first) or of its dark one (under prefers-color-scheme),
// as one :host rule, adopted after the widget's sheet: it wins over both, so the page's own scheme does not matter.
const schemes = new Map();
const scheme = (widgetSheet, theme) => {
  if (!schemes.has(theme)) {
    const rules = [...widgetSheet.cssRules];
    const dark = rules.find((rule) => rule.media && rule.media.mediaText.includes('dark'));
    const source = theme === 'dark' ? dark.cssRules[0].style : rules[0].style;
    const properties = [...source].filter((name) => name.startsWith('--'))
      .map((name) => `${name}:${source.getPropertyValue(name)}`);
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`:host{${properties.join(';')}}`);
    schemes.set(theme, sheet);
  }
  return schemes.get(theme);
};

/**
 * One notification as the widget shows it: its panel (heading, close button, the item with its message, image and
 * call to action, the preset as a part), drawn by the widget's own code and style sheet. The element is never put in
 * the page, so it asks Herald nothing and counts nothing; the panel is inert (a picture: its link, close and dismiss
 * buttons do nothing and take no focus), in the page's flow, as wide as its host and as tall as the item.
 *
 * @param notification as the feed serves it
 * @param options      theme: 'light' or 'dark' (else the page's prefers-color-scheme, as the widget); any other
 *                     member is an attribute of the widget (heading, action-text, dismiss-text; locale: the
 *                     language of its own words and of the panel's lang and dir; the item's own locale, its)
 * @returns an element (class herald-preview) holding the panel in its shadow root
 */
export function renderPreview(notification, { theme, ...attributes } = {}) {
  const widget = document.createElement('herald-announcements');
  if (!(widget instanceof HeraldAnnouncements)) throw new TypeError('Herald: <herald-announcements> is another element');
  for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value);
  // No id: a preview is never one the user dismissed, and marks none seen.
  widget.show([{ ...notification, id: '' }]);
  const { panel } = widget;
  panel.hidden = false;
  panel.inert = true;
  panel.removeAttribute('aria-modal');
  panel.setAttribute('role', 'figure');
  // In the page's flow, as wide as its host, and whole: the widget's list would scroll to what a preview shows at once.
  Object.assign(panel.style, { position: 'static', width: 'auto', maxHeight: 'none', animation: 'none' });
  const host = document.createElement('div');
  host.className = 'herald-preview';
  const root = host.attachShadow({ mode: 'open' });
  const sheets = widget.shadowRoot.adoptedStyleSheets;
  root.adoptedStyleSheets = theme === 'light' || theme === 'dark' ? [...sheets, scheme(sheets[0], theme)] : sheets;
  root.append(panel);
  return host;
}
