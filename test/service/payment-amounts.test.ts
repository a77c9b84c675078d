import { expect, it } from 'vitest';
import { przelewy24Amount } from '../../src/service/payments/przelewy24.js';
import { stripeMinorAmount } from '../../src/service/payments/stripe.js';

/** Exact decimals as each provider's integer amount, in Stripe's and Przelewy24's own units. */
it("prices in Stripe's minor units, zero- and three-decimal currencies included", () => {
  expect(stripeMinorAmount('1845.00', 'PLN')).toBe(184500);
  expect(stripeMinorAmount('0.1', 'EUR')).toBe(10);
  expect(stripeMinorAmount('1500', 'JPY')).toBe(1500);
  expect(stripeMinorAmount('1500.4', 'JPY')).toBe(1500);
  expect(stripeMinorAmount('99999', 'KRW')).toBe(99999);
  // Three-decimal currencies: thousandths whose last digit is 0.
  expect(stripeMinorAmount('12.345', 'KWD')).toBe(12350);
  // ISK has no minor unit, and Stripe still counts it in hundredths.
  expect(stripeMinorAmount('1000', 'ISK')).toBe(100000);
  expect(stripeMinorAmount('9999999999999.99', 'USD')).toBe(999999999999999);
});

it('prices in grosze for Przelewy24, and refuses currencies without hundredths', () => {
  expect(przelewy24Amount('1845.00', 'PLN')).toBe(184500);
  expect(przelewy24Amount('0.01', 'EUR')).toBe(1);
  expect(() => przelewy24Amount('1500', 'JPY')).toThrow();
});
