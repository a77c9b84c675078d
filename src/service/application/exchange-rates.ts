import { decimal, mul, round, toPlain } from '../../kernel/money.js';
import type { NbpClient } from '../../server-kit/registries/index.js';
import type { Database, Sql } from '../db.js';
import { type KeptRate, keepRate, keptRate } from '../data/exchange-rates.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { isKsefKind } from '../ksef/fa3/build.js';

/**
 * The PLN rate a foreign-currency invoice is taxed at (art. 31a of the VAT act): the NBP table A mid
 * rate of the last working day before the tax point. The issuing step never waits on NBP inside its
 * transaction: the rate is fetched before it (`prefetchRate`) and kept, and the step only reads what
 * is kept. When NBP could not answer, the invoice is issued waiting for its rate and the rate worker
 * (`rate-worker.ts`) completes it; it goes to KSeF only then. A rate the caller gave wins.
 */

/** Asks NBP for the rate of `currency` on the last working day before `taxPoint`; throws when NBP cannot answer. */
export type RateSource = (currency: string, taxPoint: string) => Promise<Omit<KeptRate, 'currency' | 'taxPoint'>>;

/** NBP's table A through its client: a currency NBP publishes no rate for is as good as NBP not answering. */
export function nbpRates(nbp: NbpClient): RateSource {
  return async (currency, taxPoint) => {
    const rate = await nbp.rateBefore(currency, taxPoint);
    if (!rate) throw new Error(`NBP publishes no table A rate for ${currency}`);
    return { rate: rate.mid, table: rate.tableNo, effectiveDate: rate.effectiveDate };
  };
}

type Stored = InvoiceData & Record<string, unknown>;

/** The day the tax obligation arose: the sale's date, or the issue date when none is given. */
export function taxPointOf(data: Pick<InvoiceData, 'sell_date' | 'issue_date'>): string {
  return data.sell_date || data.issue_date;
}

const polishSeller = (data: Stored) => {
  const country = String(data.seller_country ?? '').trim().toUpperCase();
  return country === '' || country === 'PL' || country === 'POLSKA' || country === 'POLAND';
};

/** Whether an invoice needs a PLN rate: a Polish seller's VAT document in another currency. */
export function needsRate(data: InvoiceData): boolean {
  const stored = data as Stored;
  return String(data.currency ?? 'PLN').toUpperCase() !== 'PLN' && isKsefKind(data.kind) && polishSeller(stored);
}

/** Fetches and keeps the rate an invoice of `currency` and `taxPoint` will take; quiet when NBP cannot answer. */
export async function prefetchRate(db: Database, source: RateSource, currency: string, taxPoint: string): Promise<KeptRate | undefined> {
  const code = currency.toUpperCase();
  if (code === 'PLN' || !/^[A-Z]{3}$/.test(code) || !/^\d{4}-\d{2}-\d{2}$/.test(taxPoint)) return undefined;
  const kept = await keptRate(db, code, taxPoint);
  if (kept) return kept;
  try {
    const rate = { currency: code, taxPoint, ...(await source(code, taxPoint)) };
    await keepRate(db, rate);
    return rate;
  } catch {
    return undefined;
  }
}

export type RateOutcome = 'not_needed' | 'given' | 'set' | 'waiting';

/** The exchange fields of an invoice taxed at `rate`, with its VAT in PLN. */
export function rateFields(data: InvoiceData, rate: KeptRate): Record<string, unknown> {
  return {
    exchange_currency: 'PLN',
    exchange_currency_rate: rate.rate,
    exchange_kind: 'nbp',
    exchange_date: rate.effectiveDate,
    exchange_table: rate.table,
    exchange_note: `${rate.table} (${rate.effectiveDate})`,
    price_tax_pln: toPlain(round(mul(decimal(data.price_tax), decimal(rate.rate)), 2)),
  };
}

/**
 * Gives a new invoice its rate from what is kept: a rate the caller gave stays (`given`), a kept
 * one is set (`set`), and without one the invoice waits (`waiting`).
 */
export async function applyExchangeRate(tx: Sql, data: InvoiceData): Promise<RateOutcome> {
  if (!needsRate(data)) return 'not_needed';
  const stored = data as Stored;
  if (typeof stored.exchange_currency_rate === 'string' && stored.exchange_currency_rate !== '' && decimal(stored.exchange_currency_rate).units > 0n) {
    stored.exchange_currency ??= 'PLN';
    if (!stored.exchange_kind) stored.exchange_kind = 'own';
    stored.price_tax_pln = toPlain(round(mul(decimal(data.price_tax), decimal(stored.exchange_currency_rate)), 2));
    return 'given';
  }
  const kept = await keptRate(tx, data.currency.toUpperCase(), taxPointOf(data));
  if (kept) {
    Object.assign(stored, rateFields(data, kept));
    return 'set';
  }
  stored.exchange_rate_pending = true;
  return 'waiting';
}
