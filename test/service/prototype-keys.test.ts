import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { PORTAL_SECRET, PRODUCT_TOKEN, SHOP_ORIGIN, startTestBff, type TestBff } from '../bff/support.js';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Property: bodies carrying `__proto__`, `constructor` and `prototype` as keys, at the top, nested
 * and inside arrays, in form, multipart, JSON and XML, sent to public and authenticated routes of
 * the service and the BFF, never answer 5xx and never change what a later request sees. The
 * service and the BFF run in this process, so a polluted prototype would show here too.
 */
type Tree = { kind: 'leaf'; value: string } | { kind: 'array'; items: Tree[] } | { kind: 'object'; entries: [string, Tree][] };

const KEYS = ['__proto__', 'constructor', 'prototype', 'api_token', 'name', 'polluted', 'client', 'invoice', 'positions', '0'];
const key = fc.constantFrom(...KEYS);
const leaf = fc.oneof(fc.constantFrom('1', 'yes', 'x'), fc.string({ maxLength: 8 })).map((value): Tree => ({ kind: 'leaf', value }));
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { maxLength: 3 }).map((items): Tree => ({ kind: 'array', items })),
    fc.array(fc.tuple(key, tie('tree')), { minLength: 1, maxLength: 4 }).map((entries): Tree => ({ kind: 'object', entries })),
  ),
}));
/** A body is an object at the top, always holding at least one prototype key somewhere. */
const body = fc
  .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), tree, fc.array(fc.tuple(key, tree), { maxLength: 3 }))
  .map(([first, value, rest]): Tree => ({ kind: 'object', entries: [[first, value], ...rest] }));

function toJson(node: Tree): string {
  if (node.kind === 'leaf') return JSON.stringify(node.value);
  if (node.kind === 'array') return `[${node.items.map(toJson).join(',')}]`;
  return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
}

/** Rails-style field names: `a[b][]`, `a[0][c]`. */
function toFields(node: Tree, prefix = ''): [string, string][] {
  if (node.kind === 'leaf') return [[prefix || 'value', node.value]];
  if (node.kind === 'array') return node.items.flatMap((item) => toFields(item, `${prefix}[]`));
  return node.entries.flatMap(([k, v]) => toFields(v, prefix ? `${prefix}[${k}]` : k));
}

function toXml(node: Tree, name: string): string {
  const tag = /^[A-Za-z_][\w-]*$/.test(name) ? name : 'item';
  if (node.kind === 'leaf') return `<${tag}>${node.value.replace(/[<&>"']/g, '')}</${tag}>`;
  if (node.kind === 'array') return `<${tag} type="array">${node.items.map((item) => toXml(item, 'item')).join('')}</${tag}>`;
  return `<${tag}>${node.entries.map(([k, v]) => toXml(v, k)).join('')}</${tag}>`;
}

type Format = 'json' | 'form' | 'multipart' | 'xml';

function encode(node: Tree, format: Format): { body: BodyInit; headers: Record<string, string> } {
  switch (format) {
    case 'json':
      return { body: toJson(node), headers: { 'content-type': 'application/json' } };
    case 'form':
      return { body: new URLSearchParams(toFields(node)).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    case 'multipart': {
      const form = new FormData();
      for (const [k, v] of toFields(node)) form.append(k, v);
      return { body: form, headers: {} };
    }
    case 'xml':
      return { body: toXml(node, 'client'), headers: { 'content-type': 'application/xml' } };
  }
}

let service: TestService;
let bff: TestBff;
let attacker: Api;
let victim: Api;
let invoiceToken: string;
let clientId: number;
let portalToken: string;
const prototypeNames = () => [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
let before: string[];

beforeAll(async () => {
  service = await startTestService();
  attacker = api(service);
  victim = await secondAccount(service, 'victim-accounts');
  expect((await victim.post('/clients.json', { client: { name: 'Victim Client' } })).status).toBe(201);
  const created = await attacker.post('/invoices.json', {
    invoice: { kind: 'vat', buyer_name: 'Buyer', positions: [{ name: 'x', tax: 23, total_price_gross: '1.00', quantity: 1 }] },
  });
  invoiceToken = new URL(created.body.view_url as string).pathname.split('/').pop()!;
  clientId = created.body.client_id as number;
  await attacker.post('/products.json', { product: { name: 'E-book', price_net: '10', tax: '23', token: PRODUCT_TOKEN } });
  bff = await startTestBff(service, { signup: true, rateLimit: false });
  portalToken = await issuePortalToken({ clientId, ttlSeconds: 600 }, PORTAL_SECRET);
  before = prototypeNames();
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

interface Target {
  name: string;
  method: string;
  url: () => string;
  headers?: () => Record<string, string>;
}

const targets: Target[] = [
  { name: 'service 404', method: 'POST', url: () => `${service.url}/no-such-path` },
  { name: 'service public pay page', method: 'POST', url: () => `${service.url}/invoice/payment/${invoiceToken}` },
  { name: 'service login', method: 'POST', url: () => `${service.url}/login.json` },
  { name: 'service clients (query token)', method: 'POST', url: () => `${service.url}/clients.json?api_token=${attacker.token}` },
  { name: 'service client update (bearer)', method: 'PUT', url: () => `${service.url}/clients/${clientId}.json`, headers: () => ({ authorization: `Bearer ${attacker.token}` }) },
  { name: 'service invoices (no token)', method: 'POST', url: () => `${service.url}/invoices.json` },
  { name: 'bff checkout', method: 'POST', url: () => `${bff.base}/checkout`, headers: () => ({ origin: SHOP_ORIGIN }) },
  { name: 'bff signup', method: 'POST', url: () => `${bff.base}/clients`, headers: () => ({ origin: SHOP_ORIGIN }) },
  { name: 'bff client update', method: 'PUT', url: () => `${bff.base}/client`, headers: () => ({ origin: SHOP_ORIGIN, authorization: `Bearer ${portalToken}` }) },
];

describe('prototype keys in every body format', () => {
  it('never answer 5xx and never leak into later requests', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom<Format>('json', 'form', 'multipart', 'xml'), fc.constantFrom(...targets), async (node, format, target) => {
        const { body: payload, headers } = encode(node, format);
        const response = await fetch(target.url(), { method: target.method, body: payload, headers: { ...headers, ...target.headers?.() } });
        await response.arrayBuffer();
        expect(response.status, `${target.name} ${format} ${toJson(node)}`).toBeLessThan(500);
        expect(prototypeNames()).toEqual(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(({} as Record<string, unknown>).api_token).toBeUndefined();
      }),
      { numRuns: 120 },
    );

    // Later requests: each account sees its own data, writes succeed, and no token is no account.
    const list = await fetch(`${service.url}/clients.json`, { headers: { authorization: `Bearer ${victim.token}` } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { name: string }[]).map((c) => c.name)).toEqual(['Victim Client']);
    expect((await victim.post('/clients.json', { client: { name: 'Victim Client 2' } })).status).toBe(201);
    expect((await fetch(`${service.url}/clients.json`)).status).toBe(401);
    const checkout = await fetch(`${bff.base}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
      body: JSON.stringify({ product: PRODUCT_TOKEN, buyer: { email: 'after@example.com', name: 'Ada Lovelace' }, returnUrl: `${SHOP_ORIGIN}/thanks` }),
    });
    expect(checkout.status).toBe(201);
  }, 120_000);
});
