import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurePdfPool, DEFAULT_PDF_POOL_LIMITS, pausePdfPool, pdfPoolState } from '../../src/service/documents/pdf-pool.js';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Finding 8 of issue 21: one account's PDFs must not starve another's. The pool is held while the
 * requests queue (never a sleep), then released, and the order the PDFs come back in is read.
 */
let service: TestService;
let heavy: Api;
let light: Api;

beforeAll(async () => {
  service = await startTestService();
  heavy = api(service);
  light = await secondAccount(service, 'light');
  configurePdfPool({ workers: 1, perAccount: 1, queuePerAccount: 2 });
}, 60_000);
afterAll(async () => {
  configurePdfPool(DEFAULT_PDF_POOL_LIMITS);
  await service?.stop();
});

async function invoiceOf(account: Api, name: string): Promise<number> {
  const created = await account.post('/invoices.json', {
    invoice: { kind: 'vat', buyer_name: name, positions: [{ name: 'Usługa', tax: 23, total_price_gross: '123.00', quantity: 1 }] },
  });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

const pdf = (account: Api, id: number) => fetch(`${service.url}/invoices/${id}.pdf?api_token=${account.token}`);

describe('the PDF pool is fair per account and bounded', () => {
  it("refuses an account's render beyond its queue, and starts another account's before its backlog", async () => {
    const [a1, a2, a3, b1] = [await invoiceOf(heavy, 'A1'), await invoiceOf(heavy, 'A2'), await invoiceOf(heavy, 'A3'), await invoiceOf(light, 'B1')];
    const resume = pausePdfPool();
    const finished: string[] = [];
    const track = (name: string, response: Promise<Response>) =>
      response.then(async (r) => {
        expect(r.status, name).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/pdf');
        await r.arrayBuffer();
        finished.push(name);
      });
    const first = track('A1', pdf(heavy, a1));
    await expect.poll(() => pdfPoolState().waiting).toBe(1);
    const second = track('A2', pdf(heavy, a2));
    await expect.poll(() => pdfPoolState().waiting).toBe(2);

    const refused = await pdf(heavy, a3);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({ code: 'error', message: 'Too many PDFs of this account are being rendered. Try again shortly.' });

    const other = track('B1', pdf(light, b1));
    await expect.poll(() => pdfPoolState().waiting).toBe(3);
    resume();
    await Promise.all([first, second, other]);
    expect(finished).toEqual(['A1', 'B1', 'A2']);
  }, 60_000);

  it('ends a render that outlives its timeout with a 503, and renders again on a fresh worker', async () => {
    const id = await invoiceOf(heavy, 'Slow');
    configurePdfPool({ timeoutMs: 1 });
    const slow = await pdf(heavy, id);
    expect(slow.status).toBe(503);
    expect(await slow.json()).toEqual({ code: 'error', message: 'The PDF took longer than 1 ms to render. Try again shortly.' });
    configurePdfPool({ timeoutMs: DEFAULT_PDF_POOL_LIMITS.timeoutMs });
    const again = await pdf(heavy, id);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('refuses positions with more text together than a real invoice has', async () => {
    const positions = Array.from({ length: 500 }, (_, i) => ({ name: `Line ${i} ${'x'.repeat(480)}`, tax: 23, total_price_gross: '1.00', quantity: 1 }));
    const response = await heavy.post('/invoices.json', { invoice: { kind: 'vat', buyer_name: 'Huge', positions } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'error', message: { positions: ['have too much text together (maximum is 200000 characters)'] } });
  });

  it('keeps the documented defaults', () => {
    expect(DEFAULT_PDF_POOL_LIMITS).toMatchObject({ perAccount: 1, queuePerAccount: 8, queueTotal: 256, timeoutMs: 30_000, memoryMb: 256 });
    expect(DEFAULT_PDF_POOL_LIMITS.workers).toBeGreaterThanOrEqual(1);
    expect(DEFAULT_PDF_POOL_LIMITS.workers).toBeLessThanOrEqual(4);
  });
});
