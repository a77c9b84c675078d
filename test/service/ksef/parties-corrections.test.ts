import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKsefClient } from '../../../src/service/ksef/client.js';
import { startKsefDouble, type RunningKsefDouble } from '../../../src/service/ksef/double/server.js';
import { isValidKsefNumber } from '../../../src/service/ksef/gateway.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { api, type Api } from '../../helpers/http.js';
import { buyer, deliverQueue, holdKsefDecisions, releaseKsefDecisions, pdfText, qrCodesOfPdf, readFa3, seller, sellerNip, xmllint } from './support.js';

/**
 * The hosted service's KSeF rules on parties and corrections, over HTTP through the bundled KSeF
 * double: `seller_tax_no_kind` and `buyer_tax_no_kind`, issuers and recipients as `Podmiot3`, what a
 * correction keeps and names, `gov_link`, and e-mail that waits for the KSeF number.
 */

let ksef: RunningKsefDouble;
let service: TestService;
let http: Api;
const now = new Date('2026-02-02T09:00:00Z');
const nip = sellerNip;

const line = { name: 'Usługa programistyczna', quantity: 10, total_price_gross: 1845, tax: 23 };

beforeAll(async () => {
  ksef = await startKsefDouble({ clock: () => now });
  holdKsefDecisions(ksef);
  const gateway = createKsefClient({ localOrigin: ksef.origin, clock: () => now, sleep: () => Promise.resolve() });
  service = await startTestService({ clock: () => now, ksef: { localOrigin: ksef.origin, gateway, senderIntervalMs: 3_600_000 } });
  http = api(service);
  // Only the tests work the queue (`deliver`): an invoice stays on its way until they do.
  await service.ksefSender.stop();
  const reply = await http.put('/account/ksef.json', { ksef: { environment: 'local', token: ksef.issueToken(nip) } });
  expect(reply.status, reply.text).toBe(200);
});
afterAll(async () => {
  await service.stop();
  releaseKsefDecisions(ksef);
  await ksef.close();
});

const deliver = () => deliverQueue(ksef, service, now);

const read = async (id: number) => (await http.get(`/invoices/${id}.json`)).body;

/** Creates an invoice with `gov_save_and_send`, delivers it and answers it with its XML (schema-checked). */
async function sendAndRead(invoice: Record<string, unknown>) {
  const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...invoice } });
  expect(created.status, created.text).toBe(201);
  expect(created.body.gov_status, JSON.stringify(created.body.gov_error_messages)).toBe('demo_processing');
  await deliver();
  const stored = await read(created.body.id);
  expect([stored.gov_status, stored.gov_error_messages]).toEqual(['demo_ok', null]);
  const xml = (await http.get(`/invoices/${String(stored.id)}/attachment`, { kind: 'gov' })).text;
  expect((await xmllint(xml)).errors).toBe('');
  return { invoice: stored, fa3: readFa3(xml) };
}

const refused = async (invoice: Record<string, unknown>) => {
  const reply = await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line], ...invoice } });
  expect(reply.status, reply.text).toBe(422);
  expect(reply.body.code).toBe('error');
  return reply.body.message as Record<string, string[]>;
};

const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe('seller_tax_no_kind', () => {
  it('takes a Polish NIP only: nip_ue, other, empty and unknown kinds are refused naming the field', async () => {
    for (const kind of ['nip_ue', 'other', 'empty', 'vat_id']) {
      const message = await refused({ seller_tax_no_kind: kind });
      expect(Object.keys(message), kind).toEqual(['seller_tax_no_kind']);
    }
    expect(Object.keys(await refused({ seller_tax_no_kind: 'nip_with_id', seller_tax_no: nip }))).toEqual(['seller_tax_no']);
  });

  it('nip_with_id: the NIP in Podmiot1, the unit as Podmiot3 IDWew issuing the invoice (role 5)', async () => {
    const { invoice, fa3 } = await sendAndRead({ ...seller, seller_tax_no_kind: 'nip_with_id', seller_tax_no: `${nip}-00042`, ...buyer, positions: [line] });
    expect(invoice.gov_id.startsWith(`${nip}-20260202-`)).toBe(true);
    expect(fa3.Podmiot1.DaneIdentyfikacyjne.NIP).toBe(nip);
    expect(asList(fa3.Podmiot3)).toEqual([{ DaneIdentyfikacyjne: { IDWew: `${nip}-00042`, Nazwa: seller.seller_name }, Rola: '5' }]);
  });

  it('with validate_invoices_for_gov off, saves the invoice with gov_error_messages and sending ends in send_error', async () => {
    await http.put('/account/ksef.json', { ksef: { validate_invoices_for_gov: false } });
    try {
      const created = await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, seller_tax_no_kind: 'other', ...buyer, positions: [line] } });
      expect(created.status, created.text).toBe(201);
      expect(created.body.gov_error_messages).toEqual([expect.stringMatching(/^seller_tax_no_kind /)]);
      const sent = await http.get(`/invoices/${String(created.body.id)}.json`, { send_to_ksef: 'yes' });
      expect(sent.body.gov_status).toBe('demo_send_error');
    } finally {
      await http.put('/account/ksef.json', { ksef: { validate_invoices_for_gov: true } });
    }
  });
});

describe('buyer_tax_no_kind', () => {
  it('writes each kind as FA(3) names the buyer', async () => {
    const eu = await sendAndRead({ ...seller, ...buyer, buyer_tax_no_kind: 'nip_ue', buyer_tax_no: 'DE123456789', buyer_country: 'DE', positions: [line] });
    expect(eu.fa3.Podmiot2.DaneIdentyfikacyjne).toEqual({ KodUE: 'DE', NrVatUE: '123456789', Nazwa: buyer.buyer_name });
    const other = await sendAndRead({ ...seller, ...buyer, buyer_tax_no_kind: 'other', buyer_tax_no: 'CHE123456789', buyer_country: 'CH', positions: [line] });
    expect(other.fa3.Podmiot2.DaneIdentyfikacyjne).toEqual({ KodKraju: 'CH', NrID: 'CHE123456789', Nazwa: buyer.buyer_name });
    const none = await sendAndRead({ ...seller, ...buyer, buyer_tax_no_kind: 'empty', buyer_tax_no: '', buyer_country: 'US', positions: [line] });
    expect(none.fa3.Podmiot2.DaneIdentyfikacyjne).toEqual({ BrakID: '1', Nazwa: buyer.buyer_name });
    // A unit of the buyer: its NIP is the buyer, the unit a recipient (role 2) named by IDWew.
    const unit = await sendAndRead({ ...seller, ...buyer, buyer_tax_no_kind: 'nip_with_id', buyer_tax_no: '9876543210-00001', positions: [line] });
    expect(unit.fa3.Podmiot2.DaneIdentyfikacyjne).toEqual({ NIP: '9876543210', Nazwa: buyer.buyer_name });
    expect(asList(unit.fa3.Podmiot3)).toEqual([{ DaneIdentyfikacyjne: { IDWew: '9876543210-00001', Nazwa: buyer.buyer_name }, Rola: '2' }]);
  });

  it('infers the kind from a country prefix and stores it', async () => {
    const { invoice, fa3 } = await sendAndRead({ ...seller, ...buyer, buyer_tax_no: 'ATU12345678', buyer_country: 'AT', positions: [line] });
    expect(invoice.buyer_tax_no_kind).toBe('nip_ue');
    expect(fa3.Podmiot2.DaneIdentyfikacyjne).toMatchObject({ KodUE: 'AT', NrVatUE: 'U12345678' });
  });

  it('takes the checkout\'s nip as a number checked by its country\'s rule', async () => {
    const created = async (invoice: Record<string, unknown>) =>
      (await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line], ...invoice } })).status;
    expect(await created({ buyer_tax_no_kind: 'nip', buyer_tax_no: '9876543210' })).toBe(201);
    expect(await created({ buyer_tax_no_kind: 'nip', buyer_tax_no: '123456789', buyer_country: 'DE' })).toBe(201);
    expect(await created({ buyer_tax_no_kind: 'nip', buyer_tax_no: '12345', buyer_country: 'PL' })).toBe(422);
  });

  it('refuses a number that does not fit its kind, or an unknown kind, naming the field', async () => {
    expect(Object.keys(await refused({ buyer_tax_no_kind: 'empty', buyer_tax_no: '9876543210' }))).toEqual(['buyer_tax_no']);
    expect(Object.keys(await refused({ buyer_tax_no_kind: 'nip_ue', buyer_tax_no: '123', buyer_country: 'US' }))).toEqual(['buyer_tax_no']);
    expect(Object.keys(await refused({ buyer_tax_no_kind: 'other', buyer_tax_no: 'AB-12/3' }))).toEqual(['buyer_tax_no']);
    expect(Object.keys(await refused({ buyer_tax_no_kind: 'passport' }))).toEqual(['buyer_tax_no_kind']);
    expect(Object.keys(await refused({ buyer_tax_no: '' }))).toEqual(['buyer_tax_no']);
  });
});

describe('issuers and recipients (Podmiot3)', () => {
  it('go to Podmiot3 with their roles, a co-buyer with its share, and mark a JST buyer', async () => {
    const { invoice, fa3 } = await sendAndRead({
      ...seller, ...buyer, positions: [line],
      issuers: [{ name: 'Biuro Rachunkowe XYZ', tax_no: '1111111111', company: true, country: 'PL', role: 'Wystawca faktury' }],
      recipients: [
        { name: 'Współwłaściciel A Sp. z o.o.', tax_no: '2222222222', company: true, country: 'PL', street: 'ul. Partnerska 1', city: 'Gdańsk', post_code: '80-001', role: 'Dodatkowy nabywca', participation: 40 },
        { name: 'Szkoła Podstawowa nr 1', tax_no: '5252445767', role: 'JST - odbiorca' },
        { name: 'Płatnik GmbH', tax_no: 'DE987654321', tax_no_kind: 'nip_ue', role: 'Dokonujący płatności', email: 'platnik@example.com' },
        { name: 'Magazyn', tax_no_kind: 'empty', role: 'Rola inna', role_description: 'Magazyn centralny' },
        { first_name: 'Anna', last_name: 'Nowak' },
      ],
    });
    expect(invoice.issuers).toEqual([expect.objectContaining({ name: 'Biuro Rachunkowe XYZ', role: 'Wystawca faktury' })]);
    expect(invoice.recipients[3]).toMatchObject({ tax_no_kind: 'empty', role_description: 'Magazyn centralny' });
    expect(fa3.Podmiot2).toMatchObject({ JST: '1', GV: '2' });
    expect(asList(fa3.Podmiot3)).toEqual([
      { DaneIdentyfikacyjne: { NIP: '1111111111', Nazwa: 'Biuro Rachunkowe XYZ' }, Rola: '5' },
      { DaneIdentyfikacyjne: { NIP: '2222222222', Nazwa: 'Współwłaściciel A Sp. z o.o.' }, Adres: { KodKraju: 'PL', AdresL1: 'ul. Partnerska 1', AdresL2: '80-001 Gdańsk' }, Rola: '4', Udzial: '40' },
      { DaneIdentyfikacyjne: { NIP: '5252445767', Nazwa: 'Szkoła Podstawowa nr 1' }, Rola: '8' },
      { DaneIdentyfikacyjne: { KodUE: 'DE', NrVatUE: '987654321', Nazwa: 'Płatnik GmbH' }, DaneKontaktowe: { Email: 'platnik@example.com' }, Rola: '6' },
      { DaneIdentyfikacyjne: { BrakID: '1', Nazwa: 'Magazyn' }, RolaInna: '1', OpisRoli: 'Magazyn centralny' },
      { DaneIdentyfikacyjne: { BrakID: '1', Nazwa: 'Anna Nowak' }, Rola: '2' },
    ]);
  });

  it('refuses roles the side does not have, a share outside a co-buyer and an undescribed other role', async () => {
    const message = await refused({
      issuers: [{ name: 'Biuro', tax_no: '1111111111', role: 'Odbiorca' }],
      recipients: [
        { name: 'A', tax_no: '2222222222', role: 'Odbiorca', participation: 10 },
        { name: 'B', tax_no: '2222222222', role: 'Rola inna' },
        { name: 'C', tax_no: '2222222222', role: 'Rola inna', role_description: 'x'.repeat(26) },
        { name: 'D', tax_no: '2222222222', role: 'Dodatkowy nabywca', participation: 120 },
        { name: 'E', tax_no: '123', role: 'Pracownik' },
      ],
    });
    expect(Object.keys(message).sort()).toEqual([
      'issuers.0.role', 'recipients.0.participation', 'recipients.1.role_description', 'recipients.2.role_description', 'recipients.3.participation', 'recipients.4.tax_no',
    ]);
  });
});

describe('corrections', () => {
  it('of an invoice in KSeF: names its KSeF number, date and number, the reason; gov_link follows acceptance', async () => {
    const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...seller, ...buyer, buyer_tax_no_kind: '', positions: [line] } });
    expect(created.body).toMatchObject({ gov_status: 'demo_processing', gov_link: null, gov_id: null });
    expect(created.body.gov_verification_link).toMatch(/^http/);
    // Before KSeF took it there is no UPO: a 404 with the error body.
    const noUpo = await http.get(`/invoices/${String(created.body.id)}/attachment`, { kind: 'gov_upo' });
    expect(noUpo.status).toBe(404);
    expect(noUpo.body).toMatchObject({ code: 'error' });
    await deliver();
    const original = await read(created.body.id);
    expect(original.gov_link).toBe(original.gov_verification_link);
    const upo = await fetch(`${service.url}/invoices/${String(original.id)}/attachment?kind=gov_upo&api_token=${service.apiToken}`);
    expect([upo.status, upo.headers.get('content-type'), upo.headers.get('content-disposition')]).toEqual([200, 'text/xml; charset=utf-8', `attachment; filename="upo-${String(original.id)}.xml"`]);

    const correction = {
      kind: 'correction', issue_date: '2026-02-02', correction_reason: 'Rabat posprzedażowy', invoice_id: original.id, from_invoice_id: original.id,
      positions: [{ name: line.name, tax: 23, kind: 'correction',
        correction_before_attributes: { name: line.name, quantity: 10, total_price_gross: 1845, tax: 23, kind: 'correction_before' },
        correction_after_attributes: { name: line.name, quantity: 9, total_price_gross: 1660.5, tax: 23, kind: 'correction_after' } }],
    };
    // A correction keeps the corrected invoice's parties' identifiers, and names its own KSeF number.
    const changed = await http.post('/invoices.json', { invoice: { ...correction, buyer_tax_no: '5252445767', buyer_phone: '123' } });
    expect(changed.status).toBe(422);
    expect(Object.keys(changed.body.message).sort()).toEqual(['buyer_phone', 'buyer_tax_no']);
    const wrongNumber = await http.post('/invoices.json', { invoice: { ...correction, gov_corrected_invoice_number: '5252248481-20260202-0000000000AB-00' } });
    expect(Object.keys(wrongNumber.body.message)).toEqual(['gov_corrected_invoice_number']);

    const { invoice, fa3 } = await sendAndRead(correction);
    expect(invoice.gov_corrected_invoice_number).toBe(original.gov_id);
    expect(invoice.buyer_tax_no_kind ?? '').toBe('');
    expect(fa3.Fa).toMatchObject({
      RodzajFaktury: 'KOR', PrzyczynaKorekty: 'Rabat posprzedażowy', P_13_1: '-150.00', P_14_1: '-34.50', P_15: '-184.50',
      DaneFaKorygowanej: { DataWystFaKorygowanej: '2026-02-02', NrFaKorygowanej: original.number, NrKSeF: '1', NrKSeFFaKorygowanej: original.gov_id },
    });
    expect(fa3.Fa.FaWiersz.map((row: Record<string, string>) => [row.P_8B, row.StanPrzed ?? null])).toEqual([['10', '1'], ['9', null]]);
  });

  it('of an invoice that never went to KSeF: its number and date, marked outside KSeF', async () => {
    const original = (await http.post('/invoices.json', { invoice: { issue_date: '2026-01-15', ...seller, ...buyer, positions: [line] } })).body;
    const { invoice, fa3 } = await sendAndRead({
      kind: 'correction', correction_reason: 'Zwrot', invoice_id: original.id, from_invoice_id: original.id,
      positions: [{ name: line.name, quantity: -1, total_price_gross: -184.5, tax: 23 }],
    });
    expect(invoice.gov_corrected_invoice_number).toBeNull();
    expect(fa3.Fa.DaneFaKorygowanej).toEqual({ DataWystFaKorygowanej: '2026-01-15', NrFaKorygowanej: original.number, NrKSeFN: '1' });
  });

  it('of an advance in a foreign currency: KOR_ZAL with what the advance was and its rate', async () => {
    const eur = { currency: 'EUR', exchange_currency: 'PLN', exchange_kind: 'nbp', exchange_currency_rate: '4.2631' };
    const order = (await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', kind: 'proforma', ...seller, ...buyer, ...eur, positions: [line] } })).body;
    const advance = await sendAndRead({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'percent', advance_value: 40, ...eur });
    expect(advance.fa3.Fa).toMatchObject({ RodzajFaktury: 'ZAL', KodWaluty: 'EUR', P_15: '738.00', KursWalutyZ: '4.2631' });
    const { invoice, fa3 } = await sendAndRead({
      kind: 'correction', correction_reason: 'Zmiana zaliczki', invoice_id: advance.invoice.id, from_invoice_id: advance.invoice.id, ...eur, exchange_currency_rate: '4.3',
      positions: [{ name: advance.invoice.positions[0].name, quantity: -1, total_price_gross: -123, tax: 23 }],
    });
    expect(invoice.gov_corrected_invoice_number).toBe(advance.invoice.gov_id);
    expect(fa3.Fa).toMatchObject({ RodzajFaktury: 'KOR_ZAL', P_15: '-123.00', P_15ZK: '738.00', KursWalutyZK: '4.2631' });
  });

  it('of an invoice still on its way to KSeF waits for its number: sending it now ends in send_error', async () => {
    const original = (await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } })).body;
    expect(original.gov_status).toBe('demo_processing');
    const early = await http.post('/invoices.json', { gov_save_and_send: true, invoice: {
      kind: 'correction', issue_date: '2026-02-02', invoice_id: original.id, from_invoice_id: original.id, positions: [{ name: line.name, quantity: -1, total_price_gross: -184.5, tax: 23 }],
    } });
    expect(early.status, early.text).toBe(201);
    expect(early.body.gov_status).toBe('demo_send_error');
    expect(early.body.gov_error_messages).toEqual([expect.stringMatching(/^invoice_id is still being sent to KSeF/)]);
    await deliver();
    const sent = await http.get(`/invoices/${String(early.body.id)}.json`, { send_to_ksef: 'yes' });
    expect(sent.body.gov_status).toBe('demo_processing');
    await deliver();
    const corrected = await read(original.id);
    expect(await read(early.body.id)).toMatchObject({ gov_status: 'demo_ok', gov_corrected_invoice_number: corrected.gov_id });
    expect(isValidKsefNumber(corrected.gov_id)).toBe(true);
  });
});

describe('e-mail while KSeF is on', () => {
  const outboxFetch = (path: string) => fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${service.apiToken}` } });
  const outboxOf = async (invoiceId: number) =>
    ((await (await outboxFetch('/outbox.json')).json()) as { invoice_id: number; token: string }[]).filter((m) => m.invoice_id === invoiceId);
  const sendByEmail = async (id: number) => (await http.post(`/invoices/${id}/send_by_email.json`, {})).body;
  const withEmail = { ...seller, ...buyer, buyer_email: 'ksiegowosc@klient.example', positions: [line] };

  it('holds an e-mail asked for while the invoice is on its way, and sends it with the KSeF number once it has one', async () => {
    const created = (await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...withEmail } })).body;
    expect(created.gov_status).toBe('demo_processing');
    const answer = await sendByEmail(created.id);
    expect(answer).toEqual({ status: 'ok', message: `Invoice ${created.number} will be sent to ksiegowosc@klient.example once KSeF has given it its number` });
    expect(await outboxOf(created.id)).toEqual([]);
    expect((await read(created.id)).status).not.toBe('sent');
    // A consumer's invoice on its way waits the same way, to carry its number.
    const consumer = (await http.post('/invoices.json', { gov_save_and_send: true, invoice: {
      issue_date: '2026-02-02', ...seller, buyer_company: false, buyer_first_name: 'Jan', buyer_last_name: 'Kowalski', buyer_email: 'jan@example.com', positions: [line],
    } })).body;
    expect((await sendByEmail(consumer.id)).message).toMatch(/will be sent to jan@example.com once KSeF/);
    expect(await outboxOf(consumer.id)).toEqual([]);

    await deliver();
    expect(await outboxOf(consumer.id)).toHaveLength(1);
    const invoice = await read(created.id);
    expect(invoice).toMatchObject({ gov_status: 'demo_ok', status: 'sent' });
    const [entry, ...more] = await outboxOf(created.id);
    expect(more).toEqual([]);
    const message = (await (await outboxFetch(`/outbox/${entry!.token}.json`)).json()) as { to: string[]; attachments: { url: string }[] };
    expect(message.to).toEqual(['ksiegowosc@klient.example']);
    const pdf = new Uint8Array(await (await outboxFetch(`/outbox/${message.attachments[0]!.url}`)).arrayBuffer());
    expect(await pdfText(pdf)).toContain(invoice.gov_id);
    expect(await qrCodesOfPdf(pdf)).toEqual([invoice.gov_verification_link]);
  });

  it('in production refuses a company\'s invoice without a KSeF number (status error, as the hosted service answers); a consumer\'s goes', async () => {
    // Two invoices whose sending failed: one issued online, one in offline mode (dated before today).
    const failed = async (issueDate: string) => {
      const invoice = (await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: issueDate, ...withEmail } })).body;
      await service.db.query(`update ksef_jobs set state = 'failed' where invoice_id = $1`, [invoice.id]);
      return invoice;
    };
    const online = await failed('2026-02-02');
    const offline = await failed('2026-02-01');
    await http.put('/account/ksef.json', { ksef: { environment: 'production' } });
    try {
      expect((await sendByEmail(online.id)).status).toBe('error');
      // An invoice marked offline may go out before it has its number.
      expect((await sendByEmail(offline.id)).status).toBe('ok');
      const company = (await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...withEmail } })).body;
      expect(await sendByEmail(company.id)).toEqual({ status: 'error', message: `Invoice ${company.number} cannot be sent: it has no KSeF number` });
      expect(await outboxOf(company.id)).toEqual([]);
      const consumer = (await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...seller, buyer_company: false, buyer_first_name: 'Jan', buyer_last_name: 'Kowalski', buyer_email: 'jan@example.com', positions: [line] } })).body;
      expect((await sendByEmail(consumer.id)).status).toBe('ok');
      expect(await outboxOf(consumer.id)).toHaveLength(1);
    } finally {
      await http.put('/account/ksef.json', { ksef: { environment: 'local' } });
    }
    // Outside production nothing is refused (the hosted service's DEMO mode blocks nothing).
    const demo = (await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', ...withEmail } })).body;
    expect((await sendByEmail(demo.id)).status).toBe('ok');
  });
});
