import { createHmac } from 'node:crypto';
import { type Database, keptRead, type Sql } from '../db.js';
import type { ResourceTable, RowHooks, StoredRow } from '../store.js';
import { balances } from '../data/clients.js';
import {
  anyDeliveryDue,
  anyWebhookListening,
  claimDeliveries,
  type ClaimedDelivery,
  dueDeliveryCandidates,
  finishDelivery,
  keepDeliveryBody,
  queueDeliveries,
  releaseDelivery,
  retryDeliveryLater,
  webhookRecord,
} from '../data/webhooks.js';
import { stockLevels } from '../data/products.js';
import { presentClient } from '../invoicing/clients.js';
import { presentInvoice } from '../invoicing/invoice-answer.js';
import { einvoiceFormatsOf } from '../einvoice/formats.js';
import { presentProduct } from '../invoicing/products.js';
import { presentPayment } from '../resources/payments.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { OutboundError, sendOutbound } from '../outbound.js';
import { ForbiddenAddressError, type ResolvedTarget, resolveTarget } from './addresses.js';
import { openSecret, sealSecret } from '../secrets/keyring.js';

/**
 * Durable webhook deliveries. A write to an invoice, client, product or payment queues one
 * delivery per matching active webhook in the same transaction as the write, so what committed is
 * delivered even across a crash. A worker in each service process claims due deliveries with
 * a lease (one process sends each), posts them signed, and retries failures with exponential
 * backoff up to a cap.
 *
 * Sending is fair and never waits on a neighbour: each delivery is sent on its own (no batch waits
 * for its slowest member), at most `perSubscriber` at once to one webhook and `perAccount` at once
 * for one account, and each claim takes the due deliveries round-robin across accounts. A subscriber
 * that never answers holds only its own account's slots; every other account's deliveries go on.
 */

export const SIGNATURE_HEADER = 'X-Invoicekit-Signature';
export const DELIVERY_HEADER = 'X-Invoicekit-Delivery';
export const EVENT_HEADER = 'X-Invoicekit-Event';
export const APP_NAME = 'invoicekit';

const NOUNS: Partial<Record<ResourceTable, string>> = { invoices: 'invoice', clients: 'client', products: 'product', payments: 'payment' };

/** Whether any active webhook of the account listens for `kind`; kept until a webhook is written, where that can be. */
function listened(sql: Sql, accountId: number, kind: string): Promise<boolean> {
  return keptRead(sql, ['webhooks'], `webhooks of ${accountId} for ${kind}`, () => anyWebhookListening(sql, accountId, kind));
}

/**
 * The row hooks that queue deliveries, given to `openDatabase` where the service is composed:
 * each write of an invoice, client, product or payment queues one delivery per listening webhook,
 * in the writing transaction. `queued` is told when a write queued any (to wake the sender).
 */
export function webhookRowHooks(options: { queued?: () => void } = {}): RowHooks {
  /**
   * Whether a webhook listened, asked in a transaction before its numbered insert took the counter's
   * lock: when none does, nothing is left to do while the lock is held, so the commit follows the
   * insert at once. (A webhook made meanwhile counts as made after the write, as it would a moment later.)
   */
  const askedBefore = new WeakMap<Sql, Map<string, boolean>>();
  return {
    async beforeWrite(sql, table, accountId, change) {
      const noun = NOUNS[table];
      if (!noun) return;
      const kind = `${noun}:${change}`;
      let asked = askedBefore.get(sql);
      if (!asked) askedBefore.set(sql, (asked = new Map()));
      asked.set(`${accountId} ${kind}`, await listened(sql, accountId, kind));
    },
    async written(sql, table, accountId, row, change) {
      const noun = NOUNS[table];
      if (!noun) return;
      const kind = `${noun}:${change}`;
      // Most accounts have no webhook: known beforehand, or kept, a write queues nothing without a statement.
      // Otherwise the insert below finds the listening webhooks itself.
      const listens = askedBefore.get(sql)?.get(`${accountId} ${kind}`) ?? (sql.keep ? await listened(sql, accountId, kind) : true);
      if (!listens) return;
      // The snapshot is taken by the database from the row just written: nothing is sent when no webhook listens.
      if ((await queueDeliveries(sql, accountId, kind, table, row.id)) > 0) options.queued?.();
    },
  };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as a subscriber recomputes it. */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export interface WebhookSettings {
  /** Lets webhooks reach loopback and private addresses: for local development and tests only. */
  allowPrivate: boolean;
  /** Delay before the first retry; it doubles with each failed attempt. */
  retryBaseMs: number;
  /** Longest delay between two attempts. */
  retryCapMs: number;
  /** Attempts before a delivery is given up as failed. */
  maxAttempts: number;
  /** How often the worker looks for due deliveries. */
  pollMs: number;
  /** How long one attempt may take. */
  timeoutMs: number;
  /** Attempts under way at once in one process. */
  concurrency: number;
  /** Attempts under way at once for one account. */
  perAccount: number;
  /** Attempts under way at once to one webhook. */
  perSubscriber: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivate: false,
  retryBaseMs: 30_000,
  retryCapMs: 6 * 60 * 60_000,
  maxAttempts: 15,
  pollMs: 1000,
  timeoutMs: 10_000,
  concurrency: 32,
  perAccount: 4,
  perSubscriber: 2,
};

/** The delay after `attempts` failed attempts: base·2^(n−1), at most the cap, with a little jitter. */
export function retryDelayMs(attempts: number, settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryCapMs'>): number {
  const raw = Math.min(settings.retryCapMs, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.9 + Math.random() * 0.1));
}

/** What an attempt reads of its webhook's record. */
interface WebhookRecord {
  url: string;
  secret: string;
  api_token: string | null;
  active?: boolean;
}

/** How long a claimed delivery stays invisible to other processes while this one sends it. */
const LEASE_SECONDS = 60;

async function presentRecord(sql: Sql, delivery: ClaimedDelivery, publicUrl: string): Promise<Record<string, unknown>> {
  const row = {
    id: delivery.record_id,
    data: delivery.record.data,
    created_at: delivery.record.created_at,
    updated_at: delivery.record.updated_at,
  } as unknown as StoredRow<never>;
  switch (delivery.record_table) {
    case 'invoices':
      return presentInvoice(row as StoredRow<InvoiceData>, publicUrl, true) as Record<string, unknown>;
    case 'clients': {
      // As for a product's stock: the balance as it stands when the delivery is sent, as a read would show it.
      const found = await balances(sql, delivery.account_id, [delivery.record_id]);
      return presentClient(row, found.get(delivery.record_id) ?? '0.0') as Record<string, unknown>;
    }
    case 'payments':
      return presentPayment(row, publicUrl) as Record<string, unknown>;
    case 'products': {
      const levels = await stockLevels(sql, delivery.account_id, [delivery.record_id]);
      return presentProduct(row, levels.get(delivery.record_id) ?? '0.0') as Record<string, unknown>;
    }
    default:
      return { id: delivery.record_id, ...delivery.record.data };
  }
}

interface Attempt {
  status: number | null;
  error: string | null;
}

/** Whatever a subscriber answers is read only this far: its status is all that counts. */
const MAX_SUBSCRIBER_ANSWER = 64 * 1024;

/**
 * One attempt, through the outbound client: the connection goes to the address that was checked,
 * whatever the name resolves to a moment later, and no answer (or its absence) can end the process.
 */
async function post(target: ResolvedTarget, body: string, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<Attempt> {
  try {
    const answer = await sendOutbound({
      url: target.url,
      method: 'POST',
      headers,
      body,
      address: { address: target.address, family: target.family },
      timeoutMs,
      maxResponseBytes: MAX_SUBSCRIBER_ANSWER,
      signal,
    });
    return { status: answer.status, error: null };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { status: null, error: error.message };
  }
}

/** Sends due deliveries of one service process; `stop()` waits for the attempts under way. */
export class WebhookWorker {
  readonly #db: Database;
  readonly #settings: WebhookSettings;
  readonly #publicUrl: () => string;
  #timer: NodeJS.Timeout | undefined;
  #claiming: Promise<void> | undefined;
  #stopped = true;
  #again = false;
  /** Attempts under way, and how many of them each account and each webhook has. */
  readonly #inFlight = new Set<Promise<void>>();
  readonly #perAccount = new Map<number, number>();
  readonly #perWebhook = new Map<number, number>();
  /** Aborts the attempts under way when the process shuts down; their leases expire and they are sent again. */
  #shutdown = new AbortController();

  constructor(db: Database, settings: WebhookSettings, publicUrl: () => string) {
    this.#db = db;
    this.#settings = settings;
    this.#publicUrl = publicUrl;
  }

  start(): void {
    this.#stopped = false;
    this.#shutdown = new AbortController();
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#shutdown.abort();
    await this.#claiming;
    await Promise.all(this.#inFlight);
  }

  /** Looks for work shortly, after the transaction that queued it has had time to commit. */
  kickSoon(): void {
    if (this.#stopped) return;
    this.#schedule(25);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), delayMs);
    this.#timer.unref?.();
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    this.#claiming = this.#claimAndStart()
      .then((started) => {
        if (started.length > 0) this.#again = true;
      })
      .catch(() => undefined)
      .finally(() => {
        this.#claiming = undefined;
        if (this.#stopped) return;
        const again = this.#again;
        this.#again = false;
        this.#schedule(again ? 0 : this.#settings.pollMs);
      });
  }

  /** Claims and sends the deliveries due now that the limits allow; answers how many were attempted. */
  async runOnce(): Promise<number> {
    const started = await this.#claimAndStart();
    await Promise.all(started);
    return started.length;
  }

  /** Claims due deliveries for the free slots and starts each on its own; answers their attempts. */
  async #claimAndStart(): Promise<Promise<void>[]> {
    const free = this.#settings.concurrency - this.#inFlight.size;
    if (free <= 0) return [];
    // Looked for with a read first: a claim is a write even when it claims nothing, and on PGlite
    // every write retires the answers the service keeps, so an idle poll would empty them each second.
    if (!(await anyDeliveryDue(this.#db))) return [];
    const busyWebhooks = [...this.#perWebhook].filter(([, n]) => n >= this.#settings.perSubscriber).map(([id]) => id);
    const fullAccounts = [...this.#perAccount].filter(([, n]) => n >= this.#settings.perAccount).map(([id]) => id);
    // The oldest due delivery of each webhook that has a free slot, ranked within its account:
    // every account's first comes before anyone's second.
    const candidates = await dueDeliveryCandidates(this.#db, { webhooks: busyWebhooks, accounts: fullAccounts }, this.#settings.perAccount, free * 4);
    const chosen: number[] = [];
    const accounts = new Map(this.#perAccount);
    for (const candidate of candidates) {
      if (chosen.length >= free) break;
      const load = accounts.get(candidate.account_id) ?? 0;
      if (load >= this.#settings.perAccount) continue;
      accounts.set(candidate.account_id, load + 1);
      chosen.push(candidate.id);
    }
    if (chosen.length === 0) return [];
    // Claimed only if still due: a delivery another process leased meanwhile is no longer.
    const claimed = await claimDeliveries(this.#db, chosen, LEASE_SECONDS);
    return claimed.map((delivery) => this.#start(delivery));
  }

  #start(delivery: ClaimedDelivery): Promise<void> {
    const count = (map: Map<number, number>, key: number, change: number) => {
      const next = (map.get(key) ?? 0) + change;
      if (next > 0) map.set(key, next);
      else map.delete(key);
    };
    count(this.#perAccount, delivery.account_id, 1);
    count(this.#perWebhook, delivery.webhook_id, 1);
    const attempt: Promise<void> = this.#deliver(delivery)
      .catch((error: unknown) => this.#afterFault(delivery, error))
      .catch(() => undefined)
      .finally(() => {
        this.#inFlight.delete(attempt);
        count(this.#perAccount, delivery.account_id, -1);
        count(this.#perWebhook, delivery.webhook_id, -1);
        // A slot is free: the next due delivery goes at once.
        if (!this.#stopped) this.#schedule(0);
      });
    this.#inFlight.add(attempt);
    return attempt;
  }

  async #deliver(delivery: ClaimedDelivery): Promise<void> {
    const hook = await webhookRecord<WebhookRecord>(this.#db, delivery.account_id, delivery.webhook_id);
    if (!hook || hook.active === false) {
      await this.#finish(delivery, 'failed', null, 'the webhook is not active');
      return;
    }
    let body = delivery.body === null ? null : openSecret(delivery.body);
    if (body === null) {
      const deal = await presentRecord(this.#db, delivery, this.#publicUrl());
      const locale = typeof deal.lang === 'string' && deal.lang ? deal.lang : 'pl';
      // An invoice's delivery names the e-invoices it can be fetched in now, for a Peppol access point.
      const formats =
        delivery.record_table === 'invoices'
          ? { einvoice_formats: await einvoiceFormatsOf(this.#db, delivery.account_id, delivery.record_id, delivery.record.data as unknown as InvoiceData, this.#publicUrl()) }
          : {};
      body = JSON.stringify({ deal, app_name: APP_NAME, api_token: hook.api_token ? openSecret(hook.api_token) : null, locale, ...formats });
      // Every attempt sends the same bytes, so a signature checked once stays valid for retries.
      await keepDeliveryBody(this.#db, delivery.id, sealSecret(body));
    }
    let attempt: Attempt;
    try {
      const target = (await resolveTarget(hook.url, this.#settings.allowPrivate))!;
      attempt = await post(
        target,
        body,
        {
          'content-type': 'application/json',
          'user-agent': `${APP_NAME}-webhooks/1`,
          [SIGNATURE_HEADER]: signatureHeader(openSecret(hook.secret), body),
          [DELIVERY_HEADER]: delivery.delivery_id,
          [EVENT_HEADER]: delivery.kind,
        },
        this.#settings.timeoutMs,
        this.#shutdown.signal,
      );
    } catch (error) {
      attempt = { status: null, error: error instanceof ForbiddenAddressError ? `the URL ${error.message}` : String(error) };
    }
    // Cut off by shutdown: due again at once, for whichever process runs next.
    if (this.#shutdown.signal.aborted && attempt.status === null) {
      await releaseDelivery(this.#db, delivery.id);
      return;
    }
    if (attempt.status !== null && attempt.status >= 200 && attempt.status < 300) {
      await this.#finish(delivery, 'delivered', attempt.status, null);
      return;
    }
    const error = attempt.error ?? `the subscriber answered ${attempt.status}`;
    if (delivery.attempts >= this.#settings.maxAttempts) {
      await this.#finish(delivery, 'failed', attempt.status, error);
      return;
    }
    await retryDeliveryLater(this.#db, delivery.id, retryDelayMs(delivery.attempts, this.#settings) / 1000, attempt.status, error.slice(0, 500));
  }

  /**
   * An attempt that failed in the service itself (its record could not be presented, the database
   * refused a write): its lease runs out and it is tried again, but only until its attempts are
   * spent, then it is parked as failed like any other, never retried without end.
   */
  async #afterFault(delivery: ClaimedDelivery, error: unknown): Promise<void> {
    if (delivery.attempts < this.#settings.maxAttempts) return;
    await this.#finish(delivery, 'failed', null, `the delivery could not be prepared: ${error instanceof Error ? error.message : String(error)}`);
  }

  async #finish(delivery: ClaimedDelivery, status: 'delivered' | 'failed', httpStatus: number | null, error: string | null): Promise<void> {
    await finishDelivery(this.#db, delivery.id, status, httpStatus, error?.slice(0, 500) ?? null);
  }
}
