// The management API (/api/v1/admin), as the signed-in account: every call of the console goes through call().

export const API = '/api/v1/admin';

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `Herald answered ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.field = body && body.details && body.details.field;
    // What else the refusal names (a publish refused for languages: `missing`).
    this.details = (body && body.details) || {};
  }
}

// The signed-in account as GET /session answers it ({name, role, csrfToken}), or null.
let session = null;
// The Link header of the last answer: where a list's next page is.
let lastLink = null;
// The ETag of the last answer: a notification as read, for If-Match on its change.
let lastEtag = null;
// Herald's clock, as its answers' Date header tells it: a notification's state is the one its feed computes now.
let clockOffset = 0;
let onSessionEnded = () => {};

export const currentSession = () => session;
export const isEditor = () => !!session && (session.role === 'editor' || session.role === 'owner');

export function setSession(value) {
  session = value;
}

/** What to do when an answer says the session has ended (a 401 while signed in): given the session that ended. */
export function whenSessionEnds(callback) {
  onSessionEnded = callback;
}

export function serverNow() {
  return Date.now() + clockOffset;
}

export const lastTag = () => lastEtag;

/** The path of the next page of the last list read, under the API, or null. */
export const nextPage = () => nextOf(lastLink);

const nextOf = (link) => {
  const next = /<\/api\/v1\/admin([^>]*)>; rel="next"/.exec(link || '');
  return next ? next[1] : null;
};

// Every page by its own Link (a page stops at 1 MiB): a list, or the first page with every page's `key` array.
export async function callAll(path, key) {
  let all = null;
  for (let next = path; next;) {
    const page = await answer('GET', next);
    const items = key ? page.json[key] : page.json;
    if (!all) all = page.json;
    else (key ? all[key] : all).push(...items);
    next = nextOf(page.link);
  }
  return all;
}

export async function call(method, path, body, extraHeaders) {
  return (await answer(method, path, body, extraHeaders)).json;
}

async function answer(method, path, body, extraHeaders = {}) {
  const headers = { Accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && session && session.csrfToken) headers['X-CSRF-Token'] = session.csrfToken;
  let response;
  try {
    response = await fetch(API + path, {
      method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, { error: 'Herald could not be reached; check the connection and try again.' });
  }
  const date = Date.parse(response.headers.get('Date'));
  if (!Number.isNaN(date)) clockOffset = date - Date.now();
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  lastLink = response.headers.get('Link');
  lastEtag = response.headers.get('ETag');
  if (!response.ok) {
    const error = new ApiError(response.status, json);
    if (response.status === 401 && session) {
      const ended = session;
      session = null;
      onSessionEnded(ended);
    }
    throw error;
  }
  return { json, link: lastLink };
}
