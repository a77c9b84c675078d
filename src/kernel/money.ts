/**
 * Exact decimal arithmetic for money, quantities and rates.
 *
 * A `Decimal` is an integer count of `10^-scale` units held in a bigint, so no amount ever passes
 * through a binary float. Division rounds half away from zero, the way invoices are rounded.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^([+-])?(\d*)(?:[.,](\d*))?$/;

export class DecimalFormatError extends Error {
  constructor(input: unknown) {
    super(`not a decimal number: ${String(input)}`);
    this.name = 'DecimalFormatError';
  }
}

/** Reads `"59,00"`, `"58.32"`, `" 7 "`, `12` or `-0.5`; throws `DecimalFormatError` on anything else. */
export function decimal(input: string | number | bigint | Decimal): Decimal {
  if (typeof input === 'object') return input;
  if (typeof input === 'bigint') return { units: input, scale: 0 };
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new DecimalFormatError(input);
    // The shortest round-tripping text of a float is the decimal the sender meant.
    input = numberToPlainText(input);
  }
  const text = input.trim().replace(/[\s\u00a0]/g, '');
  const match = DECIMAL_TEXT.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new DecimalFormatError(input);
  const fraction = match[3] ?? '';
  if (match[2]!.length + fraction.length > 30) throw new DecimalFormatError(input);
  const units = BigInt((match[2] || '0') + fraction);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

export function isDecimalText(input: unknown): boolean {
  if (typeof input === 'number') return Number.isFinite(input);
  if (typeof input !== 'string') return false;
  try {
    decimal(input);
    return true;
  } catch {
    return false;
  }
}

function numberToPlainText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function rescale(a: Decimal, scale: number): bigint {
  return scale >= a.scale ? a.units * pow10(scale - a.scale) : a.units / pow10(a.scale - scale);
}

/** Integer division of `n / d` rounded half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  let q = an / ad;
  if ((an % ad) * 2n >= ad) q += 1n;
  return negative ? -q : q;
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function sub(a: Decimal, b: Decimal): Decimal {
  return add(a, negate(b));
}

export function negate(a: Decimal): Decimal {
  return { units: -a.units, scale: a.scale };
}

export function mul(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** `a / b` rounded to `scale` decimal places. */
export function div(a: Decimal, b: Decimal, scale: number): Decimal {
  // a.units/10^a.scale ÷ b.units/10^b.scale, expressed in units of 10^-scale
  const n = a.units * pow10(scale + b.scale);
  const d = b.units * pow10(a.scale);
  return { units: divRound(n, d), scale };
}

/** Rounds to `scale` decimal places, half away from zero. */
export function round(a: Decimal, scale: number): Decimal {
  if (a.scale <= scale) return { units: rescale(a, scale), scale };
  return { units: divRound(a.units, pow10(a.scale - scale)), scale };
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZero(a: Decimal): boolean {
  return a.units === 0n;
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total: Decimal = ZERO;
  for (const value of values) total = add(total, value);
  return total;
}

export const ZERO: Decimal = { units: 0n, scale: 0 };
export const ONE: Decimal = { units: 1n, scale: 0 };
export const HUNDRED: Decimal = { units: 100n, scale: 0 };

/** Fixed-point text with exactly `scale` decimals: `toFixed(decimal("5"), 2)` is `"5.00"`. */
export function toFixed(a: Decimal, scale: number): string {
  const r = round(a, scale);
  const negative = r.units < 0n;
  const digits = (negative ? -r.units : r.units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/**
 * The wire form the hosted service uses for decimals: trailing zeros dropped but one decimal kept,
 * `"58.32"`, `"60.2"`, `"13.0"`, `"0.0"`.
 */
export function toWire(a: Decimal): string {
  const text = toFixed(a, a.scale);
  if (!text.includes('.')) return `${text}.0`;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}

/** Plain text with no trailing zeros: `"23"`, `"8.5"`. */
export function toPlain(a: Decimal): string {
  const text = toFixed(a, a.scale);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const minorUnitCache = new Map<string, number>();

/** Digits after the decimal point in a currency's minor unit: PLN 2, JPY 0, KWD 3. */
export function minorUnits(currency: string): number {
  const code = currency.toUpperCase();
  let digits = minorUnitCache.get(code);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    minorUnitCache.set(code, digits);
  }
  return digits;
}

/** Rounds an amount to the currency's minor unit. */
export function roundMoney(a: Decimal, currency: string): Decimal {
  return round(a, minorUnits(currency));
}
