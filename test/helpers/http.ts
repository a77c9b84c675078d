import { XMLParser } from 'fast-xml-parser';
import { createAccount } from '../../src/service/accounts.js';
import { hashPassword } from '../../src/service/passwords.js';
import type { TestService } from './service.js';

/**
 * Raw HTTP against the running service, the way a client of the hosted service talks to it:
 * `api_token` in the query for GET and DELETE, at the top of JSON bodies, `Authorization: Bearer`
 * for XML. Bodies are sent exactly as given; nothing of the service is imported to build them.
 */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body: JSON as is, XML read by its `type` and `nil` attributes. Loose on purpose in tests. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Auth {
  /** The api_token to send; `null` sends none. Defaults to the service's token. */
  token?: string | null;
  /** Basic `login:password` instead of a token (XML creation). */
  basic?: { login: string; password: string };
}

type Query = Record<string, string | number | boolean | undefined>;

const xmlReader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  processEntities: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

/** Reads the service's XML answers: `type="integer|boolean|array"` and `nil="true"` give JSON's shapes. */
export function readXml(text: string): unknown {
  const document = xmlReader.parse(text) as Record<string, unknown[]>;
  const root = Object.keys(document).find((key) => !key.startsWith('?'));
  if (!root) throw new Error(`not an XML document: ${text.slice(0, 200)}`);
  return xmlValue(document[root]![0]);
}

function xmlValue(node: unknown): unknown {
  if (typeof node === 'string') return node;
  const element = (node ?? {}) as Record<string, unknown>;
  if (element['@nil'] === 'true') return null;
  const type = element['@type'];
  const children = Object.keys(element).filter((key) => !key.startsWith('@') && key !== '#text');
  if (type === 'array') return children.flatMap((child) => (element[child] as unknown[]).map(xmlValue));
  if (children.length === 0) {
    const text = typeof element['#text'] === 'string' ? element['#text'] : '';
    if (type === 'integer') return Number(text);
    if (type === 'boolean') return text === 'true';
    if (type === 'hash') return {};
    return text;
  }
  return Object.fromEntries(children.map((child) => [child, xmlValue((element[child] as unknown[])[0])]));
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (text && type.includes('json')) body = JSON.parse(text);
  else if (text && type.includes('xml')) body = readXml(text);
  return { status: response.status, headers: response.headers, text, body };
}

export function basicHeader(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

export interface Api {
  url: string;
  token: string;
  get(path: string, query?: Query, auth?: Auth): Promise<Reply>;
  delete(path: string, query?: Query, auth?: Auth): Promise<Reply>;
  /** A JSON body with `api_token` added at the top beside the wrapper. */
  post(path: string, body: Record<string, unknown>, auth?: Auth): Promise<Reply>;
  put(path: string, body: Record<string, unknown>, auth?: Auth): Promise<Reply>;
  patch(path: string, body: Record<string, unknown>, auth?: Auth): Promise<Reply>;
  /** An XML body as text, with `Authorization: Bearer` (or Basic). */
  postXml(path: string, xml: string, auth?: Auth): Promise<Reply>;
  putXml(path: string, xml: string, auth?: Auth): Promise<Reply>;
  /** Anything else, sent exactly as given (no token added). */
  raw(method: string, path: string, init?: { body?: BodyInit; headers?: Record<string, string> }): Promise<Reply>;
}

export function api(service: { url: string; apiToken: string }): Api {
  const token = (auth?: Auth) => (auth?.token === undefined ? service.apiToken : auth.token);
  const address = (path: string, query: Query = {}, auth?: Auth) => {
    const url = new URL(path, service.url);
    const t = auth?.basic ? null : token(auth);
    if (t !== null) url.searchParams.set('api_token', t);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url;
  };
  const withQuery = (method: string) => async (path: string, query?: Query, auth?: Auth) =>
    reply(await fetch(address(path, query, auth), { method, headers: { accept: path.endsWith('.xml') ? 'application/xml' : 'application/json' } }));
  const withJson = (method: string) => async (path: string, body: Record<string, unknown>, auth?: Auth) => {
    const t = token(auth);
    return reply(
      await fetch(new URL(path, service.url), {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(t === null ? body : { api_token: t, ...body }),
      }),
    );
  };
  const withXml = (method: string) => async (path: string, xml: string, auth?: Auth) => {
    const headers: Record<string, string> = { 'content-type': 'application/xml', accept: 'application/xml' };
    const t = token(auth);
    if (auth?.basic) headers.authorization = basicHeader(auth.basic.login, auth.basic.password);
    else if (t !== null) headers.authorization = `Bearer ${t}`;
    return reply(await fetch(new URL(path, service.url), { method, headers, body: xml }));
  };
  return {
    url: service.url,
    token: service.apiToken,
    get: withQuery('GET'),
    delete: withQuery('DELETE'),
    post: withJson('POST'),
    put: withJson('PUT'),
    patch: withJson('PATCH'),
    postXml: withXml('POST'),
    putXml: withXml('PUT'),
    raw: async (method, path, init = {}) => reply(await fetch(new URL(path, service.url), { method, ...init })),
  };
}

/** A second account on the same service, with its own token and default department. */
export async function secondAccount(service: TestService, prefix = 'other'): Promise<Api> {
  const account = await service.db.transaction((tx) => createAccount(tx, { prefix, company: { name: `${prefix} Ltd` } }));
  return api({ url: service.url, apiToken: account.api_token });
}

/** A user of the service's demo account who can log in with a password (Basic auth). */
export async function addUser(service: TestService, login: string, password: string): Promise<void> {
  const rows = await service.db.query<{ id: number }>('select id from accounts where prefix = $1', [service.prefix]);
  await service.db.query('insert into users (account_id, login, email, password_hash) values ($1, $2, $3, $4)', [
    rows[0]!.id,
    login,
    `${login}@example.com`,
    await hashPassword(password),
  ]);
}

/** Today as the service dates documents (UTC), and a date `days` away from it. */
export function today(offsetDays = 0): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + offsetDays);
  return date.toISOString().slice(0, 10);
}

/** `N/MM/YYYY` as the service numbers documents issued on `date`. */
export function numberPattern(date: string): RegExp {
  const [year, month] = date.split('-');
  return new RegExp(`^\\d+/${month}/${year}$`);
}

export const UNAUTHORIZED = { code: 'error', message: 'You must be logged in to gain access to the site' };
export const NOT_FOUND = { code: 'error', message: 'Not found' };

/** Creates a one-position invoice for `buyer` as a client of the hosted service would (JSON, `api_token` in the body); its id. */
export async function createPlainInvoice(service: { url: string; apiToken: string }, buyer: string): Promise<number> {
  const response = await fetch(`${service.url}/invoices.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      api_token: service.apiToken,
      invoice: { kind: 'vat', buyer_name: buyer, positions: [{ name: 'Work', tax: 23, total_price_gross: '10.23', quantity: 1 }] },
    }),
  });
  if (response.status !== 201) throw new Error(`creating an invoice answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}
