import { DECIMAL_LIMITS } from '../../api/schemas/common.js';
import {
  add,
  compare,
  type Decimal,
  decimal,
  div,
  HUNDRED,
  isZero,
  minorUnits,
  mul,
  ONE,
  round,
  sub,
  sum,
  toPlain,
  toWire,
  ZERO,
} from '../../kernel/money.js';
import type { DiscountKind } from '../../api/schemas/invoice.js';

/** The currency and the tax rate that a product or a position takes when the input names none. */
export const DEFAULT_CURRENCY = 'PLN';
export const DEFAULT_TAX = '23';

/**
 * Invoice amounts, computed exactly: each position is rounded to the currency's minor unit, then
 * the invoice totals are the sums of the rounded positions (reference, "Amounts").
 */
export interface PricedLine {
  quantity: string;
  tax: string;
  /** Exactly one price is used, in this order of preference. */
  total_price_gross?: string | null | undefined;
  total_price_net?: string | null | undefined;
  price_gross?: string | null | undefined;
  price_net?: string | null | undefined;
  discount_percent?: string | null | undefined;
  discount?: string | null | undefined;
}

export interface LineAmounts {
  price_net: string;
  price_gross: string;
  price_tax: string;
  total_price_net: string;
  total_price_gross: string;
  total_price_tax: string;
  discount: string | null;
  discount_percent: string | null;
}

export interface Totals {
  price_net: string;
  price_tax: string;
  price_gross: string;
}

export class AmountError extends Error {}


/** The rate of a tax value: a percentage, or 0 for the codes `zw`, `np` and `disabled`. */
export function taxRate(tax: string): Decimal {
  return /^[a-z]+$/i.test(tax) ? ZERO : decimal(tax);
}

const WORKING_SCALE = 10;
const MAX_LINE_TOTAL = decimal(`${'9'.repeat(DECIMAL_LIMITS.integerDigits)}.99`);

export function computeLine(line: PricedLine, currency: string, discountKind: DiscountKind | null): LineAmounts {
  const digits = minorUnits(currency);
  const quantity = decimal(line.quantity);
  if (isZero(quantity)) throw new AmountError('quantity must not be zero');
  const rate = taxRate(line.tax);
  const factor = add(ONE, div(rate, HUNDRED, WORKING_SCALE));

  let basis: 'gross' | 'net';
  let unitList: Decimal;
  if (line.total_price_gross != null) {
    basis = 'gross';
    unitList = div(decimal(line.total_price_gross), quantity, WORKING_SCALE);
  } else if (line.price_gross != null) {
    basis = 'gross';
    unitList = decimal(line.price_gross);
  } else if (line.total_price_net != null) {
    basis = 'net';
    unitList = div(decimal(line.total_price_net), quantity, WORKING_SCALE);
  } else if (line.price_net != null) {
    basis = 'net';
    unitList = decimal(line.price_net);
  } else {
    throw new AmountError('needs a price: total_price_gross, price_gross, price_net or a product');
  }

  const listTotal = mul(unitList, quantity);
  let discountAmount: Decimal = ZERO;
  const percent = line.discount_percent != null ? decimal(line.discount_percent) : undefined;
  if (discountKind === 'amount' && line.discount != null) {
    discountAmount = decimal(line.discount);
  } else if (discountKind !== 'amount' && percent && !isZero(percent)) {
    discountAmount = div(mul(listTotal, percent), HUNDRED, WORKING_SCALE);
  }
  if (compare(discountAmount, listTotal) > 0 && compare(listTotal, ZERO) > 0) {
    throw new AmountError('discount is larger than the position');
  }

  let totalNet: Decimal;
  let totalGross: Decimal;
  if (basis === 'gross') {
    totalGross = round(sub(listTotal, discountAmount), digits);
    totalNet = round(div(totalGross, factor, WORKING_SCALE), digits);
  } else {
    totalNet = round(sub(listTotal, discountAmount), digits);
    totalGross = add(totalNet, round(div(mul(totalNet, rate), HUNDRED, WORKING_SCALE), digits));
  }
  // A position's total (quantity × price) is bounded like any amount, so sums stay exact and printable.
  if (compare(totalGross, MAX_LINE_TOTAL) > 0 || compare(totalGross, sub(ZERO, MAX_LINE_TOTAL)) < 0) {
    throw new AmountError(`is too large: a position's total may have at most ${DECIMAL_LIMITS.integerDigits} digits before the decimal point`);
  }
  const unitGross = basis === 'gross' ? round(unitList, digits) : round(mul(unitList, factor), digits);
  const unitNet = basis === 'net' ? round(unitList, digits) : round(div(unitList, factor, WORKING_SCALE), digits);
  const hasDiscount = !isZero(discountAmount);

  return {
    price_net: toWire(unitNet),
    price_gross: toWire(unitGross),
    price_tax: toWire(sub(unitGross, unitNet)),
    total_price_net: toWire(totalNet),
    total_price_gross: toWire(totalGross),
    total_price_tax: toWire(sub(totalGross, totalNet)),
    discount: hasDiscount ? toWire(round(discountAmount, digits)) : null,
    discount_percent: percent && discountKind !== 'amount' ? toWire(percent) : null,
  };
}

export function computeTotals(lines: readonly Pick<LineAmounts, 'total_price_net' | 'total_price_gross'>[]): Totals {
  const net = sum(lines.map((l) => decimal(l.total_price_net)));
  const gross = sum(lines.map((l) => decimal(l.total_price_gross)));
  return { price_net: toWire(net), price_tax: toWire(sub(gross, net)), price_gross: toWire(gross) };
}

/** A product's other price from the one given and its tax rate. */
export function derivePrices(
  given: { price_net?: string | null; price_gross?: string | null },
  tax: string,
  currency: string,
): { price_net: string; price_gross: string } {
  const digits = minorUnits(currency);
  const factor = add(ONE, div(taxRate(tax), HUNDRED, WORKING_SCALE));
  if (given.price_gross != null) {
    const gross = round(decimal(given.price_gross), digits);
    return { price_gross: toWire(gross), price_net: toWire(round(div(gross, factor, WORKING_SCALE), digits)) };
  }
  const net = round(decimal(given.price_net ?? '0'), digits);
  return { price_net: toWire(net), price_gross: toWire(round(mul(net, factor), digits)) };
}

/** `"23"` for a rate, the code itself for `zw`, `np`, `disabled`. */
export function normalizeTax(tax: string): string {
  return /^[a-z]+$/i.test(tax) ? tax.toLowerCase() : toPlain(decimal(tax));
}
