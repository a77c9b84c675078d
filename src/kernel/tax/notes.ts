import type { TaxCase } from './rules.js';

/**
 * The words the law requires on the invoice of each case (art. 106e ust. 1 pkt 18 and 19 and ust. 4–5
 * ustawy o VAT; art. 226 pkt 11 dyrektywy 2006/112/WE): the reverse-charge wording, the basis of a 0%
 * rate, an exemption or a sale outside the Polish VAT, and the OSS marking.
 */

export interface TaxNoteDetails {
  /** The member state whose VAT an OSS invoice charges (`DE`). */
  ossCountry?: string | null;
  /** The invoice's own exemption basis (the hosted service's `exempt_tax_kind`). */
  exemptBasis?: string | null;
}

type Lang = 'pl' | 'en';

const NOTES: Readonly<Record<TaxCase, Readonly<Record<Lang, readonly string[]>>>> = {
  domestic: { pl: [], en: [] },
  eu_consumer_domestic: { pl: [], en: [] },
  intra_eu_supply: {
    pl: ['Wewnątrzwspólnotowa dostawa towarów, stawka 0% (art. 42 ust. 1 ustawy o VAT; art. 138 ust. 1 dyrektywy 2006/112/WE)'],
    en: ['Intra-Community supply of goods, VAT 0% (Art. 42(1) of the Polish VAT Act; Art. 138(1) of Directive 2006/112/EC)'],
  },
  eu_reverse_charge: {
    pl: ['Odwrotne obciążenie', 'Usługa niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju nabywcy (art. 28b ust. 1 ustawy o VAT; art. 44 i art. 196 dyrektywy 2006/112/WE)'],
    en: ['Reverse charge', "Not subject to Polish VAT, place of supply in the buyer's country (Art. 28b(1) of the Polish VAT Act; Art. 44 and Art. 196 of Directive 2006/112/EC)"],
  },
  non_eu_service: {
    pl: ['Usługa niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju nabywcy poza Unią Europejską (art. 28b ust. 1 ustawy o VAT; art. 44 dyrektywy 2006/112/WE)'],
    en: ["Not subject to Polish VAT, place of supply in the buyer's country outside the European Union (Art. 28b(1) of the Polish VAT Act; Art. 44 of Directive 2006/112/EC)"],
  },
  non_eu_consumer_electronic: {
    pl: ['Usługa elektroniczna niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju konsumenta (art. 28k ust. 1 ustawy o VAT; art. 58 ust. 1 dyrektywy 2006/112/WE)'],
    en: ["Electronically supplied service not subject to Polish VAT, place of supply in the consumer's country (Art. 28k(1) of the Polish VAT Act; Art. 58(1) of Directive 2006/112/EC)"],
  },
  export: {
    pl: ['Eksport towarów, stawka 0% (art. 41 ust. 4 ustawy o VAT; art. 146 ust. 1 dyrektywy 2006/112/WE)'],
    en: ['Export of goods, VAT 0% (Art. 41(4) of the Polish VAT Act; Art. 146(1) of Directive 2006/112/EC)'],
  },
  oss: {
    pl: ['Procedura OSS (procedura unijna, art. 130a–130d ustawy o VAT; art. 369a–369k dyrektywy 2006/112/WE)'],
    en: ['OSS procedure (Union scheme, Art. 130a–130d of the Polish VAT Act; Art. 369a–369k of Directive 2006/112/EC)'],
  },
  exempt: {
    pl: ['Zwolnienie z VAT'],
    en: ['Exempt from VAT'],
  },
};

/** The lines the law requires on the invoice for that case, in the invoice's language. */
export function taxNotes(taxCase: TaxCase, lang: Lang, details: TaxNoteDetails = {}): string[] {
  const notes = [...NOTES[taxCase][lang]];
  const country = (details.ossCountry ?? '').trim().toUpperCase();
  if (taxCase === 'oss' && country) notes.push(lang === 'pl' ? `VAT państwa członkowskiego konsumpcji: ${country}` : `VAT of the member state of consumption: ${country}`);
  const basis = (details.exemptBasis ?? '').trim();
  if (taxCase === 'exempt' && basis) notes[0] = `${notes[0]}: ${basis}`;
  return notes;
}
