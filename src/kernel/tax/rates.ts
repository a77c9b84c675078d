/**
 * The rates the engine knows: what a Polish invoice may carry (FA(3)'s `TStawkaPodatku`) and each
 * member state's standard rate for the OSS procedure.
 */

/** The EU member states, by ISO 3166-1 code (Greece is GR here, EL only in VAT numbers). */
export const EU_COUNTRIES: readonly string[] = 'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ');

export const isEuCountry = (country: string | null | undefined): boolean => EU_COUNTRIES.includes((country ?? '').trim().toUpperCase());

/**
 * The standard rate of each member state on 1 January 2026 (the European Commission's "VAT rates
 * applied in the Member States"), which the OSS procedure charges. Estonia 24 since July 2025,
 * Romania 21 since August 2025, Slovakia 23 since 2025, Finland 25.5 since September 2024.
 */
const STANDARD_RATES: Readonly<Record<string, string>> = {
  AT: '20', BE: '21', BG: '20', CY: '19', CZ: '21', DE: '19', DK: '25', EE: '24', ES: '21', FI: '25.5',
  FR: '20', GR: '24', HR: '25', HU: '27', IE: '23', IT: '22', LT: '21', LU: '17', LV: '21', MT: '18',
  NL: '21', PL: '23', PT: '23', RO: '21', SE: '25', SI: '22', SK: '23',
};

/** A member state's standard rate (`DE` → `'19'`), or undefined outside the EU. */
export function ossStandardRate(country: string): string | undefined {
  const code = country.trim().toUpperCase();
  return Object.hasOwn(STANDARD_RATES, code) ? STANDARD_RATES[code] : undefined;
}

/** The percentages FA(3)'s `P_12` takes (`TStawkaPodatku`): 23 and 8 and 5, the old 22 and 7, 4 and 3 (flat-rate taxi). */
const POLISH_PERCENTAGES = ['23', '22', '8', '7', '5', '4', '3', '0'];
/** Codes in place of a percentage: exempt, not taxable in Poland, domestic reverse charge. */
const POLISH_CODES = ['zw', 'np', 'oo'];

/** A number as the rate it is (`'23.00'` → `'23'`), or the text lower-cased when it is a code. */
export function normalRate(rate: string): string {
  const text = rate.trim().toLowerCase();
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(text)) return text;
  const [whole, fraction = ''] = text.split('.');
  const digits = fraction.replace(/0+$/, '');
  return `${String(Number(whole))}${digits ? `.${digits}` : ''}`;
}

/** Whether a position's `tax` is one a Polish invoice may carry, as KSeF's FA(3) `P_12` accepts it. */
export function isPolishInvoiceRate(rate: string): boolean {
  const normal = normalRate(rate);
  return POLISH_PERCENTAGES.includes(normal) || POLISH_CODES.includes(normal);
}

/** A rate that is a percentage (`'19'`, `'25.5'`), as opposed to a code (`'zw'`, `'np'`). */
export const isPercentage = (rate: string): boolean => /^\d{1,3}(\.\d{1,4})?$/.test(rate.trim());
