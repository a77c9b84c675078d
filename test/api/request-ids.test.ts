import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  createInvoicingClient,
  IdempotencyKeyReusedError,
  InvoicingError,
  NetworkError,
  NotFoundError,
  ValidationError,
} from '../../src/api/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The typed client's errors name the request the service logged (`requestId`, from the answer's
 * `X-Request-Id`), and a reused `Idempotency-Key` is its own error. Against the real service: one
 * behind a trusted proxy (`trustProxy: 1`), so that an id the client sends is kept.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ trustProxy: 1 });
});
afterAll(() => service.stop());

async function failure(call: Promise<unknown>): Promise<InvoicingError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof InvoicingError)) throw new Error(`expected an InvoicingError, got ${String(error)}`);
  return error;
}

describe('requestId on errors', () => {
  it("is the answer's X-Request-Id for 401, 404 and 422, in JSON and XML", async () => {
    for (const format of ['json', 'xml'] as const) {
      const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, format, retry: 0 });
      const missing = await failure(client.invoices.get(999_999));
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing.requestId).toMatch(UUID);
      expect(missing.requestId).toBe(missing.headers?.get('x-request-id'));
      const invalid = await failure(client.invoices.create({ kind: 'vat', issue_date: '2026-02-30' }));
      expect(invalid).toBeInstanceOf(ValidationError);
      expect(invalid.requestId).toMatch(UUID);
      expect(invalid.requestId).not.toBe(missing.requestId);
      const stranger = createInvoicingClient({ baseUrl: service.url, apiToken: 'not-a-token', format, retry: 0 });
      const refused = await failure(stranger.products.list());
      expect(refused).toBeInstanceOf(AuthError);
      expect(refused.requestId).toMatch(UUID);
    }
  });

  it('is the id the call sent, where the service trusts the caller as a proxy', async () => {
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
    const missing = await failure(client.clients.get(999_999, { requestId: 'shop-order-1001.attempt:1' }));
    expect(missing.status).toBe(404);
    expect(missing.requestId).toBe('shop-order-1001.attempt:1');
  });

  it('is undefined when no answer arrived', async () => {
    const client = createInvoicingClient({ baseUrl: 'http://127.0.0.1:9', apiToken: 'x', retry: 0 });
    const error = await failure(client.products.list());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.status).toBe(0);
    expect(error.requestId).toBeUndefined();
  });
});

describe('a reused Idempotency-Key', () => {
  it('is an IdempotencyKeyReusedError (422, idempotency_key_reused), not a ValidationError, in JSON and XML', async () => {
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
    const first = await client.payments.create({ name: 'Order 88', price: '12.50', paid: false, kind: 'api' }, { idempotencyKey: 'order-88' });
    expect(first.price).toBe('12.5');
    const replayed = await client.payments.create({ name: 'Order 88', price: '12.50', paid: false, kind: 'api' }, { idempotencyKey: 'order-88' });
    expect(replayed.id).toBe(first.id);
    for (const format of ['json', 'xml'] as const) {
      const other = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, format, retry: 0 });
      const error = await failure(other.payments.create({ name: 'Order 88', price: '99.00', paid: false, kind: 'api' }, { idempotencyKey: 'order-88' }));
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(error).not.toBeInstanceOf(ValidationError);
      expect(error.name).toBe('IdempotencyKeyReusedError');
      expect(error.status).toBe(422);
      expect(error.body).toEqual({ code: 'idempotency_key_reused', message: 'This Idempotency-Key was used with a different request.' });
      expect(error.message).toBe(`This Idempotency-Key was used with a different request. (POST ${service.url}/banking/payments.${format})`);
      expect(error.requestId).toMatch(UUID);
    }
    const payments = await client.payments.list({ per_page: 100 });
    expect(payments.filter((payment) => payment.name === 'Order 88').map((payment) => payment.id)).toEqual([first.id]);
  });
});
