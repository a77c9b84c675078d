import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { cliArgs } from '../helpers/cli.js';
import { startTestRedis, type TestRedis } from '../helpers/redis.js';

const ROOT = resolve(import.meta.dirname, '../..');
const API_TOKEN = `scale-${randomBytes(12).toString('hex')}`;
const PORTAL_SECRET = randomBytes(32).toString('base64url');
const SHOP = 'https://shop.example';
const PRODUCT_TOKEN = 'scale-ebook';

/**
 * The deployment docs/deploy.md describes, for real: one PostgreSQL server (scripts/with-postgres.sh),
 * migrated once with `invoicekit migrate`; four `invoicekit service` processes on it; two
 * `invoicekit bff` processes sharing one redis-server. Requests are spread over the processes.
 */
describe.skipIf(!process.env.DATABASE_URL)('four service processes and two BFF processes on PostgreSQL and Redis', () => {
  let redis: TestRedis;
  const services: { url: string; child: ChildProcess }[] = [];
  const bffs: string[] = [];
  let databaseUrl: string;

  beforeAll(async () => {
    redis = await startTestRedis();
    const schema = `scale_${randomBytes(6).toString('hex')}`;
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();

    // One secret key for the four processes, as every process on one PostgreSQL database needs.
    const env = { DATABASE_URL: databaseUrl, INVOICEKIT_API_TOKEN: API_TOKEN, INVOICEKIT_INTEGRATION_TOKEN: `i-${API_TOKEN}`, INVOICEKIT_SECRET_KEY: randomBytes(32).toString('base64') };
    const migrated = await runCli(['migrate'], env);
    expect(migrated).toMatch(/database is at migration \d+/);
    // The processes skip migrations: they only check the database is current.
    const started = await Promise.all(
      Array.from({ length: 4 }, () => startCli(['service', '--port', '0', '--skip-migrations', '--quiet'], env, /invoicing service listening on (\S+)/)),
    );
    for (const each of started) {
      services.push(each);
    }
    const product = await client(0).products.create({ name: 'E-book', price_net: '40.65', tax: '23', currency: 'PLN', token: PRODUCT_TOKEN });
    expect(product.token).toBe(PRODUCT_TOKEN);

    const bffEnv = {
      REDIS_URL: redis.url,
      INVOICEKIT_API_TOKEN: API_TOKEN,
      INVOICEKIT_PORTAL_SECRET: PORTAL_SECRET,
      INVOICEKIT_ALLOWED_ORIGINS: SHOP,
      INVOICEKIT_TRUST_PROXY: '1',
    };
    // Each BFF in front of a different service process, as behind two load balancers.
    const started2 = await Promise.all(
      [0, 1].map((i) => startCli(['bff', '--port', '0', '--service', services[i]!.url], bffEnv, /bff listening on (\S+)/)),
    );
    for (const each of started2) {
      bffs.push(`${each.url}/bff`);
    }
  }, 240_000);

  afterAll(async () => {
    const running = spawned.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = running.map((child) => new Promise((done) => child.once('exit', done)));
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(exited);
    await redis?.stop();
  });

  const client = (i: number) => createInvoicingClient({ baseUrl: services[i % services.length]!.url, apiToken: API_TOKEN, retry: { limit: 0 } });

  const checkout = (bff: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${bff}/checkout`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SHOP, ...headers }, body: JSON.stringify(body) });

  const checkoutBody = (email: string) => ({ product: PRODUCT_TOKEN, quantity: 2, buyer: { email, name: 'Scale Buyer' }, returnUrl: `${SHOP}/thanks` });

  async function paymentsFor(email: string) {
    const all = [];
    for await (const payment of client(2).payments.iterate({ per_page: 100 })) if (payment.email === email) all.push(payment);
    return all;
  }

  it('makes one payment of 50 concurrent checkouts with one Idempotency-Key sent to both BFFs', async () => {
    const key = randomUUID();
    const email = 'fifty@example.com';
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => checkout(bffs[i % 2]!, checkoutBody(email), { 'idempotency-key': key, 'x-forwarded-for': '203.0.113.1' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ amount: '100', currency: 'PLN', quantity: 2 });
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
    expect(await paymentsFor(email)).toHaveLength(1);
  });

  it('holds the checkout rate limit across both BFFs', async () => {
    // The default: 20 new checkouts a minute per client IP.
    const responses = await Promise.all(
      Array.from({ length: 26 }, (_, i) => checkout(bffs[i % 2]!, checkoutBody(`limit-${i}@example.com`), { 'x-forwarded-for': '203.0.113.2' })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const limited = responses.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Another client is not limited by this one.
    expect((await checkout(bffs[1]!, checkoutBody('other@example.com'), { 'x-forwarded-for': '203.0.113.3' })).status).toBe(201);
  });

  const invoiceInput = (i: number) => ({
    kind: 'vat' as const,
    buyer_name: `Buyer ${i}`,
    buyer_tax_no: '5252445767',
    positions: [{ name: `Item ${i}`, tax: 23, total_price_gross: '12.34', quantity: 1 }],
  });

  it('gives 200 concurrent invoice creations on four processes 200 different numbers', async () => {
    const created = await Promise.all(Array.from({ length: 200 }, (_, i) => client(i).invoices.create(invoiceInput(i))));
    expect(new Set(created.map((invoice) => invoice.id)).size).toBe(200);
    expect(new Set(created.map((invoice) => invoice.number)).size).toBe(200);
    for (const invoice of created) expect(invoice.price_gross).toBe('12.34');
  });

  it('loses no acknowledged write when one service process is killed in the middle of the load', async () => {
    const victim = services[3]!;
    const acknowledged: { id: number; number: string; buyer: string }[] = [];
    let killed = false;
    const attempts = Array.from({ length: 160 }, async (_, i) => {
      // Spread over time, so some requests are in progress on the victim when it dies.
      await new Promise((done) => setTimeout(done, (i % 40) * 15));
      try {
        const invoice = await client(i).invoices.create(invoiceInput(1000 + i));
        acknowledged.push({ id: invoice.id, number: invoice.number, buyer: invoice.buyer_name ?? '' });
        if (!killed && acknowledged.length >= 40) {
          killed = true;
          victim.child.kill('SIGKILL');
        }
      } catch {
        // Not acknowledged: the client saw an error, so it may retry; nothing is promised.
      }
    });
    await Promise.all(attempts);
    expect(killed).toBe(true);
    expect(victim.child.signalCode ?? (await new Promise((done) => victim.child.once('exit', (_code, signal) => done(signal))))).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(120);

    // Every acknowledged invoice reads back, whole, from a surviving process.
    const survivors = [0, 1, 2];
    const read = await Promise.all(acknowledged.map((each, i) => client(survivors[i % 3]!).invoices.get(each.id)));
    read.forEach((invoice, i) => {
      expect(invoice).toMatchObject({ id: acknowledged[i]!.id, number: acknowledged[i]!.number, buyer_name: acknowledged[i]!.buyer, price_gross: '12.34' });
    });
    // And no number was given twice, across everything this deployment made.
    const numbers: string[] = [];
    for await (const invoice of client(0).invoices.iterate({ period: 'all', per_page: 100 })) numbers.push(invoice.number);
    expect(numbers.length).toBeGreaterThanOrEqual(200 + acknowledged.length);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

/** Every process started, tracked at once, so none outlives the test even when a start fails. */
const spawned: ChildProcess[] = [];

const CLI = [process.execPath, ...cliArgs()];

function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(CLI[0]!, [...CLI.slice(1), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? done(output) : fail(new Error(`invoicekit ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

function startCli(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(CLI[0]!, [...CLI.slice(1), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.push(child);
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`invoicekit ${args.join(' ')} did not start:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        // Keep draining the pipes, or a chatty process blocks on a full pipe.
        child.stdout!.removeAllListeners('data').resume();
        child.stderr!.removeAllListeners('data').resume();
        done({ url: match[1]!, child });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`invoicekit ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}
