import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionLimitsFromEnv, connectionServerOptions, DEFAULT_CONNECTION_LIMITS } from '../../src/server-kit/connection-limits.js';
import { startBff, type RunningBff } from '../../src/bff/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Finding 12 of issue 21: a body that trickles in, an idle socket and a crowd of connections are
 * cut off, on the service and on the BFF. The servers run with small limits so the test waits for
 * the server's own close, never for a long timer; the defaults are asserted on their own.
 */
const SMALL = { requestTimeoutMs: 400, headersTimeoutMs: 300, keepAliveTimeoutMs: 200, maxConnections: 3, maxConnectionsPerAddress: 3 };
let service: TestService;
let bff: RunningBff;

beforeAll(async () => {
  service = await startTestService({ connectionLimits: SMALL });
  bff = await startBff({
    serviceUrl: service.url,
    apiToken: service.apiToken,
    portalSecret: 'a-portal-secret-of-at-least-32-characters',
    logger: false,
    connectionLimits: SMALL,
    // The service's cap is counted below: the BFF holds none of its connections open.
    followServiceWrites: false,
  });
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

interface Raw {
  socket: Socket;
  /** Everything the server sent until it closed the connection. */
  closed: Promise<string>;
}

async function open(url: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => undefined);
  return { socket, closed };
}

/** Sends headers promising a 1,000-byte body, then one byte every 40 ms until the server hangs up. */
async function trickle(url: string, path: string): Promise<{ answer: string; sent: number; ms: number }> {
  const started = performance.now();
  const raw = await open(url);
  raw.socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
  let sent = 0;
  const timer = setInterval(() => {
    if (!raw.socket.destroyed) raw.socket.write('{'.slice(0, 1), () => undefined);
    sent += 1;
  }, 40);
  const answer = await raw.closed;
  clearInterval(timer);
  return { answer, sent, ms: performance.now() - started };
}

describe.each([
  ['the service', () => service.url, '/invoices.json'],
  ['the BFF', () => bff.url, '/bff/checkout'],
])('%s', (_name, base, path) => {
  it('answers a trickling body 408 and closes its connection once the request timeout passes', async () => {
    const { answer, sent, ms } = await trickle(base(), path);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(1000);
    // The timeout is checked every 100 ms here: well within a second of the 400 ms limit.
    expect(ms).toBeLessThan(5_000);
  });

  it('closes a connection whose headers never end', async () => {
    const raw = await open(base());
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await raw.closed).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('closes an idle keep-alive connection after its request', async () => {
    const raw = await open(base());
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    const answer = await raw.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 (200|404) /);
  });

  it('holds at most its cap of connections, and takes new ones when one closes', async () => {
    const held = await Promise.all(Array.from({ length: SMALL.maxConnections }, () => open(base())));
    // Each held socket starts a request, so the server has surely accepted all of them.
    const extra = await open(base());
    expect(await extra.closed).toBe('');
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const next = await open(base());
    next.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await next.closed).toMatch(/^HTTP\/1\.1 (200|404) /);
    for (const raw of held) raw.socket.destroy();
  });
});

describe('the documented defaults', () => {
  it('close a trickling body within 65 s, headers within 10 s, and hold 1024 connections, 128 per address', () => {
    expect(DEFAULT_CONNECTION_LIMITS).toEqual({ requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000, maxConnections: 1024, maxConnectionsPerAddress: 128 });
    const options = connectionServerOptions(DEFAULT_CONNECTION_LIMITS);
    expect(options.requestTimeout + options.connectionsCheckingInterval).toBeLessThanOrEqual(65_000);
    expect(options).toEqual({ requestTimeout: 60_000, headersTimeout: 10_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1000 });
  });

  it('are set from the environment by both command lines', () => {
    expect(connectionLimitsFromEnv({ INVOICEKIT_MAX_CONNECTIONS_PER_ADDRESS: '8', INVOICEKIT_HEADERS_TIMEOUT_MS: '2500', INVOICEKIT_MAX_CONNECTIONS: 'many', INVOICEKIT_REQUEST_TIMEOUT_MS: '-1' })).toEqual({
      maxConnectionsPerAddress: 8,
      headersTimeoutMs: 2500,
    });
  });
});
