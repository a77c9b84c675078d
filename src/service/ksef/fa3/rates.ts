import { isPercentage, normalRate } from '../../../kernel/tax/index.js';

/**
 * Where a line's tax goes in FA(3): the per-rate sum (`P_13_x`) it adds to and its `P_12` code (or,
 * under OSS, its `P_12_XII` rate). The line's `tax` is the hosted service's (`23`, `8`, `0`, `zw`,
 * `np`…); the invoice's kind and its `np_tax_kind`, `reverse_charge` and OSS flag decide the rest, as
 * the tax engine set them (docs/decisions/tax-engine.md).
 */

export const SLOT_ORDER = [
  'basic', 'reduced1', 'reduced2', 'taxi', 'oss', 'zeroDomestic', 'zeroWdt', 'zeroExport', 'zw', 'np', 'npEuServices',
  'reverseCharge', 'margin',
] as const;
export type RateSlot = (typeof SLOT_ORDER)[number];

export interface VatContext {
  readonly kind: string;
  readonly npTaxKind: string | null;
  readonly reverseCharge: boolean;
  readonly oss: boolean;
}

export interface LineRate {
  readonly slot: RateSlot | 'unsupported';
  /** `P_12` (`TStawkaPodatku`); null where FA(3) has none (the margin procedure, OSS rates). */
  readonly p12: string | null;
  /** `P_12_XII`: the member state's rate of a sale under OSS (dział XII rozdział 6a ustawy). */
  readonly p12xii?: string;
}

const PERCENT_SLOTS: Record<string, RateSlot> = { '23': 'basic', '22': 'basic', '8': 'reduced1', '7': 'reduced1', '5': 'reduced2', '4': 'taxi', '3': 'taxi' };

/** A line's rate as FA(3) names it. */
export function rateOf(tax: string, vat: VatContext): LineRate {
  if (vat.kind === 'vat_margin' || vat.kind === 'vat_mp') return { slot: 'margin', p12: null };
  const code = normalRate(tax);
  if (code === 'zw') return { slot: 'zw', p12: 'zw' };
  // A service taxed where the EU buyer is (art. 100 ust. 1 pkt 4): np II, whether or not the reverse charge is also marked (P_18).
  if (code === 'np') return vat.npTaxKind === 'export_service_eu' || (vat.reverseCharge && !vat.npTaxKind) ? { slot: 'npEuServices', p12: 'np II' } : { slot: 'np', p12: 'np I' };
  if (code === 'oo' || vat.reverseCharge) return { slot: 'reverseCharge', p12: 'oo' };
  if (!isPercentage(code)) return { slot: 'unsupported', p12: null };
  if (code === '0') {
    if (vat.kind === 'wdt') return { slot: 'zeroWdt', p12: '0 WDT' };
    if (vat.kind === 'export_products') return { slot: 'zeroExport', p12: '0 EX' };
    return { slot: 'zeroDomestic', p12: '0 KR' };
  }
  // Under OSS every percentage is the member state's, even one that equals a Polish rate.
  if (vat.oss) return { slot: 'oss', p12: null, p12xii: code };
  const slot = PERCENT_SLOTS[code];
  return slot ? { slot, p12: code } : { slot: 'unsupported', p12: null };
}
