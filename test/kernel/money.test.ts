import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  decimal,
  type Decimal,
  div,
  minorUnits,
  mul,
  negate,
  round,
  roundMoney,
  sub,
  sum,
  toFixed,
  toPlain,
  toWire,
  ZERO,
} from '../../src/kernel/money.js';

/**
 * Properties of the exact decimals every amount passes through: sums that do not depend on order
 * or grouping, rounding to each currency's minor unit, text that reads back as the same number,
 * and no binary float anywhere on the way.
 */
const amount: fc.Arbitrary<Decimal> = fc.record({
  units: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
  scale: fc.integer({ min: 0, max: 8 }),
});
const nonZero = amount.filter((a) => a.units !== 0n);
const same = (a: Decimal, b: Decimal) => compare(a, b) === 0;
const abs = (a: Decimal) => (a.units < 0n ? negate(a) : a);
/** One unit of the `scale`th decimal place: 0.01 for 2. */
const unit = (scale: number): Decimal => ({ units: 1n, scale });

describe('money: sums', () => {
  it('are associative and commutative, exactly, at the larger scale', () => {
    fc.assert(
      fc.property(amount, amount, amount, (a, b, c) => {
        expect(add(add(a, b), c)).toEqual(add(a, add(b, c)));
        expect(add(a, b)).toEqual(add(b, a));
        expect(add(a, b).scale).toBe(Math.max(a.scale, b.scale));
      }),
    );
  });

  it('of a list do not depend on its order', () => {
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 30 }), fc.infiniteStream(fc.nat()), (values, picks) => {
        const shuffled = [...values];
        const stream = picks[Symbol.iterator]();
        for (let i = shuffled.length - 1; i > 0; i -= 1) {
          const j = stream.next().value! % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(sum(shuffled)).toEqual(sum(values));
      }),
    );
  });

  it('have zero as identity and an amount less itself as zero', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(same(add(a, ZERO), a)).toBe(true);
        expect(sub(a, a).units).toBe(0n);
        expect(same(sub(a, negate(a)), add(a, a))).toBe(true);
      }),
    );
  });

  it('agree with compare: a + b > a exactly when b > 0', () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        expect(compare(add(a, b), a)).toBe(compare(b, ZERO));
      }),
    );
  });

  it('multiply and divide back exactly', () => {
    fc.assert(
      fc.property(amount, nonZero, (a, b) => {
        expect(div(mul(a, b), b, a.scale)).toEqual(a);
      }),
    );
  });
});

describe('money: rounding per currency', () => {
  const currencies = [
    ['JPY', 0],
    ['PLN', 2],
    ['EUR', 2],
    ['USD', 2],
    ['KWD', 3],
    ['BHD', 3],
  ] as const;

  it.each(currencies)('%s has %i decimal places', (currency, digits) => {
    expect(minorUnits(currency)).toBe(digits);
    expect(minorUnits(currency.toLowerCase())).toBe(digits);
  });

  it('rounds to the minor unit, at most half a unit away, half away from zero, and once is enough', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...currencies), (a, [currency, digits]) => {
        const rounded = roundMoney(a, currency);
        expect(rounded.scale).toBe(digits);
        expect(compare(mul(abs(sub(rounded, a)), decimal(2)), unit(digits))).toBeLessThanOrEqual(0);
        expect(roundMoney(rounded, currency)).toEqual(rounded);
        // Rounding never crosses zero, and negating commutes with it (half away from zero is symmetric).
        expect(roundMoney(negate(a), currency)).toEqual(negate(rounded));
        if (rounded.units !== 0n) expect(rounded.units > 0n).toBe(a.units > 0n);
      }),
    );
  });

  it('rounds an exact half away from zero', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.constantFrom(...currencies), (whole, [currency, digits]) => {
        const half: Decimal = { units: whole * 10n + 5n, scale: digits + 1 };
        expect(roundMoney(half, currency)).toEqual({ units: whole + 1n, scale: digits });
        expect(roundMoney(negate(half), currency)).toEqual({ units: -(whole + 1n), scale: digits });
      }),
    );
    expect(toFixed(roundMoney(decimal('2.5'), 'JPY'), 0)).toBe('3');
    expect(toFixed(roundMoney(decimal('0.125'), 'PLN'), 2)).toBe('0.13');
    expect(toFixed(roundMoney(decimal('-0.0005'), 'KWD'), 3)).toBe('-0.001');
  });

  it('rounds a total once, not its parts: 3 × 0.333 is 0.999 before rounding, 1.00 after', () => {
    const parts = [decimal('0.333'), decimal('0.333'), decimal('0.334')];
    expect(toFixed(roundMoney(sum(parts), 'PLN'), 2)).toBe('1.00');
    expect(toFixed(round(sum(parts.slice(0, 2)), 2), 2)).toBe('0.67');
  });
});

describe('money: text', () => {
  it('reads back what toFixed, toPlain and toWire write', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(decimal(toFixed(a, a.scale))).toEqual(a);
        expect(same(decimal(toPlain(a)), a)).toBe(true);
        expect(same(decimal(toWire(a)), a)).toBe(true);
      }),
    );
  });

  it('writes back the text it read, in fixed form, with a comma or a point', () => {
    const text = fc
      .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9]\d{0,14})$/), fc.stringMatching(/^\d{0,8}$/))
      .map(([negative, whole, fraction]) => `${negative && /[1-9]/.test(whole + fraction) ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);
    fc.assert(
      fc.property(text, (t) => {
        const scale = t.split('.')[1]?.length ?? 0;
        expect(toFixed(decimal(t), scale)).toBe(t);
        expect(decimal(t.replace('.', ','))).toEqual(decimal(t));
      }),
    );
  });

  it('writes the wire form with one decimal kept and the plain form with none trailing', () => {
    expect(toWire(decimal('58.320'))).toBe('58.32');
    expect(toWire(decimal('13'))).toBe('13.0');
    expect(toWire(decimal('0'))).toBe('0.0');
    expect(toPlain(decimal('8.50'))).toBe('8.5');
    expect(toPlain(decimal('23.00'))).toBe('23');
    fc.assert(
      fc.property(amount, (a) => {
        expect(toWire(a)).toMatch(/^-?\d+\.\d*[1-9]$|^-?\d+\.0$/);
        expect(toPlain(a)).not.toMatch(/\.\d*0$|\.$/);
      }),
    );
  });
});

describe('money: no binary float', () => {
  it('sums 0.1 ten times to exactly 1.00', () => {
    const total = sum(Array.from({ length: 10 }, () => decimal('0.1')));
    expect(toFixed(total, 2)).toBe('1.00');
    expect(same(total, decimal(1))).toBe(true);
    // The same numbers as floats: 0.1 ten times is 0.9999999999999999.
    expect(Array.from({ length: 10 }, () => 0.1).reduce((x, y) => x + y)).not.toBe(1);
    expect(toFixed(add(decimal(0.1), decimal(0.2)), 2)).toBe('0.30');
    expect(toPlain(add(decimal(0.1), decimal(0.2)))).toBe('0.3');
  });

  it('sums n tenths to exactly n/10, however many', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), (n) => {
        const total = sum(Array.from({ length: n }, () => decimal('0.1')));
        expect(total).toEqual({ units: BigInt(n), scale: 1 });
      }),
      { numRuns: 50 },
    );
  });

  it('keeps amounts beyond a float’s 15 to 17 significant digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 10n ** 17n, max: 10n ** 25n }), (units) => {
        const a: Decimal = { units, scale: 2 };
        expect(sub(add(a, unit(2)), a)).toEqual(unit(2));
        expect(decimal(toFixed(a, 2))).toEqual(a);
      }),
    );
  });
});
