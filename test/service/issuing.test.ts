import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKsefClient } from '../../src/service/ksef/client.js';
import { startKsefDouble, type RunningKsefDouble } from '../../src/service/ksef/double/server.js';
import { isValidKsefNumber } from '../../src/service/ksef/gateway.js';
import { json, SHOP_ORIGIN } from '../bff/support.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { deliverQueue, holdKsefDecisions, pdfText, qrCodesOfPdf, releaseKsefDecisions, seller, sellerNip } from './ksef/support.js';

/**
 * The one issuing step, as a paid sale meets it: the invoice goes to KSeF in the payment's own
 * transaction, and the buyer's e-mail waits for the KSeF number, which its PDF then prints with the
 * QR code. A foreign-currency invoice issued while NBP cannot answer waits for its rate, is never sent
 * without one, and goes to KSeF and to the buyer once NBP answers; the seller is told meanwhile.
 */

let ksef: RunningKsefDouble;
let service: TestService;
let http: Api;
/** The service's clock, which a test moves past the rate worker's pause. */
let now = new Date('2026-02-02T09:00:00Z');

interface OutboxEntry { token: string; invoice_id: number | null; to: string[]; subject: string }
interface OutboxMessage extends OutboxEntry { text_body: string; attachments: { url: string; content_type: string }[] }

const outboxFetch = (path: string) => fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${service.apiToken}` } });
const outbox = async () => (await (await outboxFetch('/outbox.json')).json()) as OutboxEntry[];
const mailTo = async (address: string) => (await outbox()).filter((entry) => entry.to.includes(address));

async function attachedPdf(entry: OutboxEntry): Promise<Uint8Array> {
  const message = (await (await outboxFetch(`/outbox/${entry.token}.json`)).json()) as OutboxMessage;
  const pdf = message.attachments.find((a) => a.content_type === 'application/pdf')!;
  return new Uint8Array(await (await outboxFetch(`/outbox/${pdf.url}`)).arrayBuffer());
}

beforeAll(async () => {
  ksef = await startKsefDouble({ clock: () => now });
  holdKsefDecisions(ksef);
  const gateway = createKsefClient({ localOrigin: ksef.origin, clock: () => now, sleep: () => Promise.resolve() });
  service = await startTestService({ clock: () => now, ksef: { localOrigin: ksef.origin, gateway, senderIntervalMs: 3_600_000 } });
  http = api(service);
  const [department] = (await http.get('/departments.json')).body as { id: number }[];
  const put = await http.put(`/departments/${department!.id}.json`, {
    department: { name: seller.seller_name, tax_no: sellerNip, street: seller.seller_street, post_code: seller.seller_post_code, city: seller.seller_city, country: 'PL', email: 'owner@demo-studio.example', widget_origins: [SHOP_ORIGIN] },
  });
  expect(put.status, put.text).toBe(200);
  const connected = await http.put('/account/ksef.json', { ksef: { environment: 'local', token: ksef.issueToken(sellerNip), auto_send_mode: 'all' } });
  expect(connected.status, connected.text).toBe(200);
  for (const currency of ['PLN', 'EUR']) {
    const product = await http.post('/products.json', { product: { name: `Audit ${currency}`, price_net: '100.00', tax: '23', currency, supply_kind: 'service', token: `issue-audit-${currency.toLowerCase()}` } });
    expect(product.status, product.text).toBe(201);
  }
}, 90_000);
afterAll(async () => {
  await service?.stop();
  if (ksef) {
    releaseKsefDecisions(ksef);
    await ksef.close();
  }
});

const buyer = { company: true, name: 'Prosta Sp. z o.o.', tax_no: '5252445767', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL' };

/** A widget checkout of two audits, paid on the checkout page; answers the invoice it issued. */
async function buy(currency: string, email: string): Promise<number> {
  const checkout = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
    body: JSON.stringify({ product: `issue-audit-${currency.toLowerCase()}`, quantity: 2, buyer: { ...buyer, email }, lang: 'pl', returnUrl: `${SHOP_ORIGIN}/thanks` }),
  });
  const started = await json(checkout);
  expect(checkout.status, JSON.stringify(started)).toBe(201);
  const paid = await fetch(started.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=pay', redirect: 'manual' });
  expect(paid.status).toBe(303);
  const payments = (await http.get('/banking/payments.json', { per_page: '100' })).body as { email: string; invoice_id: number }[];
  return payments.find((p) => p.email === email)!.invoice_id;
}

const deliver = () => deliverQueue(ksef, service, now);

describe('a paid sale while KSeF is on', () => {
  it('queues the invoice for KSeF as it is issued, and e-mails it only with its KSeF number and QR code', async () => {
    const email = 'buyer-ksef@prosta.example';
    const id = await buy('PLN', email);
    expect((await http.get(`/invoices/${id}.json`)).body.gov_status).toBe('demo_processing');
    // On its way to KSeF: the buyer's e-mail waits for the number.
    expect(await mailTo(email)).toEqual([]);

    await deliver();
    const invoice = (await http.get(`/invoices/${id}.json`)).body;
    expect(invoice.gov_status).toBe('demo_ok');
    expect(isValidKsefNumber(invoice.gov_id)).toBe(true);
    const [mail] = await mailTo(email);
    expect(mail).toMatchObject({ invoice_id: id });
    const pdf = await attachedPdf(mail!);
    expect(await pdfText(pdf)).toContain(invoice.gov_id);
    expect(await qrCodesOfPdf(pdf)).toContain(invoice.gov_verification_link);
  });
});

describe('a foreign-currency invoice while NBP cannot answer', () => {
  it('waits for its rate, is not sent without it, and goes to KSeF and the buyer once NBP answers', async () => {
    const nbp = service.registryDoubles!.nbp;
    nbp.fail({ kind: 'answer', status: 503, body: '<html>Service Unavailable</html>', contentType: 'text/html' });
    const email = 'buyer-eur@prosta.example';
    let id: number;
    try {
      id = await buy('EUR', email);
      const waiting = (await http.get(`/invoices/${id}.json`)).body;
      expect(waiting).toMatchObject({ currency: 'EUR', exchange_rate_pending: true, attention: 'awaiting_exchange_rate', gov_status: null, exchange_currency_rate: null });
      // Nothing goes to KSeF, and nothing to the buyer, without a rate.
      await deliver();
      expect((await http.get(`/invoices/${id}.json`)).body.gov_status).toBeNull();
      expect(await mailTo(email)).toEqual([]);
      // The seller is told, once.
      const told = (await mailTo('owner@demo-studio.example')).filter((m) => m.invoice_id === id);
      expect(told.map((m) => m.subject)).toEqual([`Invoice ${waiting.number} waits for its NBP exchange rate`]);

      // NBP still down at the worker's next look: the invoice keeps waiting.
      now = new Date(now.getTime() + 2 * 60_000);
      await service.rateWorker.runOnce();
      expect((await http.get(`/invoices/${id}.json`)).body.exchange_rate_pending).toBe(true);
    } finally {
      nbp.recover();
    }

    now = new Date(now.getTime() + 6 * 60_000);
    await service.rateWorker.runOnce();
    const rated = (await http.get(`/invoices/${id!}.json`)).body;
    expect(rated).toMatchObject({ exchange_kind: 'nbp', exchange_currency: 'PLN', gov_status: 'demo_processing' });
    expect(rated.exchange_currency_rate).toMatch(/^\d+\.\d{4,6}$/);
    expect(rated.exchange_rate_pending).toBeUndefined();
    expect(rated.attention).toBeUndefined();

    await deliver();
    const sent = (await http.get(`/invoices/${id!}.json`)).body;
    expect(sent.gov_status).toBe('demo_ok');
    const [mail] = await mailTo(email);
    expect(await pdfText(await attachedPdf(mail!))).toContain(sent.gov_id);
  });
});
