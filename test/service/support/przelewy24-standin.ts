import { createHash, randomBytes } from 'node:crypto';
import { DeliveryLog, type ProviderAnswer, type ProviderRequest, ProviderServer } from './provider-server.js';

/**
 * A stand-in for Przelewy24's REST API v1, written from its reference (https://docs.przelewy24.pl):
 * Basic auth (`posId:apiKey`), `POST /api/v1/transaction/register` with its SHA-384 `sign` over
 * `{"sessionId","merchantId","amount","currency","crc"}`, the transaction page `/trnRequest/<token>`,
 * notifications signed over `{"merchantId","posId","sessionId","amount","originAmount","currency",
 * "orderId","methodId","statement","crc"}`, `PUT /api/v1/transaction/verify` signed over
 * `{"sessionId","orderId","amount","currency","crc"}`, and `GET /api/v1/transaction/by/sessionId/…`.
 *
 * BLIK level 0: `POST /api/v1/paymentMethod/blik/chargeByCode` (`{"token","blikCode"}`, 201 with the
 * order id, or 400 with Przelewy24's error code), then the buyer's answer in the bank app, by the
 * same magic codes as the test provider: `111111` is refused at once as a wrong code (28), `222222`
 * as an expired one (29); `333333` is declined in the app (the BLIK notification to
 * `urlCardPaymentNotification`, signed over `{"orderId","sessionId","method","result","crc"}`);
 * `444444` is never answered; any other code is approved (status 1 and the signed notification to
 * `urlStatus`). Answers are delivered `approvalMs` after the charge, or when the test calls
 * `approve` / `decline` (`approvalMs = null`), over real HTTP.
 */

/** What the buyer does in the bank app with a code, by the magic codes. */
export type P24BlikAnswer = 'approve' | 'decline' | 'none';

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
  /** Fields a BLIK level 0 registration adds. */
  method?: number | undefined;
  urlCardPaymentNotification?: string | undefined;
  additional?: unknown;
  /** Set once a BLIK code was charged: what the bank app will answer. */
  blik?: { answer: P24BlikAnswer } | undefined;
}

/** A notification the stand-in posted to the service, and the service's answer. */
export interface P24Delivery {
  url: string;
  body: Record<string, unknown>;
  status: number;
}

export const sha384 = (fields: Record<string, unknown>) => createHash('sha384').update(JSON.stringify(fields)).digest('hex');

/** Przelewy24's method id of BLIK taken on the shop's page (level 0). */
export const PRZELEWY24_BLIK_METHOD_ID = 181;

const p24Error = (code: number, error: string): ProviderAnswer => ({ status: code, body: { error, code } });

export class Przelewy24StandIn {
  readonly transactions = new Map<string, P24Transaction>();
  readonly server: ProviderServer;
  readonly #log = new DeliveryLog<P24Delivery>();
  /** Every notification delivered, as the service answered it. */
  get deliveries(): P24Delivery[] {
    return this.#log.done;
  }
  /** How long the bank app takes to answer a BLIK code; `null`: only when the test calls `approve` or `decline`. */
  approvalMs: number | null = null;
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

  get blikCharges(): ProviderRequest[] {
    return this.server.requests.filter((request) => request.path === '/api/v1/paymentMethod/blik/chargeByCode');
  }

  /** The transaction registered for a payment (its `sessionId`), the latest if there are several. */
  bySession(sessionId: string): P24Transaction | undefined {
    return [...this.transactions.values()].filter((t) => t.sessionId === sessionId).at(-1);
  }

  /** Resolves with the next delivery once the service has answered it. */
  nextDelivery(): Promise<P24Delivery> {
    return this.#log.next();
  }

  /** Resolves once every notification the stand-in started delivering has been answered. */
  async settled(): Promise<void> {
    await this.#log.settled();
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
    if (request.method === 'POST' && request.path === '/api/v1/paymentMethod/blik/chargeByCode') return this.#chargeByCode(body);
    const bySession = /^\/api\/v1\/transaction\/by\/sessionId\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && bySession) {
      const found = [...this.transactions.values()].find((t) => t.sessionId === decodeURIComponent(bySession[1]!));
      if (!found) return p24Error(404, 'Transaction not found');
      return { status: 200, body: { data: { sessionId: found.sessionId, orderId: found.orderId ?? 0, status: found.status, amount: found.amount, currency: found.currency, statement: `p24-${found.token.slice(0, 6)}`, clientEmail: found.email, description: found.description }, responseCode: 0 } };
    }
    return p24Error(404, 'Not found');
  }

  #register(body: Record<string, unknown>): ProviderAnswer {
    const { merchantId, posId, sessionId, amount, currency, description, email, country, language, urlReturn, urlStatus, sign, method, urlCardPaymentNotification, additional } = body;
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
      method: typeof method === 'number' ? method : undefined,
      urlCardPaymentNotification: typeof urlCardPaymentNotification === 'string' ? urlCardPaymentNotification : undefined,
      additional,
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

  /** `POST /api/v1/paymentMethod/blik/chargeByCode`: the code goes to the buyer's bank app, or is refused at once. */
  #chargeByCode(body: Record<string, unknown>): ProviderAnswer {
    const { token, blikCode } = body;
    const transaction = typeof token === 'string' ? this.transactions.get(token) : undefined;
    if (!transaction) return p24Error(400, 'Invalid token');
    if (typeof blikCode !== 'string' || !/^\d{6}$/.test(blikCode)) return p24Error(400, 'Invalid input data');
    if (transaction.blik || transaction.status !== 0) return p24Error(409, 'Transaction already charged');
    if (blikCode === '111111') return { status: 400, body: { error: 'Incorrect BLIK code', code: 28 } };
    if (blikCode === '222222') return { status: 400, body: { error: 'BLIK code expired', code: 29 } };
    const answer: P24BlikAnswer = blikCode === '333333' ? 'decline' : blikCode === '444444' ? 'none' : 'approve';
    transaction.blik = { answer };
    transaction.orderId ??= (this.#nextOrderId += 1);
    if (this.approvalMs !== null && answer !== 'none') {
      const wait = this.approvalMs;
      setTimeout(() => void (answer === 'approve' ? this.approve(transaction.token) : this.decline(transaction.token)), wait);
    }
    return { status: 201, body: { data: { orderId: transaction.orderId, message: 'Success, awaiting for confirmation' }, responseCode: 0 } };
  }

  /** The buyer confirmed the BLIK payment in the bank app (also after the code expired): the signed notification goes to `urlStatus`. */
  approve(token: string): Promise<P24Delivery> {
    const transaction = this.transactions.get(token);
    if (!transaction) throw new Error(`no transaction ${token}`);
    return this.#deliver(transaction.urlStatus, this.pay(token, PRZELEWY24_BLIK_METHOD_ID));
  }

  /**
   * The buyer declined in the bank app: Przelewy24's BLIK notification, signed, goes to
   * `urlCardPaymentNotification`. Its `result.error` is a refusal's code, none of those that name the
   * code itself (28 incorrect, 29 expired, 35 used).
   */
  decline(token: string, result: Record<string, unknown> = { error: 'err63', message: 'Transaction rejected by the user' }): Promise<P24Delivery> {
    const transaction = this.transactions.get(token);
    if (!transaction) throw new Error(`no transaction ${token}`);
    return this.#deliver(transaction.urlCardPaymentNotification ?? '', this.blikNotification(transaction, result));
  }

  /** Przelewy24's BLIK notification of `transaction` with `result`, signed with `crc`. */
  blikNotification(transaction: P24Transaction, result: Record<string, unknown>, crc = this.merchant.crc): Record<string, unknown> {
    const fields = { orderId: transaction.orderId ?? 0, sessionId: transaction.sessionId, method: transaction.method ?? PRZELEWY24_BLIK_METHOD_ID, result };
    return { data: { ...fields, sign: sha384({ ...fields, crc }) } };
  }

  #deliver(url: string, body: Record<string, unknown>): Promise<P24Delivery> {
    return this.#log.post(url, JSON.stringify(body), { 'content-type': 'application/json' }, (status) => ({ url, body, status }));
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
