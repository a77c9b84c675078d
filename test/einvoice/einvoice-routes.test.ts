import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEInvoice } from '../helpers/einvoice/index.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { GERMAN_BUYER, POLISH_BUYER, SELLER, STANDALONE } from './cases.js';

/**
 * `GET /invoices/<id>/einvoice.xml` over HTTP: every kind of invoice the service issues, in both
 * syntaxes and every profile, validated by CEN's EN 16931 rules, Peppol's or XRechnung's, and the
 * UBL 2.1 or CII D16B schema with zero fatal failures; a profile's missing data answers 422
 * naming each field.
 */

let service: TestService;
let http: Api;
const documents = new Map<string, number>();

async function create(invoice: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await http.post('/invoices.json', { invoice });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as Record<string, unknown>;
}

async function setClient(id: unknown, client: Record<string, unknown>) {
  const reply = await http.put(`/clients/${String(id)}.json`, { client });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body).toMatchObject(client);
}

async function einvoice(id: unknown, syntax: string, profile: string) {
  return http.raw('GET', `/invoices/${String(id)}/einvoice.xml?syntax=${syntax}&profile=${profile}&api_token=${service.apiToken}`);
}

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  const [department] = (await http.get('/departments.json')).body as { id: number }[];
  const updated = await http.put(`/departments/${department!.id}.json`, { department: { einvoice_address: '9945:PL5252248481' } });
  expect(updated.status, updated.text).toBe(200);
  for (const [name, invoice] of Object.entries(STANDALONE)) documents.set(name, (await create(invoice)).id as number);

  const order = await create({ ...SELLER, ...POLISH_BUYER, kind: 'estimate', issue_date: '2026-03-02', positions: [{ name: 'Okna do domu', tax: 23, price_net: '5000', quantity: 1 }, { name: 'Montaż', tax: 8, price_net: '1000', quantity: 1 }] });
  // The copies carry no e-invoice fields of their own: their client's are used.
  await setClient(order.client_id, { einvoice_address: '9945:PL6272616681', buyer_reference: 'ZAM-2026-17' });
  const advance = await create({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'amount', advance_value: '2000', issue_date: '2026-03-03', payment_to: '2026-03-10', position_name: 'Zaliczka' });
  documents.set('advance invoice', advance.id as number);
  const final = await create({ copy_invoice_from: order.id, kind: 'final', invoice_ids: [advance.id], issue_date: '2026-03-20', payment_to: '2026-04-03' });
  documents.set('final invoice', final.id as number);

  const corrected = await create({ ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', sell_date: '2026-03-02', reverse_charge: true, np_tax_kind: 'export_service_eu', positions: [{ name: 'Projekt', tax: 'np', price_net: '2000', quantity: 2 }] });
  await setClient(corrected.client_id, { einvoice_address: '9930:DE123456789', buyer_reference: '04011000-12345-34' });
  const credit = await create({
    kind: 'correction', from_invoice_id: corrected.id, invoice_id: corrected.id, correction_reason: 'Zła ilość', issue_date: '2026-03-09', payment_to: '2026-03-09',
    positions: [{
      name: 'Projekt', quantity: -1, tax: 'np', kind: 'correction',
      correction_before_attributes: { name: 'Projekt', quantity: '2', price_net: '2000', tax: 'np', kind: 'correction_before' },
      correction_after_attributes: { name: 'Projekt', quantity: '1', price_net: '2000', tax: 'np', kind: 'correction_after' },
    }],
  });
  documents.set('correction that credits', credit.id as number);
  const more = await create({
    kind: 'correction', from_invoice_id: corrected.id, invoice_id: corrected.id, correction_reason: 'Dodatkowa godzina', issue_date: '2026-03-10', payment_to: '2026-03-24',
    positions: [{
      name: 'Projekt', quantity: 1, tax: 'np', kind: 'correction',
      correction_before_attributes: { name: 'Projekt', quantity: '2', price_net: '2000', tax: 'np', kind: 'correction_before' },
      correction_after_attributes: { name: 'Projekt', quantity: '3', price_net: '2000', tax: 'np', kind: 'correction_after' },
    }],
  });
  documents.set('correction that charges more', more.id as number);
}, 60_000);
afterAll(() => service?.stop());

const CASES = () => [...documents.keys()];
const SYNTAXES = ['ubl', 'cii'] as const;
const PROFILES = ['en16931', 'peppol', 'xrechnung'] as const;

describe('every invoice in every syntax and profile', () => {
  it('answers each document as XML with no fatal rule failure and no schema error', async () => {
    const failures: Record<string, string[]> = {};
    for (const name of CASES()) {
      for (const syntax of SYNTAXES) {
        for (const profile of PROFILES) {
          const reply = await einvoice(documents.get(name), syntax, profile);
          const key = `${name} ${syntax} ${profile}`;
          if (reply.status !== 200) {
            failures[key] = [`${reply.status} ${reply.text}`];
            continue;
          }
          expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
          const report = await validateEInvoice(reply.text, { syntax, profile });
          const errors = [...report.fatal.map((rule) => `${rule.id} ${rule.location}: ${rule.text}`), ...report.schema];
          if (errors.length > 0) failures[key] = errors;
        }
      }
    }
    expect(failures).toEqual({});
    expect(documents.size).toBe(12);
  }, 600_000);
});
