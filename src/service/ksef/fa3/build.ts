import { add, compare, type Decimal, decimal, mul, round, sum, toFixed, toPlain, ZERO } from '../../../api/money.js';
import { buyerIdentity, countryCode, type PartyIdentity, sellerIdentity } from './parties.js';
import { type Podmiot3, thirdParties, type ThirdPartyFields } from './third-parties.js';
import { rateOf, type RateSlot, SLOT_ORDER, type VatContext } from './rates.js';
import { Problems } from '../../domain-errors.js';

/**
 * The FA(3) document (the Ministry's schema `schemat_FA(3)_v1-0E.xsd`) of one invoice, as KSeF takes
 * it. Amounts are the invoice's own: each per-rate sum is the sum of the invoice's rounded lines and
 * `P_15` is its `price_gross`, so the document and the invoice never disagree by a cent.
 */

export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';

/** The kinds of invoice that go to KSeF (hosted guide, "Typy faktur wysyłane do KSeF"). */
export const KSEF_KINDS = ['vat', 'correction', 'advance', 'final', 'wdt', 'export_products', 'vat_margin', 'vat_mp'] as const;
export type KsefKind = (typeof KSEF_KINDS)[number];
export const isKsefKind = (kind: string): kind is KsefKind => (KSEF_KINDS as readonly string[]).includes(kind);

/** A line as the service stores it (amounts already rounded to the currency's minor unit). */
export interface Fa3Line {
  readonly name: string;
  readonly code?: string | null;
  readonly quantity: string;
  readonly quantity_unit?: string | null;
  readonly tax: string;
  readonly price_net: string;
  readonly price_gross: string;
  readonly total_price_net: string;
  readonly total_price_tax: string;
  readonly total_price_gross: string;
  readonly additional_info?: string | null;
  readonly correction_before?: Omit<Fa3Line, 'correction_before' | 'correction_after'> | null;
  readonly correction_after?: Omit<Fa3Line, 'correction_before' | 'correction_after'> | null;
}

/** The stored invoice's fields FA(3) reads (the hosted service's names). */
export interface Fa3Invoice {
  readonly kind: string;
  readonly number: string;
  readonly issue_date: string;
  readonly sell_date?: string | null;
  readonly place?: string | null;
  readonly currency: string;
  readonly price_gross: string;
  readonly payment_to?: string | null;
  readonly payment_type?: string | null;
  readonly paid?: string | null;
  readonly paid_date?: string | null;
  readonly status?: string | null;
  readonly seller_name?: string | null;
  readonly seller_tax_no?: string | null;
  readonly seller_tax_no_kind?: string | null;
  readonly seller_street?: string | null;
  readonly seller_post_code?: string | null;
  readonly seller_city?: string | null;
  readonly seller_country?: string | null;
  readonly seller_email?: string | null;
  readonly seller_phone?: string | null;
  readonly seller_bank?: string | null;
  readonly seller_bank_account?: string | null;
  readonly buyer_name?: string | null;
  readonly buyer_first_name?: string | null;
  readonly buyer_last_name?: string | null;
  readonly buyer_company?: boolean | null;
  readonly buyer_tax_no?: string | null;
  readonly buyer_tax_no_kind?: string | null;
  readonly buyer_street?: string | null;
  readonly buyer_post_code?: string | null;
  readonly buyer_city?: string | null;
  readonly buyer_country?: string | null;
  readonly buyer_email?: string | null;
  readonly buyer_phone?: string | null;
  readonly exempt_tax_kind?: string | null;
  readonly np_tax_kind?: string | null;
  readonly reverse_charge?: boolean | null;
  readonly use_moss?: boolean | null;
  readonly exchange_currency?: string | null;
  readonly exchange_currency_rate?: string | null;
  readonly correction_reason?: string | null;
  readonly description?: string | null;
  readonly description_footer?: string | null;
  readonly descriptions?: readonly { readonly title?: string | null; readonly content?: string | null }[] | null;
  readonly positions: readonly Fa3Line[];
  /** Who issues the invoice for the seller (`Podmiot3`, hosted guide "Wystawca faktury"). */
  readonly issuers?: readonly ThirdPartyFields[] | null;
  /** Parties beside the buyer (`Podmiot3`, hosted guide "Odbiorca faktury"). */
  readonly recipients?: readonly ThirdPartyFields[] | null;
}

/** Another invoice this one names: the corrected one, an advance a final invoice settles. */
export interface Fa3Reference {
  readonly number: string;
  readonly issue_date: string;
  /** Its KSeF number, when it went through KSeF. */
  readonly ksefNumber: string | null;
  /** The corrected invoice's kind (a correction of an advance is `KOR_ZAL`). */
  readonly kind?: string;
  /** A corrected advance's total and rate before the correction (`P_15ZK`, `KursWalutyZK`). */
  readonly price_gross?: string;
  readonly currency?: string;
  readonly exchange_currency_rate?: string | null;
  /** Whether it is on its way to KSeF without a number yet: a correction waits for that number. */
  readonly pending?: boolean;
}

export interface Fa3Context {
  /** `DataWytworzeniaFa`. */
  readonly createdAt: Date;
  /** A correction's corrected invoice. */
  readonly corrected?: Fa3Reference | null;
  /** An advance invoice's order (its lines and total), when it was made from one. */
  readonly order?: Pick<Fa3Invoice, 'price_gross' | 'positions'> | null;
  /** The advances a final invoice settles. */
  readonly advances?: readonly Fa3Reference[];
  readonly systemInfo?: string;
}

export class Fa3Error extends Error {
  override readonly name = 'Fa3Error';
  readonly fields: Record<string, string[]>;
  constructor(fields: Record<string, string[]>) {
    super(`The invoice cannot be written as FA(3): ${Object.entries(fields).map(([f, m]) => `${f} ${m.join(', ')}`).join('; ')}`);
    this.fields = fields;
  }
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
/** `xsd:token`: whitespace collapsed, as the schema compares it. */
const token = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const amount = (value: Decimal | string) => toFixed(typeof value === 'string' ? decimal(value) : value, 2);
/** Quantities and unit prices keep their precision, up to what the schema allows. */
const precise = (value: string, digits: number) => toPlain(round(decimal(value), digits));

class Xml {
  private readonly parts: string[] = [];
  open(name: string, attributes = ''): this {
    this.parts.push(`<${name}${attributes}>`);
    return this;
  }
  close(name: string): this {
    this.parts.push(`</${name}>`);
    return this;
  }
  raw(text: string): this {
    this.parts.push(escapeXml(text));
    return this;
  }
  el(name: string, value: string | number | null | undefined): this {
    if (value === null || value === undefined || value === '') return this;
    this.parts.push(`<${name}>${escapeXml(String(value))}</${name}>`);
    return this;
  }
  text(name: string, value: string | null | undefined, max = 256): this {
    const t = token(value);
    return this.el(name, t ? t.slice(0, max) : null);
  }
  toString(): string {
    return this.parts.join('');
  }
}

/** `RodzajFaktury` of an invoice. */
export function invoiceType(kind: string, corrected?: Fa3Reference | null): 'VAT' | 'KOR' | 'ZAL' | 'ROZ' | 'KOR_ZAL' | 'KOR_ROZ' {
  if (kind === 'advance') return 'ZAL';
  if (kind === 'final') return 'ROZ';
  if (kind === 'correction') return corrected?.kind === 'advance' ? 'KOR_ZAL' : corrected?.kind === 'final' ? 'KOR_ROZ' : 'KOR';
  return 'VAT';
}

/** The margin procedure (`P_13_11`, `PMarzy`): the hosted guide's `vat_margin` and `vat_mp`. */
export const isMarginKind = (kind: string) => kind === 'vat_margin' || kind === 'vat_mp';

/**
 * `P_19A` (a Polish provision), `P_19B` (the VAT directive) or `P_19C` (another basis) for the
 * hosted service's `exempt_tax_kind`, which is one of its four texts or the seller's own.
 */
export function exemptionField(text: string): 'P_19A' | 'P_19B' | 'P_19C' {
  if (/dyrektyw|2006\/112/i.test(text)) return 'P_19B';
  if (/art\.?\s*\d+|ustaw|rozporz/i.test(text)) return 'P_19A';
  return 'P_19C';
}

interface SlotTotals {
  net: Decimal;
  vat: Decimal;
  gross: Decimal;
}

/** The per-rate sums of an invoice's lines (`P_13_x`, `P_14_x`), in the schema's order. */
export function rateTotals(invoice: Fa3Invoice): Map<RateSlot, SlotTotals> {
  const vat = vatContext(invoice);
  const totals = new Map<RateSlot, SlotTotals>();
  for (const line of invoice.positions) {
    const slot = rateOf(line.tax, vat).slot;
    if (slot === 'unsupported') continue;
    const t = totals.get(slot) ?? { net: ZERO, vat: ZERO, gross: ZERO };
    totals.set(slot, {
      net: add(t.net, decimal(line.total_price_net)),
      vat: add(t.vat, decimal(line.total_price_tax)),
      gross: add(t.gross, decimal(line.total_price_gross)),
    });
  }
  return new Map(SLOT_ORDER.filter((slot) => totals.has(slot)).map((slot) => [slot, totals.get(slot)!]));
}

export function vatContext(invoice: Pick<Fa3Invoice, 'kind' | 'np_tax_kind' | 'reverse_charge' | 'use_moss'>): VatContext {
  return {
    kind: invoice.kind,
    npTaxKind: invoice.np_tax_kind ?? null,
    reverseCharge: invoice.reverse_charge === true,
    oss: invoice.use_moss === true,
  };
}

/** The rate KSeF's VAT in PLN is computed at: 1 for PLN invoices. */
export function plnRate(invoice: Pick<Fa3Invoice, 'currency' | 'exchange_currency_rate'>): Decimal | null {
  if (invoice.currency.toUpperCase() === 'PLN') return null;
  return invoice.exchange_currency_rate ? decimal(invoice.exchange_currency_rate) : null;
}

const PAYMENT_FORMS: Record<string, number> = { cash: 1, card: 2, voucher: 3, cheque: 4, loan: 5, transfer: 6, mobile: 7 };

/** The FA(3) XML of an invoice. Throws `Fa3Error` naming each field KSeF cannot take. */
export function buildFa3(invoice: Fa3Invoice, context: Fa3Context): string {
  const problems = fa3Problems(invoice, context);
  if (Object.keys(problems).length > 0) throw new Fa3Error(problems);
  const vat = vatContext(invoice);
  const margin = isMarginKind(invoice.kind);
  const type = invoiceType(invoice.kind, context.corrected);
  const rate = plnRate(invoice);
  const x = new Xml();
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];

  x.open('Faktura', ` xmlns="${FA3_NAMESPACE}"`);
  x.open('Naglowek')
    .open('KodFormularza', ' kodSystemowy="FA (3)" wersjaSchemy="1-0E"').raw('FA').close('KodFormularza')
    .el('WariantFormularza', 3)
    .el('DataWytworzeniaFa', context.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'))
    .text('SystemInfo', context.systemInfo ?? 'invoicekit')
    .close('Naglowek');

  const seller = sellerIdentity(invoice) as { nip: string; internalId: string | null };
  x.open('Podmiot1')
    .open('DaneIdentyfikacyjne').el('NIP', seller.nip).text('Nazwa', invoice.seller_name, 512).close('DaneIdentyfikacyjne');
  address(x, invoice.seller_country, invoice.seller_street, invoice.seller_post_code, invoice.seller_city);
  contact(x, invoice.seller_email, invoice.seller_phone);
  x.close('Podmiot1');

  const buyer = buyerIdentity(invoice);
  const identity = 'identity' in buyer ? buyer.identity : { kind: 'none' as const };
  const third = podmiot3List(invoice, seller.internalId, identity);
  x.open('Podmiot2').open('DaneIdentyfikacyjne');
  identification(x, identity.kind === 'NIP' ? { kind: 'NIP', nip: identity.nip } : identity);
  x.text('Nazwa', buyerName(invoice), 512).close('DaneIdentyfikacyjne');
  if (token(invoice.buyer_street) || token(invoice.buyer_city)) {
    address(x, invoice.buyer_country, invoice.buyer_street, invoice.buyer_post_code, invoice.buyer_city);
  }
  contact(x, invoice.buyer_email, invoice.buyer_phone);
  // A subordinate unit of a local authority (role 8) or a VAT group member (role 10) marks the buyer.
  x.el('JST', third.some((p) => p.role === 8) ? 1 : 2).el('GV', third.some((p) => p.role === 10) ? 1 : 2).close('Podmiot2');
  for (const party of third) podmiot3(x, party);

  x.open('Fa').el('KodWaluty', invoice.currency.toUpperCase()).el('P_1', invoice.issue_date).text('P_1M', invoice.place).text('P_2', invoice.number);
  if (invoice.sell_date) x.el('P_6', invoice.sell_date);
  for (const [field, value] of Object.entries(fa3Amounts(invoice))) x.el(field, value);
  if (rate && type === 'ZAL') x.el('KursWalutyZ', precise(toPlain(rate), 6));

  x.open('Adnotacje')
    .el('P_16', 2)
    .el('P_17', 2)
    .el('P_18', vat.reverseCharge ? 1 : 2)
    .el('P_18A', 2)
    .open('Zwolnienie');
  const exempt = invoice.positions.some((line) => rateOf(line.tax, vat).slot === 'zw');
  if (exempt) {
    const text = token(invoice.exempt_tax_kind);
    x.el('P_19', 1).text(exemptionField(text), text);
  } else x.el('P_19N', 1);
  x.close('Zwolnienie').open('NoweSrodkiTransportu').el('P_22N', 1).close('NoweSrodkiTransportu').el('P_23', 2).open('PMarzy');
  if (margin) x.el('P_PMarzy', 1).el('P_PMarzy_3_1', 1);
  else x.el('P_PMarzyN', 1);
  x.close('PMarzy').close('Adnotacje');

  x.el('RodzajFaktury', type);
  if (type.startsWith('KOR')) {
    const corrected = context.corrected!;
    x.text('PrzyczynaKorekty', invoice.correction_reason).open('DaneFaKorygowanej')
      .el('DataWystFaKorygowanej', corrected.issue_date).text('NrFaKorygowanej', corrected.number);
    if (corrected.ksefNumber) x.el('NrKSeF', 1).el('NrKSeFFaKorygowanej', corrected.ksefNumber);
    else x.el('NrKSeFN', 1);
    x.close('DaneFaKorygowanej');
    // A corrected advance: what was paid before the correction, and its rate when not in PLN.
    if (type === 'KOR_ZAL' && corrected.price_gross) {
      x.el('P_15ZK', amount(corrected.price_gross));
      const before = plnRate({ currency: corrected.currency ?? invoice.currency, exchange_currency_rate: corrected.exchange_currency_rate ?? null });
      if (before) x.el('KursWalutyZK', precise(toPlain(before), 6));
    }
  }
  for (const note of notes(invoice)) x.open('DodatkowyOpis').text('Klucz', note.key).text('Wartosc', note.value).close('DodatkowyOpis');
  if (type === 'ROZ') {
    for (const advance of context.advances ?? []) {
      x.open('FakturaZaliczkowa');
      if (advance.ksefNumber) x.el('NrKSeFFaZaliczkowej', advance.ksefNumber);
      else x.el('NrKSeFZN', 1).text('NrFaZaliczkowej', advance.number);
      x.close('FakturaZaliczkowa');
    }
  }
  // An advance invoice describes the order in `Zamowienie`, not in lines of its own.
  if (type !== 'ZAL') {
    let row = 0;
    for (const line of invoice.positions) {
      const sides = line.correction_before && line.correction_after ? [line.correction_before, line.correction_after] : [line];
      sides.forEach((side, index) => lineXml(x, ++row, side, { margin, vat, rate, before: sides.length === 2 && index === 0 }));
    }
  }
  payment(x, invoice);
  if (type === 'ZAL') order(x, context.order ?? invoice, vat, margin);
  x.close('Fa');
  const footer = token(invoice.description_footer);
  if (footer) x.open('Stopka').open('Informacje').el('StopkaFaktury', footer.slice(0, 3500)).close('Informacje').close('Stopka');
  x.close('Faktura');
  out.push(x.toString());
  return out.join('\n');
}

/** `DaneIdentyfikacyjne`'s identifier: `NIP`, `IDWew`, `KodUE` + `NrVatUE`, `KodKraju` + `NrID` or `BrakID`. */
function identification(x: Xml, identity: PartyIdentity) {
  if (identity.kind === 'NIP') {
    if (identity.internalId) x.el('IDWew', identity.internalId);
    else x.el('NIP', identity.nip);
  } else if (identity.kind === 'UE') x.el('KodUE', identity.code).el('NrVatUE', identity.number);
  else if (identity.kind === 'ID') x.el('KodKraju', identity.country).el('NrID', identity.number);
  else x.el('BrakID', 1);
}

/**
 * `Podmiot3`: the invoice's issuers and recipients, then the internal units of `nip_with_id`. The
 * seller's unit is the one issuing it (role 5); the buyer's, a unit of the buyer that is not itself
 * the buyer (role 2, `Odbiorca`), and both are named by `IDWew`.
 */
function podmiot3List(invoice: Fa3Invoice, sellerUnit: string | null, buyer: PartyIdentity): Podmiot3[] {
  const list = thirdParties(invoice, () => undefined);
  const unit = (internalId: string, name: string, role: number): Podmiot3 => ({
    identity: { kind: 'NIP', nip: internalId.slice(0, 10), internalId }, name, party: {}, role, description: null, share: null,
  });
  if (sellerUnit) list.push(unit(sellerUnit, token(invoice.seller_name), 5));
  if (buyer.kind === 'NIP' && buyer.internalId) list.push(unit(buyer.internalId, buyerName(invoice), 2));
  return list;
}

function podmiot3(x: Xml, party: Podmiot3) {
  x.open('Podmiot3').open('DaneIdentyfikacyjne');
  identification(x, party.identity);
  x.text('Nazwa', party.name, 512).close('DaneIdentyfikacyjne');
  const p = party.party;
  if (token(p.street) || token(p.city)) address(x, p.country, p.street, p.post_code, p.city);
  contact(x, p.email, p.phone);
  if (party.role !== null) x.el('Rola', party.role);
  else x.el('RolaInna', 1).text('OpisRoli', party.description);
  if (party.share) x.el('Udzial', precise(party.share, 6));
  x.close('Podmiot3');
}

function buyerName(invoice: Fa3Invoice): string {
  const person = [invoice.buyer_first_name, invoice.buyer_last_name].map(token).filter(Boolean).join(' ');
  return token(invoice.buyer_name) || person;
}

function address(x: Xml, country: string | null | undefined, street: string | null | undefined, postCode: string | null | undefined, city: string | null | undefined) {
  const line2 = [token(postCode), token(city)].filter(Boolean).join(' ');
  const line1 = token(street) || line2;
  x.open('Adres').el('KodKraju', countryCode(country) ?? 'PL').text('AdresL1', line1, 512);
  if (token(street)) x.text('AdresL2', line2, 512);
  x.close('Adres');
}

function contact(x: Xml, email: string | null | undefined, phone: string | null | undefined) {
  const e = token(email);
  const p = token(phone);
  if (!e && !p) return;
  x.open('DaneKontaktowe').text('Email', e, 255).text('Telefon', p, 16).close('DaneKontaktowe');
}

function notes(invoice: Fa3Invoice): { key: string; value: string }[] {
  const list = (invoice.descriptions ?? [])
    .map((d) => ({ key: token(d.title) || 'Uwagi', value: token(d.content) }))
    .filter((d) => d.value);
  const description = token(invoice.description);
  if (list.length === 0 && description) list.push({ key: 'Uwagi', value: description });
  return list;
}

function lineXml(
  x: Xml,
  row: number,
  line: Omit<Fa3Line, 'correction_before' | 'correction_after'>,
  options: { margin: boolean; vat: VatContext; rate: Decimal | null; before: boolean },
) {
  x.open('FaWiersz').el('NrWierszaFa', row).text('P_7', line.name, 512).text('Indeks', line.code, 50)
    .text('P_8A', line.quantity_unit).el('P_8B', precise(line.quantity, 6));
  if (options.margin) {
    x.el('P_9B', precise(line.price_gross, 8)).el('P_11A', amount(line.total_price_gross));
  } else {
    x.el('P_9A', precise(line.price_net, 8)).el('P_11', amount(line.total_price_net)).el('P_12', rateOf(line.tax, options.vat).p12);
  }
  if (options.rate && !options.margin) x.el('KursWaluty', precise(toPlain(options.rate), 6));
  if (options.before) x.el('StanPrzed', 1);
  x.close('FaWiersz');
}

function payment(x: Xml, invoice: Fa3Invoice) {
  const paidInFull = invoice.status === 'paid' && invoice.paid_date;
  const form = PAYMENT_FORMS[(invoice.payment_type ?? '').trim()];
  const other = token(invoice.payment_type);
  const account = (invoice.seller_bank_account ?? '').replace(/[\s-]/g, '');
  const hasAccount = account.length >= 10 && account.length <= 34;
  if (!paidInFull && !invoice.payment_to && !form && !other && !hasAccount) return;
  x.open('Platnosc');
  if (paidInFull) x.el('Zaplacono', 1).el('DataZaplaty', invoice.paid_date);
  if (invoice.payment_to && !paidInFull) x.open('TerminPlatnosci').el('Termin', invoice.payment_to).close('TerminPlatnosci');
  if (form) x.el('FormaPlatnosci', form);
  else if (other && other !== 'off') x.el('PlatnoscInna', 1).text('OpisPlatnosci', other);
  if (hasAccount) x.open('RachunekBankowy').el('NrRB', account).text('NazwaBanku', invoice.seller_bank).close('RachunekBankowy');
  x.close('Platnosc');
}

function order(x: Xml, source: Pick<Fa3Invoice, 'price_gross' | 'positions'>, vat: VatContext, margin: boolean) {
  x.open('Zamowienie').el('WartoscZamowienia', amount(source.price_gross));
  source.positions.forEach((line, index) => {
    x.open('ZamowienieWiersz').el('NrWierszaZam', index + 1).text('P_7Z', line.name, 512).text('P_8AZ', line.quantity_unit)
      .el('P_8BZ', precise(line.quantity, 6)).el('P_9AZ', precise(line.price_net, 8)).el('P_11NettoZ', amount(line.total_price_net))
      .el('P_11VatZ', amount(line.total_price_tax));
    if (!margin) x.el('P_12Z', rateOf(line.tax, vat).p12);
    x.close('ZamowienieWiersz');
  });
  x.close('Zamowienie');
}

const SLOT_FIELDS: Record<RateSlot, { net: string; vat?: string; vatPln?: string }> = {
  basic: { net: 'P_13_1', vat: 'P_14_1', vatPln: 'P_14_1W' },
  reduced1: { net: 'P_13_2', vat: 'P_14_2', vatPln: 'P_14_2W' },
  reduced2: { net: 'P_13_3', vat: 'P_14_3', vatPln: 'P_14_3W' },
  taxi: { net: 'P_13_4', vat: 'P_14_4', vatPln: 'P_14_4W' },
  oss: { net: 'P_13_5', vat: 'P_14_5' },
  zeroDomestic: { net: 'P_13_6_1' },
  zeroWdt: { net: 'P_13_6_2' },
  zeroExport: { net: 'P_13_6_3' },
  zw: { net: 'P_13_7' },
  np: { net: 'P_13_8' },
  npEuServices: { net: 'P_13_9' },
  reverseCharge: { net: 'P_13_10' },
  margin: { net: 'P_13_11' },
};

/** The document's amounts as FA(3) fields (`P_13_1` → "100.00"), for tests and the verification of a sent document. */
export function fa3Amounts(invoice: Fa3Invoice): Record<string, string> {
  const rate = plnRate(invoice);
  const fields: Record<string, string> = {};
  for (const [slot, t] of rateTotals(invoice)) {
    const f = SLOT_FIELDS[slot];
    fields[f.net] = amount(slot === 'margin' ? t.gross : t.net);
    if (f.vat) fields[f.vat] = amount(t.vat);
    if (f.vatPln && rate) fields[f.vatPln] = amount(round(mul(t.vat, rate), 2));
  }
  fields.P_15 = amount(invoice.price_gross);
  return fields;
}

/**
 * What stops an invoice from going to KSeF, by field, in the hosted service's words: the fields
 * KSeF requires and its length limits. Empty when the invoice can be sent.
 */
export function fa3Problems(invoice: Fa3Invoice, context: Pick<Fa3Context, 'corrected'> = {}): Record<string, string[]> {
  const problems = new Problems();
  const add = (field: string, message: string) => problems.add(field, message);
  const blank = (v: string | null | undefined) => !token(v);
  const tooLong = (field: string, value: string | null | undefined, max: number) => {
    if (token(value).length > max) add(field, `is too long (maximum is ${max} characters)`);
  };
  if (!isKsefKind(invoice.kind)) add('kind', 'does not go to KSeF');
  const seller = sellerIdentity(invoice);
  if ('problem' in seller) add(seller.field, seller.problem);
  for (const field of ['seller_name', 'seller_street', 'seller_post_code', 'seller_city'] as const) if (blank(invoice[field])) add(field, "can't be blank");
  if (blank(buyerName(invoice))) add(invoice.buyer_company === false ? 'buyer_last_name' : 'buyer_name', "can't be blank");
  const buyer = buyerIdentity(invoice);
  if ('problem' in buyer) add(buyer.field, buyer.problem);
  const third = thirdParties(invoice, add).length;
  const units = ('internalId' in seller && seller.internalId ? 1 : 0) + ('identity' in buyer && buyer.identity.kind === 'NIP' && buyer.identity.internalId ? 1 : 0);
  if (third + units > 100) add('recipients', 'are too many: KSeF takes at most 100 issuers and recipients together');
  tooLong('seller_name', invoice.seller_name, 512);
  tooLong('buyer_name', invoice.buyer_name, 512);
  tooLong('seller_phone', invoice.seller_phone, 16);
  tooLong('buyer_phone', invoice.buyer_phone, 16);
  tooLong('seller_email', invoice.seller_email, 255);
  tooLong('buyer_email', invoice.buyer_email, 255);
  tooLong('place', invoice.place, 256);
  tooLong('number', invoice.number, 256);
  tooLong('description', invoice.description, 256);
  tooLong('description_footer', invoice.description_footer, 3500);
  (invoice.descriptions ?? []).forEach((d, i) => {
    tooLong(`descriptions.${i}.title`, d.title, 256);
    tooLong(`descriptions.${i}.content`, d.content, 256);
  });
  if (invoice.positions.length === 0) add('positions', "can't be empty");
  const vat = vatContext(invoice);
  invoice.positions.forEach((line, i) => {
    tooLong(`positions.${i}.name`, line.name, 256);
    tooLong(`positions.${i}.quantity_unit`, line.quantity_unit, 256);
    tooLong(`positions.${i}.code`, line.code, 50);
    if (rateOf(line.tax, vat).slot === 'unsupported') add(`positions.${i}.tax`, `${line.tax} is not a rate KSeF accepts (23, 22, 8, 7, 5, 4, 3, 0, zw, np)`);
  });
  if (invoice.positions.some((line) => rateOf(line.tax, vat).slot === 'zw') && blank(invoice.exempt_tax_kind)) add('exempt_tax_kind', "can't be blank");
  if (invoice.positions.some((line) => line.tax === 'np') && blank(invoice.np_tax_kind) && !vat.reverseCharge) add('np_tax_kind', "can't be blank");
  if (invoice.np_tax_kind && !['export_service', 'export_service_eu'].includes(invoice.np_tax_kind)) add('np_tax_kind', 'must be export_service or export_service_eu');
  tooLong('exempt_tax_kind', invoice.exempt_tax_kind, 256);
  if (invoice.currency.toUpperCase() !== 'PLN') {
    if (!invoice.exchange_currency_rate || compare(decimal(invoice.exchange_currency_rate), ZERO) <= 0) add('exchange_currency_rate', "can't be blank when the currency is not PLN");
    if (invoice.exchange_currency && invoice.exchange_currency.toUpperCase() !== 'PLN') add('exchange_currency', 'must be PLN (KSeF takes VAT in PLN)');
  }
  if (invoice.kind === 'correction') {
    tooLong('correction_reason', invoice.correction_reason, 256);
    if (!context.corrected) add('invoice_id', 'must name the corrected invoice');
  }
  const gross = sum(invoice.positions.map((line) => decimal(line.total_price_gross)));
  if (compare(gross, decimal(invoice.price_gross)) !== 0 && invoice.positions.length > 0) add('price_gross', 'differs from the sum of the positions');
  return problems.fields;
}

type LineSide = Omit<Fa3Line, 'correction_before' | 'correction_after'>;

/**
 * An invoice record, as stored or as answered, read as FA(3)'s input. Correction sides are the
 * stored `correction_before`/`_after` or the answer's `…_attributes`.
 */
export function fa3InvoiceOf(record: Record<string, unknown>): Fa3Invoice {
  const positions = ((record.positions ?? []) as Record<string, unknown>[]).map((p): Fa3Line => {
    const before = (p.correction_before ?? p.correction_before_attributes ?? null) as LineSide | null;
    const after = (p.correction_after ?? p.correction_after_attributes ?? null) as LineSide | null;
    return { ...(p as unknown as Fa3Line), correction_before: before, correction_after: after };
  });
  return { ...(record as unknown as Fa3Invoice), positions };
}
