import { COUNTRY_CODES } from '../../kernel/validation/fields.js';

/** The list of the last locale asked for (a page's elements share one language), as [code, name] pairs. */
let last: [locale: string, options: [code: string, name: string][]] | undefined;

/**
 * Every ISO 3166-1 country, named in `locale` by the browser (`Intl.DisplayNames`) and sorted by
 * that name as its readers sort (`localeCompare`). Only the codes ship; the names come from the
 * browser, in whatever language the buyer reads.
 */
export function countriesByName(locale: string): readonly (readonly [code: string, name: string])[] {
  if (last?.[0] !== locale) {
    const names = new Intl.DisplayNames(locale, { type: 'region' });
    last = [locale, COUNTRY_CODES.map((code): [string, string] => [code, names.of(code)!]).sort((a, b) => a[1].localeCompare(b[1], locale))];
  }
  return last[1];
}
