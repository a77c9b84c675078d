import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBff, issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, seed, startService, startTestBff, type Seed, type Service, type TestBff } from './support.js';

let service: Service;
let data: Seed;
let token: string;
const started: TestBff[] = [];

beforeAll(async () => {
  let api;
  ({ service, api } = await startService());
  data = await seed(api);
  token = await issuePortalToken({ clientId: data.clientA, ttlSeconds: 600 }, PORTAL_SECRET);
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((bff) => bff.close()));
  await service?.stop();
});

async function bffWith(options: Parameters<typeof startTestBff>[1]): Promise<TestBff> {
  const bff = await startTestBff(service, options);
  started.push(bff);
  return bff;
}

/** What a TLS-terminating proxy for https://portal.example.com adds to the request it passes on. */
const behindProxy = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'portal.example.com', 'x-forwarded-for': '203.0.113.9' };

async function pdfLink(bff: TestBff, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${bff.base}/invoices/${data.invoices['ALPHA-003']!.id}/pdf-link`, { headers: { ...bearer(token), ...headers } });
  expect(response.status).toBe(200);
  return ((await json(response)) as { url: string }).url;
}

describe('the BFF behind an HTTPS proxy', () => {
  it('answers PDF links on the original https host when the proxy is trusted, and the link opens the PDF', async () => {
    const bff = await bffWith({ trustProxy: 1 });
    const url = new URL(await pdfLink(bff, behindProxy));
    expect(url.origin).toBe('https://portal.example.com');
    expect(url.pathname).toBe(`/bff/invoices/${data.invoices['ALPHA-003']!.id}/pdf`);
    // What the proxy would forward to the BFF: the same path and link, on the internal address.
    const pdf = await fetch(`${bff.url}${url.pathname}${url.search}`, { headers: behindProxy });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('ignores the forwarded headers of a proxy it does not trust', async () => {
    const bff = await bffWith({});
    expect(new URL(await pdfLink(bff, behindProxy)).origin).toBe(bff.url);
  });

  it('prefers the configured public address over any header', async () => {
    const bff = await bffWith({ trustProxy: 1, publicUrl: 'https://billing.example.org/some/path' });
    expect(new URL(await pdfLink(bff, behindProxy)).origin).toBe('https://billing.example.org');
    expect(new URL(await pdfLink(bff)).origin).toBe('https://billing.example.org');
  });

  it('takes the outermost trusted proxy’s entry and ignores a forwarded host that is not a host', async () => {
    const bff = await bffWith({ trustProxy: 1 });
    // A client's own header first, the trusted proxy's appended last.
    const listed = new URL(await pdfLink(bff, { 'x-forwarded-proto': 'http, https', 'x-forwarded-host': 'evil.example, portal.example.com' }));
    expect(listed.origin).toBe('https://portal.example.com');
    for (const host of ['evil.example/path', 'user@evil.example', 'a b', '']) {
      const url = new URL(await pdfLink(bff, { 'x-forwarded-proto': 'https', 'x-forwarded-host': host }));
      expect(url.host).toBe(new URL(bff.url).host);
    }
    expect(new URL(await pdfLink(bff, { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'portal.example.com' })).protocol).toBe('http:');
  });

  it('counts a page on the public https origin as same-origin through a trusted proxy, and only then', async () => {
    const trusted = await bffWith({ trustProxy: 1 });
    const untrusted = await bffWith({});
    const request = (bff: TestBff) =>
      fetch(`${bff.base}/invoices`, { headers: { ...bearer(token), ...behindProxy, origin: 'https://portal.example.com' } });
    const allowed = await request(trusted);
    expect(allowed.status).toBe(200);
    // Same-origin needs no CORS headers.
    expect(allowed.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await request(untrusted);
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ error: { code: 'origin_not_allowed' } });
    // A page elsewhere is still cross-origin behind the trusted proxy.
    const elsewhere = await fetch(`${trusted.base}/invoices`, { headers: { ...bearer(token), ...behindProxy, origin: 'https://evil.example' } });
    expect(elsewhere.status).toBe(403);
  });
});

describe('createBff’s options', () => {
  const valid = { serviceUrl: 'http://127.0.0.1:1', apiToken: 'token', portalSecret: PORTAL_SECRET };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no portal secret', { serviceUrl: valid.serviceUrl, apiToken: valid.apiToken }, /createBff: `portalSecret` is required/],
    ['an empty portal secret', { ...valid, portalSecret: '' }, /`portalSecret` is required/],
    ['a short portal secret', { ...valid, portalSecret: 'short' }, /`portalSecret` must be at least 32 bytes long, not 5/],
    ['a numeric portal secret', { ...valid, portalSecret: 12 }, /`portalSecret` must be a string or a Uint8Array/],
    ['no service', { portalSecret: PORTAL_SECRET }, /`serviceUrl` and `apiToken` are required \(or a `client`\)/],
    ['no api token', { serviceUrl: valid.serviceUrl, portalSecret: PORTAL_SECRET }, /`apiToken` is required/],
    ['a service address that is not one', { ...valid, serviceUrl: 'localhost:8787' }, /`serviceUrl` must be an http\(s\) address, not "localhost:8787"/],
    ['a public address that is not one', { ...valid, publicUrl: 'portal.example.com' }, /`publicUrl` must be an http\(s\) address/],
    ['origins as a string', { ...valid, allowedOrigins: 'https://shop.example' }, /`allowedOrigins` must be a list of origins/],
    ['a proxy count as text', { ...valid, trustProxy: '1' }, /`trustProxy` must be a whole number of at least 0, not "1"/],
    ['webhooks without a secret', { ...valid, webhooks: {} }, /`webhooks.secret` is required/],
    ['a service fetch that is not a function', { ...valid, serviceFetch: 'http' }, /`serviceFetch` must be a `fetch` function/],
  ];
  for (const [what, options, message] of cases) {
    it(`stops at once on ${what}, naming the option`, () => {
      expect(() => createBff(options as never)).toThrow(message);
    });
  }

  it('never puts a secret in its message', () => {
    expect(() => createBff({ ...valid, portalSecret: 'secret-but-too-short' })).toThrow(/not 20\.$/);
    expect(() => createBff({ ...valid, portalSecret: 'secret-but-too-short' })).not.toThrow(/secret-but/);
  });

  it('starts with what the README shows', () => {
    expect(createBff(valid).fetch).toBeTypeOf('function');
  });
});
