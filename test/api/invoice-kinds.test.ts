import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient, type Format, type InvoicingClient } from '../../src/api/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** The typed client's invoice kinds, corrections, cancel and status operations, in both formats. */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

for (const format of ['json', 'xml'] as Format[]) {
  describe(`invoice kinds through the typed client (${format})`, () => {
    let client: InvoicingClient;
    beforeAll(() => {
      client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, format });
    });

    it('advances 30% of an order, settles the rest on the final invoice, and issues a VAT invoice from a proforma', async () => {
      const order = await client.invoices.create({
        kind: 'proforma',
        buyer_name: `Typed Buyer ${format}`,
        positions: [{ name: 'Desk', tax: 23, price_net: '812.50', quantity: 2 }],
      });
      expect(order).toMatchObject({ price_net: '1625.0', price_gross: '1998.75', payment_to_kind: '7', issue_year: Number(order.issue_date.slice(0, 4)) });
      const advance = await client.invoices.advance(order.id, { mode: 'percent', value: 30, positionName: 'Advance' });
      // 30% of 1998.75 is 599.625, rounded half away from zero to 599.63; net 599.63 / 1.23 = 487.50.
      expect(advance).toMatchObject({ kind: 'advance', invoice_id: order.id, price_gross: '599.63', price_net: '487.5', price_tax: '112.13' });
      const final = await client.invoices.final(order.id, [advance.id]);
      expect(final).toMatchObject({ kind: 'final', price_gross: '1399.12', price_net: '1137.5', price_tax: '261.62' });
      const vat = await client.invoices.copy(order.id, { kind: 'vat' });
      expect(vat).toMatchObject({ kind: 'vat', from_invoice_id: order.id, price_gross: '1998.75' });
      const listed = await client.invoices.list({ period: 'all', kinds: ['advance', 'final'], invoice_ids: [advance.id, final.id, vat.id] });
      expect(listed.map((i) => i.id).sort((a, b) => a - b)).toEqual([advance.id, final.id]);
    });

    it('corrects an invoice, cancels another with a reason, and marks one paid on a given day', async () => {
      const invoice = await client.invoices.create({
        buyer_name: `Correct Me ${format}`,
        positions: [{ name: 'Product A1', tax: 23, total_price_gross: 20, quantity: 2 }],
      });
      const correction = await client.invoices.create({
        kind: 'correction',
        from_invoice_id: invoice.id,
        correction_reason: 'Zła ilość',
        positions: [
          {
            correction_before_attributes: { name: 'Product A1', quantity: 2, total_price_gross: 20, tax: 23 },
            correction_after_attributes: { name: 'Product A1', quantity: 1, total_price_gross: 10, tax: 23 },
          },
        ],
      });
      expect(correction).toMatchObject({ kind: 'correction', price_gross: '-10.0', price_net: '-8.13', price_tax: '-1.87', correction_reason: 'Zła ilość' });
      expect(correction.positions?.[0]?.correction_before_attributes).toMatchObject({ quantity: '2.0', total_price_gross: '20.0' });

      const cancelled = await client.invoices.cancel(invoice.id, 'Wrong buyer');
      expect(cancelled.cancelled).toBe(true);
      const read = await client.invoices.get(invoice.id, { additionalFields: ['cancel_reason', 'connected_payments'] });
      expect(read).toMatchObject({ cancelled: true, cancel_reason: 'Wrong buyer', connected_payments: [] });

      const other = await client.invoices.create({ buyer_name: `Pay Me ${format}`, positions: [{ name: 'X', tax: 8, total_price_gross: '54.00', quantity: 1 }] });
      const paid = await client.invoices.changeStatus(other.id, 'paid', { paidDate: '2026-02-14' });
      expect(paid).toMatchObject({ status: 'paid', paid: '54.0', paid_date: '2026-02-14' });
    });
  });
}
