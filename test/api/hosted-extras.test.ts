import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient, type Format, ValidationError } from '../../src/api/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** The typed client over the operations beyond the seed, in both formats, against the real service. */
let service: TestService;
const now = new Date('2026-03-01T09:00:00Z');
beforeAll(async () => {
  service = await startTestService({ webhooks: { allowPrivate: true, pollMs: 100 }, clock: () => now, schedulerIntervalMs: 60_000 });
});
afterAll(() => service.stop());

const PDF = new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'));

for (const format of ['json', 'xml'] as const satisfies readonly Format[]) {
  describe(`typed client beyond the seed (${format})`, () => {
    const client = () => createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, integrationToken: service.integrationToken, format });

    it('reads a page with only the named fields, from our service and from one that answers whole invoices', async () => {
      const api = client();
      await api.invoices.create({ kind: 'vat', buyer_name: `Fields ${format} Ltd`, positions: [{ name: 'Work', tax: '23', quantity: '2', total_price_gross: '24.60' }] });
      const query = { period: 'all', per_page: 5, order: 'number.desc' } as const;
      const whole = await api.invoices.list(query);
      const picked = await api.invoices.listFields(['number', 'price_gross', 'buyer_name', 'payment_to'], query);
      expect(picked).toEqual(whole.map(({ id, number, price_gross, buyer_name, payment_to }) => ({ id, number, price_gross, buyer_name, payment_to })));
      // The hosted service ignores `fields` and answers whole invoices: the client keeps the same keys.
      const hosted = createInvoicingClient({
        baseUrl: service.url,
        apiToken: service.apiToken,
        format,
        fetch: (input, init) => {
          const request = new Request(input, init);
          const url = new URL(request.url);
          url.searchParams.delete('fields');
          return fetch(new Request(url, request));
        },
      });
      expect(await hosted.invoices.listFields(['number', 'price_gross', 'buyer_name', 'payment_to'], query)).toEqual(picked);
      await expect(api.invoices.listFields(['api_token' as 'number'], query)).rejects.toThrow(TypeError);
    });

    it('reads a page and the summary of its query in one call, and no summary from a service that does not give it', async () => {
      const api = client();
      const query = { period: 'all', per_page: 3, status: 'active', order: 'number.desc' } as const;
      const calls: string[] = [];
      const counted = createInvoicingClient({
        baseUrl: service.url,
        apiToken: service.apiToken,
        format,
        fetch: (input, init) => {
          calls.push(new Request(input, init).url);
          return fetch(input, init);
        },
      });
      const page = await counted.invoices.listPage(['number', 'price_gross'], query);
      expect(calls).toHaveLength(1);
      expect(page.invoices).toEqual(await api.invoices.listFields(['number', 'price_gross'], query));
      expect(page.summary).toEqual(await api.invoices.summary(query));
      expect(page.summary!.count).toBe((await api.invoices.listFields(['number'], { ...query, per_page: 100 })).length);
      // A service without the extension answers no header (or, broken, one that is not a summary).
      for (const header of [undefined, 'not json', '{"count":"many"}']) {
        const older = createInvoicingClient({
          baseUrl: service.url,
          apiToken: service.apiToken,
          format,
          fetch: async (input, init) => {
            const answer = await fetch(input, init);
            const headers = new Headers(answer.headers);
            headers.delete('x-invoicekit-summary');
            if (header) headers.set('x-invoicekit-summary', header);
            return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
          },
        });
        // Beside the rows only the service's entity tag (conditional reads, on PGlite), whatever the summary header.
        const { etag, ...answer } = await older.invoices.listPage(['number', 'price_gross'], query);
        expect(answer, String(header)).toEqual({ invoices: page.invoices });
        expect(etag).toMatch(/^W\//);
      }
    });

    it('manages webhooks and reads their delivery log', async () => {
      const api = client();
      const hook = await api.webhooks.create({ kind: 'client:create', url: 'https://hooks.example.com/clients', api_token: 'shop', secret: `whsec_${format}-0123456789abcdef` });
      expect(hook).toMatchObject({ kind: 'client:create', url: 'https://hooks.example.com/clients', api_token: 'shop', active: true, secret: `whsec_${format}-0123456789abcdef` });
      expect(await api.webhooks.get(hook.id)).toEqual(hook);
      expect((await api.webhooks.update(hook.id, { active: false })).active).toBe(false);
      expect((await api.webhooks.list()).map((w) => w.id)).toContain(hook.id);
      await api.webhooks.update(hook.id, { active: true });
      await api.clients.create({ name: `Webhook client ${format}` });
      const deliveries = await api.webhooks.deliveries(hook.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ webhook_id: hook.id, kind: 'client:create', attempts: expect.any(Number) });
      const again = await api.webhooks.redeliver(hook.id, deliveries[0]!.id);
      expect(again).toMatchObject({ status: 'pending', attempts: 0 });
      await expect(api.webhooks.create({ kind: 'client:create', url: 'http://[::1' })).rejects.toBeInstanceOf(ValidationError);
      expect(await api.webhooks.delete(hook.id)).toEqual({ code: 'success', message: `webhook ${hook.id} deleted` });
    });

    it('manages recurring invoices, price lists, issuers and departments', async () => {
      const api = client();
      const product = await api.products.create({ name: `Listed ${format}`, price_net: '100', tax: '23' });
      const list = await api.priceLists.create({
        name: `Hurt ${format}`,
        currency: 'PLN',
        price_list_positions_attributes: [{ priceable_id: product.id, price_net: '80', use_tax: false }],
      });
      expect(list.price_list_positions).toEqual([expect.objectContaining({ priceable_id: product.id, price_net: '80.0', price_gross: '98.4' })]);
      expect(await api.priceLists.get(list.id)).toEqual(list);
      const renamed = await api.priceLists.update(list.id, { name: `Hurt 2 ${format}` });
      expect(renamed.name).toBe(`Hurt 2 ${format}`);

      const invoice = await api.invoices.create({ buyer_name: 'Klient1', positions: [{ name: 'Abonament', tax: 23, total_price_gross: '123', quantity: 1 }] });
      const recurring = await api.recurrings.create({ name: `Monthly ${format}`, invoice_id: invoice.id, start_date: '2026-04-01', every: '1m' });
      expect(recurring).toMatchObject({ next_invoice_date: '2026-04-01', every: '1m', send_email: false, issue_working_day_only: false, end_date: null });
      expect((await api.recurrings.update(recurring.id, { next_invoice_date: '2026-05-01' })).next_invoice_date).toBe('2026-05-01');
      expect((await api.recurrings.list()).map((r) => r.id)).toContain(recurring.id);
      await api.recurrings.delete(recurring.id);

      const issuer = await api.issuers.create({ name: `Issuer ${format}`, tax_no: '4170106662' });
      expect(await api.issuers.update(issuer.id, { name: 'new_name' })).toMatchObject({ id: issuer.id, name: 'new_name', tax_no: '4170106662' });
      expect(await api.issuers.get(issuer.id)).toMatchObject({ name: 'new_name' });
      await api.issuers.delete(issuer.id);

      const department = await api.departments.create({ name: `Dept ${format}`, shortcut: 'D', tax_no: '-' });
      expect(await api.departments.update(department.id, { name: 'new_name' })).toMatchObject({ name: 'new_name', shortcut: 'D' });
      expect(await api.departments.get(department.id)).toMatchObject({ id: department.id });
      await api.departments.delete(department.id);
      await api.priceLists.delete(list.id);
    });

    it('reads warehouse actions, attaches files, updates payments with their invoices', async () => {
      const api = client();
      const document = await api.warehouseDocuments.create({
        kind: 'pz', warehouse_actions: [{ product_name: `Stocked ${format}`, purchase_price_net: 10, purchase_tax: 23, quantity: 4 }],
      });
      const actions = await api.warehouseActions.list({ warehouse_document_id: document.id });
      expect(actions).toEqual([expect.objectContaining({ kind: 'pz', quantity: '4.0', price_net: '10.0', warehouse_document_id: document.id, to_warehouse_document_id: document.id })]);

      const invoice = await api.invoices.create({ buyer_name: 'Klient1', positions: [{ name: 'Usługa', tax: 23, total_price_gross: '200', quantity: 1 }] });
      const credentials = await api.attachments.credentials(invoice.id);
      const form = new FormData();
      form.append('key', credentials.key);
      form.append('file', new Blob([PDF]), 'umowa.pdf');
      expect((await fetch(credentials.url, { method: 'POST', body: form })).status).toBe(201);
      expect(await api.attachments.addUploaded(invoice.id, 'umowa.pdf')).toMatchObject({ file_name: 'umowa.pdf', content_type: 'application/pdf' });
      expect(await api.attachments.add(invoice.id, new Blob([PDF]), 'aneks.pdf')).toMatchObject({ file_name: 'aneks.pdf' });
      expect((await api.attachments.list(invoice.id)).map((a) => a.file_name)).toEqual(['umowa.pdf', 'aneks.pdf']);
      const zip = await api.attachments.zip(invoice.id);
      expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);

      const payment = await api.payments.create({ name: 'Payment 003', price: 200, invoice_id: invoice.id, paid: true, kind: 'api' });
      expect(await api.payments.update(payment.id, { price: 100 })).toMatchObject({ price: '100.0' });
      const withInvoices = await api.payments.listWithInvoices({ invoice_id: invoice.id });
      expect(withInvoices[0]!.invoices).toEqual([expect.objectContaining({ id: invoice.id, status: 'partial', paid: '100.0' })]);
    });

    it('adds users and unlinks accounts', async () => {
      const api = client();
      const user = await api.account.addUser({ email: `user-${format}@test.pl`, password: 'Password123', role: 'accountant' });
      expect(user).toMatchObject({ email: `user-${format}@test.pl`, login: `user-${format}@test.pl` });
      await expect(api.account.unlink(`nobody-${format}`)).rejects.toBeInstanceOf(ValidationError);
    });
  });
}
