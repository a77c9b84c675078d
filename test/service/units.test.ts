import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
let http: Api;
let dir: string;
beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  dir = await mkdtemp(join(tmpdir(), 'invoicekit-units-'));
});
afterAll(async () => {
  await service.stop();
  await rm(dir, { recursive: true, force: true });
});

async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, Buffer.from(bytes));
  const { stdout } = await promisify(execFile)('pdftotext', ['-enc', 'UTF-8', path, '-']);
  return stdout.replace(/\s+/g, ' ');
}

async function invoiceIn(lang: string) {
  const created = await http.post('/invoices.json', {
    invoice: {
      kind: 'vat',
      lang,
      buyer_name: 'Northwind Traders Ltd',
      positions: [
        { name: 'Printed style guide', tax: 8, total_price_gross: '129.00', quantity: 2, quantity_unit: 'szt.' },
        { name: 'Logo design', tax: 23, total_price_gross: '1845.00', quantity: 1, quantity_unit: 'usł.' },
        { name: 'Bespoke crate', tax: 23, total_price_gross: '10.00', quantity: 1, quantity_unit: 'crate' },
      ],
    },
  });
  expect(created.status).toBe(201);
  return created.body as { id: number; view_url: string };
}

describe('units on invoice documents', () => {
  it('shows the common Polish units in the words of an English invoice, on its page and in its PDF', async () => {
    const invoice = await invoiceIn('en');
    const page = await (await fetch(invoice.view_url)).text();
    expect(page).toContain('2 pcs');
    expect(page).toContain('1 service');
    expect(page).toContain('1 crate');
    expect(page).not.toContain('szt.');
    const pdf = await pdfText(await (await fetch(`${service.url}/invoices/${invoice.id}.pdf?api_token=${service.apiToken}`)).arrayBuffer());
    expect(pdf).toMatch(/\bpcs\b/);
    expect(pdf).not.toContain('szt.');
  });

  it('keeps the units as stored on a Polish invoice', async () => {
    const invoice = await invoiceIn('pl');
    const page = await (await fetch(invoice.view_url)).text();
    expect(page).toContain('2 szt.');
    expect(page).toContain('1 usł.');
  });
});
