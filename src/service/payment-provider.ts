import type { ServiceContext } from './http.js';

/**
 * Whether the test payment provider answers: the Pay (and Decline) pages behind `payment_url` and
 * a payment's checkout page, which record payments without any money moving. On in `npm start` and
 * in tests, off unless configured (`--test-payments`, `INVOICEKIT_TEST_PAYMENTS=1`): in production
 * anyone holding an invoice link could otherwise mark it paid. This is the one place it is decided.
 */
export function testPaymentsEnabled(c: ServiceContext): boolean {
  return c.get('config').testPayments;
}
