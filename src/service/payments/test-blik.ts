import { randomBytes } from 'node:crypto';
import type { BlikCapability, BlikCharge, PaymentOutcome, PaymentProvider } from './provider.js';

/**
 * The test provider's BLIK "level 0". Its codes show every state of the checkout without a bank:
 *
 * - `777123` (and any other six digits): approved in the bank app after the approval delay;
 * - `111111`: a wrong code, refused at once; `222222`: an expired code, refused at once;
 * - `333333`: declined in the bank app, after the approval delay;
 * - `444444`: never answered, so the payment times out when the code expires.
 *
 * It keeps nothing: the answer and the moment it comes are written into the reference it hands back
 * (never the code), so any process reading the payment after that moment finds the same outcome.
 */
export const TEST_BLIK_CODES = {
  approved: '777123',
  wrongCode: '111111',
  expiredCode: '222222',
  declined: '333333',
  unanswered: '444444',
} as const;

/** How long the test bank app takes to approve or decline, unless the service says otherwise. */
export const DEFAULT_TEST_APPROVAL_MS = 2000;

type TestAnswer = 'paid' | 'declined' | 'silent';
const REFERENCE = /^test-blik-(paid|declined|silent)-(\d{1,15})-[0-9a-f]{16}$/;

/** What the test bank app answers for a reference: the outcome and when it comes, or nothing (`silent`, or not a test reference). */
export function testBlikAnswer(reference: string | null | undefined): { outcome: Exclude<PaymentOutcome, 'pending' | 'cancelled'>; at: number } | undefined {
  const match = REFERENCE.exec(reference ?? '');
  if (!match || match[1] === 'silent') return undefined;
  return { outcome: match[1] as 'paid' | 'declined', at: Number(match[2]) };
}

function testCharge(code: string, now: number, approvalMs: number): BlikCharge {
  if (code === TEST_BLIK_CODES.wrongCode) return { failed: 'wrong_code' };
  if (code === TEST_BLIK_CODES.expiredCode) return { failed: 'expired_code' };
  const answer: TestAnswer = code === TEST_BLIK_CODES.declined ? 'declined' : code === TEST_BLIK_CODES.unanswered ? 'silent' : 'paid';
  return { reference: `test-blik-${answer}-${now + approvalMs}-${randomBytes(8).toString('hex')}` };
}

/** The test provider's BLIK, its bank app answering `approvalMs` after the code by `clock`. */
export function testBlik(options: { approvalMs: number; clock: () => Date }): BlikCapability {
  return {
    async chargeByCode(_payment, code) {
      return testCharge(code, options.clock().getTime(), options.approvalMs);
    },
  };
}

/** The test provider with BLIK: `base` (its Pay and Decline) plus codes answered as above. */
export function withTestBlik(base: PaymentProvider, options: { approvalMs: number; clock: () => Date }): PaymentProvider {
  return { ...base, blik: testBlik(options) };
}
