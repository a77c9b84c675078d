import { beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  NotFoundError,
  ValidationError,
  createInvoicingClient,
  money,
  type Format,
  type InvoiceCreateInput,
  type InvoicingClient,
} from '../../../src/api/index.js';
import { openApiDocument } from '../../../src/service/openapi.js';
import type { TestService } from '../../helpers/service.js';

/** The spec's example invoice (§2.1 with the reference's recorded amounts). */
export const SPEC_INVOICE: InvoiceCreateInput = {
  kind: 'vat',
  number: null,
  sell_date: '2026-01-03',
  issue_date: '2026-01-03',
  payment_to: '2026-01-10',
  seller_name: 'Seller SA',
  seller_tax_no: '5252445767',
  buyer_name: 'Client1 SA',
  buyer_tax_no: '5252445767',
  positions: [
    { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
    { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 2 },
  ],
};

// A tiny valid PNG (1×1, transparent).
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/**
 * Every method of the typed client against the real service, in one format. The JSON and XML test
 * files run the same suite, so both representations are held to the same exact values.
 */
export function defineClientSuite(format: Format, running: () => TestService): void {
  let service: TestService;
  let client: InvoicingClient;
  const sent: string[] = [];
  const everything: string[] = [];

  beforeAll(() => {
    service = running();
    client = createInvoicingClient({
      baseUrl: service.url,
      apiToken: service.apiToken,
      integrationToken: service.integrationToken,
      format,
      hooks: {
        beforeRequest: [
          (request) => {
            const line = `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`;
            sent.push(line);
            everything.push(line);
          },
        ],
      },
    });
  });

  describe(`invoices (${format})`, () => {
    it('creates the spec example with exact amounts and reads it back with positions', async () => {
      const created = await client.invoices.create(SPEC_INVOICE);
      expect(created.number).toMatch(/^\d+\/01\/2026$/);
      expect([created.price_net, created.price_tax, created.price_gross]).toEqual(['58.32', '1.91', '60.23']);
      expect(created.kind).toBe('vat');
      expect(created.status).toBe('issued');

      const read = await client.invoices.get(created.id);
      expect(read.id).toBe(created.id);
      expect(read.buyer_name).toBe('Client1 SA');
      expect(read.positions!.map((p) => [p.name, p.tax, p.total_price_gross])).toEqual([
        ['Produkt A1', '23', '10.23'],
        ['Produkt A2', '0', '50.0'],
      ]);
      // Amounts stay decimal strings end to end: the positions add up exactly with the money helpers.
      const gross = money.sum(read.positions!.map((p) => money.decimal(p.total_price_gross)));
      expect(money.toFixed(gross, 2)).toBe(read.price_gross);
      expect(typeof read.show_discount).toBe('boolean');
      expect(read.client_id).toEqual(expect.any(Number));
    });

    it('lists, updates, changes status, finds by oid and deletes', async () => {
      const oid = `order-${format}-${Date.now()}`;
      const created = await client.invoices.create({ ...SPEC_INVOICE, oid, buyer_name: 'Oid Buyer' });
      const page = await client.invoices.list({ period: 'all', per_page: 100 });
      expect(page.map((i) => i.id)).toContain(created.id);
      expect(page.find((i) => i.id === created.id)!.positions).toBeUndefined();

      const updated = await client.invoices.update(created.id, { buyer_name: 'Renamed Buyer', positions: [{ name: 'Extra', tax: 23, total_price_gross: '12.30', quantity: 1 }] });
      expect(updated.buyer_name).toBe('Renamed Buyer');
      expect(updated.positions!.map((p) => p.name)).toEqual(['Produkt A1', 'Produkt A2', 'Extra']);
      expect(updated.price_gross).toBe('72.53');

      const paid = await client.invoices.changeStatus(created.id, 'paid');
      expect(paid.status).toBe('paid');

      await expect(client.invoices.findByOid(oid)).resolves.toMatchObject({ id: created.id, oid });
      await expect(client.invoices.findByOid(`${oid}-missing`)).resolves.toBeUndefined();

      await expect(client.invoices.delete(created.id)).resolves.toMatchObject({ code: 'success' });
      const error = await client.invoices.get(created.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).status).toBe(404);
    });

    it('finds the documents generated from and based on an invoice', async () => {
      const advance = await client.invoices.create({ ...SPEC_INVOICE, kind: 'advance' });
      const final = await client.invoices.create({ ...SPEC_INVOICE, kind: 'final', invoice_id: advance.id });
      const correction = await client.invoices.create({ ...SPEC_INVOICE, kind: 'correction', from_invoice_id: advance.id });
      expect((await client.invoices.findGeneratedFrom(advance.id)).map((i) => i.id)).toEqual([final.id]);
      expect((await client.invoices.findBasedOn(advance.id)).map((i) => i.id)).toEqual([correction.id]);
    });

    it('iterates over three pages and stops at the short one', async () => {
      const buyer = await client.clients.create({ name: `Paging Buyer ${format}` });
      const ids: number[] = [];
      for (let n = 0; n < 5; n += 1) ids.push((await client.invoices.create({ ...SPEC_INVOICE, client_id: buyer.id })).id);
      sent.length = 0;
      const seen: number[] = [];
      for await (const invoice of client.invoices.iterate({ client_id: buyer.id, per_page: 2, order: 'number' })) seen.push(invoice.id);
      expect(seen.sort((a, b) => a - b)).toEqual(ids);
      const pages = sent.map((line) => new URL(line.split(' ')[1]!, service.url).searchParams.get('page'));
      expect(pages).toEqual(['1', '2', '3']);
    });

    it('downloads the PDF and sends the invoice by e-mail', async () => {
      const created = await client.invoices.create({ ...SPEC_INVOICE, buyer_email: 'buyer@example.com' });
      const pdf = await client.invoices.pdf(created.id, { printOption: 'copy' });
      expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
      const result = await client.invoices.sendByEmail(created.id, { email_cc: 'office@example.com', email_pdf: true });
      expect(result.status).toBe('ok');
      expect((await client.invoices.get(created.id)).status).toBe('sent');
    });
  });

  describe(`products, categories and warehouses (${format})`, () => {
    it('creates, reads, lists, updates and deletes a product', async () => {
      const category = await client.categories.create({ name: `Tools ${format}`, description: 'Hand tools' });
      const product = await client.products.create({ name: 'Hammer', code: `H-${format}`, price_net: '100', tax: '23', category_id: category.id });
      expect([product.price_net, product.price_gross, product.tax]).toEqual(['100.0', '123.0', '23']);
      expect(product.token).toMatch(/^[A-Za-z0-9_-]{4,64}$/);
      await expect(client.products.get(product.id)).resolves.toMatchObject({ id: product.id, name: 'Hammer', category_id: category.id });
      expect((await client.products.list({ per_page: 100 })).map((p) => p.id)).toContain(product.id);
      const all: number[] = [];
      for await (const p of client.products.iterate({ per_page: 1 })) all.push(p.id);
      expect(all).toContain(product.id);

      const updated = await client.products.update(product.id, { price_gross: '246' });
      expect([updated.price_net, updated.price_gross]).toEqual(['200.0', '246.0']);
      expect(client.products.widgetUrl(product.token, service.prefix)).toBe(`${service.url}/a/${service.prefix}/p/${product.token}.js`);

      await expect(client.products.delete(product.id)).resolves.toMatchObject({ code: 'success' });
      await expect(client.products.get(product.id)).rejects.toBeInstanceOf(NotFoundError);

      await expect(client.categories.get(category.id)).resolves.toMatchObject({ name: `Tools ${format}`, description: 'Hand tools' });
      expect((await client.categories.list()).map((c) => c.id)).toContain(category.id);
      await expect(client.categories.delete(category.id)).resolves.toMatchObject({ code: 'success' });
      await expect(client.categories.get(category.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('moves stock with warehouse documents and reports it per warehouse', async () => {
      const warehouse = await client.warehouses.create({ name: `Main ${format}`, kind: null, description: 'Ground floor' });
      await expect(client.warehouses.get(warehouse.id)).resolves.toMatchObject({ name: `Main ${format}`, description: 'Ground floor' });
      expect((await client.warehouses.list()).map((w) => w.id)).toContain(warehouse.id);
      const product = await client.products.create({ name: 'Nails', price_net: '0.10', tax: '23' });

      const received = await client.warehouseDocuments.create({
        kind: 'pz',
        number: null,
        warehouse_id: warehouse.id,
        issue_date: '2026-01-05',
        warehouse_actions: [{ product_id: product.id, purchase_tax: 23, price_net: '0.10', quantity: 500 }],
      });
      expect(received.kind).toBe('pz');
      expect(received.warehouse_actions.map((a) => [a.product_id, a.quantity])).toEqual([[product.id, '500.0']]);
      await expect(client.products.get(product.id, { warehouseId: warehouse.id })).resolves.toMatchObject({ stock_level: '500.0' });

      const issued = await client.warehouseDocuments.create({
        kind: 'wz',
        warehouse_id: warehouse.id,
        warehouse_actions: [{ product_id: product.id, tax: 23, price_net: '0.20', quantity: 120 }],
      });
      await expect(client.products.get(product.id, { warehouseId: warehouse.id })).resolves.toMatchObject({ stock_level: '380.0' });
      await expect(client.warehouseDocuments.get(issued.id)).resolves.toMatchObject({ id: issued.id, kind: 'wz' });
      const listed: number[] = [];
      for await (const d of client.warehouseDocuments.iterate({ warehouse_id: warehouse.id, per_page: 1 })) listed.push(d.id);
      expect(listed.sort((a, b) => a - b)).toEqual([received.id, issued.id]);
      expect((await client.warehouseDocuments.list({ kind: 'wz' })).map((d) => d.id)).toContain(issued.id);

      const changed = await client.warehouseDocuments.update(issued.id, { warehouse_actions: [{ id: issued.warehouse_actions[0]!.id, quantity: 20 }] });
      expect(changed.warehouse_actions[0]!.quantity).toBe('20.0');
      await expect(client.products.get(product.id, { warehouseId: warehouse.id })).resolves.toMatchObject({ stock_level: '480.0' });
      await expect(client.warehouseDocuments.delete(issued.id)).resolves.toMatchObject({ code: 'success' });
      await expect(client.products.get(product.id, { warehouseId: warehouse.id })).resolves.toMatchObject({ stock_level: '500.0' });
      await expect(client.warehouses.delete(warehouse.id)).rejects.toBeInstanceOf(ValidationError);
    });
  });

  describe(`clients and payments (${format})`, () => {
    it('creates, finds by external id, updates and deletes a client', async () => {
      const externalId = `crm-${format}-42`;
      const created = await client.clients.create({ name: 'Zażółć Gęślą Jaźń Sp. z o.o.', tax_no: '5252445767', email: 'jazn@example.com', external_id: externalId, country: '' });
      expect(created.name).toBe('Zażółć Gęślą Jaźń Sp. z o.o.');
      await expect(client.clients.findByExternalId(externalId)).resolves.toMatchObject({ id: created.id });
      await expect(client.clients.findByExternalId('nobody')).resolves.toBeUndefined();
      await expect(client.clients.get(created.id)).resolves.toMatchObject({ email: 'jazn@example.com' });
      const updated = await client.clients.update(created.id, { country: 'PL', city: 'Kraków' });
      expect([updated.country, updated.city, updated.name]).toEqual(['PL', 'Kraków', 'Zażółć Gęślą Jaźń Sp. z o.o.']);
      const all: number[] = [];
      for await (const c of client.clients.iterate()) all.push(c.id);
      expect(all).toContain(created.id);
      await expect(client.clients.delete(created.id)).resolves.toMatchObject({ code: 'success' });
      await expect(client.clients.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('records payments against an invoice and reads them from the format-specific path', async () => {
      const invoice = await client.invoices.create(SPEC_INVOICE);
      const first = await client.payments.create({ name: 'Payment 001', price: '20.23', invoice_id: invoice.id, paid: true, kind: 'api' });
      expect([first.price, first.paid, first.invoice_id]).toEqual(['20.23', true, invoice.id]);
      expect((await client.invoices.get(invoice.id)).status).toBe('partial');
      await client.payments.create({ name: 'Payment 002', price: 40, invoice_id: invoice.id, paid: true, kind: 'api' });
      const settled = await client.invoices.get(invoice.id);
      expect([settled.paid, settled.status]).toEqual(['60.23', 'paid']);

      await expect(client.payments.get(first.id)).resolves.toMatchObject({ id: first.id, name: 'Payment 001', price: '20.23' });
      const listed: number[] = [];
      for await (const p of client.payments.iterate({ invoice_id: invoice.id, per_page: 1 })) listed.push(p.id);
      expect(listed).toHaveLength(2);
      expect((await client.payments.list()).map((p) => p.id)).toContain(first.id);
      const path = format === 'json' ? `/banking/payment/${first.id}.json` : `/banking/payments/${first.id}.xml`;
      expect(sent.some((line) => line.startsWith(`GET ${path}?`))).toBe(true);
      await expect(client.payments.delete(first.id)).resolves.toMatchObject({ code: 'success' });
      await expect(client.payments.get(first.id)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe(`departments and integrations (${format})`, () => {
    it('lists departments and sets the default one\'s logo', async () => {
      const departments = await client.departments.list();
      const main = departments.find((d) => d.main)!;
      expect(main.name).toBe('Demo Studio Sp. z o.o.');
      const withLogo = await client.departments.setLogo(main.id, new Blob([PNG], { type: 'image/png' }), 'logo.png');
      expect(withLogo.id).toBe(main.id);
      expect(withLogo.logo_url).toMatch(new RegExp(`^${service.url}/`));
      expect(withLogo.logo_url).not.toBe(main.logo_url);
    });

    it('creates an account, logs in, adds a user and reads the account', async () => {
      const prefix = `acme-${format}`;
      const account = await client.integrations.createAccount({
        account: { prefix },
        user: { login: `owner-${format}`, email: `owner-${format}@example.com`, password: 'correct horse battery' },
        company: { name: 'Acme Sp. z o.o.', tax_no: '5252445767', city: 'Gdańsk' },
      });
      expect(account.prefix).toBe(prefix);
      const login = await client.integrations.login({ login: `owner-${format}`, password: 'correct horse battery' });
      expect([login.prefix, login.api_token]).toEqual([prefix, account.api_token]);

      const acme = createInvoicingClient({ baseUrl: service.url, apiToken: account.api_token, integrationToken: service.integrationToken, format });
      await expect(acme.integrations.getAccount()).resolves.toMatchObject({ prefix });
      await expect(acme.invoices.list({ period: 'all' })).resolves.toEqual([]);
      const user = await acme.integrations.addUser({ email: `clerk-${format}@example.com`, password: 'another long one' });
      expect(user.email).toBe(`clerk-${format}@example.com`);
      await expect(client.integrations.getAccount()).resolves.toMatchObject({ prefix: service.prefix });
    });
  });

  describe(`errors from the service (${format})`, () => {
    it('raises AuthError for a wrong token', async () => {
      const stranger = createInvoicingClient({ baseUrl: service.url, apiToken: 'not-a-token', format });
      const error = (await stranger.invoices.list().catch((e: unknown) => e)) as AuthError;
      expect(error).toBeInstanceOf(AuthError);
      expect(error.status).toBe(401);
      expect(error.body).toEqual({ code: 'error', message: 'You must be logged in to gain access to the site' });
      await expect(stranger.invoices.create(SPEC_INVOICE)).rejects.toBeInstanceOf(AuthError);
      const wrongIntegration = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, integrationToken: 'wrong', format });
      await expect(wrongIntegration.integrations.getAccount()).rejects.toBeInstanceOf(AuthError);
    });

    it('raises NotFoundError for an unknown id', async () => {
      const error = (await client.clients.get(987654).catch((e: unknown) => e)) as NotFoundError;
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.body).toEqual({ code: 'error', message: 'Not found' });
    });

    it('raises ValidationError with the field map for refused data', async () => {
      const error = (await client.invoices
        .create({ ...SPEC_INVOICE, kind: 'bogus' as InvoiceCreateInput['kind'], issue_date: '2026-02-30' })
        .catch((e: unknown) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.status).toBe(422);
      expect(Object.keys(error.fields).sort()).toEqual(['issue_date', 'kind']);
      expect(error.fields['issue_date']).toEqual(['is not a valid date']);
      expect(error.rawText).toContain('issue_date');
    });
  });

  describe(`OpenAPI (${format})`, () => {
    it('the service serves the generated document, and it describes every request the client sent', async () => {
      const response = await fetch(`${service.url}/openapi.json`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
      expect(document).toEqual(openApiDocument(service.url));
      const templates = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => ({ method: method.toUpperCase(), pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[a-z]+\}/g, '[^/]+')}$`) })),
      );
      const undocumented = [...new Set(everything.map((line) => line.split('?')[0]!))].filter((line) => {
        const [method, path] = line.split(' ') as [string, string];
        return !templates.some((t) => t.method === method && t.pattern.test(path));
      });
      expect(everything.length).toBeGreaterThan(40);
      expect(undocumented).toEqual([]);
    });
  });
}
