import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { przelewy24Provider } from '../../src/service/payments/przelewy24.js';
import type { PaymentProvider } from '../../src/service/payments/provider.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Przelewy24StandIn, sha384 } from './support/przelewy24-standin.js';
import { apiPayment, type PaymentJson } from './support/blik-providers.js';

/**
 * BLIK level 0 through Przelewy24, against a stand-in of its REST API v1: the provider registers the
 * transaction with BLIK's method and the payer's connection, charges it by code, and the payment
 * settles only by the signed notification that Przelewy24 verified; a refusal in the bank app comes
 * by the signed BLIK notification. Payments are made through the API; their token is what the
 * provider is given. One service and one stand-in for the file.
 */
const MERCHANT = { merchantId: 246810, posId: 246810, crc: 'c0ffee0123456789', apiKey: '0a1b2c3d4e5f60718293a4b5c6d7e8f9' };
const KEYS = { merchant_id: MERCHANT.merchantId, pos_id: MERCHANT.posId, crc: MERCHANT.crc, api_key: MERCHANT.apiKey, sandbox: true };
const BASIC = `Basic ${Buffer.from(`${MERCHANT.posId}:${MERCHANT.apiKey}`).toString('base64')}`;
const BUYER = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (Android 14; Mobile) Firefox/133.0' };

let p24: Przelewy24StandIn;
let service: TestService;
let shop: Api;
let provider: PaymentProvider;

const notifyUrl = () => `${service.url}/payments/przelewy24/${service.prefix}/notify`;

beforeAll(async () => {
  p24 = new Przelewy24StandIn(MERCHANT);
  await p24.server.start();
  process.env.INVOICEKIT_P24_API_URL = p24.url;
  service = await startTestService();
  shop = api(service);
  const settings = await shop.put('/account/payments.json', {
    payments: { provider: 'przelewy24', przelewy24: { merchant_id: MERCHANT.merchantId, pos_id: String(MERCHANT.posId), crc: MERCHANT.crc, api_key: MERCHANT.apiKey, sandbox: true } },
  });
  expect(settings.status).toBe(200);
  provider = przelewy24Provider(KEYS, { notifyUrl: notifyUrl() });
});
afterAll(async () => {
  await service.stop();
  await p24.server.stop();
  delete process.env.INVOICEKIT_P24_API_URL;
});

/** A payment made through the API, as the provider is told about it. */
const newPayment = (email: string, currency = 'PLN') => apiPayment(shop, { email, currency, buyerClient: BUYER });

const paymentJson = async (id: number) => (await shop.get(`/banking/payments/${id}.json`)).body as PaymentJson;
const requestsWith = (text: string) => p24.server.requests.filter((request) => request.body.includes(text) || request.path.includes(text));

describe('BLIK with Przelewy24: charging by code', () => {
  it('registers with BLIK level 0, charges the code once, and settles on the verified notification', async () => {
    const { json, payment } = await newPayment('blik@example.com');
    const charge = await provider.blik!.chargeByCode(payment, '580417');
    const transaction = p24.bySession(payment.token)!;
    expect(charge).toEqual({ reference: String(transaction.orderId) });

    const registration = p24.registrations.at(-1)!;
    expect(registration.headers.authorization).toBe(BASIC);
    expect(JSON.parse(registration.body)).toEqual({
      merchantId: 246810,
      posId: 246810,
      sessionId: payment.token,
      amount: 184500,
      currency: 'PLN',
      description: 'Logo design',
      email: 'blik@example.com',
      country: 'PL',
      language: 'pl',
      urlReturn: `${json.payment_url}/return`,
      urlStatus: notifyUrl(),
      encoding: 'UTF-8',
      method: 181,
      urlCardPaymentNotification: notifyUrl(),
      additional: { PSU: { IP: '203.0.113.7', userAgent: 'Mozilla/5.0 (Android 14; Mobile) Firefox/133.0' } },
      sign: sha384({ sessionId: payment.token, merchantId: 246810, amount: 184500, currency: 'PLN', crc: MERCHANT.crc }),
    });
    const sent = p24.blikCharges.at(-1)!;
    expect(sent.headers.authorization).toBe(BASIC);
    expect(JSON.parse(sent.body)).toEqual({ token: transaction.token, blikCode: '580417' });
    // The code went to Przelewy24 once, in the charge, and in nothing else.
    expect(requestsWith('580417')).toEqual([sent]);
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, invoice_id: null });

    const verificationsBefore = p24.verifications.length;
    const delivery = await p24.approve(transaction.token);
    expect(delivery.status).toBe(200);
    expect(delivery.body).toMatchObject({ sessionId: payment.token, methodId: 181, amount: 184500, orderId: transaction.orderId });
    expect(p24.verifications.length).toBe(verificationsBefore + 1);
    const paid = await paymentJson(json.id);
    expect(paid).toMatchObject({ paid: true, provider: 'przelewy24', provider_status: 'paid', provider_title: String(transaction.orderId) });
    expect(paid.invoice_id).not.toBeNull();
    expect(JSON.stringify(paid)).not.toContain('580417');
    // Delivered again, it settles nothing more.
    expect((await p24.approve(transaction.token)).status).toBe(200);
    expect(await paymentJson(json.id)).toEqual(paid);
  });

  it('answers a wrong and an expired code as Przelewy24 refuses them, at once', async () => {
    const wrong = await newPayment('wrong@example.com');
    const wrongCharge = await provider.blik!.chargeByCode(wrong.payment, '111111');
    const wrongTransaction = p24.bySession(wrong.payment.token)!;
    expect(wrongCharge).toEqual({ failed: 'wrong_code', reference: wrongTransaction.token });
    expect(wrongTransaction).toMatchObject({ status: 0, orderId: null });

    const expired = await newPayment('expired@example.com');
    const expiredCharge = await provider.blik!.chargeByCode(expired.payment, '222222');
    expect(expiredCharge).toEqual({ failed: 'expired_code', reference: p24.bySession(expired.payment.token)!.token });
    expect(await paymentJson(wrong.json.id)).toMatchObject({ paid: false, provider_status: null });
    expect(await paymentJson(expired.json.id)).toMatchObject({ paid: false, provider_status: null });
  });

  it('ends the payment declined on the signed BLIK notification of a refusal in the bank app', async () => {
    const { json, payment } = await newPayment('declined@example.com');
    const charge = await provider.blik!.chargeByCode(payment, '333333');
    const transaction = p24.bySession(payment.token)!;
    expect(charge).toEqual({ reference: String(transaction.orderId) });
    expect(transaction.blik).toEqual({ answer: 'decline' });

    // Signed with another CRC key, or altered after signing: refused, nothing changes.
    const forged = p24.blikNotification(transaction, { error: 'err63' }, 'ffffffffffffffff');
    const altered = p24.blikNotification(transaction, { error: 'err63' }) as { data: Record<string, unknown> };
    for (const body of [forged, { data: { ...altered.data, sessionId: 'another-session' } }, { data: { ...altered.data, sign: undefined } }]) {
      const response = await fetch(notifyUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('error');
    }
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider_status: null });

    const delivery = await p24.decline(transaction.token);
    expect(delivery.status).toBe(200);
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider: 'przelewy24', provider_status: 'declined', provider_title: String(transaction.orderId), invoice_id: null });
    // A BLIK notification that reports no error changes nothing.
    expect((await fetch(notifyUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(p24.blikNotification(transaction, { error: 0, message: 'OK' })) })).status).toBe(200);
    expect(await paymentJson(json.id)).toMatchObject({ provider_status: 'declined' });
  });

  it('waits on a code the bank app never answers, and still settles once when the approval comes late', async () => {
    const { json, payment } = await newPayment('late@example.com');
    const charge = await provider.blik!.chargeByCode(payment, '444444');
    const transaction = p24.bySession(payment.token)!;
    expect(charge).toEqual({ reference: String(transaction.orderId) });
    expect(transaction).toMatchObject({ status: 0, blik: { answer: 'none' } });
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider_status: null });

    const late = await p24.approve(transaction.token);
    expect(late.status).toBe(200);
    const paid = await paymentJson(json.id);
    expect(paid).toMatchObject({ paid: true, provider_status: 'paid' });
    const mails = await service.db.query<{ count: number }>('select count(*)::int as count from outbox_messages where invoice_id = $1', [paid.invoice_id]);
    expect(mails[0]!.count).toBe(1);
  });

  it('delivers the bank app’s answer by itself after the approval time', async () => {
    p24.approvalMs = 20;
    try {
      const { json, payment } = await newPayment('auto@example.com');
      const delivered = p24.nextDelivery();
      expect(await provider.blik!.chargeByCode(payment, '777123')).toEqual({ reference: String(p24.bySession(payment.token)!.orderId) });
      expect((await delivered).status).toBe(200);
      expect(await paymentJson(json.id)).toMatchObject({ paid: true });
    } finally {
      p24.approvalMs = null;
    }
  });

  it('sends nothing for another currency, and fails without throwing while Przelewy24 is down', async () => {
    const euro = await newPayment('euro@example.com', 'EUR');
    const before = p24.server.requests.length;
    expect(await provider.blik!.chargeByCode(euro.payment, '777123')).toEqual({ failed: 'provider_error' });
    expect(p24.server.requests.length).toBe(before);

    const down = await newPayment('down@example.com');
    await p24.server.stop();
    try {
      expect(await provider.blik!.chargeByCode(down.payment, '777123')).toEqual({ failed: 'provider_error' });
    } finally {
      await p24.server.start();
    }
    expect(p24.bySession(down.payment.token)).toBeUndefined();
  });

  it('is offered by every Przelewy24 provider', () => {
    expect(provider.blik).toBeDefined();
    expect(provider.id).toBe('przelewy24');
  });
});
