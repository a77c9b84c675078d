import type { BlikFailureReason, BlikState } from '../../contract/sale.js';
import { notFound } from '../domain-errors.js';
import { byToken } from '../data/public-records.js';
import type { BlikCharge, PaymentProvider, ProviderPayment } from '../payments/provider.js';
import { DEFAULT_TEST_APPROVAL_MS, testBlikAnswer } from '../payments/test-blik.js';
import { type StoredRow, updateRow } from '../store.js';
import type { Issuing } from './issuing.js';
import { checkoutOutcome, type PaymentData, settlePayment, type StoredBlik } from './payments.js';

/**
 * BLIK "level 0": the buyer types the six-digit code from the bank app on our page, the provider
 * asks the bank app, and the buyer confirms there. The one way a code goes to a provider, whichever
 * entry point took it (the widget's checkout, the API for a BFF, the checkout page): checked, sent
 * once, never kept. The payment keeps only where it stands (`blik`), and every end of it goes through
 * `settlePayment`, as any provider's outcome does.
 */

export type { StoredBlik };

/** How long a code lives, and how long the test provider's bank app takes to answer. */
export interface BlikSettings {
  codeLifetimeMs: number;
  testApprovalMs: number;
}

/** A BLIK code lives two minutes. */
export const DEFAULT_BLIK_SETTINGS: BlikSettings = { codeLifetimeMs: 120_000, testApprovalMs: DEFAULT_TEST_APPROVAL_MS };

/** How long after its code expired a payment still waits for the provider before it counts as timed out. */
export const BLIK_GRACE_MS = 5_000;

/** Why a code was not sent: the payment is paid, already had its code, cannot take BLIK, or has ended otherwise. */
export type BlikRefusalReason = 'paid' | 'sent' | 'unavailable' | 'ended';

const REFUSALS: Record<BlikRefusalReason, string> = {
  paid: 'This payment is already paid',
  sent: 'A BLIK code was already sent for this payment',
  unavailable: 'BLIK is not available for this payment',
  ended: 'This payment has ended',
};

/** A code the payment does not take; the HTTP layer answers it 409 (or 422 naming `payment.method` for `unavailable`). */
export class BlikRefusedError extends Error {
  readonly reason: BlikRefusalReason;

  constructor(reason: BlikRefusalReason) {
    super(REFUSALS[reason]);
    this.name = 'BlikRefusedError';
    this.reason = reason;
  }
}

/** What a buyer is told of a malformed code: never the code itself. */
export const BLIK_CODE_PROBLEM = 'must be the six digits from your bank app';

/**
 * The code a buyer typed, spaces removed (`777 123` as the bank app shows it), or `undefined` when it
 * is not exactly six ASCII digits.
 */
export function blikCodeOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 32) return undefined;
  const code = value.replace(/ /g, '');
  return /^[0-9]{6}$/.test(code) ? code : undefined;
}

/** BLIK is offered when the provider takes codes on our page and the sale is in złoty. */
export function blikAvailable(provider: PaymentProvider | null | undefined, currency: string): boolean {
  return provider?.blik !== undefined && currency === 'PLN';
}

/** The payment's BLIK state as answers show it, or `undefined` for a payment without BLIK. */
export function blikStateOf(payment: PaymentData): BlikState | undefined {
  const blik = payment.blik;
  return blik ? { method: 'blik', status: blik.status, reason: blik.reason, expires_at: blik.expires_at } : undefined;
}

/** A checkout's outcome with BLIK's own `failed`: nothing was charged, and a new code may follow. */
export function blikOutcome(payment: PaymentData): ReturnType<typeof checkoutOutcome> | 'failed' {
  if (!payment.paid && payment.blik?.status === 'failed') return 'failed';
  return checkoutOutcome(payment);
}

export interface BlikSend {
  provider: PaymentProvider;
  /** The payment's token. */
  token: string;
  /** A code checked by `blikCodeOf`. */
  code: string;
  /** What the provider is told of the payment (its return addresses, the buyer's language). */
  describe: (payment: PaymentData) => ProviderPayment;
  settings: BlikSettings;
  /** The account the caller acts for: a payment of another account is not found. */
  accountId?: number | undefined;
  /** Whether a new code may follow a failed one (the checkout page); the API takes one code per payment. */
  again?: boolean;
}

/**
 * Sends a buyer's code for an unpaid payment, once. The payment is marked pending (with when the
 * code expires) before the code goes, in a transaction that locks it, so that two requests never
 * both send one; then the provider has it. A code refused at once, or a provider that cannot be
 * reached, ends the attempt as failed through `settlePayment`.
 */
export async function sendBlikCode(issuing: Issuing, send: BlikSend): Promise<StoredRow<PaymentData>> {
  const { provider } = send;
  const claimed = await issuing.db.transaction(async (tx) => {
    const found = await byToken<PaymentData>(tx, 'payments', send.token, true);
    if (send.accountId !== undefined && found.account.id !== send.accountId) throw notFound();
    const current = found.row.data;
    if (current.paid) throw new BlikRefusedError('paid');
    if (!blikAvailable(provider, current.currency)) throw new BlikRefusedError('unavailable');
    if (current.blik && !(send.again && blikOutcome(current) === 'failed')) throw new BlikRefusedError('sent');
    if (!current.blik && checkoutOutcome(current) !== 'pending') throw new BlikRefusedError('ended');
    const expires = new Date(issuing.clock().getTime() + send.settings.codeLifetimeMs);
    const data: PaymentData = {
      ...current,
      provider: provider.id,
      provider_status: null,
      provider_title: null,
      blik: { status: 'pending', reason: null, expires_at: expires.toISOString() },
    };
    return updateRow(tx, 'payments', found.account.id, found.row.id, data);
  });
  // Whatever the provider throws may quote the request: it is reduced to a reason, never logged here.
  const charge: BlikCharge = await provider.blik!.chargeByCode(send.describe(claimed.data), send.code).catch(() => ({ failed: 'provider_error' }));
  if ('failed' in charge) {
    const settled = await settlePayment(issuing, { token: send.token, outcome: 'declined', failure: charge.failed, providerId: provider.id, reference: charge.reference });
    return settled.row;
  }
  return issuing.db.transaction(async (tx) => {
    const found = await byToken<PaymentData>(tx, 'payments', send.token, true);
    // A notification may have come first and recorded the reference already.
    if (found.row.data.provider_title != null) return found.row;
    return updateRow(tx, 'payments', found.account.id, found.row.id, { ...found.row.data, provider_title: charge.reference });
  });
}

/** `settleDueBlik` for each BLIK payment of a read. */
export async function settleDueBliks(issuing: Issuing, rows: StoredRow<PaymentData>[]): Promise<StoredRow<PaymentData>[]> {
  if (!rows.some((row) => row.data.blik)) return rows;
  return Promise.all(rows.map((row) => (row.data.blik ? settleDueBlik(issuing, row) : row)));
}

/**
 * Brings a BLIK payment up to date when it is read: the test provider's bank app answers once its
 * time has come, and a payment still pending `BLIK_GRACE_MS` after its code expired is failed with
 * `timeout`. Both are recorded through `settlePayment`, so a paid answer after the timeout still
 * settles the payment, once, and its e-mail tells the buyer the payment came late.
 */
export async function settleDueBlik(issuing: Issuing, row: StoredRow<PaymentData>): Promise<StoredRow<PaymentData>> {
  const payment = row.data;
  const blik = payment.blik;
  if (!blik || payment.paid || blik.status === 'paid') return row;
  const now = issuing.clock().getTime();
  const deadline = Date.parse(blik.expires_at) + BLIK_GRACE_MS;
  const answer = payment.provider === 'test' ? testBlikAnswer(payment.provider_title as string | null) : undefined;
  const settle = async (outcome: 'paid' | 'declined', failure?: BlikFailureReason) =>
    (await settlePayment(issuing, { token: payment.token, outcome, failure, providerId: String(payment.provider), reference: payment.provider_title as string | undefined })).row;
  let current = row;
  if (blik.status === 'pending') {
    if (answer && answer.at <= Math.min(now, deadline)) return settle(answer.outcome, answer.outcome === 'declined' ? 'declined' : undefined);
    if (now <= deadline) return row;
    current = await settle('declined', 'timeout');
  }
  // Money that moved after the page gave up still settles the payment.
  if (current.data.blik?.reason === 'timeout' && answer?.outcome === 'paid' && answer.at <= now) return settle('paid');
  return current;
}
