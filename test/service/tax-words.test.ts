import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api } from '../helpers/http.js';

/**
 * The words the law requires for an invoice's VAT case, where the invoice appears: its PDF in Polish,
 * English and both, and its public page. Invoices are made through the API with the hosted service's
 * fields, as any client makes them.
 */

const run = promisify(execFile);
let service: TestService;
let http: Api;
let workDir: string;

beforeAll(async () => {
  [service, workDir] = await Promise.all([startTestService(), mkdtemp(join(tmpdir(), 'tax-words-'))]);
  http = api(service);
});
afterAll(async () => {
  await service.stop();
  await rm(workDir, { recursive: true, force: true });
});

const seller = { seller_name: 'Studio Sp. z o.o.', seller_tax_no: '5252445767', seller_street: 'ul. Przykładowa 10', seller_post_code: '00-001', seller_city: 'Warszawa', seller_country: 'PL' };
const german = { buyer_name: 'German Company GmbH', buyer_tax_no: 'DE136695976', buyer_company: true, buyer_street: 'Hauptstraße 1', buyer_post_code: '10115', buyer_city: 'Berlin', buyer_country: 'DE' };
const line = { name: 'Logo design', quantity: 1, price_net: '1500.00' };

async function invoice(fields: Record<string, unknown>): Promise<{ id: number; token: string; view_url: string }> {
  const reply = await http.post('/invoices.json', { invoice: { ...seller, issue_date: '2026-02-02', ...fields } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: number; token: string; view_url: string };
}

let files = 0;
async function pdfText(id: number): Promise<string> {
  const response = await fetch(`${service.url}/invoices/${id}.pdf?api_token=${service.apiToken}`);
  expect(response.status).toBe(200);
  const path = join(workDir, `${(files += 1)}.pdf`);
  await writeFile(path, new Uint8Array(await response.arrayBuffer()));
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', path, '-']);
  return stdout.replace(/\s+/g, ' ');
}

const REVERSE_CHARGE_PL = 'Usługa niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju nabywcy (art. 28b ust. 1 ustawy o VAT; art. 44 i art. 196 dyrektywy 2006/112/WE)';
const REVERSE_CHARGE_EN = "Not subject to Polish VAT, place of supply in the buyer's country (Art. 28b(1) of the Polish VAT Act; Art. 44 and Art. 196 of Directive 2006/112/EC)";

describe('the PDF', () => {
  it('names the reverse charge and its basis in Polish, in English, and in both on a bilingual invoice', async () => {
    const fields = { ...german, reverse_charge: true, np_tax_kind: 'export_service_eu', positions: [{ ...line, tax: 'np' }] };
    const pl = await pdfText((await invoice({ ...fields, lang: 'pl' })).id);
    expect(pl).toContain(`ADNOTACJE VAT Odwrotne obciążenie ${REVERSE_CHARGE_PL}`);
    const en = await pdfText((await invoice({ ...fields, lang: 'en' })).id);
    expect(en).toContain(`VAT NOTES Reverse charge ${REVERSE_CHARGE_EN}`);
    expect(en).not.toContain('Odwrotne');
    const both = await pdfText((await invoice({ ...fields, lang: 'pl/en' })).id);
    expect(both).toContain(`Odwrotne obciążenie ${REVERSE_CHARGE_PL} Reverse charge ${REVERSE_CHARGE_EN}`);
  });

  it('gives the basis of an intra-EU supply, an export and an exemption, and marks OSS with the member state', async () => {
    const wdt = await pdfText((await invoice({ ...german, kind: 'wdt', lang: 'en', positions: [{ ...line, name: 'Lamp', tax: '0' }] })).id);
    expect(wdt).toContain('VAT NOTES Intra-Community supply of goods, VAT 0% (Art. 42(1) of the Polish VAT Act; Art. 138(1) of Directive 2006/112/EC)');
    const exported = await pdfText((await invoice({ ...german, buyer_country: 'US', buyer_tax_no: null, kind: 'export_products', lang: 'pl', positions: [{ ...line, name: 'Lampa', tax: '0' }] })).id);
    expect(exported).toContain('ADNOTACJE VAT Eksport towarów, stawka 0% (art. 41 ust. 4 ustawy o VAT; art. 146 ust. 1 dyrektywy 2006/112/WE)');
    const exempt = await pdfText((await invoice({ ...german, buyer_country: 'PL', buyer_tax_no: '9876543210', lang: 'pl', exempt_tax_kind: 'art. 43 ust. 1 pkt 29 lit. a ustawy o VAT', positions: [{ ...line, name: 'Szkolenie', tax: 'zw' }] })).id);
    expect(exempt).toContain('ADNOTACJE VAT Zwolnienie z VAT: art. 43 ust. 1 pkt 29 lit. a ustawy o VAT');
    const oss = await pdfText((await invoice({ buyer_first_name: 'Hans', buyer_last_name: 'Müller', buyer_company: false, buyer_country: 'DE', use_oss: true, lang: 'pl', positions: [{ ...line, name: 'Kurs online', tax: '19' }] })).id);
    expect(oss).toContain('ADNOTACJE VAT Procedura OSS (procedura unijna, art. 130a–130d ustawy o VAT; art. 369a–369k dyrektywy 2006/112/WE) VAT państwa członkowskiego konsumpcji: DE');
  });

  it('prints no VAT notes on a domestic invoice', async () => {
    const text = await pdfText((await invoice({ ...german, buyer_country: 'PL', buyer_tax_no: '9876543210', lang: 'pl', positions: [{ ...line, tax: '23' }] })).id);
    expect(text).not.toContain('ADNOTACJE');
  });
});

describe('the public page', () => {
  it('shows the same words, escaped, in the invoice’s language', async () => {
    const created = await invoice({ ...german, buyer_country: 'US', buyer_tax_no: '12-3456789', np_tax_kind: 'export_service', lang: 'en', positions: [{ ...line, tax: 'np' }] });
    const page = await (await fetch(created.view_url)).text();
    expect(page).toContain(
      '<section class="tax-notes" aria-labelledby="tax-notes"><h2 id="tax-notes">VAT notes</h2><ul><li>Not subject to Polish VAT, place of supply in the buyer&#39;s country outside the European Union (Art. 28b(1) of the Polish VAT Act; Art. 44 of Directive 2006/112/EC)</li></ul></section>',
    );
    const polish = await invoice({ ...german, reverse_charge: true, np_tax_kind: 'export_service_eu', lang: 'pl', positions: [{ ...line, tax: 'np' }] });
    const polishPage = await (await fetch(polish.view_url)).text();
    expect(polishPage).toContain(`<h2 id="tax-notes">Adnotacje VAT</h2><ul><li>Odwrotne obciążenie</li><li>${REVERSE_CHARGE_PL}</li></ul>`);
    const domestic = await invoice({ ...german, buyer_country: 'PL', buyer_tax_no: '9876543210', lang: 'pl', positions: [{ ...line, tax: '23' }] });
    expect(await (await fetch(domestic.view_url)).text()).not.toContain('<section class="tax-notes"');
  });
});
