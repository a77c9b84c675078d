/**
 * The checkout line as the service will invoice it, computed exactly (BigInt, never floats) so the
 * dialog shows the same VAT and total the invoice will: the gross total is the unit price times the
 * quantity in the currency's minor units, the net is the gross divided by (1 + rate) at 10 decimal
 * places and then to the minor unit, each rounded half up, and the VAT is the difference.
 */
export interface LineTotals {
  total: string;
  net: string;
  vat: string;
  /** `"23%"`, or the tax code (`"zw"`) as given. */
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

export function lineTotals(unitGross: string, quantity: number, tax: string, currency: string): LineTotals {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const [units, scale] = parse(unitGross);
  const total = divRound(units * BigInt(quantity) * p10(digits), p10(scale));
  const numeric = /^[\d.]+$/.test(tax);
  const [rate, rateScale] = numeric ? parse(tax) : [0n, 0];
  const hundred = 100n * p10(rateScale);
  const net = divRound(divRound(total * p10(10 - digits) * hundred, hundred + rate), p10(10 - digits));
  return { total: text(total, digits), net: text(net, digits), vat: text(total - net, digits), rate: numeric ? `${+tax}%` : tax };
}
