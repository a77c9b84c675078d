import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlLoginFailureStore } from '../../src/service/login-guard.js';
import { isForbiddenAddress } from '../../src/service/webhooks/addresses.js';
import { addUser, api, type Api, basicHeader, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Issue 21's findings against strangers and neighbours, each reproduced as it was found, with the
 * safe outcome asserted: the login limit, key squatting, IPv6 webhook addresses, `order=number`
 * and other accounts' ids. One service (production settings: no private webhooks) for the file.
 */
let service: TestService;
let shop: Api;
let neighbour: Api;

beforeAll(async () => {
  service = await startTestService();
  shop = api(service);
  neighbour = await secondAccount(service, 'neighbour');
}, 60_000);
afterAll(() => service?.stop());

const invoice = (extra: Record<string, unknown> = {}) => ({
  invoice: { kind: 'vat', buyer_name: 'Klient Sp. z o.o.', positions: [{ name: 'Usługa', tax: 23, total_price_gross: '123.00', quantity: 1 }], ...extra },
});

describe('finding 3: the login limit counts each user once, before hashing', () => {
  it('checks at most 10 of 30 concurrent wrong passwords, then refuses the right one through the e-mail alias', async () => {
    await addUser(service, 'racer', 'right-password');
    const basic = (login: string, password: string) =>
      fetch(`${service.url}/invoices.json`, { headers: { authorization: basicHeader(login, password) } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => basic('racer', `wrong-${i}`)));
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    for (const alias of ['racer@example.com', 'RACER@EXAMPLE.COM', 'racer']) expect(await basic(alias, 'right-password'), alias).toBe(429);
    const login = await fetch(`${service.url}/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'Racer@Example.com', password: 'right-password', integration_token: service.integrationToken }),
    });
    expect(login.status).toBe(429);
  });

  it('gives a successful login its attempt back, so a user who keeps logging in is never locked out', async () => {
    await addUser(service, 'regular', 'secret-1');
    for (let i = 0; i < 12; i += 1) {
      const response = await fetch(`${service.url}/invoices.json`, { headers: { authorization: basicHeader('regular@example.com', 'secret-1') } });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
  });
});

describe('finding 3: the shared (SQL) store reserves atomically too', () => {
  it('reserves no more than the limit of concurrent attempts, and gives one back', async () => {
    const store = new SqlLoginFailureStore(service.db);
    const waits = await Promise.all(Array.from({ length: 5 }, () => store.reserve('user:sql-race', 3, 60_000)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(3);
    expect(waits.filter((wait) => wait > 0 && wait <= 60)).toHaveLength(2);
    await store.release('user:sql-race');
    expect(await store.reserve('user:sql-race', 3, 60_000)).toBe(0);
    expect(await store.reserve('user:sql-race', 3, 60_000)).toBeGreaterThan(0);
    await store.clear('user:sql-race');
    expect(await store.reserve('user:sql-race', 3, 60_000)).toBe(0);
  });
});

describe('finding 4: public callers keep their Idempotency-Keys apart from the account', () => {
  it("lets a stranger's widget checkout claim no key of the shop's own API", async () => {
    const product = await shop.post('/products.json', { product: { name: 'Sticker', price_gross: '1.00', tax: '23', token: 'sticker' } });
    expect(product.status).toBe(201);
    const squat = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1001' },
      body: JSON.stringify({ product: 'sticker', quantity: 1, buyer: { email: 'stranger@example.com', name: 'A Stranger' } }),
    });
    expect(squat.status).toBe(201);
    const own = await fetch(`${service.url}/invoices.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1001' },
      body: JSON.stringify({ api_token: service.apiToken, ...invoice({ buyer_name: 'Order 1001 Sp. z o.o.' }) }),
    });
    expect(own.status, await own.clone().text()).toBe(201);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
    const created = (await own.json()) as { id: number; buyer_name: string };
    expect(created.buyer_name).toBe('Order 1001 Sp. z o.o.');
    const retried = await fetch(`${service.url}/invoices.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1001' },
      body: JSON.stringify({ api_token: service.apiToken, ...invoice({ buyer_name: 'Order 1001 Sp. z o.o.' }) }),
    });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retried.json()) as { id: number }).id).toBe(created.id);

    // And the other way: the shop's key does not answer a stranger with the shop's invoice.
    const replay = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1001' },
      body: JSON.stringify({ product: 'sticker', quantity: 1, buyer: { email: 'stranger@example.com', name: 'A Stranger' } }),
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(await squat.json());
  });
});

describe('finding 5: IPv6 forms of private IPv4 addresses are refused', () => {
  const forms = [
    'http://[::127.0.0.1]:8787/hook',
    'http://[::7f00:1]/hook',
    'http://[::a9fe:a9fe]/latest/meta-data',
    'http://[::169.254.169.254]/',
    'http://[::10.0.0.1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:0:a9fe:a9fe]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[2001::a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[2606:4700::5efe:a9fe:a9fe]/',
    'http://[::]/',
  ];

  it('answers 422 at registration for each form', async () => {
    for (const url of forms) {
      const reply = await shop.post('/webhooks.json', { webhook: { kind: 'invoice:create', url } });
      expect(reply.status, url).toBe(422);
      expect(reply.body, url).toEqual({ code: 'error', message: { url: ['must not point at a loopback, private, link-local or reserved address'] } });
    }
    const ok = await shop.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: 'http://[2606:4700:4700::1111]/hook' } });
    expect(ok.status, ok.text).toBe(201);
  });

  it('tells the forms apart from public IPv6 addresses', () => {
    for (const inside of ['::7f00:1', '::a9fe:a9fe', '::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::ffff:0:7f00:1', '2606:4700::200:5efe:c0a8:1']) {
      expect(isForbiddenAddress(inside), inside).toBe(true);
    }
    for (const outside of ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '2606:4700::200:5efe:808:808']) {
      expect(isForbiddenAddress(outside), outside).toBe(false);
    }
  });
});

describe('finding 9: ordering by number', () => {
  it('orders numbers longer than a bigint without a 500', async () => {
    const orderer = await secondAccount(service, 'orderer');
    for (const number of ['99999999999999999999/11/2026', '7/11/2026', '100000000000000000000000000000/11/2026']) {
      expect((await orderer.post('/invoices.json', invoice({ number }))).status).toBe(201);
    }
    const list = await orderer.get('/invoices.json', { order: 'number' });
    expect(list.status, list.text).toBe(200);
    expect((list.body as { number: string }[]).map((i) => i.number)).toEqual([
      '7/11/2026',
      '99999999999999999999/11/2026',
      '100000000000000000000000000000/11/2026',
    ]);
    const reversed = await orderer.get('/invoices.json', { order: 'number.desc' });
    expect(reversed.status).toBe(200);
    expect((reversed.body as { number: string }[])[0]!.number).toBe('100000000000000000000000000000/11/2026');
  });
});

describe("finding 10: another account's ids are a 422 on every reference", () => {
  let theirs: Record<string, number>;
  beforeAll(async () => {
    const created = {
      product: await neighbour.post('/products.json', { product: { name: 'Theirs', price_gross: '10.00', tax: '23' } }),
      client: await neighbour.post('/clients.json', { client: { name: 'Their Client' } }),
      category: await neighbour.post('/categories.json', { category: { name: 'Theirs' } }),
      warehouse: await neighbour.post('/warehouses.json', { warehouse: { name: 'Theirs' } }),
    };
    const document = await neighbour.post('/warehouse_documents.json', {
      warehouse_document: { kind: 'pz', warehouse_id: created.warehouse.body.id, warehouse_actions: [{ product_id: created.product.body.id, quantity: 5 }] },
    });
    const department = (await neighbour.get('/departments.json')).body[0];
    for (const reply of [...Object.values(created), document]) expect(reply.status, reply.text).toBe(201);
    theirs = {
      product: created.product.body.id,
      client: created.client.body.id,
      category: created.category.body.id,
      document: document.body.id,
      department: department.id,
    };
  });

  const notTheirs = (field: string) => ({ code: 'error', message: { [field]: ['does not exist'] } });

  it('refuses them on a payment, on create and on update', async () => {
    const payment = await shop.post('/banking/payments.json', { banking_payment: { name: 'Mine', price: '5.00', kind: 'api' } });
    expect(payment.status).toBe(201);
    const update = await shop.put(`/banking/payments/${payment.body.id}.json`, { banking_payment: { product_id: theirs.product } });
    expect(update.status).toBe(422);
    expect(update.body).toEqual(notTheirs('product_id'));
    const create = await shop.post('/banking/payments.json', { banking_payment: { name: 'Mine', price: '5.00', product_id: theirs.product } });
    expect(create.status).toBe(422);
    expect(create.body).toEqual(notTheirs('product_id'));
    expect((await shop.get(`/banking/payment/${payment.body.id}.json`)).body.product_id).toBeNull();
  });

  it('refuses them on a client, on create and on update', async () => {
    const client = await shop.post('/clients.json', { client: { name: 'My Client' } });
    expect(client.status).toBe(201);
    for (const [field, id] of [['category_id', theirs.category], ['department_id', theirs.department], ['buyer_id', theirs.client]] as const) {
      const create = await shop.post('/clients.json', { client: { name: 'Another', [field]: id } });
      expect(create.status, field).toBe(422);
      expect(create.body).toEqual(notTheirs(field));
      const update = await shop.put(`/clients/${client.body.id}.json`, { client: { [field]: id } });
      expect(update.status, field).toBe(422);
      expect(update.body).toEqual(notTheirs(field));
    }
    expect((await shop.get(`/clients/${client.body.id}.json`)).body).toMatchObject({ category_id: null, department_id: null });
  });

  it('refuses them on an invoice, on create and on update', async () => {
    const mine = await shop.post('/invoices.json', invoice());
    expect(mine.status).toBe(201);
    for (const [field, id] of [['category_id', theirs.category], ['warehouse_document_id', theirs.document], ['recipient_id', theirs.client]] as const) {
      const create = await shop.post('/invoices.json', invoice({ [field]: id }));
      expect(create.status, field).toBe(422);
      expect(create.body).toEqual(notTheirs(field));
      const update = await shop.put(`/invoices/${mine.body.id}.json`, { invoice: { [field]: id } });
      expect(update.status, field).toBe(422);
      expect(update.body).toEqual(notTheirs(field));
    }
  });

  it('still takes the account’s own ids', async () => {
    const category = await shop.post('/categories.json', { category: { name: 'Mine' } });
    const client = await shop.post('/clients.json', { client: { name: 'Own Category Ltd', category_id: category.body.id } });
    expect(client.status, client.text).toBe(201);
    expect(client.body.category_id).toBe(category.body.id);
  });
});

describe('finding 11: an upload is refused on its key before its file is read', () => {
  /** Sends the form's key and the start of a 10 MiB file, then holds the rest back; answers what comes back meanwhile. */
  async function partialUpload(key: string, path = '/attachments/uploads'): Promise<string> {
    const boundary = 'invoicekit-boundary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
    const length = Buffer.byteLength(head) + 10 * 1024 * 1024;
    const { hostname, port } = new URL(service.url);
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(64 * 1024, 0x20));
    // The rest of the file is never sent: only an answer given before the body ends can arrive.
    await new Promise<void>((resolve) => socket.once('close', resolve));
    return answer;
  }

  it('answers 403 and closes the connection while the file is still on its way', async () => {
    const answer = await partialUpload('uploads/not-a-key');
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('{"code":"error","message":"The upload key is unknown or has expired"}');
  });

  it("refuses a wrong api_token in an attachment's query before its file is read", async () => {
    const mine = await shop.post('/invoices.json', invoice());
    const answer = await partialUpload('ignored', `/invoices/${mine.body.id}/add_attachment.json?api_token=wrong`);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/connection: close/i);
  });

  it('refuses a form whose file comes before its key, and one that is not multipart', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4 x']), 'a.pdf');
    form.append('key', 'uploads/not-a-key');
    expect((await shop.raw('POST', '/attachments/uploads', { body: form })).status).toBe(403);
    const urlencoded = await shop.raw('POST', '/attachments/uploads', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'key=uploads%2Fnot-a-key',
    });
    expect(urlencoded.status).toBe(415);
  });
});
