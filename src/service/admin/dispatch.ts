import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { accountById } from '../accounts.js';
import { ApiError, errorResponse, MiB, type ServiceEnv } from '../http.js';
import { adminSessionOf, notSignedIn, requireAdminSession, requireCsrf } from './session.js';

/**
 * `/admin/api/<path>`: the back office's calls, answered by the service's own API in this process
 * as the session's account. The account's api_token is added here and never leaves: one given by the
 * browser (query or body) is refused, and every answer is scrubbed of the token, but for the one
 * answer that shows a rotated token once.
 */
export type Dispatch = (request: Request, env: unknown) => Response | Promise<Response>;

/** The one answer that carries an api_token on purpose: the new one, shown once (`POST /account/api_token/rotate`). */
const ROTATION_PATH = /^\/account\/api_token\/rotate(\.json)?$/;
/** Headers of the browser's request the API reads; any other (cookies, `Authorization`) stays here. */
const FORWARDED_HEADERS = ['accept', 'accept-language', 'content-type', 'idempotency-key', 'if-match', 'if-none-match', 'if-modified-since', 'x-request-id'];
/** As large as the largest body the API takes (an invoice's attachment). */
const ADMIN_API_BODY = 11 * MiB;
const TEXT_TYPE = /^(application\/(json|xml|javascript)|text\/)/i;
const HIDDEN = '[hidden]';

const tokenRefused = () => new ApiError(400, 'The back office sends no api_token: the session is the credential');

/** Whether a body carries `api_token` where the API would take it from: at its top. */
async function bodyNamesToken(type: string, body: ArrayBuffer): Promise<boolean> {
  if (body.byteLength === 0) return false;
  if (/^application\/json/i.test(type)) {
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
      return typeof parsed === 'object' && parsed !== null && Object.hasOwn(parsed, 'api_token');
    } catch {
      return false;
    }
  }
  if (/^application\/x-www-form-urlencoded/i.test(type)) return new URLSearchParams(new TextDecoder().decode(body)).has('api_token');
  if (/^multipart\/form-data/i.test(type)) {
    const form = await new Response(body, { headers: { 'content-type': type } }).formData().catch(() => undefined);
    return form?.has('api_token') ?? false;
  }
  throw new ApiError(415, 'The back office sends JSON, a form or a file');
}

/** A value with every `api_token` key taken out, at any depth. */
function withoutTokenKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokenKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'api_token').map(([key, item]) => [key, withoutTokenKeys(item)]));
}

/** The API's answer as the browser gets it: the account's token nowhere in it. */
async function scrubbed(answer: Response, token: string, keepTokenKey: boolean, method: string): Promise<Response> {
  const headers = new Headers(answer.headers);
  headers.delete('set-cookie');
  for (const [name, value] of headers) if (value.includes(token)) headers.set(name, value.replaceAll(token, HIDDEN));
  const type = headers.get('content-type') ?? '';
  if (method === 'HEAD' || answer.body === null || !TEXT_TYPE.test(type)) return new Response(answer.body, { status: answer.status, headers });
  let text = await answer.text();
  if (!keepTokenKey && /json/i.test(type) && text.includes('"api_token"')) {
    try {
      text = JSON.stringify(withoutTokenKeys(JSON.parse(text)));
    } catch {
      // not JSON after all: the token itself is still replaced below
    }
  }
  text = text.replaceAll(token, HIDDEN);
  headers.delete('content-length');
  return new Response(text, { status: answer.status, headers });
}

export function mountAdminApi(api: Hono<ServiceEnv>, dispatch: Dispatch): void {
  api.use(
    bodyLimit({
      maxSize: ADMIN_API_BODY,
      onError: (c) => errorResponse(c, new ApiError(413, `The request body is larger than ${ADMIN_API_BODY / MiB} MiB`)),
    }),
  );
  api.all('*', requireAdminSession, requireCsrf, async (c) => {
    const url = new URL(c.req.url);
    const inner = new URL(url.pathname.replace(/^\/admin\/api/, '') + url.search, url.origin);
    // The back office's own routes are no part of the API; nor is a path that climbs back to them.
    if (inner.pathname === '/' || inner.pathname.startsWith('/admin')) throw new ApiError(404, 'Not found');
    if (inner.searchParams.has('api_token')) throw tokenRefused();
    const type = c.req.header('content-type') ?? '';
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : await c.req.arrayBuffer();
    if (body && (await bodyNamesToken(type, body))) throw tokenRefused();

    const account = await accountById(c.get('db'), adminSessionOf(c).account_id);
    if (!account) throw notSignedIn();
    const headers = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    headers.set('authorization', `Bearer ${account.api_token}`);
    const answer = await dispatch(new Request(inner, { method: c.req.method, headers, body: body && body.byteLength > 0 ? body : undefined }), c.env);
    return scrubbed(answer, account.api_token, c.req.method === 'POST' && ROTATION_PATH.test(inner.pathname), c.req.method);
  });
}
