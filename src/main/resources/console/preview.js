// The composer's preview: the announcement in the widget's own panel, drawn by the browser SDK (preview.mjs: the
// widget's code and style sheet), in light and dark, as wide as on a desktop or on a phone. What it shows is what the
// widget shows its users: title, message, image, call to action with its label, preset (as the part the site styles).
import { $, loadableImage } from './ui.js';
import { directionOf } from './languages.js';

let sdk = null;

export function init() {
  $('preview-desktop').addEventListener('click', () => widthOf(false));
  $('preview-phone').addEventListener('click', () => widthOf(true));
}

/** Loaded with the editor, at the composer's first opening. */
export async function loadPreview() {
  sdk = sdk || await import('/sdk/v1/preview.mjs');
}

function widthOf(phone) {
  $('previews').classList.toggle('phone', phone);
  $('preview-phone').setAttribute('aria-pressed', String(phone));
  $('preview-desktop').setAttribute('aria-pressed', String(!phone));
}

/**
 * @param body the composer's form as it would be sent (composer.js formBody), in the language of its tab
 * @param lang that language's tag: the panel's language, direction (right to left for Arabic, Hebrew …) and own
 *             words, as the widget sets them for an answer served in it
 */
export function drawPreview(body, lang) {
  if (!sdk) return;
  const shown = loadableImage(body.image);
  const message = withoutUnloadableImages(body.message);
  $('image-http-note').hidden = shown && message === body.message;
  const notification = { title: body.title, message, image: shown ? body.image : null, imageAlt: body.imageAlt,
    action: body.action, preset: body.preset };
  for (const theme of ['light', 'dark']) {
    const place = $(`preview-${theme}`);
    place.lang = lang;
    place.dir = directionOf(lang);
    place.replaceChildren(sdk.renderPreview(notification, lang ? { theme, locale: lang } : { theme }));
  }
}

// The message's document with each image the console may not load as its words ("[image: alt]").
function withoutUnloadableImages(message) {
  if (!message || typeof message !== 'object') return message;
  let changed = false;
  const walk = (node) => {
    if (node.type === 'image' && node.attrs && !loadableImage(node.attrs.src)) {
      changed = true;
      return { type: 'text', text: `[image: ${node.attrs.alt || node.attrs.src}]` };
    }
    return Array.isArray(node.content) ? { ...node, content: node.content.map(walk) } : node;
  };
  const walked = walk(message);
  return changed ? walked : message;
}
