/*! Herald browser SDK v1 as an ES module: import { createClient, renderMessage } from '<herald>/sdk/v1/herald.mjs' */
import './herald.js';

const { createClient, renderMessage, HeraldAnnouncements } = globalThis.Herald;
export { createClient, renderMessage, HeraldAnnouncements };
export default globalThis.Herald;
