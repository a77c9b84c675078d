import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api } from '../helpers/http.js';

/** Whatever the routes beyond the seed are sent, they answer below 500, with the reference's error body. */
let service: TestService;
let http: Api;
let invoiceId: number;
const LIMITS = { numRuns: 80, interruptAfterTimeLimit: 1_500 };

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  invoiceId = (await http.post('/invoices.json', { invoice: { buyer_name: 'Target', positions: [{ name: 'T', tax: 23, total_price_gross: 1, quantity: 1 }] } })).body.id;
});
afterAll(() => service.stop());

const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', 'null', '1m', '0w', '2026-02-30', 'http://127.0.0.1/', 'http://[::1', 'invoice:create', '-1', '1e400', '<x/>'),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('0', '1', 'id', 'priceable_id', 'price_net', '_destroy'), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
);

const FIELDS: Record<string, [string, string[]]> = {
  '/webhooks.json': ['webhook', ['kind', 'url', 'api_token', 'active', 'secret']],
  '/recurrings.json': ['recurring', ['name', 'invoice_id', 'start_date', 'every', 'issue_working_day_only', 'send_email', 'buyer_email', 'end_date', 'next_invoice_date']],
  '/price_lists.json': ['price_list', ['name', 'description', 'currency', 'price_list_positions_attributes']],
  '/issuers.json': ['issuer', ['name', 'tax_no', 'company', 'email']],
};

function answeredWell(status: number, body: unknown): boolean {
  if (status >= 500) return false;
  if (status >= 400) return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'error';
  return true;
}

describe('routes beyond the seed under hostile input', () => {
  for (const [path, [wrapper, fields]] of Object.entries(FIELDS)) {
    it(`POST ${path} never fails with 500`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.record(Object.fromEntries(fields.map((field) => [field, value])), { requiredKeys: [] }), async (record) => {
          const reply = await http.post(path, { [wrapper]: record });
          return answeredWell(reply.status, reply.body);
        }),
        LIMITS,
      );
    });
  }

  it('query filters and invoice operations never fail with 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('warehouse_id', 'kind', 'product_id', 'date_from', 'date_to', 'from_warehouse_document', 'to_warehouse_document', 'warehouse_document_id', 'page', 'per_page'),
        fc.oneof(fc.string(), fc.constantFrom('-1', '99999999999999999999', '2026-13-01', 'pz', '0')),
        async (key, text) => {
          const reply = await http.get('/warehouse_actions.json', { [key]: text });
          return answeredWell(reply.status, reply.body);
        },
      ),
      LIMITS,
    );
    for (const path of [`/invoices/${invoiceId}/add_attachment.json`, '/invoices/abc/add_attachment.json', '/invoices/999999999/get_new_attachment_credentials.json']) {
      const reply = await http.post(path, { file_name: '../../etc/passwd' });
      expect(reply.status, path).toBeLessThan(500);
    }
    const form = new FormData();
    form.append('key', "x' or 1=1 --");
    form.append('file', 'not a file');
    expect((await http.raw('POST', '/attachments/uploads', { body: form })).status).toBe(403);
    const unlink = await http.raw('PATCH', '/account/unlink.json', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_token: http.token, prefix: { a: 1 } }) });
    expect(unlink.status).toBe(422);
    expect((await http.get('/webhooks/1/deliveries.json', { status: 'nope' })).status).toBeLessThan(500);
  });
});
