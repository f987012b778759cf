// The composer's preview: the announcement in the widget's own panel, drawn by the browser SDK (preview.mjs: the
// widget's code and style sheet), in light and dark, as wide as on a desktop or on a phone. What it shows is what the
// widget shows its users: title, message, image, call to action with its label, preset (as the part the site styles).
import { $ } from './ui.js';
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
  const shown = loadable(body.image);
  $('image-http-note').hidden = shown;
  const notification = { title: body.title, message: body.message, image: shown ? body.image : null,
    action: body.action, preset: body.preset };
  for (const theme of ['light', 'dark']) {
    const place = $(`preview-${theme}`);
    place.lang = lang;
    place.dir = directionOf(lang);
    place.replaceChildren(sdk.renderPreview(notification, lang ? { theme, locale: lang } : { theme }));
  }
}

// The console's policy loads images from its own origin or over https (ConsoleService.POLICY): an http image of
// another host would be refused at every redraw, a report each, and shown broken. The API takes it (http or https,
// docs/api.md#urls); the preview leaves it out and says why.
function loadable(image) {
  if (!image) return true;
  try {
    const url = new URL(image);
    return url.protocol !== 'http:' || url.origin === location.origin;
  } catch {
    return true;
  }
}
