import { request as httpRequest } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, api, type Api, basicHeader, NOT_FOUND, secondAccount, UNAUTHORIZED } from '../helpers/http.js';
import { pdfPoolState } from '../../src/service/documents/pdf-pool.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The attacks of the security review, each reproduced as it was made, with the safe outcome
 * asserted. One service for most of them; a second one started the way production starts
 * (no test payments, no SMTP outbox switch aside) where the switch is the point.
 */
let service: TestService;
let demo: Api;
let other: Api;

beforeAll(async () => {
  service = await startTestService();
  demo = api(service);
  other = await secondAccount(service, 'victim');
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

const invoice = (extra: Record<string, unknown> = {}) => ({
  invoice: { kind: 'vat', buyer_name: 'Klient Sp. z o.o.', positions: [{ name: 'Usługa', tax: 23, total_price_gross: '123.00', quantity: 1 }], ...extra },
});

/** A raw HTTP request with a `Host` header of our choosing (fetch does not let one set it). */
function withHost(path: string, host: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const url = new URL(path, service.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: init.method ?? 'GET', headers: { host, ...init.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('finding 1: a body cannot reach a prototype', () => {
  it('refuses __proto__ in a form body, and every tenant keeps working with its own data', async () => {
    const victimInvoice = await other.post('/invoices.json', invoice({ buyer_name: 'Victim Buyer' }));
    expect(victimInvoice.status).toBe(201);

    // To a path that does not even exist, and to a real one, with the attacker's token.
    for (const path of ['/no-such-page', '/invoices.json']) {
      const polluting = await demo.raw('POST', path, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `__proto__[x]=1&__proto__[api_token]=${demo.token}&constructor[prototype][api_token]=${demo.token}`,
      });
      expect(polluting.status).toBe(400);
      expect(polluting.body).toEqual({ code: 'error', message: 'The field name "__proto__" is not allowed' });
    }
    const multipart = new FormData();
    multipart.set('__proto__[api_token]', demo.token);
    expect((await demo.raw('POST', '/clients.json', { body: multipart })).status).toBe(400);
    expect(({} as Record<string, unknown>).api_token).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();

    // The victim, by header, sees only their own invoices; with no token at all, nobody is served.
    const victimList = await fetch(`${service.url}/invoices.xml`, { headers: { authorization: `Bearer ${other.token}`, accept: 'application/xml' } });
    expect(victimList.status).toBe(200);
    const xml = await victimList.text();
    expect(xml).toContain('Victim Buyer');
    expect(xml).not.toContain('Klient Sp. z o.o.');
    const anonymous = await demo.raw('GET', '/invoices.json');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    // Writes of every tenant still succeed.
    expect((await other.post('/clients.json', { client: { name: 'After the attack' } })).status).toBe(201);
    expect((await demo.post('/invoices.json', invoice())).status).toBe(201);
  });

  it('refuses prototype keys in JSON and XML bodies with the reference error body', async () => {
    const json = await demo.raw('POST', `/clients.json?api_token=${demo.token}`, {
      headers: { 'content-type': 'application/json' },
      body: '{"client":{"name":"x","__proto__":{"api_token":"stolen"}}}',
    });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ code: 'error', message: 'The field name "__proto__" is not allowed' });
    const xml = await demo.postXml('/clients.xml', '<client><name>x</name><constructor><prototype><api_token>stolen</api_token></prototype></constructor></client>');
    expect(xml.status).toBe(400);
    expect(xml.body).toEqual({ code: 'error', message: expect.stringMatching(/"constructor"/) });
    const prototype = await demo.postXml('/clients.xml', '<client><name>x</name><prototype><api_token>stolen</api_token></prototype></client>');
    expect(prototype.body).toEqual({ code: 'error', message: expect.stringMatching(/"prototype"/) });
    const proto = await demo.postXml('/clients.xml', '<client><name>x</name><__proto__><api_token>stolen</api_token></__proto__></client>');
    expect(proto.status).toBe(400);
    expect(proto.body.code).toBe('error');
  });

  it('takes the token from one place in one order: a present but wrong query token is not rescued by the header', async () => {
    const response = await fetch(`${service.url}/invoices.json?api_token=wrong`, { headers: { authorization: `Bearer ${demo.token}` } });
    expect(response.status).toBe(401);
  });

  it('answers 400 to JSON nested 10,000 deep', async () => {
    const deep = `{"client":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const response = await demo.raw('POST', `/clients.json?api_token=${demo.token}`, { headers: { 'content-type': 'application/json' }, body: deep });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'error', message: 'The body is nested deeper than 32 levels' });
  });
});

describe('finding 2: the outbox is private', () => {
  it('shows an account its own mail only, and nothing to anyone without credentials', async () => {
    const created = await demo.post('/invoices.json', invoice({ buyer_email: 'private@buyer.example' }));
    expect((await demo.post(`/invoices/${created.body.id}/send_by_email.json`, {})).status).toBe(200);

    for (const path of ['/outbox', '/outbox.json']) {
      const anonymous = await fetch(`${service.url}${path}`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.text()).not.toContain('private@buyer.example');
    }
    const own = await demo.get('/outbox.json');
    expect(own.status).toBe(200);
    const message = (own.body as { token: string; to: string[] }[]).find((m) => m.to.includes('private@buyer.example'))!;
    expect(message).toBeDefined();
    // Another account sees neither the list entry nor the message, its body or its attachment.
    expect(((await other.get('/outbox.json')).body as { to: string[] }[]).some((m) => m.to.includes('private@buyer.example'))).toBe(false);
    expect((await other.get(`/outbox/${message.token}.json`)).status).toBe(404);
    expect((await fetch(`${service.url}/outbox/${message.token}/body`)).status).toBe(401);
    expect((await fetch(`${service.url}/outbox/${message.token}/attachments/1`)).status).toBe(401);
  });

  it('opens with a signed link for one account only; a forged or other account link does not', async () => {
    const link = await fetch(`${service.url}/outbox/links.json`, { method: 'POST', headers: { authorization: `Bearer ${other.token}` } });
    expect(link.status).toBe(201);
    const { url } = (await link.json()) as { url: string };
    expect(url).not.toContain(other.token);
    const opened = await fetch(url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = opened.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/outbox/);
    const page = await fetch(`${service.url}/outbox`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('private@buyer.example');

    const forged = new URL(url);
    const [id, expires] = forged.searchParams.get('key')!.split('.');
    forged.searchParams.set('key', `${Number(id) - 1}.${expires}.${'A'.repeat(43)}`);
    expect((await fetch(forged, { redirect: 'manual' })).status).toBe(401);
    expect((await fetch(`${service.url}/outbox`, { headers: { cookie: 'invoicekit_outbox=1.99999999999.AAAA' } })).status).toBe(401);
    expect((await fetch(`${service.url}/outbox/links.json`, { method: 'POST' })).status).toBe(401);
  });
});

describe('finding 3: buyers are matched only where the caller may act for them', () => {
  it('never attaches a checkout to a registered customer found by e-mail or tax number', async () => {
    const registered = await demo.post('/clients.json', { client: { name: 'Registered Co', tax_no: '5252445767', email: 'registered@buyer.example' } });
    const payment = await demo.post('/banking/payments.json', {
      banking_payment: { name: 'Checkout', price: '10.00', paid: false, generate_invoice: true, email: 'registered@buyer.example', invoice_name: 'Someone Else', invoice_tax_no: '5252445767' },
    });
    expect(payment.status).toBe(201);
    const token = new URL(payment.body.payment_url as string).pathname.split('/').pop();
    expect((await fetch(`${service.url}/banking/payments/pay/${token}`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const paid = await demo.get(`/banking/payments/${payment.body.id}.json`);
    const issued = await demo.get(`/invoices/${paid.body.invoice_id}.json`);
    expect(issued.status).toBe(200);
    expect(issued.body.client_id).not.toBe(registered.body.id);
    // The account's own API still finds its client by tax number, as the hosted service does.
    const own = await demo.post('/invoices.json', invoice({ buyer_name: 'Registered Co', buyer_tax_no: '525-244-57-67' }));
    expect(own.body.client_id).toBe(registered.body.id);
  });

  it('never finds a client by identity fields its customer set themselves', async () => {
    // A portal customer (through the BFF, which marks the change as theirs) claims a company's public
    // tax number before the company ever buys.
    const claimant = await demo.post('/clients.json', { client: { name: 'Claimant', tax_no: '1111111111', self_service: true } });
    expect(claimant.status).toBe(201);
    expect((await demo.put(`/clients/${claimant.body.id}.json`, { client: { tax_no: '7010000000', self_service: true } })).status).toBe(200);
    const first = await demo.post('/invoices.json', invoice({ buyer_name: 'Honest Company', buyer_tax_no: '7010000000' }));
    expect(first.status).toBe(201);
    expect(first.body.client_id).not.toBe(claimant.body.id);
    // The company's next invoice finds the company's own record, not the older claim.
    const next = await demo.post('/invoices.json', invoice({ buyer_name: 'Honest Company', buyer_tax_no: '7010000000' }));
    expect(next.body.client_id).toBe(first.body.client_id);
  });
});

describe('finding 4: links come from configuration, never from Host', () => {
  it('writes the configured address into answers and e-mail whatever Host says', async () => {
    const created = await withHost('/invoices.json', 'evil.example', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_token: demo.token, ...invoice({ buyer_email: 'host@buyer.example' }) }),
    });
    expect(created.status).toBe(201);
    const body = JSON.parse(created.body) as { id: number; view_url: string };
    expect(body.view_url.startsWith(`${service.url}/invoice/`)).toBe(true);
    const sent = await withHost(`/invoices/${body.id}/send_by_email.json?api_token=${demo.token}`, 'evil.example', { method: 'POST' });
    expect(sent.status).toBe(200);
    const mail = (await demo.get('/outbox.json')).body as { token: string; to: string[] }[];
    const message = await demo.get(`/outbox/${mail.find((m) => m.to.includes('host@buyer.example'))!.token}.json`);
    expect(message.body.text_body).toContain(`${service.url}/invoice/`);
    expect(message.body.text_body).not.toContain('evil.example');
  });
});

describe('finding 6: logos by decoded size, PDFs off the request thread, a limit on positions', () => {
  /** A PNG whose header says 10,000 × 10,000 pixels: a few hundred bytes on the wire. */
  function hugePng(): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body) >>> 0);
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(10_000, 0);
    header.writeUInt32BE(10_000, 4);
    header.set([8, 2, 0, 0, 0], 8);
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(30_001))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }

  it('refuses a logo of 10,000 × 10,000 pixels with 422', async () => {
    const departments = await demo.get('/departments.json');
    const form = new FormData();
    form.set('api_token', demo.token);
    form.set('department[logo]', new Blob([new Uint8Array(hugePng())], { type: 'image/png' }), 'logo.png');
    const response = await fetch(`${service.url}/departments/${departments.body[0].id}.json`, { method: 'PUT', body: form });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      code: 'error',
      message: { 'department.logo': ['is 10000 × 10000 pixels: at most 4194304 pixels and 4096 per side are accepted'] },
    });
  });

  it('answers 422 beyond 1000 positions', async () => {
    const positions = Array.from({ length: 1001 }, (_, i) => ({ name: `Line ${i}`, tax: 23, total_price_gross: '1.00', quantity: 1 }));
    const response = await demo.post('/invoices.json', invoice({ positions }));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'error', message: { positions: ['has too many positions (maximum is 1000)'] } });
  });

  it('answers a request made while a large PDF renders before that PDF', async () => {
    const positions = Array.from({ length: 1000 }, (_, i) => ({ name: `Line ${i} ${'x'.repeat(60)}`, tax: 23, total_price_gross: '1.00', quantity: 1 }));
    const large = await demo.post('/invoices.json', invoice({ positions }));
    expect(large.status).toBe(201);
    const finished: string[] = [];
    const pdf = fetch(`${service.url}/invoice/${new URL(large.body.view_url as string).pathname.split('/').pop()}.pdf`).then(async (response) => {
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      finished.push('pdf');
    });
    // The read goes out once a worker of the pool is rendering the PDF, not after a guess at when that is.
    while (pdfPoolState().running === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const read = demo.get(`/invoices/${large.body.id}.json`).then((response) => {
      expect(response.status).toBe(200);
      finished.push('read');
    });
    await Promise.all([pdf, read]);
    expect(finished).toEqual(['read', 'pdf']);
  }, 60_000);
});

describe('finding 7: numbers, ids and dates within what the service stores', () => {
  it('answers 404 to an id beyond 32 bits in a path and 422 naming the field in a filter or body', async () => {
    expect((await demo.get('/invoices/2147483648.json')).body).toEqual(NOT_FOUND);
    expect((await demo.get('/clients/99999999999999.json')).status).toBe(404);
    const filter = await demo.get('/invoices.json', { client_id: 2147483648 });
    expect(filter.status).toBe(422);
    expect(Object.keys(filter.body.message)).toEqual(['client_id']);
    const body = await demo.post('/invoices.json', invoice({ client_id: 2147483648 }));
    expect(body.status).toBe(422);
    expect(body.body.message).toEqual({ client_id: ['must be an id (at most 2147483647)'] });
  });

  it('checks referenced ids within the account, so no dangling id breaks a later list', async () => {
    const foreign = await other.post('/invoices.json', invoice());
    for (const field of ['from_invoice_id', 'invoice_id']) {
      for (const id of [999_999, foreign.body.id as number]) {
        const response = await demo.post('/invoices.json', invoice({ [field]: id }));
        expect(response.status).toBe(422);
        expect(response.body.message).toEqual({ [field]: ['does not exist'] });
      }
    }
    expect((await demo.post('/invoices.json', invoice({ warehouse_id: 999_999 }))).body.message).toEqual({ warehouse_id: ['does not exist'] });
    expect((await demo.post('/banking/payments.json', { banking_payment: { name: 'x', price: '1', client_id: 999_999 } })).body.message).toEqual({
      client_id: ['does not exist'],
    });
    expect((await demo.get('/invoices.json', { from_invoice_id: 1 })).status).toBe(200);
  });

  it('answers 422 to absurd quantities, prices and paid amounts, and the invoice pages keep working', async () => {
    const nines = '9'.repeat(29);
    const huge = await demo.post('/invoices.json', invoice({ positions: [{ name: 'x', tax: 23, quantity: nines, price_gross: nines }] }));
    expect(huge.status).toBe(422);
    expect(huge.body.message).toEqual({
      'positions.0.quantity': ['is too large (at most 13 digits before the decimal point)'],
      'positions.0.price_gross': ['is too large (at most 13 digits before the decimal point)'],
    });
    const paid = await demo.post('/invoices.json', invoice({ paid: '9'.repeat(30) }));
    expect(paid.status).toBe(422);
    expect(paid.body.message).toEqual({ paid: ['is too large (at most 13 digits before the decimal point)'] });
    const product = await demo.post('/invoices.json', invoice({ positions: [{ name: 'x', tax: 23, quantity: '9999999999999', price_gross: '9999999999999' }] }));
    expect(product.status).toBe(422);
    expect(Object.keys(product.body.message)).toEqual(['positions.0.total_price_gross']);
    const largest = await demo.post('/invoices.json', invoice({ positions: [{ name: 'x', tax: 23, quantity: 1, price_gross: '9999999999999.99' }], paid: '9999999999999.99' }));
    expect(largest.status).toBe(201);
    const token = new URL(largest.body.view_url as string).pathname.split('/').pop();
    expect((await fetch(`${service.url}/invoice/${token}`)).status).toBe(200);
    expect((await fetch(`${service.url}/invoice/payment/${token}`)).status).toBe(200);
    expect((await fetch(`${service.url}/invoice/${token}.pdf`)).status).toBe(200);
  });

  it('keeps dates, given and derived, within the years 1900 to 9999', async () => {
    const late = await demo.post('/invoices.json', invoice({ issue_date: '9999-12-31', payment_to_kind: 3650 }));
    expect(late.status).toBe(422);
    expect(late.body.message).toEqual({ payment_to_kind: ['makes the payment date fall after the year 9999'] });
    const early = await demo.post('/invoices.json', invoice({ issue_date: '1812-06-24' }));
    expect(early.body.message).toEqual({ issue_date: ['must be in the years 1900 to 9999'] });
  });

  it('sends X-Content-Type-Options: nosniff with every answer', async () => {
    const created = await demo.post('/invoices.json', invoice());
    const token = new URL(created.body.view_url as string).pathname.split('/').pop();
    for (const path of [
      `/invoices.json?api_token=${demo.token}`,
      '/invoices.json',
      '/no-such-page',
      `/invoice/${token}`,
      `/invoice/${token}.pdf`,
      `/invoices/${created.body.id}.pdf?api_token=${demo.token}`,
      '/openapi.json',
    ]) {
      const response = await fetch(`${service.url}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('finding 5: failed logins are limited, and cost the same for known and unknown logins', () => {
  it('answers 429 with Retry-After after ten failures for one login, even to the right password', async () => {
    await addUser(service, 'limited', 'right-password');
    const basic = (password: string) => fetch(`${service.url}/invoices.json`, { headers: { authorization: basicHeader('limited', password) } });
    expect((await basic('right-password')).status).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await basic(`wrong-${i}`)).status).toBe(401);
    const blocked = await basic('right-password');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toEqual({ code: 'error', message: expect.stringMatching(/^Too many failed logins\. Try again in \d+ seconds\.$/) });
    // The token still works: only guessing passwords is limited.
    expect((await demo.get('/invoices.json')).status).toBe(200);
  });

  it('runs the hash for unknown logins too, so they are no faster to refuse', async () => {
    const started = performance.now();
    const response = await fetch(`${service.url}/invoices.json`, { headers: { authorization: basicHeader('nobody-by-this-name', 'x') } });
    expect(response.status).toBe(401);
    // One scrypt of 16 MiB takes tens of milliseconds anywhere; a lookup alone takes about one.
    expect(performance.now() - started).toBeGreaterThan(10);
  });

  it('answers a flood of guesses fast with 401 or 429 while token requests go on', async () => {
    const guesses = Array.from({ length: 80 }, (_, i) =>
      fetch(`${service.url}/invoices.json`, { headers: { authorization: basicHeader(`flood-${i}`, 'guess') } }).then((r) => r.status),
    );
    const during = demo.get('/invoices.json');
    const statuses = await Promise.all(guesses);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    expect((await during).status).toBe(200);
    // Guesses turned away while the hashing queue was full were never checked, so they count no
    // failure: a few more, one at a time, take the address over its limit.
    for (let i = 0; i < 60; i += 1) {
      const status = (await fetch(`${service.url}/invoices.json`, { headers: { authorization: basicHeader(`more-${i}`, 'guess') } })).status;
      if (status === 429) break;
    }
    // The address is now over its limit for /login too.
    const login = await fetch(`${service.url}/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'someone-else', password: 'x', integration_token: service.integrationToken }),
    });
    expect(login.status).toBe(429);
    expect(login.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('the test payment provider is off unless configured', () => {
  let production: TestService;
  beforeAll(async () => {
    production = await startTestService({ testPayments: false, publicUrl: 'https://invoices.shop.example', trustedHosts: ['billing.shop.example'] });
  }, 60_000);
  afterAll(async () => {
    await production?.stop();
  });

  it('says plainly that online payment is not available, and records nothing', async () => {
    const account = api(production);
    const created = await account.post('/invoices.json', invoice());
    expect(created.body.view_url.startsWith('https://invoices.shop.example/invoice/')).toBe(true);
    const token = new URL(created.body.payment_url as string).pathname.split('/').pop();
    const page = await fetch(`${production.url}/invoice/payment/${token}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Płatność online nie jest dostępna');
    expect(text).not.toContain('<form');
    const attempt = await fetch(`${production.url}/invoice/payment/${token}`, { method: 'POST', redirect: 'manual' });
    expect(attempt.status).toBe(403);
    expect((await account.get(`/invoices/${created.body.id}.json`)).body.status).toBe('issued');
    expect((await account.get('/banking/payments.json')).body).toEqual([]);
    const view = await (await fetch(`${production.url}/invoice/${token}`)).text();
    expect(view).not.toContain('/invoice/payment/');
  });

  it('names a trusted host in links when a request arrives on it, and the configured address otherwise', async () => {
    const read = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(`/invoices.json?api_token=${production.apiToken}`, production.url);
        httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        })
          .on('error', reject)
          .end();
      });
    const [trusted] = JSON.parse(await read('billing.shop.example')) as { view_url: string }[];
    expect(trusted!.view_url.startsWith('http://billing.shop.example/invoice/')).toBe(true);
    const [untrusted] = JSON.parse(await read('evil.example')) as { view_url: string }[];
    expect(untrusted!.view_url.startsWith('https://invoices.shop.example/invoice/')).toBe(true);
  });
});
