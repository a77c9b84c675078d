import { expect } from '@open-wc/testing';
import { BffError, fetchJson, retryDelay } from '../../../src/elements/shared/fetch-json.js';

const busy = (status: number, retryAfter: string | null = null) => ({ status, retryAfter });

describe('the elements’ one retry rule', () => {
  it('retries reads twice on no answer and on busy answers, waiting 0.5 s then 1 s', () => {
    expect(retryDelay('GET', false, 1)).to.equal(500);
    expect(retryDelay('GET', false, 2)).to.equal(1000);
    expect(retryDelay('GET', false, 3), 'two retries at most').to.equal(undefined);
    for (const status of [429, 502, 503, 504]) expect(retryDelay('GET', false, 1, busy(status)), String(status)).to.equal(500);
    expect(retryDelay('PUT', false, 1, busy(503)), 'a PUT is idempotent').to.equal(500);
  });

  it('never retries an answer that a second try would not change', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 500]) expect(retryDelay('GET', false, 1, busy(status)), String(status)).to.equal(undefined);
  });

  it('never retries a POST or PATCH without an Idempotency-Key, whatever went wrong', () => {
    for (const method of ['POST', 'PATCH']) {
      expect(retryDelay(method, false, 1), `${method}, no answer`).to.equal(undefined);
      expect(retryDelay(method, false, 1, busy(503)), `${method}, 503`).to.equal(undefined);
    }
  });

  it('retries a keyed POST, also while its key is still in flight (409)', () => {
    expect(retryDelay('POST', true, 1)).to.equal(500);
    expect(retryDelay('POST', true, 1, busy(409))).to.equal(500);
    expect(retryDelay('POST', true, 2, busy(503))).to.equal(1000);
    expect(retryDelay('POST', true, 3, busy(503))).to.equal(undefined);
  });

  it('waits what Retry-After asks, up to 3 s; asked for longer, it does not retry', () => {
    expect(retryDelay('GET', false, 1, busy(429, '2'))).to.equal(2000);
    expect(retryDelay('GET', false, 1, busy(429, '3'))).to.equal(3000);
    expect(retryDelay('GET', false, 1, busy(503, '120')), 'the server will not be ready while the buyer waits').to.equal(undefined);
    expect(retryDelay('POST', true, 1, busy(429, '60'))).to.equal(undefined);
    expect(retryDelay('GET', false, 1, busy(503, 'soon')), 'a date or nonsense counts as absent').to.equal(500);
  });
});

describe('fetchJson', () => {
  it('answers a refusal as a BffError with its status, asking once', async () => {
    const error = await fetchJson('/__no-such-route.json').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(BffError);
    expect((error as BffError).status).to.equal(404);
  });

  it('leaves the caller’s abort an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await fetchJson('/__no-such-route.json', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).to.equal('AbortError');
  });
});
