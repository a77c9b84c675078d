import { add, type Decimal, decimal, mul, round, toFixed, toPlain, ZERO } from '../../../kernel/money.js';
import { buyerIdentity, countryCode, type PartyIdentity, sellerIdentity } from './parties.js';
import { type Podmiot3, thirdParties } from './third-parties.js';
import { rateOf, type RateSlot, SLOT_ORDER, type VatContext } from './rates.js';
import { buyerName, type Fa3Context, type Fa3Invoice, type Fa3Line, type Fa3Reference, token, vatContext } from './invoice.js';
import { fa3Problems } from './problems.js';
import { invoiceTaxCase, invoiceTaxNotes } from '../../../kernel/tax/index.js';

export { fa3InvoiceOf, isKsefKind, KSEF_KINDS, vatContext, type Fa3Context, type Fa3Invoice, type Fa3Line, type Fa3Reference, type KsefKind } from './invoice.js';
export { fa3Problems };

/**
 * The FA(3) document (the Ministry's schema `schemat_FA(3)_v1-0E.xsd`) of one invoice, as KSeF takes
 * it. Amounts are the invoice's own: each per-rate sum is the sum of the invoice's rounded lines and
 * `P_15` is its `price_gross`, so the document and the invoice never disagree by a cent.
 */

export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';

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

/**
 * `DodatkowyOpis`: the invoice's own descriptions, then the words the law requires for its tax case
 * (the basis of a 0% rate or of `np`, the OSS member state). Reverse charge and exemptions have their
 * own fields (`P_18`, `P_19`), so their words are not repeated here.
 */
function notes(invoice: Fa3Invoice): { key: string; value: string }[] {
  const list = (invoice.descriptions ?? [])
    .map((d) => ({ key: token(d.title) || 'Uwagi', value: token(d.content) }))
    .filter((d) => d.value);
  const description = token(invoice.description);
  if (list.length === 0 && description) list.push({ key: 'Uwagi', value: description });
  const taxCase = invoiceTaxCase(invoice);
  if (taxCase === 'exempt') return list;
  const words = invoiceTaxNotes(invoice, 'pl').filter((note) => note !== 'Odwrotne obciążenie');
  for (const value of words) list.push({ key: taxCase === 'oss' ? 'Procedura OSS' : 'Podstawa prawna', value });
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
    const rate = rateOf(line.tax, options.vat);
    x.el('P_9A', precise(line.price_net, 8)).el('P_11', amount(line.total_price_net)).el('P_12', rate.p12).el('P_12_XII', rate.p12xii);
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
    if (!margin) {
      const rate = rateOf(line.tax, vat);
      x.el('P_12Z', rate.p12).el('P_12Z_XII', rate.p12xii);
    }
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
