import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/service/webhooks/deliveries.js';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Subscriber } from './support/subscriber.js';

/**
 * Finding 6 of issue 21: a neighbour's subscriber that never answers must not hold anyone else's
 * webhooks. The tarpit holds every request until the test releases it, and attempts may take a
 * minute, so the only way the victim's delivery arrives while the tarpit holds is fair sending.
 */
class Tarpit {
  readonly held: ServerResponse[] = [];
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      request.resume();
      this.held.push(response);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}/tarpit`;
  }

  release(): void {
    for (const response of this.held.splice(0)) response.writeHead(500).end();
  }

  async stop(): Promise<void> {
    this.release();
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}

let service: TestService;
let victim: Api;
let neighbour: Api;
const tarpit = new Tarpit();
const subscriber = new Subscriber();

beforeAll(async () => {
  await Promise.all([tarpit.start(), subscriber.start()]);
  service = await startTestService({ webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 60_000, retryBaseMs: 60_000, retryCapMs: 60_000 } });
  victim = api(service);
  neighbour = await secondAccount(service, 'flooder');
}, 60_000);
afterAll(async () => {
  await tarpit.stop();
  await service?.stop();
  await subscriber.stop();
});

async function subscribe(account: Api, url: string) {
  const reply = await account.post('/webhooks.json', { webhook: { kind: 'client:create', url, api_token: 'subscriber', active: true } });
  expect(reply.status, reply.text).toBe(201);
}

describe('webhook deliveries are fair per account and per subscriber', () => {
  it("delivers a victim's webhook while a neighbour's 60 updates sit in a tarpit", async () => {
    for (let i = 0; i < 3; i += 1) await subscribe(neighbour, tarpit.url);
    await subscribe(victim, subscriber.url('/victim'));
    for (let i = 0; i < 60; i += 1) expect((await neighbour.post('/clients.json', { client: { name: `Flood ${i}` } })).status).toBe(201);
    await expect.poll(() => tarpit.held.length, { timeout: 5_000 }).toBeGreaterThan(0);

    const created = await victim.post('/clients.json', { client: { name: 'Victim Client' } });
    expect(created.status).toBe(201);
    const arrived = await subscriber.waitFor((entry) => entry.json?.deal?.name === 'Victim Client', 5_000);
    expect(arrived.path).toBe('/victim');

    // The tarpit still holds its requests: the victim's went past them, not after them. It holds
    // no more than the neighbour's share (3 webhooks, 4 at once per account).
    expect(tarpit.held.length).toBeGreaterThan(0);
    expect(tarpit.held.length).toBeLessThanOrEqual(DEFAULT_WEBHOOK_SETTINGS.perAccount);
    tarpit.release();
  });

  it('keeps the documented defaults', async () => {
    expect(DEFAULT_WEBHOOK_SETTINGS).toMatchObject({ concurrency: 32, perAccount: 4, perSubscriber: 2, timeoutMs: 10_000 });
  });
});
