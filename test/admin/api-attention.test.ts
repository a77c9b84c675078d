import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, signIn } from './support/session.js';

/**
 * `GET /account/attention`: what needs the seller now, each item with the kind and ids the back
 * office links to. States the service reaches on its own (an overdue invoice, a declined or waiting
 * payment, a webhook that fails) are made through the API; those only KSeF's answers make are
 * written as the KSeF sender writes them.
 */
let service: TestService;
let shop: { id: number; prefix: string; apiToken: string };
let http: Api;
let minutesAhead = 0;

/** A local port with nothing listening: a webhook to it fails at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  service = await startTestService({
    clock: () => new Date(Date.now() + minutesAhead * 60_000),
    webhooks: { allowPrivate: true, maxAttempts: 1, pollMs: 3_600_000 },
  });
  shop = await accountWithUser(service, { prefix: 'kwiaciarnia', login: 'anna', email: 'anna@kwiaciarnia.example', password: 'róże i tulipany' });
  http = api({ url: service.url, apiToken: shop.apiToken });
}, 60_000);
afterAll(() => service?.stop());

const invoice = (buyer: string, extra: Record<string, unknown> = {}) => ({
  invoice: { kind: 'vat', buyer_name: buyer, positions: [{ name: 'Bukiet', tax: 8, total_price_gross: '108.00', quantity: 1 }], ...extra },
});

describe('the overview of what needs the seller', () => {
  it('is empty for a new account', async () => {
    const reply = await http.get('/account/attention.json');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ items: [] });
  });

  it('lists each kind in its order, with the ids to link to, and nothing of another account', async () => {
    const overdue = (await http.post('/invoices.json', invoice('Hotel Bristol', { issue_date: '2026-01-05', sell_date: '2026-01-05', payment_to: '2026-01-19' }))).body;
    const current = (await http.post('/invoices.json', invoice('Hotel Europejski'))).body;
    const refused = (await http.post('/invoices.json', invoice('Hotel Polonia'))).body;
    // As the KSeF sender records a refusal: the invoice's state and KSeF's reasons.
    const stored = await service.db.query<{ data: Record<string, unknown> }>('select data from invoices where id = $1', [refused.id]);
    await service.db.query('update invoices set data = $2 where id = $1', [
      refused.id,
      JSON.stringify({ ...stored[0]!.data, attention: 'ksef_rejected', gov_status: 'demo_send_error', gov_error_messages: ['Nieprawidłowy NIP nabywcy', 'Brak adresu nabywcy'] }),
    ]);
    // Sent to KSeF, its number not asked for again until tomorrow: the sender leaves it be meanwhile.
    await service.db.query(
      `insert into ksef_jobs (account_id, invoice_id, environment, seller_nip, xml, state, next_attempt_at) values ($1, $2, 'test', '5252248481', '<Faktura/>', 'submitted', now() + interval '1 day')`,
      [shop.id, current.id],
    );

    const declined = (await http.post('/banking/payments.json', { banking_payment: { name: 'Bukiet', price: '108.00', invoice_id: current.id, provider_status: 'declined', provider_response: 'card_declined: insufficient funds' } })).body;
    const waiting = (await http.post('/banking/payments.json', { banking_payment: { name: 'Wieniec', price: '250.00', provider_title: 'cs_test_a1b2c3' } })).body;

    const port = await closedPort();
    const hook = (await http.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: `http://127.0.0.1:${port}/hook`, api_token: 'shop' } })).body;
    await http.post('/invoices.json', invoice('Hotel Saski'));
    await service.webhooks.runOnce();

    // A stranger's own invoice, overdue too: never in this account's overview.
    const stranger = await accountWithUser(service, { prefix: 'piekarnia', login: 'piotr', email: 'piotr@piekarnia.example', password: 'chleb na zakwasie' });
    await api({ url: service.url, apiToken: stranger.apiToken }).post('/invoices.json', invoice('Bar Mleczny', { issue_date: '2026-01-05', sell_date: '2026-01-05', payment_to: '2026-01-19' }));

    // A payment the provider took but has not confirmed waits a quarter of an hour before it counts.
    const early = (await http.get('/account/attention.json')).body.items as { kind: string }[];
    expect(early.map((item) => item.kind)).toEqual(['ksef_rejected', 'awaiting_ksef_number', 'overdue', 'payment_failed', 'webhook_failing']);
    minutesAhead = 16;
    const reply = await http.get('/account/attention.json');
    expect(reply.status).toBe(200);
    const items = reply.body.items as Record<string, unknown>[];
    expect(items.map((item) => ({ ...item, since: typeof item.since }))).toEqual([
      { kind: 'ksef_rejected', id: refused.id, invoice_id: refused.id, number: refused.number, message: 'Nieprawidłowy NIP nabywcy; Brak adresu nabywcy', webhook_id: null, since: 'string' },
      { kind: 'awaiting_ksef_number', id: current.id, invoice_id: current.id, number: current.number, message: null, webhook_id: null, since: 'string' },
      { kind: 'overdue', id: overdue.id, invoice_id: overdue.id, number: overdue.number, message: null, webhook_id: null, since: 'string' },
      { kind: 'payment_failed', id: declined.id, invoice_id: current.id, number: current.number, message: 'card_declined: insufficient funds', webhook_id: null, since: 'string' },
      { kind: 'payment_pending', id: waiting.id, invoice_id: null, number: null, message: null, webhook_id: null, since: 'string' },
      { kind: 'webhook_failing', id: hook.id, invoice_id: null, number: null, message: `POST http://127.0.0.1:${port}/hook: connect ECONNREFUSED 127.0.0.1:${port}`, webhook_id: hook.id, since: 'string' },
    ]);
    expect(items[2]!.since).toBe('2026-01-19T00:00:00.000+00:00');
  });

  it('is the same through the back office and the typed client, and empty for the stranger', async () => {
    const direct = (await http.get('/account/attention.json')).body;
    const anna = await signIn(service, 'anna', 'róże i tulipany');
    expect((await anna.call('GET', '/admin/api/account/attention.json')).body).toEqual(direct);
    expect(await createInvoicingClient({ baseUrl: service.url, apiToken: shop.apiToken }).seller.attention()).toEqual(direct);
    const piotr = await signIn(service, 'piotr', 'chleb na zakwasie');
    const theirs = (await piotr.call('GET', '/admin/api/account/attention.json')).body.items as { kind: string }[];
    expect(theirs.map((item) => item.kind)).toEqual(['overdue']);
  });

  it('needs the account\'s token', async () => {
    const reply = await http.get('/account/attention.json', {}, { token: null });
    expect(reply.status).toBe(401);
  });
});
