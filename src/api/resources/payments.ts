import { successBody, type SuccessBody } from '../schemas/common.js';
import * as z from 'zod';
import { invoice } from '../schemas/invoice.js';
import {
  payment,
  paymentList,
  type Payment,
  type PaymentCreateInput,
  type PaymentListQuery,
  type PaymentUpdateInput,
} from '../schemas/payment.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, paginate, toQuery, type Id } from './shared.js';

export interface PaymentsApi {
  list(query?: PaymentListQuery, options?: CallOptions): Promise<Payment[]>;
  iterate(query?: PaymentListQuery, options?: CallOptions): AsyncIterable<Payment>;
  get(id: Id, options?: CallOptions): Promise<Payment>;
  /** Records a payment; with `invoice_id` and `paid: true` the invoice's `paid` grows by `price`. */
  create(input: PaymentCreateInput, options?: CallOptions): Promise<Payment>;
  /** Changes a payment; a paid payment's amount moves its invoice's `paid` and status. */
  update(id: Id, input: PaymentUpdateInput, options?: CallOptions): Promise<Payment>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
  /**
   * Sends the buyer's BLIK code for an unpaid payment, once (`POST /banking/payments/{id}/blik`), and
   * answers the payment with its `blik` state. A second code, a paid payment or one BLIK cannot pay
   * is a 409; a malformed code a 422 naming `code`.
   */
  sendBlikCode(id: Id, code: string, options?: CallOptions): Promise<Payment>;
  /** One page of payments, each with the invoices it paid (`include=invoices`). */
  listWithInvoices(query?: PaymentListQuery, options?: CallOptions): Promise<PaymentWithInvoices[]>;
}

const paymentWithInvoices = payment.extend({ invoices: z.array(invoice) });
export type PaymentWithInvoices = z.infer<typeof paymentWithInvoices>;

/** The payment operations of spec §4.5 (`banking_payment`). */
export function paymentsApi(transport: Transport): PaymentsApi {
  const list = async (query: PaymentListQuery = {}, options?: CallOptions) =>
    transport.request({ method: 'GET', path: 'banking/payments', query: toQuery(query) }, paymentList, options);

  return {
    list,
    iterate: (query = {}, options) => paginate(list, query, options),
    // §4.5: reading one payment uses the singular `payment` in JSON and the plural in XML.
    get: async (id, options) =>
      transport.request(
        { method: 'GET', path: `banking/${transport.format === 'json' ? 'payment' : 'payments'}/${idSegment(id)}` },
        payment,
        options,
      ),
    create: async (input, options) =>
      transport.request({ method: 'POST', path: 'banking/payments', body: { banking_payment: input } }, payment, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `banking/payments/${idSegment(id)}`, body: { banking_payment: input } }, payment, options),
    delete: async (id, options) =>
      transport.request({ method: 'DELETE', path: `banking/payments/${idSegment(id)}` }, successBody, options),
    sendBlikCode: async (id, code, options) =>
      transport.request({ method: 'POST', path: `banking/payments/${idSegment(id)}/blik`, format: 'json', body: { code } }, payment, options),
    listWithInvoices: async (query = {}, options) =>
      transport.request(
        { method: 'GET', path: 'banking/payments', query: { ...toQuery(query), include: 'invoices' } },
        z.array(paymentWithInvoices),
        options,
      ),
  };
}
