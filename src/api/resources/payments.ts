import { successBody, type SuccessBody } from '../schemas/common.js';
import { payment, paymentList, type Payment, type PaymentCreateInput, type PaymentListQuery } from '../schemas/payment.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, paginate, toQuery, type Id } from './shared.js';

export interface PaymentsApi {
  list(query?: PaymentListQuery, options?: CallOptions): Promise<Payment[]>;
  iterate(query?: PaymentListQuery, options?: CallOptions): AsyncIterable<Payment>;
  get(id: Id, options?: CallOptions): Promise<Payment>;
  /** Records a payment; with `invoice_id` and `paid: true` the invoice's `paid` grows by `price`. */
  create(input: PaymentCreateInput, options?: CallOptions): Promise<Payment>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

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
    delete: async (id, options) =>
      transport.request({ method: 'DELETE', path: `banking/payments/${idSegment(id)}` }, successBody, options),
  };
}
