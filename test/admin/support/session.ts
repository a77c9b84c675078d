import { hashPassword } from '../../../src/service/passwords.js';
import { createAccount } from '../../../src/service/accounts.js';
import type { TestService } from '../../helpers/service.js';

/** One signed-in browser of the back office, as raw HTTP: its cookie, its CSRF token, its calls. */
export interface AdminBrowser {
  cookie: string;
  csrf: string;
  /** A call of `/admin/...` with the session's cookie; writes carry `X-CSRF-Token` unless `csrf` says otherwise. */
  call(method: string, path: string, body?: unknown, init?: { csrf?: string | null; headers?: Record<string, string> }): Promise<AdminReply>;
}

export interface AdminReply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function readReply(response: Response): Promise<AdminReply> {
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return { status: response.status, headers: response.headers, text, body: json ? JSON.parse(text) : text };
}

/** `POST /admin/session` with a login (or e-mail) and password, as the sign-in form sends it. */
export function postSignIn(service: { url: string }, login: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${service.url}/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ login, password }),
  });
}

/** The `name=value` of the session cookie a sign-in set. */
export function sessionCookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const match = /^(ik_admin=[^;]*)/.exec(header);
  if (!match) throw new Error(`no session cookie in ${JSON.stringify(header)}`);
  return match[1]!;
}

export function browserOf(service: { url: string }, cookie: string, csrf: string): AdminBrowser {
  return {
    cookie,
    csrf,
    async call(method, path, body, init = {}) {
      const headers: Record<string, string> = { accept: 'application/json', cookie, ...init.headers };
      const token = init.csrf === undefined ? csrf : init.csrf;
      if (method !== 'GET' && method !== 'HEAD' && token !== null) headers['x-csrf-token'] = token;
      if (body !== undefined) headers['content-type'] = 'application/json';
      return readReply(await fetch(`${service.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    },
  };
}

/** Signs a user in and answers their browser; throws unless the sign-in succeeded. */
export async function signIn(service: { url: string }, login: string, password: string): Promise<AdminBrowser> {
  const response = await postSignIn(service, login, password);
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = sessionCookieOf(response);
  const body = (await response.json()) as { csrf: string };
  return browserOf(service, cookie, body.csrf);
}

/** A new account with one user who can sign in; its prefix and api_token. */
export async function accountWithUser(
  service: TestService,
  options: { prefix: string; login: string; email: string; password: string; company?: string },
): Promise<{ id: number; prefix: string; apiToken: string }> {
  const passwordHash = await hashPassword(options.password);
  return service.db.transaction(async (tx) => {
    const account = await createAccount(tx, { prefix: options.prefix, company: { name: options.company ?? `${options.prefix} Ltd` } });
    await tx.query('insert into users (account_id, login, email, password_hash) values ($1, $2, $3, $4)', [account.id, options.login, options.email, passwordHash]);
    return { id: account.id, prefix: account.prefix, apiToken: account.api_token };
  });
}
