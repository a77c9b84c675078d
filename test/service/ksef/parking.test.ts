import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KsefGateway } from '../../../src/service/ksef/gateway.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { api, type Api } from '../../helpers/http.js';
import { buyer, seller } from './support.js';

/**
 * A KSeF job that keeps failing in the service itself is tried a bounded number of times, then
 * parked as `server_error` on its invoice, where the account reads it: never retried without end.
 */
let service: TestService;
let http: Api;
let now = new Date('2026-02-02T09:00:00Z');
let submits = 0;

/** A gateway whose sending breaks in a way that is not one of KSeF's answers. */
const broken: KsefGateway = {
  submit() {
    submits += 1;
    return Promise.reject(new TypeError('Cannot read properties of undefined (reading "referenceNumber")'));
  },
  outcome() {
    return Promise.reject(new TypeError('unreachable'));
  },
};

beforeAll(async () => {
  service = await startTestService({ clock: () => now, ksef: { localOrigin: 'http://127.0.0.1:9', gateway: broken, senderIntervalMs: 3_600_000 } });
  http = api(service);
});
afterAll(async () => {
  await service.stop();
});

describe('a KSeF job that keeps failing', () => {
  it('is parked as server_error after its attempts, and says why on the invoice', async () => {
    const settings = await http.put('/account/ksef.json', { ksef: { environment: 'local', token: 'local-token-for-parking' } });
    expect(settings.status, settings.text).toBe(200);
    const created = await http.post('/invoices.json', {
      gov_save_and_send: true,
      invoice: { issue_date: '2026-02-02', sell_date: '2026-02-01', ...seller, ...buyer, positions: [{ name: 'Usługa', quantity: 1, total_price_gross: 123, tax: 23 }] },
    });
    expect(created.status, created.text).toBe(201);
    for (let round = 0; round < 12; round += 1) {
      await service.ksefSender.runOnce();
      // The next attempt is due by the service's clock: an hour on is past every backoff.
      now = new Date(now.getTime() + 3_600_000);
    }
    expect(submits).toBe(8);
    const invoice = (await http.get(`/invoices/${String(created.body.id)}.json`)).body;
    expect([invoice.gov_status, invoice.gov_error_messages]).toEqual([
      'demo_server_error',
      ['The invoice could not be sent: Cannot read properties of undefined (reading "referenceNumber")'],
    ]);
  });
});
