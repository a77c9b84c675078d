import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKsefClient } from '../../../src/service/ksef/client.js';
import { startKsefDouble, type RunningKsefDouble } from '../../../src/service/ksef/double/server.js';
import { isValidKsefNumber } from '../../../src/service/ksef/gateway.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { api, type Api } from '../../helpers/http.js';
import { Subscriber } from '../support/subscriber.js';
import { buyer, deliverQueue, holdKsefDecisions, releaseKsefDecisions, pdfText, qrCodesOfPdf, readFa3, seller, sellerNip, xmllint } from './support.js';

/**
 * The hosted service's KSeF API end to end, through the bundled KSeF double over HTTP: settings,
 * `gov_save_and_send`, `send_to_ksef=yes`, the `gov_*` fields, the XML and UPO attachments,
 * validation on save, `not_applicable` and `not_connected`, and the sender's durability.
 */

let ksef: RunningKsefDouble;
let service: TestService;
let http: Api;
const now = new Date('2026-02-02T09:00:00Z');
const nip = sellerNip;
/** KSeF's own clock: a payment's invoice is issued today by the real clock, and KSeF takes no invoice dated after it took it. */
let ksefNow = now;
const subscriber = new Subscriber();

const line = { name: 'Usługa programistyczna', quantity: 10, total_price_gross: 1845, tax: 23 };

beforeAll(async () => {
  ksef = await startKsefDouble({ clock: () => ksefNow });
  holdKsefDecisions(ksef);
  // The real client, waiting no time between its retries.
  const gateway = createKsefClient({ localOrigin: ksef.origin, clock: () => now, sleep: () => Promise.resolve() });
  await subscriber.start();
  service = await startTestService({ clock: () => now, ksef: { localOrigin: ksef.origin, gateway, senderIntervalMs: 3_600_000 }, webhooks: { allowPrivate: true, pollMs: 100 } });
  http = api(service);
});
afterAll(async () => {
  await service.stop();
  releaseKsefDecisions(ksef);
  await ksef.close();
  await subscriber.stop();
});

async function connect(settings: Record<string, unknown> = {}) {
  const reply = await http.put('/account/ksef.json', { ksef: { environment: 'local', token: ksef.issueToken(nip), ...settings } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const deliver = () => deliverQueue(ksef, service, now);

const read = async (id: number) => (await http.get(`/invoices/${id}.json`)).body;

describe('an account without KSeF', () => {
  it('answers every gov_* field as null, and not_connected when asked to send', async () => {
    const created = await http.post('/invoices.json', { invoice: { ...seller, ...buyer, positions: [line] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ gov_status: null, gov_id: null, gov_send_date: null, gov_error_messages: null, gov_verification_link: null, gov_link: null, gov_corrected_invoice_number: null });
    const sent = await http.get(`/invoices/${String(created.body.id)}.json`, { send_to_ksef: 'yes' });
    expect(sent.body.gov_status).toBe('not_connected');
    expect((await http.get('/account/ksef.json')).body).toEqual({ ksef: { environment: 'off', token_set: false, auto_send_mode: null, validate_invoices_for_gov: true, offline_certificate_set: false, offline_certificate: null } });
  });
});

describe('an account on the local KSeF', () => {
  beforeAll(() => connect());

  it('keeps the token write-only', async () => {
    const settings = (await http.get('/account/ksef.json')).text;
    expect(settings).not.toContain(ksef.issueToken(nip).slice(-12));
    expect(JSON.parse(settings)).toEqual({ ksef: { environment: 'local', token_set: true, auto_send_mode: null, validate_invoices_for_gov: true, offline_certificate_set: false, offline_certificate: null } });
    const bad = await http.put('/account/ksef.json', { ksef: { environment: 'moon', auto_send_mode: 'sometimes' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.message).sort()).toEqual(['ksef.auto_send_mode', 'ksef.environment']);
  });

  it('sends with gov_save_and_send: processing, then the KSeF number, KOD I, the XML as sent and the UPO', async () => {
    const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', sell_date: '2026-02-01', ...seller, ...buyer, positions: [line] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ gov_status: 'demo_processing', gov_id: null, gov_sell_date: '2026-02-01T00:00:00.000+01:00', gov_send_date: '2026-02-02T09:00:00.000+00:00' });
    await deliver();
    const invoice = await read(created.body.id);
    expect(invoice.gov_status).toBe('demo_ok');
    expect(isValidKsefNumber(invoice.gov_id)).toBe(true);
    expect(invoice.gov_id.startsWith(`${nip}-20260202-`)).toBe(true);

    const xml = await http.get(`/invoices/${String(invoice.id)}/attachment`, { kind: 'gov' });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^text\/xml/);
    expect((await xmllint(xml.text)).errors).toBe('');
    expect(readFa3(xml.text).Fa).toMatchObject({ P_2: invoice.number, P_13_1: '1500.00', P_14_1: '345.00', P_15: '1845.00' });
    const hash = createHash('sha256').update(xml.text).digest('base64url');
    expect(invoice.gov_verification_link).toBe(`${ksef.origin}/qr/invoice/${nip}/02-02-2026/${hash}`);

    const upo = await http.get(`/invoices/${String(invoice.id)}/attachment`, { kind: 'gov_upo' });
    expect(upo.status).toBe(200);
    expect(upo.text).toContain(invoice.gov_id);
    expect((await xmllint(upo.text, 'upo')).errors).toBe('');

    const fields = await http.get(`/invoices/${String(invoice.id)}.json`, { 'fields[invoice]': 'gov_status,gov_id,gov_error_messages' });
    expect(fields.body).toEqual({ id: invoice.id, gov_status: 'demo_ok', gov_id: invoice.gov_id, gov_error_messages: null });
    const listed = await http.get('/invoices.json', { 'fields[invoice]': 'gov_id', period: 'all', per_page: 100 });
    expect(listed.body).toContainEqual({ id: invoice.id, gov_id: invoice.gov_id });

    // The PDF prints KOD I, the KSeF number under it and, outside production, a test mark.
    const pdf = await fetch(`${service.url}/invoices/${String(invoice.id)}.pdf?api_token=${service.apiToken}`);
    expect(pdf.status).toBe(200);
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(await qrCodesOfPdf(bytes)).toEqual([invoice.gov_verification_link]);
    const text = await pdfText(bytes);
    expect(text).toContain(invoice.gov_id);
    expect(text).toContain('TEST: faktura ze środowiska testowego KSeF, bez mocy prawnej');

    // So does the public invoice page: the code links to the verification, the number is under it.
    const view = await (await fetch(invoice.view_url)).text();
    expect(view).toContain(`<a href="${invoice.gov_verification_link}"`);
    expect(view).toMatch(new RegExp(`<svg [^>]*aria-label="Numer KSeF ${invoice.gov_id}"`));
    expect(view).toContain(`Numer KSeF: <strong>${invoice.gov_id}</strong>`);
    expect(view).toContain('TEST: faktura ze środowiska testowego KSeF, bez mocy prawnej');
  });

  it('sends an existing invoice with send_to_ksef=yes, and a correction names the corrected KSeF number', async () => {
    const created = await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } });
    expect(created.body.gov_status).toBeNull();
    expect((await http.get(`/invoices/${String(created.body.id)}.json`, { send_to_ksef: 'yes' })).body.gov_status).toBe('demo_processing');
    await deliver();
    const original = await read(created.body.id);
    expect(original.gov_status).toBe('demo_ok');

    const correction = await http.post('/invoices.json', {
      gov_save_and_send: 1,
      invoice: {
        kind: 'correction',
        correction_reason: 'Rabat',
        invoice_id: original.id,
        from_invoice_id: original.id,
        issue_date: '2026-02-02',
        positions: [{ name: line.name, quantity: -1, total_price_gross: -184.5, tax: 23, kind: 'correction',
          correction_before_attributes: { name: line.name, quantity: 10, total_price_gross: 1845, tax: 23, kind: 'correction_before' },
          correction_after_attributes: { name: line.name, quantity: 9, total_price_gross: 1660.5, tax: 23, kind: 'correction_after' } }],
      },
    });
    expect(correction.status, correction.text).toBe(201);
    expect(correction.body.gov_corrected_invoice_number).toBe(original.gov_id);
    await deliver();
    const sent = await read(correction.body.id);
    expect(sent.gov_status).toBe('demo_ok');
    const fa = readFa3((await http.get(`/invoices/${String(sent.id)}/attachment`, { kind: 'gov' })).text).Fa;
    expect(fa).toMatchObject({ RodzajFaktury: 'KOR', P_15: '-184.50', DaneFaKorygowanej: { NrKSeFFaKorygowanej: original.gov_id } });
  });

  it('refuses an invoice KSeF would refuse with a 422 naming each field', async () => {
    const reply = await http.post('/invoices.json', {
      invoice: { ...seller, buyer_name: 'Firma', buyer_company: true, buyer_phone: '+48 123 456 789 000', positions: [{ ...line, tax: 'zw' }] },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.message).toEqual({
      buyer_tax_no: ["can't be blank"],
      buyer_phone: ['is too long (maximum is 16 characters)'],
      exempt_tax_kind: ["can't be blank"],
    });
  });

  it('with validate_invoices_for_gov off, saves with gov_error_messages and sending ends in send_error', async () => {
    await connect({ validate_invoices_for_gov: false });
    try {
      const reply = await http.post('/invoices.json', { invoice: { ...seller, buyer_name: 'Firma', buyer_company: true, positions: [{ ...line, tax: 'zw' }] } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.gov_error_messages).toEqual(["buyer_tax_no can't be blank", "exempt_tax_kind can't be blank"]);
      const sent = await http.get(`/invoices/${String(reply.body.id)}.json`, { send_to_ksef: 'yes' });
      expect(sent.body.gov_status).toBe('demo_send_error');
      expect(sent.body.gov_error_messages).toEqual(["buyer_tax_no can't be blank", "exempt_tax_kind can't be blank"]);
    } finally {
      await connect({ validate_invoices_for_gov: true });
    }
  });

  it('answers not_applicable for kinds that do not go to KSeF', async () => {
    const proforma = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { kind: 'proforma', ...seller, ...buyer, positions: [line] } });
    expect(proforma.body.gov_status).toBe('demo_not_applicable');
  });

  it('sends by auto_send_mode: pl_companies sends a Polish company, not a consumer', async () => {
    await connect({ auto_send_mode: 'pl_companies' });
    try {
      const company = await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } });
      expect(company.body.gov_status).toBe('demo_processing');
      const consumer = await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, buyer_company: false, buyer_first_name: 'Jan', buyer_last_name: 'Kowalski', positions: [line] } });
      expect(consumer.body.gov_status).toBeNull();
      await deliver();
      expect((await read(company.body.id)).gov_status).toBe('demo_ok');
    } finally {
      await connect({ auto_send_mode: null });
    }
  });

  it('auto_send_mode also sends invoices no request made: a paid payment\'s invoice', async () => {
    await connect({ auto_send_mode: 'all' });
    ksefNow = new Date(Date.now() + 3_600_000);
    try {
      const payment = await http.post('/banking/payments.json', {
        banking_payment: { name: 'Workshop ticket', price: '246.00', paid: true, kind: 'api', generate_invoice: true, invoice_name: 'Ticket Buyer Sp. z o.o.', invoice_tax_no: '5260250274', email: 'tickets@buyer.example' },
      });
      expect(payment.status, payment.text).toBe(201);
      // Queued by the issuing step every invoice takes, in the payment's own transaction.
      expect((await read(payment.body.invoice_id)).gov_status).toBe('demo_processing');
      await deliver();
      const invoice = await read(payment.body.invoice_id);
      expect([invoice.gov_status, invoice.gov_error_messages]).toEqual(['demo_ok', null]);
      expect(isValidKsefNumber(invoice.gov_id)).toBe(true);
    } finally {
      ksefNow = now;
      await connect({ auto_send_mode: null });
    }
  });

  it('fires invoice:update webhooks when the KSeF fields change', async () => {
    const hook = await http.post('/webhooks.json', { webhook: { kind: 'invoice:update', url: subscriber.url('/ksef'), api_token: 'subscriber-token', active: true } });
    expect(hook.status, hook.text).toBe(201);
    try {
      const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } });
      await deliver();
      const entry = await subscriber.waitFor((e) => e.path === '/ksef' && e.json?.deal?.id === created.body.id && e.json.deal.gov_status === 'demo_ok');
      expect(isValidKsefNumber(entry.json.deal.gov_id)).toBe(true);
    } finally {
      await http.delete(`/webhooks/${String(hook.body.id)}.json`);
    }
  });

  it('a crash after KSeF took the invoice but before its receipt was stored neither loses nor duplicates it', async () => {
    const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } });
    await deliver();
    const first = await read(created.body.id);
    expect(first.gov_status).toBe('demo_ok');
    // The process died before it stored the receipt: the job is queued again with the same document.
    await service.db.query(`update ksef_jobs set state = 'queued', receipt = null, ksef_number = null, next_attempt_at = $2 where invoice_id = $1`, [first.id, now]);
    await service.db.query(`update invoices set data = data - 'gov_id' where id = $1`, [first.id]);
    await deliver();
    const again = await read(created.body.id);
    expect(again.gov_id).toBe(first.gov_id);
    expect(again.gov_status).toBe('demo_ok');
  });

  it('retries KSeF outages with backoff and then sends', async () => {
    // Five failures: every attempt of the client's first call (it retries with backoff itself).
    ksef.failNext({ status: 503, times: 5 });
    const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } });
    await service.ksefSender.runOnce();
    const job = (await service.db.query<{ state: string; attempts: number; last_error: string | null }>(`select state, attempts, last_error from ksef_jobs where invoice_id = $1`, [created.body.id]))[0]!;
    expect(job.state).toBe('queued');
    expect(job.attempts).toBe(1);
    expect((await read(created.body.id)).gov_status).toBe('demo_processing');
    await deliver();
    expect((await read(created.body.id)).gov_status).toBe('demo_ok');
  });

  it('sends every kind that goes to KSeF, in PLN and EUR, each accepted and schema-valid', async () => {
    const eur = { currency: 'EUR', exchange_currency: 'PLN', exchange_kind: 'nbp', exchange_currency_rate: '4.2631' };
    const eu = { buyer_name: 'German Company GmbH', buyer_tax_no: 'DE123456789', buyer_company: true, buyer_city: 'Berlin', buyer_country: 'DE' };
    const us = { buyer_name: 'US Corp', buyer_tax_no: 'US123456', buyer_tax_no_kind: 'other', buyer_company: true, buyer_city: 'Boston', buyer_country: 'US' };
    // Every kind in PLN; in EUR the shapes whose amounts differ by currency (fa3.test.ts has every kind in both).
    for (const money of [{}, eur]) {
      const everyKind = !('currency' in money);
      const base = { issue_date: '2026-02-02', ...seller, ...money };
      const sent: number[] = [];
      const send = async (invoice: Record<string, unknown>) => {
        const reply = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { ...base, ...invoice } });
        expect(reply.status, reply.text).toBe(201);
        expect(reply.body.gov_status, JSON.stringify(reply.body.gov_error_messages)).toBe('demo_processing');
        sent.push(reply.body.id);
        return reply.body;
      };
      await send({ kind: 'vat', ...buyer, positions: [line] });
      await send({ kind: 'wdt', ...eu, positions: [{ ...line, tax: 0 }] });
      if (everyKind) {
        await send({ kind: 'vat', buyer_company: false, buyer_first_name: 'Jan', buyer_last_name: 'Kowalski', positions: [line] });
        await send({ kind: 'export_products', ...us, positions: [{ ...line, tax: 0 }] });
        await send({ kind: 'vat', ...eu, np_tax_kind: 'export_service_eu', positions: [{ ...line, tax: 'np' }] });
        await send({ kind: 'vat', ...buyer, exempt_tax_kind: 'Zwolnienie ze względu na nieprzekroczenie limitu obrotu (art. 113 ust 1 i 9 ustawy o VAT)', positions: [{ ...line, tax: 'zw' }] });
        await send({ kind: 'vat_margin', ...buyer, positions: [line] });
        await send({ kind: 'vat_mp', ...buyer, positions: [line] });
      }
      const order = (await http.post('/invoices.json', { invoice: { ...base, kind: 'proforma', ...buyer, positions: [line] } })).body;
      const advance = await send({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'percent', advance_value: 40 });
      await deliver();
      await send({ copy_invoice_from: order.id, kind: 'final', invoice_ids: [advance.id] });
      const corrected = await read(sent[0]!);
      await send({
        kind: 'correction', correction_reason: 'Rabat', invoice_id: corrected.id, from_invoice_id: corrected.id,
        positions: [{ name: line.name, quantity: -1, total_price_gross: -184.5, tax: 23, kind: 'correction',
          correction_before_attributes: { name: line.name, quantity: 10, total_price_gross: 1845, tax: 23, kind: 'correction_before' },
          correction_after_attributes: { name: line.name, quantity: 9, total_price_gross: 1660.5, tax: 23, kind: 'correction_after' } }],
      });
      await deliver();
      for (const id of sent) {
        const invoice = await read(id);
        expect([invoice.kind, invoice.gov_status, invoice.gov_error_messages]).toEqual([invoice.kind, 'demo_ok', null]);
        expect(isValidKsefNumber(invoice.gov_id)).toBe(true);
        const xml = (await http.get(`/invoices/${id}/attachment`, { kind: 'gov' })).text;
        expect((await xmllint(xml)).errors).toBe('');
        expect(readFa3(xml).Fa.P_15).toBe(Number(invoice.price_gross).toFixed(2));
      }
    }
  }, 120_000);
});
