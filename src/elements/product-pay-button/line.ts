/**
 * The VAT a gross amount holds, computed exactly (BigInt, never floats) so the dialog shows the VAT the
 * invoice will: the gross in the currency's minor units, the net the gross divided by (1 + rate) at 10
 * decimal places and then to the minor unit, each rounded half up, and the VAT the difference. `rate`
 * is `"23%"`, or the tax code (`"zw"`) as given.
 */
export interface VatSplit {
  vat: string;
  rate: string;
}

/** A non-negative decimal string as [units, scale]. */
const parse = (text: string): [bigint, number] => {
  const [whole, fraction = ''] = text.split('.');
  return [BigInt(whole + fraction), fraction.length];
};
const p10 = (n: number) => 10n ** BigInt(n);
/** n / d, both positive, rounded half up. */
const divRound = (n: bigint, d: bigint) => (n * 2n + d) / (d * 2n);
const text = (units: bigint, scale: number) => {
  const digits = String(units).padStart(scale + 1, '0');
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
};

export function vatOf(gross: string, tax: string, currency: string): VatSplit {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const [units, scale] = parse(gross);
  const total = divRound(units * p10(digits), p10(scale));
  const numeric = /^[\d.]+$/.test(tax);
  const [rate, rateScale] = numeric ? parse(tax) : [0n, 0];
  const hundred = 100n * p10(rateScale);
  const net = divRound(divRound(total * p10(10 - digits) * hundred, hundred + rate), p10(10 - digits));
  return { vat: text(total - net, digits), rate: numeric ? `${+tax}%` : tax };
}
