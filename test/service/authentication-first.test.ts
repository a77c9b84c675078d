import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyTokenOf } from '../../src/service/auth.js';
import { api, type Api, createPlainInvoice, UNAUTHORIZED } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Finding 2 of issue 42: every body was parsed before its token was checked, so a stranger's 1 MiB
 * XML held the event loop for seconds and the attachment route read 11 MiB with no token. Now an
 * account's request is authenticated before its body is read, and parsing has a size budget.
 */
let service: TestService;
let http: Api;
let invoiceId: number;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  invoiceId = await createPlainInvoice(service, 'Auth First SA');
});
afterAll(async () => {
  await service.stop();
});

const positions = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Pozycja ${i + 1} ${'opis '.repeat(40)}`, tax: 23, total_price_gross: '12.30', quantity: 1 }));
/** A 1 MiB XML body of many small elements, the request. */
const floodXml = `<invoice>${'<position><name>abc</name><tax>23</tax></position>'.repeat(20_000)}</invoice>`;

/** Sends `body` in pieces and answers the status, how many bytes the service took before answering, and whether it closed. */
function sendRaw(path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, service.url), { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, connection: response.headers.connection }));
    });
    // The service may close the connection before the whole body is sent: the answer is what counts.
    request.on('error', (error) => setTimeout(() => reject(error), 2000));
    request.end(body);
  });
}

describe('an account request is authenticated before its body is read', () => {
  it('refuses an anonymous 1 MiB XML body unread', async () => {
    const started = performance.now();
    const reply = await sendRaw('/invoices.xml', { 'content-type': 'application/xml' }, Buffer.from(floodXml));
    expect([reply.status, reply.connection]).toEqual([401, 'close']);
    expect(reply.text).toContain('<message>You must be logged in to gain access to the site</message>');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses an anonymous 10.7 MB attachment after its first 64 KiB, and a wrong token in the query at once', async () => {
    const boundary = 'invoicekitboundary';
    const file = Buffer.alloc(10_700_000, 0x41);
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="attachment"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const type = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const anonymous = await sendRaw(`/invoices/${invoiceId}/add_attachment.json`, type, form);
    expect([anonymous.status, JSON.parse(anonymous.text), anonymous.connection]).toEqual([401, UNAUTHORIZED, 'close']);
    const wrong = await sendRaw(`/invoices/${invoiceId}/add_attachment.json?api_token=wrong`, type, form);
    expect([wrong.status, wrong.connection]).toEqual([401, 'close']);
    // The token as the form's first field is checked before the file is read.
    const first = Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="api_token"\r\n\r\nnot-a-token\r\n`), form]);
    expect((await sendRaw(`/invoices/${invoiceId}/add_attachment.json`, type, first)).status).toBe(401);
  });

  it('takes a token that comes first in a large JSON body, and a bearer token with XML', async () => {
    const body = JSON.stringify({ api_token: service.apiToken, invoice: { kind: 'vat', buyer_name: 'Big JSON SA', positions: positions(300) } });
    expect(body.length).toBeGreaterThan(64 * 1024);
    const created = await http.raw('POST', '/invoices.json', { headers: { 'content-type': 'application/json' }, body });
    expect([created.status, created.body.positions?.length]).toEqual([201, 300]);
    const xml = await http.postXml('/clients.xml', '<client><name>Bearer XML</name></client>');
    expect([xml.status, xml.body.name]).toEqual([201, 'Bearer XML']);
    // A wrong token first in the body is refused before the rest is read.
    const wrong = await http.raw('POST', '/invoices.json', { headers: { 'content-type': 'application/json' }, body: body.replace(service.apiToken, 'wrong-token') });
    expect([wrong.status, wrong.body]).toEqual([401, UNAUTHORIZED]);
  });

  it('reads a small body whole to find its token anywhere, but not a large one', async () => {
    const small = JSON.stringify({ client: { name: 'Token Last' }, api_token: service.apiToken });
    expect((await http.raw('POST', '/clients.json', { headers: { 'content-type': 'application/json' }, body: small })).status).toBe(201);
    const form = new URLSearchParams({ 'client[name]': 'Form Token', api_token: service.apiToken });
    expect((await http.raw('POST', '/clients.json', { body: form })).status).toBe(201);
    const large = JSON.stringify({ invoice: { kind: 'vat', buyer_name: 'Token Last SA', positions: positions(300) }, api_token: service.apiToken });
    const refused = await http.raw('POST', '/invoices.json', { headers: { 'content-type': 'application/json' }, body: large });
    expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
  });
});

describe('the token at the top of a body', () => {
  it('is a JSON body\'s first key, a form field, or a multipart field, and only a whole value', () => {
    expect(bodyTokenOf('application/json', ' {\n "api_token" : "tok\\"en", "invoice": {')).toBe('tok"en');
    expect(bodyTokenOf('application/json', '{"invoice": {}, "api_token": "later"}')).toBeUndefined();
    expect(bodyTokenOf('application/x-www-form-urlencoded', 'a=1&api_token=t%2Bk+n&b=2', false)).toBe('t+k n');
    expect(bodyTokenOf('application/x-www-form-urlencoded', 'a=1&api_token=cut-of', false)).toBeUndefined();
    expect(bodyTokenOf('application/x-www-form-urlencoded', 'a=1&api_token=whole', true)).toBe('whole');
    const part = '--b\r\nContent-Disposition: form-data; name="api_token"\r\n\r\nsecret-token\r\n--b\r\n';
    expect(bodyTokenOf('multipart/form-data; boundary=b', part)).toBe('secret-token');
  });
});

describe('parsing has a size budget', () => {
  it('refuses an authenticated 1 MiB XML flood before parsing it, and answers others meanwhile', async () => {
    const started = performance.now();
    const flood = await http.postXml('/invoices.xml', floodXml);
    expect([flood.status, flood.body]).toEqual([400, { code: 'error', message: 'The XML has more than 5000 elements' }]);
    expect(performance.now() - started).toBeLessThan(1000);
    const deep = await http.postXml('/clients.xml', `<client>${'<a>'.repeat(40)}x${'</a>'.repeat(40)}</client>`);
    expect(deep.body).toEqual({ code: 'error', message: 'The XML is nested deeper than 32 levels' });
    const attributes = await http.postXml('/clients.xml', `<client><name ${Array.from({ length: 9 }, (_, i) => `a${i}="1"`).join(' ')}>x</name></client>`);
    expect(attributes.body).toEqual({ code: 'error', message: 'An XML element has more than 8 attributes' });
    const text = await http.postXml('/clients.xml', `<client><name>x</name><note>${'n'.repeat(70_000)}</note></client>`);
    expect(text.body).toEqual({ code: 'error', message: 'The XML has a text longer than 65536 characters' });
  });

  it('refuses JSON with more values than it may parse, and a form with too many fields', async () => {
    const json = await http.post('/clients.json', { client: { name: 'Many', tags: Array(60_000).fill(1) } });
    expect([json.status, json.body]).toEqual([400, { code: 'error', message: 'The body has more than 50000 values' }]);
    const form = new URLSearchParams({ api_token: service.apiToken });
    for (let i = 0; i < 10_001; i += 1) form.append(`f${i}`, '1');
    const many = await http.raw('POST', '/clients.json', { body: form });
    expect([many.status, many.body]).toEqual([400, { code: 'error', message: 'The form has more than 10000 fields' }]);
  });
});
