// The announcement editor: ProseMirror (vendor/, MIT; docs/modules.md) with a schema of the rich-text documents
// Herald stores (docs/api.md, Message content), so that what it edits is the document itself, never HTML: every
// attribute Herald keeps is in it (an image's alt and title, a link's title, a code block's language), since a node
// opened in the editor keeps only the attributes its type here defines.
import { Schema, Node, DOMParser as DocumentParser } from './vendor/prosemirror-model.js';
import { EditorState } from './vendor/prosemirror-state.js';
import { EditorView } from './vendor/prosemirror-view.js';
import { keymap } from './vendor/prosemirror-keymap.js';
import { history, undo, redo } from './vendor/prosemirror-history.js';
import { baseKeymap, toggleMark, setBlockType, wrapIn, chainCommands, exitCode, lift } from './vendor/prosemirror-commands.js';
import { wrapInList, splitListItem, liftListItem, sinkListItem } from './vendor/prosemirror-schema-list.js';
import { loadableImage } from './ui.js';

const httpUrl = (href) => (/^https?:\/\//i.test(href || '') ? href : null);

// The value of one property of an element's inline style, in lower case ('' if none): pasted HTML has it as
// data-style (transformPastedHTML, in mountEditor), the last declaration winning as in CSS.
function styleOf(dom, property) {
  let found = '';
  for (const declaration of (dom.getAttribute('data-style') || '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0 && declaration.slice(0, colon).trim().toLowerCase() === property) {
      found = declaration.slice(colon + 1).replace('!important', '').trim().toLowerCase();
    }
  }
  return found;
}

const isBold = (weight) => weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
const isNormal = (weight) => weight !== '' && !isBold(weight);

export const schema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    // No tables: a pasted table's cells are paragraphs, not run together.
    paragraph: { content: 'inline*', group: 'block', parseDOM: [{ tag: 'p' }, { tag: 'td' }, { tag: 'th' }],
      toDOM: () => ['p', 0] },
    heading: {
      attrs: { level: { default: 2 } }, content: 'inline*', group: 'block', defining: true,
      parseDOM: [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level } })),
      toDOM: (node) => [`h${node.attrs.level}`, 0],
    },
    blockquote: { content: 'block+', group: 'block', defining: true, parseDOM: [{ tag: 'blockquote' }], toDOM: () => ['blockquote', 0] },
    bulletList: { content: 'listItem+', group: 'block', parseDOM: [{ tag: 'ul' }], toDOM: () => ['ul', 0] },
    // order: the start of prosemirror-schema-basic's ordered_list, kept as a document written by it has it.
    orderedList: {
      attrs: { start: { default: 1 }, order: { default: null } }, content: 'listItem+', group: 'block',
      parseDOM: [{ tag: 'ol', getAttrs: (dom) => ({ start: Number(dom.getAttribute('start')) || 1 }) }],
      toDOM: (node) => {
        const start = node.attrs.start !== 1 ? node.attrs.start : node.attrs.order || 1;
        return start === 1 ? ['ol', 0] : ['ol', { start }, 0];
      },
    },
    listItem: { content: 'paragraph block*', defining: true, parseDOM: [{ tag: 'li' }], toDOM: () => ['li', 0] },
    codeBlock: {
      attrs: { language: { default: null } }, content: 'text*', marks: '', group: 'block', code: true, defining: true,
      parseDOM: [{ tag: 'pre', preserveWhitespace: 'full' }], toDOM: () => ['pre', ['code', 0]],
    },
    horizontalRule: { group: 'block', parseDOM: [{ tag: 'hr' }], toDOM: () => ['hr'] },
    text: { group: 'inline' },
    hardBreak: { inline: true, group: 'inline', selectable: false, parseDOM: [{ tag: 'br' }], toDOM: () => ['br'] },
    image: {
      inline: true, group: 'inline', draggable: true,
      attrs: { src: {}, alt: { default: null }, title: { default: null } },
      parseDOM: [{
        tag: 'img[src]',
        getAttrs: (dom) => (httpUrl(dom.getAttribute('src'))
          ? { src: dom.getAttribute('src'), alt: dom.getAttribute('alt'), title: dom.getAttribute('title') } : false),
      }, {
        tag: 'span.unloaded-image[data-src]',
        getAttrs: (dom) => (httpUrl(dom.dataset.src)
          ? { src: dom.dataset.src, alt: dom.dataset.alt || null, title: dom.dataset.title || null } : false),
      }],
      // An image the policy would refuse at every redraw is shown as its words (parsed back above), kept as it is.
      toDOM: (node) => (loadableImage(node.attrs.src)
        ? ['img', { src: node.attrs.src, alt: node.attrs.alt || '', title: node.attrs.title }]
        : ['span', { class: 'unloaded-image', title: node.attrs.src, 'data-src': node.attrs.src,
          'data-alt': node.attrs.alt, 'data-title': node.attrs.title }, `[image: ${node.attrs.alt || node.attrs.src}]`]),
    },
  },
  marks: {
    link: {
      attrs: { href: {}, target: { default: null }, title: { default: null } }, inclusive: false,
      parseDOM: [{
        tag: 'a[href]',
        getAttrs: (dom) => (httpUrl(dom.getAttribute('href')) ? { href: dom.getAttribute('href'),
          target: dom.getAttribute('target'), title: dom.getAttribute('title') } : false),
      }],
      toDOM: (mark) => ['a', { href: httpUrl(mark.attrs.href), rel: 'noopener noreferrer nofollow',
        title: mark.attrs.title }, 0],
    },
    // Google Docs wraps all it copies in <b style="font-weight:normal">, and says bold and italic with spans' styles.
    bold: {
      parseDOM: [
        { tag: 'strong' },
        { tag: 'b', getAttrs: (dom) => (isNormal(styleOf(dom, 'font-weight')) ? false : null) },
        { tag: 'span', consuming: false, getAttrs: (dom) => (isBold(styleOf(dom, 'font-weight')) ? null : false) },
      ],
      toDOM: () => ['strong', 0],
    },
    italic: {
      parseDOM: [
        { tag: 'em' },
        { tag: 'i' },
        { tag: 'span', consuming: false, getAttrs: (dom) => (styleOf(dom, 'font-style') === 'italic' ? null : false) },
      ],
      toDOM: () => ['em', 0],
    },
    underline: { parseDOM: [{ tag: 'u' }], toDOM: () => ['u', 0] },
    strike: { parseDOM: [{ tag: 's' }, { tag: 'del' }, { tag: 'strike' }], toDOM: () => ['s', 0] },
    code: { parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
  },
});

const { nodes, marks } = schema;
const hardBreak = chainCommands(exitCode, (state, dispatch) => {
  if (dispatch) dispatch(state.tr.replaceSelectionWith(nodes.hardBreak.create()).scrollIntoView());
  return true;
});

// What the toolbar's buttons do; each is also a key (the button's title says which).
export const commands = {
  heading: setBlockType(nodes.heading, { level: 2 }),
  paragraph: setBlockType(nodes.paragraph),
  bold: toggleMark(marks.bold),
  italic: toggleMark(marks.italic),
  underline: toggleMark(marks.underline),
  strike: toggleMark(marks.strike),
  code: toggleMark(marks.code),
  bulletList: wrapInList(nodes.bulletList),
  orderedList: wrapInList(nodes.orderedList),
  blockquote: wrapIn(nodes.blockquote),
  lift,
  undo,
  redo,
};

export function link(href) {
  return (state, dispatch) => {
    if (state.selection.empty) return false;
    if (!href) return toggleMark(marks.link)(state, dispatch);
    return toggleMark(marks.link, { href, target: '_blank' })(state, dispatch);
  };
}

// An image the selection is, to be described or changed in place: its attributes, or null.
export function selectedImage(state) {
  const node = state.selection.node;
  return node && node.type === nodes.image ? node.attrs : null;
}

// Inserts an image, or replaces the one selected keeping its title: alt is what a screen reader says of it.
export function image(src, alt) {
  return (state, dispatch) => {
    const selected = selectedImage(state);
    const attrs = { src, alt: alt || null, title: selected ? selected.title : null };
    if (dispatch) dispatch(state.tr.replaceSelectionWith(nodes.image.create(attrs)).scrollIntoView());
    return true;
  };
}

// Whether a mark is on at the cursor or over the whole selection: the toolbar shows it (aria-pressed).
export function isActive(state, name) {
  if (name === 'heading') return state.selection.$from.parent.type === nodes.heading;
  const type = marks[name];
  if (!type) return false;
  const { from, $from, to, empty } = state.selection;
  return empty ? !!type.isInSet(state.storedMarks || $from.marks()) : state.doc.rangeHasMark(from, to, type);
}

/**
 * A document as Herald is sent it: an attribute not set (null) is left out, as it was before the schema had it, and
 * since a renderer that copies attributes with setAttribute would write title="null".
 */
export function toStored(doc) {
  const setOnly = (attrs) => {
    const set = Object.entries(attrs).filter(([, value]) => value !== null);
    return set.length ? Object.fromEntries(set) : undefined;
  };
  return JSON.parse(JSON.stringify(doc, (key, value) => (key === 'attrs' && value ? setOnly(value) : value)));
}

/**
 * A stored message as a document: a document as it is (or its JSON text), HTML parsed by the schema (what it cannot
 * hold is dropped, never run: the HTML is parsed inert), plain text as paragraphs.
 */
export function toDocument(message) {
  if (message !== null && typeof message === 'object') return Node.fromJSON(schema, message);
  const text = typeof message === 'string' ? message : '';
  if (text.startsWith('{')) {
    try {
      return Node.fromJSON(schema, JSON.parse(text));
    } catch (e) {
      // Not a document after all: the text below.
    }
  }
  if (/[<&]/.test(text)) {
    const body = new window.DOMParser().parseFromString(text, 'text/html').body;
    return DocumentParser.fromSchema(schema).parse(body);
  }
  const paragraphs = text.split(/\n{2,}/).map((part) => nodes.paragraph.create(null, part ? schema.text(part) : null));
  return nodes.doc.create(null, paragraphs.length ? paragraphs : [nodes.paragraph.create()]);
}

// Pasted HTML is parsed in documents this page's policy governs: a style element, a style attribute or a handler
// (onerror=…) would each be a violation report. Style elements go; style attributes become data-style (read for
// bold, italic, Word's lists), handlers data-on…; after white space, a slash or a quote, all of a tag's, in turn.
function inertPaste(html) {
  let renamed = html.replace(/<style\b[\s\S]*?<\/style\s*>/gi, '');
  for (let before = null; renamed !== before;) {
    before = renamed;
    renamed = before.replace(/(<[^>]*?[\s/"'])(style|on[a-z]+)(\s*=)/gi, '$1data-$2$3');
  }
  return renamed;
}

// Word copies a list as paragraphs whose style says mso-list (its list, "level2" for one inside another), each
// beginning with its marker ("·", "o", "1.", "a)") in a span of style mso-list:Ignore: they become lists, the
// markers left out. A list continues while its paragraphs follow one another.
function wordLists(html) {
  if (!/mso-list/i.test(html)) return html;
  const page = new window.DOMParser().parseFromString(html, 'text/html');
  let open = [];
  for (const paragraph of page.body.querySelectorAll('p')) {
    const level = Number((/level(\d+)/.exec(styleOf(paragraph, 'mso-list')) || [])[1]);
    if (!level) continue;
    const tag = /^\(?(\d+|[a-z]+)[.)]$/i.test(removeWordMarker(paragraph)) ? 'ol' : 'ul';
    if (!open.length || open[0].nextElementSibling !== paragraph) open = [];
    open = open.slice(0, level);
    if (open.length === level && open[level - 1].localName !== tag) open.pop();
    while (open.length < level) {
      const list = page.createElement(open.length === level - 1 ? tag : 'ul');
      if (open.length) lastItem(open[open.length - 1]).append(list); else paragraph.before(list);
      open.push(list);
    }
    const item = page.createElement('li');
    open[level - 1].append(item);
    item.append(paragraph);
  }
  return page.body.innerHTML;
}

// The paragraph's list marker, taken out of it.
function removeWordMarker(paragraph) {
  const markers = [...paragraph.querySelectorAll('span')].filter((span) => styleOf(span, 'mso-list') === 'ignore');
  const marker = markers.map((span) => span.textContent).join('').trim();
  for (const span of markers) span.remove();
  return marker;
}

// A list's last item, where a list one level down goes (one made for it when a level was skipped).
function lastItem(list) {
  return list.lastElementChild || list.appendChild(list.ownerDocument.createElement('li'));
}

export function mountEditor(place, message, onChange) {
  const view = new EditorView(place, {
    state: EditorState.create({
      doc: toDocument(message),
      plugins: [
        history(),
        keymap({
          'Mod-z': undo, 'Shift-Mod-z': redo, 'Mod-y': redo,
          'Mod-b': commands.bold, 'Mod-i': commands.italic, 'Mod-u': commands.underline, 'Mod-e': commands.code,
          'Mod-Shift-x': commands.strike, 'Mod-Alt-2': commands.heading, 'Mod-Alt-0': commands.paragraph,
          'Shift-Enter': hardBreak, 'Enter': splitListItem(nodes.listItem),
          'Mod-Shift-7': commands.orderedList, 'Mod-Shift-8': commands.bulletList, 'Mod-Shift-9': commands.blockquote,
          'Mod-]': sinkListItem(nodes.listItem), 'Mod-[': liftListItem(nodes.listItem),
        }),
        keymap(baseKeymap),
      ],
    }),
    attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': 'message-label', class: 'editor-body' },
    transformPastedHTML: (html) => wordLists(inertPaste(html)),
    dispatchTransaction(transaction) {
      view.updateState(view.state.apply(transaction));
      onChange(view.state);
    },
  });
  onChange(view.state);
  return view;
}
