// The admin API client: every call goes to this origin's /admin/v1 with the operator token as
// the bearer. The token lives in the tab's sessionStorage only: no cookie, never in a URL.

const KEY = 'pixgate.operatorToken';
const BASE = '/admin/v1';

export function storedToken() {
  return sessionStorage.getItem(KEY);
}

export function keepToken(token) {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken() {
  sessionStorage.removeItem(KEY);
}

/** A refused call: the HTTP status and the error envelope's code and message. */
export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Called with every 401, so the app can ask for a token again. */
let onUnauthorized = () => {};
export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

/**
 * Calls `method path` and returns the envelope's `data`. `body` is sent as JSON, or as is when
 * it is a Blob/ArrayBuffer (a component upload). `token` overrides the stored one (sign-in).
 */
export async function call(method, path, { body, query, token, contentType } = {}) {
  const bearer = token ?? storedToken();
  const headers = { Accept: 'application/json' };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let payload;
  if (body instanceof Blob || body instanceof ArrayBuffer) {
    headers['Content-Type'] = contentType ?? 'application/octet-stream';
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let url = BASE + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null && v !== '') params.set(k, v);
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: 'omit', cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, 'network_error', `The admin API did not answer (${e.message}).`);
  }
  let json = null;
  const text = await response.text();
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) {
    const error = json?.error ?? {};
    const err = new ApiError(
      response.status,
      error.code ?? `http_${response.status}`,
      error.message ?? `${response.status} ${response.statusText}`,
      error.field,
    );
    if (response.status === 401 && token === undefined) onUnauthorized(err);
    throw err;
  }
  return json?.data ?? json;
}

/**
 * `POST /replays` with its progress streamed (`application/x-ndjson`): calls `onProgress`
 * with each `{replayed, total}` as the server runs the charges, and returns the report. A
 * request refused before it starts answers a plain error envelope, thrown as for `call`.
 */
export async function replayStreaming(body, onProgress) {
  const headers = { Accept: 'application/x-ndjson', 'Content-Type': 'application/json' };
  const bearer = storedToken();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch(`${BASE}/replays`, {
      method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit', cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'network_error', `The admin API did not answer (${e.message}).`);
  }
  if (!response.ok || !response.headers.get('content-type')?.startsWith('application/x-ndjson')) {
    const json = await response.json().catch(() => null);
    const error = json?.error ?? {};
    const err = new ApiError(response.status, error.code ?? `http_${response.status}`,
      error.message ?? `${response.status} ${response.statusText}`, error.field);
    if (response.status === 401) onUnauthorized(err);
    throw err;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      if (line.progress) onProgress(line.progress);
      else if (line.success) return line.data;
      else throw new ApiError(200, line.error?.code ?? 'replay_failed', line.error?.message ?? 'The replay failed.');
    }
  }
  throw new ApiError(0, 'network_error', 'The replay ended before its report.');
}

/**
 * `GET path` of a route that answers text (a CSV export): the text, or the error envelope
 * thrown as for `call`.
 */
export async function getText(path, query) {
  const headers = { Accept: 'text/csv, application/json' };
  const bearer = storedToken();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, v);
  }
  const qs = params.toString();
  let response;
  try {
    response = await fetch(`${BASE}${path}${qs ? `?${qs}` : ''}`, { headers, credentials: 'omit', cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, 'network_error', `The admin API did not answer (${e.message}).`);
  }
  if (!response.ok) {
    const json = await response.json().catch(() => null);
    const error = json?.error ?? {};
    const err = new ApiError(response.status, error.code ?? `http_${response.status}`,
      error.message ?? `${response.status} ${response.statusText}`, error.field);
    if (response.status === 401) onUnauthorized(err);
    throw err;
  }
  return response.text();
}

export const get = (path, query) => call('GET', path, { query });
export const post = (path, body) => call('POST', path, { body: body ?? {} });
export const put = (path, body) => call('PUT', path, { body });
export const del = (path) => call('DELETE', path);

/** Reads a list route page by page (`after` = the last item's key) up to `max` items. */
export async function all(path, query, keyOf, max = 1000) {
  const items = [];
  let after;
  for (;;) {
    const page = await get(path, { ...query, limit: 100, after });
    items.push(...page);
    if (page.length < 100 || items.length >= max) return items;
    after = keyOf(page[page.length - 1]);
  }
}

/** Who the token belongs to: `{id, name, role}` (the bootstrap admin token is an `admin`). */
export async function whoAmI(token) {
  return call('GET', '/operators/me', { token });
}
