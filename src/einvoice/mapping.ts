import { add, compare, type Decimal, decimal, isZero, mul, negate, round, sub, sum, toFixed, toPlain, ZERO } from '../kernel/money.js';
import { isPercentage, normalRate } from '../kernel/tax/index.js';
import type { EInvoice, EInvoiceProfile, InvoiceLine, LineAllowance, Party, PaymentInstructions, PrecedingInvoice, VatBreakdown, VatCategory } from './model.js';
import { countryCodeOf, electronicAddressOf, registrationIdOf, unitCodeOf, vatIdOf } from './parties.js';

/** A position as the service stores it (amounts rounded to the currency's minor unit). */
export interface EInvoiceSourceLine {
  readonly name: string;
  readonly code?: string | null;
  readonly quantity: string;
  readonly quantity_unit?: string | null;
  readonly tax: string;
  readonly price_net: string;
  readonly total_price_net: string;
  readonly total_price_gross: string;
  readonly discount?: string | null;
  readonly discount_percent?: string | null;
}

/** The stored invoice's fields the mapping reads (the hosted service's names). */
export interface EInvoiceSource {
  readonly kind: string;
  /** False for a cost invoice, which has no e-invoice of ours. */
  readonly income?: boolean | null;
  readonly number: string;
  readonly issue_date: string;
  readonly sell_date?: string | null;
  readonly payment_to?: string | null;
  readonly payment_type?: string | null;
  readonly currency: string;
  readonly oid?: string | null;
  readonly description?: string | null;
  readonly seller_name?: string | null;
  readonly seller_tax_no?: string | null;
  readonly seller_street?: string | null;
  readonly seller_post_code?: string | null;
  readonly seller_city?: string | null;
  readonly seller_country?: string | null;
  readonly seller_email?: string | null;
  readonly seller_phone?: string | null;
  readonly seller_person?: string | null;
  readonly seller_bank_account?: string | null;
  readonly buyer_name?: string | null;
  readonly buyer_first_name?: string | null;
  readonly buyer_last_name?: string | null;
  readonly buyer_tax_no?: string | null;
  readonly buyer_street?: string | null;
  readonly buyer_post_code?: string | null;
  readonly buyer_city?: string | null;
  readonly buyer_country?: string | null;
  readonly buyer_email?: string | null;
  readonly buyer_phone?: string | null;
  readonly exempt_tax_kind?: string | null;
  readonly np_tax_kind?: string | null;
  readonly reverse_charge?: boolean | null;
  readonly exchange_currency?: string | null;
  readonly exchange_currency_rate?: string | null;
  /** BT-49 as set on the invoice (`0208:0123456789`); the client's is used when absent. */
  readonly buyer_einvoice_address?: string | null;
  /** BT-10 as set on the invoice; the client's is used when absent. */
  readonly buyer_reference?: string | null;
  readonly positions: readonly EInvoiceSourceLine[];
}

/** What the invoice itself does not hold: its seller's department, its client, the invoices it names. */
export interface EInvoiceContext {
  /** The department's `einvoice_address` (BT-34). */
  readonly sellerEinvoiceAddress: string | null;
  /** The client's `einvoice_address` (BT-49), when the invoice sets none. */
  readonly clientEinvoiceAddress: string | null;
  /** The client's `buyer_reference` (BT-10), when the invoice sets none. */
  readonly clientBuyerReference: string | null;
  /** The corrected invoice of a correction, or the advances a final invoice settles. */
  readonly preceding: readonly PrecedingInvoice[];
  /** What the advances a final invoice settles came to, gross (BT-113). */
  readonly prepaid: string | null;
  /** A correction's corrected invoice's tax decision, which the correction keeps. */
  readonly correctedTax?: TaxFields | null;
}

/** The fields that decide each position's VAT category besides its rate. */
export type TaxFields = Pick<EInvoiceSource, 'kind' | 'reverse_charge' | 'np_tax_kind' | 'exempt_tax_kind'>;

/** The tax decision an invoice stands under: a correction's is the corrected invoice's, unless it states its own. */
export function taxFieldsOf(source: EInvoiceSource, context: Pick<EInvoiceContext, 'correctedTax'>): TaxFields {
  const corrected = source.kind === 'correction' ? context.correctedTax : null;
  if (!corrected) return source;
  return {
    kind: corrected.kind,
    reverse_charge: source.reverse_charge === true || corrected.reverse_charge === true,
    np_tax_kind: text(source.np_tax_kind) ?? corrected.np_tax_kind ?? null,
    exempt_tax_kind: text(source.exempt_tax_kind) ?? corrected.exempt_tax_kind ?? null,
  };
}

/** The accounting currency of the service's sellers: VAT is declared in Polish złoty. */
const ACCOUNTING_CURRENCY = 'PLN';

const PROFILE_IDS = {
  en16931: 'urn:cen.eu:en16931:2017',
  peppol: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
} as const satisfies Record<EInvoiceProfile, string>;
const PEPPOL_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const text = (value: string | null | undefined): string | null => {
  const trimmed = (value ?? '').replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
};
const money = (value: Decimal) => toFixed(value, 2);

/** The words and codes of a category that charges no VAT (BT-120, BT-121). */
const EXEMPTIONS: Partial<Record<VatCategory, { code: string; reason: string }>> = {
  AE: { code: 'VATEX-EU-AE', reason: 'Reverse charge' },
  K: { code: 'VATEX-EU-IC', reason: 'Intra-Community supply' },
  G: { code: 'VATEX-EU-G', reason: 'Export outside the EU' },
  O: { code: 'VATEX-EU-O', reason: 'Not subject to VAT' },
};

/** A position's EN 16931 category and rate, from its `tax` and the invoice's tax decision fields. */
export function vatCategoryOf(tax: string, invoice: Pick<EInvoiceSource, 'kind' | 'reverse_charge' | 'np_tax_kind'>): { category: VatCategory; rate: string | null } {
  const rate = normalRate(tax);
  const exportOrSupply = invoice.kind === 'wdt' ? 'K' : invoice.kind === 'export_products' ? 'G' : null;
  if (isPercentage(rate)) {
    if (rate !== '0') return { category: 'S', rate };
    return { category: exportOrSupply ?? 'Z', rate: '0' };
  }
  if (rate === 'zw' || rate === 'disabled') return { category: 'E', rate: '0' };
  if (rate === 'oo') return { category: 'AE', rate: '0' };
  if (exportOrSupply) return { category: exportOrSupply, rate: '0' };
  if (invoice.reverse_charge === true || invoice.np_tax_kind === 'export_service_eu') return { category: 'AE', rate: '0' };
  return { category: 'O', rate: null };
}

/**
 * The document's kind: a correction that credits is a credit note, one that charges more a corrected
 * invoice (384), which Peppol keeps for German parties (PEPPOL-EN16931-P0112): there it is an
 * invoice that names the corrected one. A proforma is type 325, under the standard alone.
 */
function documentKind(source: EInvoiceSource, profile: EInvoiceProfile): Pick<EInvoice, 'typeCode' | 'creditNote'> {
  if (source.kind === 'correction') {
    const gross = sum(source.positions.map((line) => decimal(line.total_price_gross)));
    if (compare(gross, ZERO) <= 0) return { typeCode: '381', creditNote: true };
    return { typeCode: profile === 'peppol' ? '380' : '384', creditNote: false };
  }
  if (source.kind === 'advance') return { typeCode: '386', creditNote: false };
  if (source.kind === 'proforma') return { typeCode: '325', creditNote: false };
  return { typeCode: '380', creditNote: false };
}

function lineOf(line: EInvoiceSourceLine, index: number, sign: Decimal, tax: TaxFields): InvoiceLine {
  const { category, rate } = vatCategoryOf(line.tax, tax);
  const quantity = decimal(line.quantity);
  const net = mul(decimal(line.total_price_net), sign);
  const positive = compare(net, ZERO) >= 0;
  const listPrice = decimal(line.price_net);
  const listNet = round(mul(quantity, listPrice), 2);
  // A discount is the line's allowance (BG-27), on top of the list price; the line net stays the stored one.
  const discounted = line.discount != null && !isZero(decimal(line.discount)) && positive && compare(quantity, ZERO) > 0;
  const allowance = discounted ? sub(listNet, net) : ZERO;
  const withAllowance = discounted && compare(allowance, ZERO) > 0;
  // Quantity × price must give the line net within a cent (PEPPOL-EN16931-R120): a price rounded away from it is derived again.
  const absQuantity = compare(quantity, ZERO) < 0 ? negate(quantity) : quantity;
  const absNet = positive ? net : negate(net);
  const exact = compare(round(mul(absQuantity, listPrice), 2), withAllowance ? add(absNet, allowance) : absNet) === 0;
  const price = withAllowance || exact ? listPrice : round(decimalDiv(absNet, absQuantity), 6);
  return {
    id: String(index + 1),
    quantity: toPlainQuantity(positive ? absQuantity : negate(absQuantity)),
    unitCode: unitCodeOf(line.quantity_unit),
    netAmount: money(net),
    netPrice: trimPrice(price),
    allowance: withAllowance ? allowanceOf(allowance, listNet, line.discount_percent) : null,
    vatCategory: category,
    vatRate: rate,
    itemName: text(line.name) ?? '-',
    sellerItemId: text(line.code),
  };
}

/** A discount as a line allowance; its base and percentage only where they give its amount within a cent (PEPPOL-EN16931-R040). */
function allowanceOf(amount: Decimal, base: Decimal, percentText: string | null | undefined): LineAllowance {
  const percent = percentText ? decimal(percentText) : null;
  const fits = percent !== null && compare(abs(sub(round(mul(base, percent), 4), mul(amount, decimal(100)))), decimal(1)) <= 0;
  return {
    amount: money(amount),
    baseAmount: fits ? money(base) : null,
    percent: fits ? toPlain(percent) : null,
    reason: 'Discount',
    reasonCode: '95',
  };
}

const abs = (value: Decimal) => (compare(value, ZERO) < 0 ? negate(value) : value);

function decimalDiv(a: Decimal, b: Decimal): Decimal {
  // Exact enough for a unit price: ten decimals, then rounded by the caller.
  const scale = 10;
  const numerator = a.units * 10n ** BigInt(scale + b.scale);
  const units = numerator / (b.units * 10n ** BigInt(a.scale));
  return { units, scale };
}

const toPlainQuantity = (value: Decimal) => toPlain(round(value, 4));
/** A price or quantity with at least two decimals and no trailing zeros beyond them. */
function trimPrice(value: Decimal): string {
  const fixed = toFixed(value, Math.max(value.scale, 2));
  return fixed.replace(/(\.\d\d\d*?)0+$/, '$1');
}

function breakdownOf(lines: readonly InvoiceLine[], source: EInvoiceSource, tax: TaxFields, sign: Decimal, profile: EInvoiceProfile): VatBreakdown[] {
  const groups = new Map<string, { category: VatCategory; rate: string | null; taxable: Decimal; tax: Decimal }>();
  source.positions.forEach((position, index) => {
    const line = lines[index]!;
    const key = `${line.vatCategory} ${line.vatRate ?? ''}`;
    const group = groups.get(key) ?? { category: line.vatCategory, rate: line.vatRate, taxable: ZERO, tax: ZERO };
    group.taxable = add(group.taxable, decimal(line.netAmount));
    group.tax = add(group.tax, mul(sub(decimal(position.total_price_gross), decimal(position.total_price_net)), sign));
    groups.set(key, group);
  });
  return [...groups.values()].map((group) => {
    const exemption = group.category === 'E' ? { code: null, reason: text(tax.exempt_tax_kind) } : EXEMPTIONS[group.category];
    return {
      taxableAmount: money(group.taxable),
      taxAmount: money(group.tax),
      category: group.category,
      // XRechnung wants every breakdown's rate (BR-DE-14); EN 16931 lets "not subject" go without.
      rate: group.rate ?? (profile === 'xrechnung' ? '0' : null),
      exemptionReason: exemption?.reason ?? null,
      exemptionReasonCode: exemption?.code ?? null,
    };
  });
}

function sellerOf(source: EInvoiceSource, context: EInvoiceContext, notSubject: boolean): Party {
  const country = countryCodeOf(source.seller_country) ?? 'PL';
  return {
    name: text(source.seller_name) ?? '',
    vatId: notSubject ? null : vatIdOf(source.seller_tax_no, country),
    legalRegistrationId: notSubject ? registrationIdOf(source.seller_tax_no) : null,
    electronicAddress: electronicAddressOf(context.sellerEinvoiceAddress),
    address: { street: text(source.seller_street), city: text(source.seller_city), postCode: text(source.seller_post_code), country },
    contact: { name: text(source.seller_person) ?? text(source.seller_name), phone: text(source.seller_phone), email: text(source.seller_email) },
  };
}

function buyerOf(source: EInvoiceSource, context: EInvoiceContext, notSubject: boolean): Party {
  const country = countryCodeOf(source.buyer_country) ?? countryCodeOf(source.seller_country) ?? 'PL';
  const person = [source.buyer_first_name, source.buyer_last_name].map(text).filter(Boolean).join(' ');
  return {
    name: text(source.buyer_name) ?? person,
    vatId: notSubject ? null : vatIdOf(source.buyer_tax_no, country),
    legalRegistrationId: null,
    electronicAddress: electronicAddressOf(source.buyer_einvoice_address ?? context.clientEinvoiceAddress),
    address: { street: text(source.buyer_street), city: text(source.buyer_city), postCode: text(source.buyer_post_code), country },
    contact: text(source.buyer_email) || text(source.buyer_phone) ? { name: null, phone: text(source.buyer_phone), email: text(source.buyer_email) } : null,
  };
}

/** An account number as an IBAN where it is a Polish NRB (26 digits), else as written without spaces. */
export function accountOf(account: string | null | undefined): string | null {
  const compact = (account ?? '').replace(/[\s-]/g, '').toUpperCase();
  if (!compact) return null;
  return /^\d{26}$/.test(compact) ? `PL${compact}` : compact;
}

const MEANS: Readonly<Record<string, string>> = { transfer: '30', cash: '10', card: '48', cod: '10', paypal: '68', payu: '68', dotpay: '68', tpay: '68', przelewy24: '68' };

function paymentOf(source: EInvoiceSource): PaymentInstructions {
  const account = accountOf(source.seller_bank_account);
  const kind = (source.payment_type ?? 'transfer').trim().toLowerCase();
  let meansCode = MEANS[kind] ?? (account ? '30' : 'ZZZ');
  if (meansCode === '30' && account && source.currency === 'EUR' && /^[A-Z]{2}\d{2}/.test(account)) meansCode = '58';
  const credit = meansCode === '30' || meansCode === '58';
  return { meansCode, remittanceInformation: source.number, account: credit ? account : null, accountName: credit ? text(source.seller_name) : null };
}

/** The EN 16931 model of an invoice under a profile. Check `einvoiceProblems` first: this assumes the data is there. */
export function einvoiceOf(source: EInvoiceSource, context: EInvoiceContext, profile: EInvoiceProfile): EInvoice {
  const kind = documentKind(source, profile);
  const sign = kind.creditNote ? decimal(-1) : decimal(1);
  const tax = taxFieldsOf(source, context);
  const lines = source.positions.map((line, index) => lineOf(line, index, sign, tax));
  const vatBreakdown = breakdownOf(lines, source, tax, sign, profile);
  const notSubject = vatBreakdown.some((group) => group.category === 'O');
  const lineNet = sum(lines.map((line) => decimal(line.netAmount)));
  const vat = sum(vatBreakdown.map((group) => decimal(group.taxAmount)));
  const taxInclusive = add(lineNet, vat);
  const prepaid = context.prepaid ? decimal(context.prepaid) : ZERO;
  const accounting = text(source.exchange_currency)?.toUpperCase() ?? ACCOUNTING_CURRENCY;
  const foreign = accounting !== source.currency.toUpperCase() && text(source.exchange_currency_rate) !== null;
  const buyer = buyerOf(source, context, notSubject);
  const intraCommunity = vatBreakdown.some((group) => group.category === 'K');
  const payable = sub(taxInclusive, prepaid);
  const dueDate = text(source.payment_to);
  return {
    customizationId: PROFILE_IDS[profile],
    profileId: PEPPOL_PROCESS,
    number: source.number,
    issueDate: source.issue_date,
    dueDate,
    ...kind,
    note: text(source.description),
    currency: source.currency.toUpperCase(),
    vatAccountingCurrency: foreign ? accounting : null,
    buyerReference: text(source.buyer_reference) ?? text(context.clientBuyerReference),
    orderReference: text(source.oid),
    precedingInvoices: context.preceding,
    seller: sellerOf(source, context, notSubject),
    buyer,
    deliveryDate: text(source.sell_date),
    deliveryAddress: intraCommunity ? buyer.address : null,
    payment: compare(payable, ZERO) > 0 ? paymentOf(source) : null,
    paymentTerms: dueDate ? null : compare(payable, ZERO) > 0 ? 'Payable on receipt' : null,
    vatBreakdown,
    totals: {
      lineNet: money(lineNet),
      taxExclusive: money(lineNet),
      vat: money(vat),
      vatInAccountingCurrency: foreign ? money(round(mul(vat, decimal(source.exchange_currency_rate!)), 2)) : null,
      taxInclusive: money(taxInclusive),
      prepaid: money(prepaid),
      payable: money(payable),
    },
    lines,
  };
}
