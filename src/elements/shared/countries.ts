import { COUNTRY_CODES } from '../../kernel/validation/client.js';

/** A country as a list shows it: its ISO 3166-1 code and its name in the reader's language. */
export type CountryOption = readonly [code: string, name: string];

/** The list of the last locale asked for: every page's elements share one language, so one is kept. */
let last: { locale: string; options: readonly CountryOption[] } | undefined;

/**
 * Every ISO 3166-1 country, named in `locale` by the browser (`Intl.DisplayNames`) and sorted by
 * that name as its readers sort (`localeCompare`). Only the codes ship; the names come from the
 * browser, in whatever language the buyer reads.
 */
export function countriesByName(locale: string): readonly CountryOption[] {
  if (last?.locale !== locale) {
    const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    const options = COUNTRY_CODES.map((code): CountryOption => [code, names.of(code) ?? code]);
    last = { locale, options: options.sort((a, b) => a[1].localeCompare(b[1], locale)) };
  }
  return last.options;
}
