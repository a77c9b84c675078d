import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp.js';

/**
 * What the BLIK tests share: a service with the test provider on a clock the tests move, behind one
 * trusted proxy (each call its own client address), its request log kept, an SMTP sink for the
 * buyers' e-mail, and every answer kept so that the codes can be searched for at the end.
 */

export const START = Date.parse('2026-11-27T10:00:00.000Z');

/** Codes that behave as `777123` and appear nowhere else: neither in the clock's digits nor in any fixed text. */
export const SECRET_CODES = ['582914', '693027', '604815'] as const;

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export interface Mail {
  to: string[];
  data: string;
}

export interface BlikHarness {
  /** The clock's time in ms; tests set and move it. */
  now: number;
  readonly clock: () => Date;
  readonly service: TestService;
  readonly mails: Mail[];
  readonly logLines: string[];
  readonly answers: string[];
  /** `smtp://…` of the sink, with the operator's sender. */
  smtpUrl(): string;
  nextAddress(): string;
  answerOf(response: Response): Promise<Answer>;
  /** An API call with the account's token (in the body, or the query of a GET). */
  apiCall(method: string, path: string, body?: Record<string, unknown>, headers?: Record<string, string>): Promise<Answer>;
  widget(path: string): string;
  checkout(body: Record<string, unknown>, options?: { address?: string; key?: string }): Promise<Answer>;
  blikCheckout(code: unknown, email: string, product?: string): Promise<Answer>;
  attempt(token: string): Promise<Answer>;
  paymentsFor(email: string): Promise<Record<string, unknown>[]>;
}

export const buyer = (email: string) => ({ email, name: 'Jan Kowalski', country: 'PL' });
export const expiresAt = (sentAt: number, lifetime = 120_000) => new Date(sentAt + lifetime).toISOString();

/** Starts the sink and the service for the file (`beforeAll`), with `products` created, and stops them after. */
export function useBlikService(products: Record<string, unknown>[]): BlikHarness {
  let smtp: SmtpSink | undefined;
  let service: TestService | undefined;
  let address = 0;
  const h: BlikHarness = {
    now: START,
    clock: () => new Date(h.now),
    get service() {
      if (!service) throw new Error('the service has not started');
      return service;
    },
    mails: [],
    logLines: [],
    answers: [],
    smtpUrl: () => smtp!.url(),
    nextAddress: () => `198.51.${Math.floor((address += 1) / 250)}.${(address % 250) + 1}`,
    async answerOf(response) {
      const text = await response.text();
      h.answers.push(text);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = {};
      }
      return { status: response.status, headers: response.headers, body, text };
    },
    async apiCall(method, path, body, headers = {}) {
      const url = new URL(path, h.service.url);
      if (!body) url.searchParams.set('api_token', h.service.apiToken);
      return h.answerOf(
        await fetch(url, {
          method,
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          ...(body ? { body: JSON.stringify({ api_token: h.service.apiToken, ...body }) } : {}),
        }),
      );
    },
    widget: (path) => `${h.service.url}/a/${h.service.prefix}${path}`,
    async checkout(body, options = {}) {
      return h.answerOf(
        await fetch(h.widget('/widget/checkout.json'), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: 'https://shop.example',
            'x-forwarded-for': options.address ?? h.nextAddress(),
            ...(options.key ? { 'idempotency-key': options.key } : {}),
          },
          body: JSON.stringify(body),
        }),
      );
    },
    blikCheckout: (code, email, product = 'blik-mug') => h.checkout({ product, quantity: 1, buyer: buyer(email), payment: { method: 'blik', code } }),
    async attempt(token) {
      return h.answerOf(await fetch(h.widget(`/widget/checkout/${token}.json`), { headers: { 'x-forwarded-for': h.nextAddress() } }));
    },
    async paymentsFor(email) {
      const list = await h.apiCall('GET', '/banking/payments.json?per_page=100');
      return (list.body as unknown as Record<string, unknown>[]).filter((payment) => payment.email === email);
    },
  };

  beforeAll(async () => {
    smtp = await startSmtpSink((mail) => {
      h.mails.push({ to: mail.to, data: mail.raw.toString('utf8') });
    });
    service = await startTestService({ smtpUrl: h.smtpUrl(), clock: h.clock, trustProxy: 1, log: (entry) => h.logLines.push(JSON.stringify(entry)), logRequests: true });
    for (const product of products) expect((await h.apiCall('POST', '/products.json', { product })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await smtp?.close();
  });

  return h;
}

/** Decodes quoted-printable text (`=C5=82` → `ł`), soft line breaks included. */
export function decodeQuotedPrintable(text: string): string {
  const unfolded = text.replace(/=\r?\n/g, '');
  return Buffer.from(unfolded.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

/**
 * Checks that no answer, log line or file of the data folder holds any of `codes`, and that the
 * search does find what is stored (`stored`, typed in the same requests as the codes).
 */
export async function expectCodesKeptNowhere(h: BlikHarness, codes: readonly string[], stored: string): Promise<void> {
  for (const code of codes) {
    expect(h.answers.filter((text) => text.includes(code))).toEqual([]);
    expect(h.logLines.filter((line) => line.includes(code))).toEqual([]);
  }
  expect(h.logLines.filter((line) => line.includes(`"method":"POST"`)).length).toBeGreaterThan(0);
  if (h.service.databaseUrl) return;
  const files = await listFiles(h.service.dataDir);
  expect(files.length).toBeGreaterThan(100);
  let found = 0;
  for (const file of files) {
    const bytes = await readFile(file);
    for (const code of codes) expect(bytes.includes(Buffer.from(code)), `${code} in ${file}`).toBe(false);
    if (bytes.includes(Buffer.from(stored))) found += 1;
  }
  expect(found).toBeGreaterThan(0);
}
