import { createHash, randomBytes } from 'node:crypto';
import { type ProviderAnswer, type ProviderRequest, ProviderServer } from './provider-server.js';

/**
 * A stand-in for Przelewy24's REST API v1, written from its reference (https://docs.przelewy24.pl):
 * Basic auth (`posId:apiKey`), `POST /api/v1/transaction/register` with its SHA-384 `sign` over
 * `{"sessionId","merchantId","amount","currency","crc"}`, the transaction page `/trnRequest/<token>`,
 * notifications signed over `{"merchantId","posId","sessionId","amount","originAmount","currency",
 * "orderId","methodId","statement","crc"}`, `PUT /api/v1/transaction/verify` signed over
 * `{"sessionId","orderId","amount","currency","crc"}`, and `GET /api/v1/transaction/by/sessionId/…`.
 */

export interface P24Merchant {
  merchantId: number;
  posId: number;
  crc: string;
  apiKey: string;
}

export interface P24Transaction {
  token: string;
  sessionId: string;
  amount: number;
  currency: string;
  description: string;
  email: string;
  urlReturn: string;
  urlStatus: string;
  /** 0 no payment, 1 paid and awaiting verification, 2 verified. */
  status: 0 | 1 | 2;
  orderId: number | null;
}

export const sha384 = (fields: Record<string, string | number>) => createHash('sha384').update(JSON.stringify(fields)).digest('hex');

const p24Error = (code: number, error: string): ProviderAnswer => ({ status: code, body: { error, code } });

export class Przelewy24StandIn {
  readonly transactions = new Map<string, P24Transaction>();
  readonly server: ProviderServer;
  #nextOrderId = 300_000_000;

  constructor(readonly merchant: P24Merchant) {
    this.server = new ProviderServer((request) => this.#answer(request));
  }

  get url(): string {
    return this.server.url;
  }

  get registrations(): ProviderRequest[] {
    return this.server.requests.filter((request) => request.path === '/api/v1/transaction/register');
  }

  get verifications(): ProviderRequest[] {
    return this.server.requests.filter((request) => request.path === '/api/v1/transaction/verify');
  }

  #answer(request: ProviderRequest): ProviderAnswer {
    const page = /^\/trnRequest\/([A-Za-z0-9-]+)$/.exec(request.path);
    if (page && request.method === 'GET') return { status: 200, html: true, body: `<!doctype html><title>Przelewy24</title><p>${page[1]}</p>` };
    const expected = `Basic ${Buffer.from(`${this.merchant.posId}:${this.merchant.apiKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return p24Error(401, 'Incorrect authentication');
    let body: Record<string, unknown> = {};
    try {
      body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
    } catch {
      return p24Error(400, 'Invalid input data');
    }
    // Przelewy24's REST API: `GET /api/v1/testAccess` answers whether the POS id and API key are good.
    if (request.method === 'GET' && request.path === '/api/v1/testAccess') return { status: 200, body: { data: true, error: '' } };
    if (request.method === 'POST' && request.path === '/api/v1/transaction/register') return this.#register(body);
    if (request.method === 'PUT' && request.path === '/api/v1/transaction/verify') return this.#verify(body);
    const bySession = /^\/api\/v1\/transaction\/by\/sessionId\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && bySession) {
      const found = [...this.transactions.values()].find((t) => t.sessionId === decodeURIComponent(bySession[1]!));
      if (!found) return p24Error(404, 'Transaction not found');
      return { status: 200, body: { data: { sessionId: found.sessionId, orderId: found.orderId ?? 0, status: found.status, amount: found.amount, currency: found.currency, statement: `p24-${found.token.slice(0, 6)}`, clientEmail: found.email, description: found.description }, responseCode: 0 } };
    }
    return p24Error(404, 'Not found');
  }

  #register(body: Record<string, unknown>): ProviderAnswer {
    const { merchantId, posId, sessionId, amount, currency, description, email, country, language, urlReturn, urlStatus, sign } = body;
    if (merchantId !== this.merchant.merchantId || posId !== this.merchant.posId) return p24Error(400, 'Incorrect merchantId or posId');
    if (typeof sessionId !== 'string' || !sessionId || sessionId.length > 100) return p24Error(400, 'Invalid sessionId');
    if (!Number.isInteger(amount) || (amount as number) < 1) return p24Error(400, 'Invalid amount');
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return p24Error(400, 'Invalid currency');
    for (const [name, value] of Object.entries({ description, email, country, language, urlReturn })) {
      if (typeof value !== 'string' || !value) return p24Error(400, `Invalid ${name}`);
    }
    if (sign !== sha384({ sessionId, merchantId: this.merchant.merchantId, amount: amount as number, currency, crc: this.merchant.crc })) {
      return p24Error(400, 'Incorrect sign');
    }
    if ([...this.transactions.values()].some((t) => t.sessionId === sessionId && t.status !== 0)) return p24Error(400, 'Transaction already paid');
    const token = `${randomBytes(5).toString('hex').toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}`;
    this.transactions.set(token, {
      token, sessionId, amount: amount as number, currency, description: String(description), email: String(email),
      urlReturn: String(urlReturn), urlStatus: typeof urlStatus === 'string' ? urlStatus : '', status: 0, orderId: null,
    });
    return { status: 200, body: { data: { token }, responseCode: 0 } };
  }

  #verify(body: Record<string, unknown>): ProviderAnswer {
    const { merchantId, posId, sessionId, amount, currency, orderId, sign } = body;
    if (merchantId !== this.merchant.merchantId || posId !== this.merchant.posId) return p24Error(400, 'Incorrect merchantId or posId');
    if (sign !== sha384({ sessionId: String(sessionId), orderId: Number(orderId), amount: Number(amount), currency: String(currency), crc: this.merchant.crc })) {
      return p24Error(400, 'Incorrect sign');
    }
    const found = [...this.transactions.values()].find((t) => t.sessionId === sessionId && t.orderId === orderId);
    if (!found || found.status === 0) return p24Error(400, 'Transaction not found');
    if (found.amount !== amount || found.currency !== currency) return p24Error(400, 'Incorrect amount');
    found.status = 2;
    return { status: 200, body: { data: { status: 'success' }, responseCode: 0 } };
  }

  /** The buyer paid on the transaction page: the notification Przelewy24 then posts to `urlStatus`, signed. */
  pay(token: string, methodId = 154): Record<string, string | number> {
    const transaction = this.transactions.get(token);
    if (!transaction) throw new Error(`no transaction ${token}`);
    transaction.status = 1;
    transaction.orderId ??= (this.#nextOrderId += 1);
    return this.notification(transaction, methodId);
  }

  notification(transaction: P24Transaction, methodId = 154, crc = this.merchant.crc): Record<string, string | number> {
    const fields = {
      merchantId: this.merchant.merchantId,
      posId: this.merchant.posId,
      sessionId: transaction.sessionId,
      amount: transaction.amount,
      originAmount: transaction.amount,
      currency: transaction.currency,
      orderId: transaction.orderId ?? 0,
      methodId,
      statement: `p24-${transaction.token.slice(0, 6)}`,
    };
    return { ...fields, sign: sha384({ ...fields, crc }) };
  }
}
