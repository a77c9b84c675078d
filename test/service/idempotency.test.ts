import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const paymentBody = (token: string, price: string) =>
  JSON.stringify({ api_token: token, banking_payment: { name: 'Order 77', price, invoice_id: null, paid: false, kind: 'api' } });

async function post(body: string, key: string) {
  return fetch(`${service.url}/banking/payments.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': key },
    body,
  });
}

async function countPayments(): Promise<number> {
  const list = (await (await fetch(`${service.url}/banking/payments.json?api_token=${service.apiToken}&per_page=100`)).json()) as unknown[];
  return list.length;
}

describe('Idempotency-Key on POST', () => {
  it('replays the first answer for the same key and body, creating one record', async () => {
    const first = await post(paymentBody(service.apiToken, '12.50'), 'order-77');
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: number; price: string };
    expect(created.price).toBe('12.5');
    const again = await post(paymentBody(service.apiToken, '12.50'), 'order-77');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: number }).id).toBe(created.id);
    expect(await countPayments()).toBe(1);
  });

  it('refuses the same key with another body with its own error code, in JSON and XML', async () => {
    const response = await post(paymentBody(service.apiToken, '99.00'), 'order-77');
    expect(response.status).toBe(422);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(await response.json()).toEqual({ code: 'idempotency_key_reused', message: 'This Idempotency-Key was used with a different request.' });
    const xml = await fetch(`${service.url}/banking/payments.xml`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', accept: 'application/xml', authorization: `Bearer ${service.apiToken}`, 'idempotency-key': 'order-77' },
      body: '<banking_payment><name>Order 77</name><price>12.50</price></banking_payment>',
    });
    expect(xml.status).toBe(422);
    expect(await xml.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<error>\n  <code>idempotency_key_reused</code>\n  <message>This Idempotency-Key was used with a different request.</message>\n</error>\n',
    );
    expect(await countPayments()).toBe(1);
  });

  it('lets concurrent duplicates create exactly one record', async () => {
    const before = await countPayments();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(paymentBody(service.apiToken, '5'), 'order-78')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses).toContain(201);
    expect(await countPayments()).toBe(before + 1);
  });

  it('does not remember a request that failed validation', async () => {
    const bad = await post(JSON.stringify({ api_token: service.apiToken, banking_payment: { name: 'x' } }), 'order-79');
    expect(bad.status).toBe(422);
    const corrected = await post(paymentBody(service.apiToken, '1'), 'order-79');
    expect(corrected.status).toBe(201);
    expect(((await corrected.json()) as { price: string }).price).toBe('1.0');
  });
});
