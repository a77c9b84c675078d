import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegistryDoubles, startRegistryDoubles } from '../../src/service/registries/doubles/index.js';
import { json, SHOP_ORIGIN, startService, startTestBff, type Api, type Service, type TestBff } from './support.js';

/**
 * The BFF's checkout asks VIES before a sale to an EU business goes without Polish VAT, over real
 * HTTP against the VIES stand-in. What the BFF sends the service is read at the wire.
 */
const NOW = new Date('2026-11-28T12:00:00.000Z');
let doubles: RegistryDoubles;
let service: Service;
let api: Api;
let bff: TestBff;
const sentPayments: Record<string, unknown>[] = [];

beforeAll(async () => {
  doubles = await startRegistryDoubles({ clock: () => NOW });
  ({ service, api } = await startService());
  await api.products.create({ name: 'Website audit', price_net: '100.00', tax: '23', currency: 'PLN', token: 'vies-audit', service: true });
  await api.products.create({ name: 'Desk lamp', price_net: '200.00', tax: '23', currency: 'PLN', token: 'vies-lamp', service: false });
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname.startsWith('/banking/payments')) {
      const body = (await request.clone().json()) as { banking_payment: Record<string, unknown> };
      sentPayments.push(body.banking_payment);
    }
    return fetch(request);
  };
  bff = await startTestBff(service, {
    serviceFetch: recordingFetch,
    registries: { viesApiUrl: doubles.viesApiUrl, nbpApiUrl: doubles.nbpApiUrl, mfWhitelistUrl: doubles.mfWhitelistUrl, clock: () => NOW },
  });
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
  await doubles?.close();
});

let serial = 0;
function checkout(product: string, buyer: Record<string, unknown>) {
  serial += 1;
  const email = `vies-${serial}@example.com`;
  const response = fetch(`${bff.base}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
    body: JSON.stringify({ product, quantity: 2, buyer: { email, ...buyer }, returnUrl: `${SHOP_ORIGIN}/thanks` }),
  });
  return { email, response };
}

const FRENCH_COMPANY = { company: true, name: 'ATELIER LUMIERE SARL', tax_no: 'FR19812345676', street: '12 rue de la Paix', post_code: '75002', city: 'Paris', country: 'FR' };
const ITALIAN_COMPANY = { company: true, name: 'STUDIO VERDE S.R.L.', tax_no: 'IT12345670157', street: 'Via Roma 10', post_code: '20121', city: 'Milano', country: 'IT' };
/** Check digits right, but not registered for intra-EU trade. */
const UNREGISTERED_GERMAN = { company: true, name: 'Schein GmbH', tax_no: 'DE129273398', street: 'Hauptstraße 1', post_code: '10115', city: 'Berlin', country: 'DE' };

describe('POST /bff/checkout asks VIES before a sale without Polish VAT', () => {
  it('sells a service to a registered French company at np, keeping the consultation on the payment', async () => {
    const { email, response } = checkout('vies-audit', FRENCH_COMPANY);
    const answer = await response;
    expect(answer.status).toBe(201);
    const body = await json(answer);
    const identifier = doubles.vies.consultations.at(-1)!.requestIdentifier;
    expect(doubles.vies.consultations.at(-1)).toEqual({ countryCode: 'FR', vatNumber: '19812345676', requester: 'PL5252248481', requestIdentifier: identifier });
    expect(identifier).toMatch(/^WAPIAAAA[0-9A-Z]{8}$/);
    expect(body).toMatchObject({
      amount: '200',
      tax: 'np',
      vat_treatment: 'reverse_charge',
      vies: { status: 'valid', request_identifier: identifier, request_date: '2026-11-28T12:00:00.000Z', reason: null },
    });
    expect(body.fallback).toBeUndefined();
    expect(sentPayments.find((payment) => payment['email'] === email)).toMatchObject({
      price: '200',
      vies_status: 'valid',
      vies_request_identifier: identifier,
      vies_request_date: '2026-11-28T12:00:00.000Z',
    });
  });

  it('refuses a number VIES calls invalid with a 422 naming buyer.tax_no, and creates nothing', async () => {
    const { email, response } = checkout('vies-lamp', UNREGISTERED_GERMAN);
    const answer = await response;
    expect(answer.status).toBe(422);
    expect(await json(answer)).toEqual({
      error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { 'buyer.tax_no': ['is not a VAT number registered in VIES'] } },
    });
    expect(sentPayments.filter((payment) => payment['email'] === email)).toEqual([]);
    // The product's quote now says so too: Polish VAT for that number.
    const product = await json(await fetch(`${bff.base}/products/vies-lamp?country=DE&tax_no=DE129273398&company=1&quantity=2`, { headers: { origin: SHOP_ORIGIN } }));
    expect(product.quote).toEqual({ vat_treatment: 'standard', quantity: 2, amount: '492', unit_price: '246', tax: '23' });
  });

  it('sells at Polish VAT when VIES cannot answer, and says why', async () => {
    doubles.vies.makeUnavailable('IT');
    const { email, response } = checkout('vies-lamp', ITALIAN_COMPANY);
    const answer = await response;
    doubles.vies.restore('IT');
    expect(answer.status).toBe(201);
    expect(await json(answer)).toMatchObject({
      amount: '492',
      tax: '23',
      vat_treatment: 'standard',
      fallback: 'vies_unavailable',
      vies: { status: 'unavailable', request_identifier: null, request_date: null, reason: 'MS_UNAVAILABLE' },
    });
    expect(sentPayments.find((payment) => payment['email'] === email)).toMatchObject({ price: '492', vies_status: 'unavailable', vies_request_identifier: null, vies_request_date: null });
  });

  it('sells goods to a registered company as an intra-EU supply at 0%', async () => {
    const { response } = checkout('vies-lamp', ITALIAN_COMPANY);
    const body = await json(await response);
    expect(body).toMatchObject({ amount: '400', tax: '0', vat_treatment: 'intra_eu_supply', vies: { status: 'valid', reason: null } });
  });

  it('does not ask VIES where its answer decides nothing: a Polish company, a consumer abroad', async () => {
    const asked = doubles.vies.consultations.length;
    const polish = checkout('vies-audit', { company: true, name: 'Prosta Sp. z o.o.', tax_no: '5252445767', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL' });
    const consumer = checkout('vies-audit', { first_name: 'Jean', last_name: 'Dupont', country: 'FR' });
    for (const { email, response } of [polish, consumer]) {
      const body = await json(await response);
      expect(body).toMatchObject({ amount: '246', tax: '23', vat_treatment: 'standard' });
      expect(body.vies).toBeUndefined();
      expect(sentPayments.find((payment) => payment['email'] === email)?.['vies_status']).toBeUndefined();
    }
    expect(doubles.vies.consultations.length).toBe(asked);
  });
});
