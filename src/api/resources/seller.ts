import {
  apiTokenRotation,
  type ApiTokenRotation,
  attentionOverview,
  type AttentionOverview,
  connectionTest,
  type ConnectionTest,
  invoiceEmailList,
  type InvoiceEmailList,
} from '../schemas/seller.js';
import { invoice, type Invoice } from '../schemas/invoice.js';
import type { CallOptions, Transport } from '../transport.js';
import type { Id } from './shared.js';

/** The seller's operations behind the back office (an extension of this service). */
export interface SellerApi {
  /** A new api_token for the account, answered once; the transport's token is then no longer valid. */
  rotateApiToken(options?: CallOptions): Promise<ApiTokenRotation>;
  /** What needs the seller now: invoices refused by KSeF or waiting, overdue ones, payments, failing deliveries. */
  attention(options?: CallOptions): Promise<AttentionOverview>;
  /** Asks the account's payment provider whether its stored keys work. */
  testPaymentConnection(options?: CallOptions): Promise<ConnectionTest>;
  /** Authenticates with the account's KSeF environment and token. */
  testKsefConnection(options?: CallOptions): Promise<ConnectionTest>;
  /** Sends one invoice to KSeF (again, after a fix) and answers it; the same as a read with `send_to_ksef=yes`. */
  sendToKsef(id: Id, options?: CallOptions): Promise<Invoice>;
  /** Every e-mail sent or tried for the invoice, the newest first, with the mail server's words when one failed. */
  invoiceEmails(id: Id, options?: CallOptions): Promise<InvoiceEmailList>;
}

export function sellerApi(transport: Transport): SellerApi {
  return {
    rotateApiToken: async (options) =>
      transport.request({ method: 'POST', path: 'account/api_token/rotate', format: 'json' }, apiTokenRotation, options),
    attention: async (options) => transport.request({ method: 'GET', path: 'account/attention', format: 'json' }, attentionOverview, options),
    testPaymentConnection: async (options) =>
      transport.request({ method: 'POST', path: 'account/connection_tests/payments', format: 'json' }, connectionTest, options),
    testKsefConnection: async (options) =>
      transport.request({ method: 'POST', path: 'account/connection_tests/ksef', format: 'json' }, connectionTest, options),
    sendToKsef: async (id, options) =>
      transport.request({ method: 'POST', path: `invoices/${encodeURIComponent(String(id))}/send_to_ksef`, format: 'json' }, invoice, options),
    invoiceEmails: async (id, options) =>
      transport.request({ method: 'GET', path: `invoices/${encodeURIComponent(String(id))}/emails`, format: 'json' }, invoiceEmailList, options),
  };
}
