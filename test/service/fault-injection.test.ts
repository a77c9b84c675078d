import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDataDir, isolatedDatabaseUrl, isRunning, killServices, type ServiceProcess, spawnService, templateDataDir } from '../helpers/service.js';
import { HostileSubscriber, type HostileMode } from './support/hostile-subscriber.js';

/**
 * Issue 42's acceptance: the service runs, as its own process, while a hostile webhook subscriber,
 * a slow-loris client and an XML flood run at once, each from its own loopback address. A
 * legitimate client on yet another address keeps getting answers within a second throughout, and
 * the process is the same one at the end.
 */
const API_TOKEN = 'fault-injection-token-0123456789abcdef';
const RUN_MS = 12_000;
const LEGITIMATE = '127.0.0.4';
let dataDir: string;
let service: ServiceProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-faults-'));
  if (!process.env.DATABASE_URL) await copyDataDir(await templateDataDir(false), dataDir);
  service = await spawnService(['--data-dir', dataDir, '--webhooks-allow-private'], {
    INVOICEKIT_API_TOKEN: API_TOKEN,
    INVOICEKIT_INTEGRATION_TOKEN: 'fault-injection-integration',
    INVOICEKIT_WEBHOOK_RETRY_BASE_MS: '100',
    INVOICEKIT_WEBHOOK_RETRY_CAP_MS: '300',
    INVOICEKIT_WEBHOOK_POLL_MS: '50',
    INVOICEKIT_WEBHOOK_TIMEOUT_MS: '1000',
    INVOICEKIT_WEBHOOK_MAX_ATTEMPTS: '1000',
    INVOICEKIT_HEADERS_TIMEOUT_MS: '2000',
    INVOICEKIT_MAX_CONNECTIONS_PER_ADDRESS: '16',
    DATABASE_URL: (await isolatedDatabaseUrl()) ?? '',
  });
  control = spawn(process.execPath, ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log(this.address().port); })`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) => control!.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  controlUrl = `http://127.0.0.1:${port}/`;
}, 120_000);
afterAll(async () => {
  control?.kill();
  killServices();
  await rm(dataDir, { recursive: true, force: true });
});

/** One request from `from`, on a connection of its own; its status, text and time in ms. */
function send(from: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(new URL(path, service.url), { method, localAddress: from, agent: false, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, ms: performance.now() - started }));
      response.on('error', () => resolve({ status: 0, text, ms: performance.now() - started }));
    });
    // Refused mid-body (a flood's 401 closes the connection): what the service answered is what counts.
    request.on('error', () => resolve({ status: 0, text: '', ms: performance.now() - started }));
    request.end(body);
  });
}

const json = { 'content-type': 'application/json' };

/** A 300-position invoice: its webhook body is about 180 KB. */
const largeInvoice = (buyer: string) =>
  JSON.stringify({
    api_token: API_TOKEN,
    invoice: { kind: 'vat', buyer_name: buyer, positions: Array.from({ length: 300 }, (_, i) => ({ name: `Pozycja ${i + 1} usługi`, tax: 23, total_price_gross: '12.30', quantity: 1 })) },
  });

let control: ChildProcess | undefined;
let controlUrl = '';

/** The time of one request to the control server (a process that only answers "ok"), in ms. */
async function fetchControl(): Promise<number> {
  const started = performance.now();
  await send(LEGITIMATE, 'GET', controlUrl);
  return performance.now() - started;
}

/** Runs the attackers' process for `ms`: `started` once the attacks run, `report` when it ends. */
function attackers(ms: number): { started: Promise<void>; report: Promise<{ lorisOpened: number; flood: Record<string, number> }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/attackers.ts', import.meta.url)), service.url, API_TOKEN, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let signal = () => {};
  const started = new Promise<void>((resolve) => (signal = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('started\n')) signal();
  });
  const report = new Promise<{ lorisOpened: number; flood: Record<string, number> }>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice('started\n'.length)) as never) : reject(new Error(`the attackers exited ${code}: ${out}`)))),
  );
  return { started, report };
}

describe('the service under a hostile subscriber, a slow-loris client and an XML flood at once', () => {
  it('keeps answering a legitimate client within a second, in the same process', async () => {
    const pid = service.child.pid;
    const subscriber = new HostileSubscriber('answer-and-close');
    await subscriber.start();
    const hook = await send(LEGITIMATE, 'POST', '/webhooks.json', json, JSON.stringify({ api_token: API_TOKEN, webhook: { kind: 'invoice:create', url: subscriber.url(), api_token: 'shop' } }));
    expect(hook.status, hook.text).toBe(201);

    // A tenant's large invoices, made first: their deliveries (about 180 KB each) are retried against the subscriber throughout.
    let created = 0;
    for (let i = 0; i < 4; i += 1) if ((await send('127.0.0.5', 'POST', '/invoices.json', json, largeInvoice(`Hostile feed ${i}`))).status === 201) created += 1;
    // The legitimate client's first read and write, before anything is timed.
    await send(LEGITIMATE, 'GET', `/invoices.json?api_token=${API_TOKEN}&per_page=5`);
    await send(LEGITIMATE, 'POST', '/clients.json', json, JSON.stringify({ api_token: API_TOKEN, client: { name: 'Legit first' } }));
    await fetchControl();
    // The attacks start next; the legitimate client is timed once they all run.
    const attack = attackers(RUN_MS + 2_000);
    await attack.started;
    const deliveriesBefore = subscriber.connections;
    const started = performance.now();
    const running = () => performance.now() - started < RUN_MS;

    // The subscriber changes how it misbehaves every second, while the service keeps retrying large deliveries to it.
    const modes: HostileMode[] = ['answer-and-close', 'reset', 'garbage', 'cut-mid-body', 'endless', 'answer-before-body'];
    const misbehave = setInterval(() => (subscriber.mode = modes[(modes.indexOf(subscriber.mode) + 1) % modes.length]!), 1000);

    // The legitimate client: a read and a write, every 250 ms, each timed. Each is timed beside the
    // same request to a control server in a process of its own: what the machine's other load costs
    // any process is the control's time, and the service may take at most a second more than it.
    const slowest: { ms: number; control: number; what: string }[] = [];
    const statuses = new Set<string>();
    let asked = 0;
    const timed = async (what: string, ask: () => Promise<{ status: number; ms: number }>) => {
      const [answer, control] = await Promise.all([ask(), fetchControl()]);
      slowest.push({ ms: answer.ms - control, control, what: `${what} ${asked}` });
      return answer.status;
    };
    while (running()) {
      const read = await timed('read', () => send(LEGITIMATE, 'GET', `/invoices.json?api_token=${API_TOKEN}&per_page=5`));
      const write = await timed('write', () => send(LEGITIMATE, 'POST', '/clients.json', json, JSON.stringify({ api_token: API_TOKEN, client: { name: `Legit ${asked}` } })));
      asked += 1;
      statuses.add(`${read} ${write}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    clearInterval(misbehave);
    const report = await attack.report;
    await subscriber.stop();

    slowest.sort((a, b) => b.ms - a.ms);
    expect([...statuses]).toEqual(['200 201']);
    expect(asked, JSON.stringify({ created, report })).toBeGreaterThan(10);
    expect(slowest[0]!.ms, JSON.stringify(slowest.slice(0, 5))).toBeLessThan(1000);
    // Each kind of attack really ran: deliveries were attempted, the slow-loris was cut off and came back, the flood was answered.
    expect(created).toBe(4);
    expect(subscriber.connections - deliveriesBefore).toBeGreaterThan(5);
    expect(report.lorisOpened).toBeGreaterThan(48);
    expect(Object.keys(report.flood).filter((status) => status !== '0').sort()).toEqual(['400', '401', '413']);
    expect([isRunning(service.child), service.child.pid]).toEqual([true, pid]);
    expect(service.output()).not.toMatch(/EPIPE|ECONNRESET|uncaught/i);
  }, 60_000);
});
