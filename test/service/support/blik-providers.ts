import type { ProviderPayment } from '../../../src/service/payments/provider.js';
import type { Api } from '../../helpers/http.js';
import type { Przelewy24StandIn } from './przelewy24-standin.js';
import type { StripeStandIn } from './stripe-standin.js';

/** A provider's stand-in as the BLIK journeys drive it: the account's settings, and the buyer's bank app. */
export interface BlikProviderCase {
  name: string;
  settings: Record<string, unknown>;
  /** The buyer confirms in the bank app: the stand-in notifies the service, which answers. */
  approve(paymentToken: string): Promise<{ status: number }>;
  /** The buyer declines in the bank app. */
  decline(paymentToken: string): Promise<{ status: number }>;
  /** Requests the provider's stand-in received that carry `text`. */
  requestsWith(text: string): number;
}

export interface BlikProviderKeys {
  merchant: { merchantId: number; posId: number; crc: string; apiKey: string };
  stripeKey: string;
  webhookSecret: string;
}

/** Przelewy24's and Stripe's cases, over the stand-ins `standIns` gives once they run. */
export function blikProviderCases(standIns: () => { p24: Przelewy24StandIn; stripe: StripeStandIn }, keys: BlikProviderKeys): { przelewy24: BlikProviderCase; stripe: BlikProviderCase } {
  const carrying = (requests: { body: string; path: string }[], text: string) => requests.filter((request) => request.body.includes(text) || request.path.includes(text)).length;
  const intentOf = (paymentToken: string): string => {
    const intent = [...standIns().stripe.intents.values()].find((i) => i.metadata.payment_token === paymentToken);
    if (!intent) throw new Error(`no payment intent for ${paymentToken}`);
    return intent.id;
  };
  const transactionOf = (paymentToken: string) => standIns().p24.bySession(paymentToken)!.token;
  const { merchant } = keys;
  return {
    przelewy24: {
      name: 'Przelewy24',
      settings: { provider: 'przelewy24', przelewy24: { merchant_id: merchant.merchantId, pos_id: String(merchant.posId), crc: merchant.crc, api_key: merchant.apiKey, sandbox: true } },
      approve: (token) => standIns().p24.approve(transactionOf(token)),
      decline: (token) => standIns().p24.decline(transactionOf(token)),
      requestsWith: (text) => carrying(standIns().p24.server.requests, text),
    },
    stripe: {
      name: 'Stripe',
      settings: { provider: 'stripe', stripe: { secret_key: keys.stripeKey, webhook_secret: keys.webhookSecret } },
      approve: (token) => standIns().stripe.approve(intentOf(token)),
      decline: (token) => standIns().stripe.decline(intentOf(token)),
      requestsWith: (text) => carrying(standIns().stripe.server.requests, text),
    },
  };
}

/** A payment as the API answers it, in what the providers' BLIK tests read. */
export interface PaymentJson {
  id: number;
  paid: boolean;
  invoice_id: number | null;
  provider: string | null;
  provider_status: string | null;
  provider_title: string | null;
  payment_url: string;
}

/** A payment made through the API (`shop`), and the same payment as a provider is told about it. */
export async function apiPayment(
  shop: Api,
  sale: { email: string; currency?: string; price?: string; buyerClient?: ProviderPayment['buyerClient'] },
): Promise<{ json: PaymentJson; payment: ProviderPayment }> {
  const { email, currency = 'PLN', price = '1845.00' } = sale;
  const created = await shop.post('/banking/payments.json', { banking_payment: { name: 'Logo design', price, currency, email, generate_invoice: true } });
  if (created.status !== 201) throw new Error(`the payment was not created: ${created.status} ${created.text}`);
  const json = created.body as PaymentJson;
  const token = json.payment_url.split('/').at(-1)!;
  const payment: ProviderPayment = { token, amount: price, currency, description: 'Logo design', buyerEmail: email, returnUrl: `${json.payment_url}/return`, checkoutUrl: json.payment_url, locale: 'pl' };
  return { json, payment: sale.buyerClient ? { ...payment, buyerClient: sale.buyerClient } : payment };
}
