import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type RunningBff } from '../../src/bff/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Finding 5 of issue 42: one client holding 1024 half-sent requests shut everyone out, since the
 * cap was per process and headers could take 20 s. Now each client address has its own cap and a
 * connection with no complete request within the headers timeout is closed. Other loopback
 * addresses (127.0.0.2, 127.0.0.3) stand in for other clients.
 */
const LIMITS = { maxConnections: 50, maxConnectionsPerAddress: 4, headersTimeoutMs: 600, requestTimeoutMs: 5_000 };
let service: TestService;
let bff: RunningBff;

beforeAll(async () => {
  service = await startTestService({ connectionLimits: LIMITS });
  bff = await startBff({
    serviceUrl: service.url,
    apiToken: service.apiToken,
    portalSecret: 'a-portal-secret-of-at-least-32-characters',
    logger: false,
    connectionLimits: LIMITS,
    followServiceWrites: false,
  });
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

interface Raw {
  socket: Socket;
  closed: Promise<string>;
}

/** A connection from `from` (a loopback address) that has sent nothing yet. */
async function open(url: string, from: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, localAddress: from });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, closed };
}

/** A whole request from `from` on a fresh connection: the status line of its answer. */
async function ask(url: string, from: string): Promise<string> {
  const raw = await open(url, from);
  raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  return (await raw.closed).split('\r\n')[0]!;
}

describe.each([
  ['the service', () => service.url],
  ['the BFF', () => bff.url],
])('%s', (_name, base) => {
  it('caps connections per client address, and others still get in', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnectionsPerAddress }, () => open(base(), '127.0.0.2')));
    const extra = await open(base(), '127.0.0.2');
    expect(await extra.closed).toBe('');
    expect(await ask(base(), '127.0.0.3')).toMatch(/^HTTP\/1\.1 (200|404) /);
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The slot is the address's again once one of its connections has closed.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ask(base(), '127.0.0.2')).toMatch(/^HTTP\/1\.1 (200|404) /);
    for (const raw of held) raw.socket.destroy();
  });

  it('closes a connection that sends no complete request within the headers timeout', async () => {
    const started = performance.now();
    const silent = await open(base(), '127.0.0.4');
    const halfSent = await open(base(), '127.0.0.4');
    halfSent.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await silent.closed).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(await halfSent.closed).toMatch(/^(HTTP\/1\.1 408 |$)/);
    // Checked every 100 ms or so: well within two seconds of the 600 ms limit.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
