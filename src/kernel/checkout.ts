import type { CheckoutBuyer, ProductQuote, SaleTaxCase, VatTreatmentKind } from '../contract/sale.js';
import { decimal, mul, roundMoney, toPlain } from './money.js';
import { decideTax, EU_COUNTRIES, quoteFor, supplyKindOf, type TaxCase, type TaxDecision, type TaxSale, taxNotes, type ViesStatus } from './tax/index.js';
import { compactCode, taxNumberProblem, vatPrefixOf } from './validation/client.js';
import { type BuyerField, type BuyerProblems, buyerProblemsWith, isCompanyBuyer } from './checkout-buyer.js';
import { isValidVatNumber } from './validation/vat-numbers.js';

/**
 * The checkout core: the rules both checkouts apply — the service's public widget checkout and the
 * BFF's `POST /checkout` — and that the pay button shows before the buyer pays. Who the buyer is,
 * what VAT an invoice to them carries and so what they pay, which language the journey speaks, where
 * the buyer may be sent back, and the payment each checkout creates. Plain TypeScript without zod or
 * the DOM, so the elements import it too (docs/decisions/checkout-core.md).
 */

/** A product's public token, as both checkouts and both product routes accept it. */
export const PRODUCT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_CHECKOUT_QUANTITY = 1000;

/**
 * What is wrong with a quantity a quote's query gives (`?quantity=2.5`), in the words the checkout's
 * own validation uses, or `undefined` when it is a whole number from 1 to the maximum. Both product
 * routes refuse what the checkout would refuse, instead of quoting another quantity.
 */
export function quantityProblem(raw: string): string | undefined {
  const n = Number(raw);
  if (!/^\s*-?\d+(\.\d+)?\s*$/.test(raw) || !Number.isInteger(n)) return 'must be a whole number';
  if (n < 1) return 'must be at least 1';
  if (n > MAX_CHECKOUT_QUANTITY) return `must be at most ${MAX_CHECKOUT_QUANTITY}`;
  return undefined;
}

/** The EU member states, by ISO 3166-1 code (Greece is GR here, EL only in VAT numbers). */
export { EU_COUNTRIES };

/**
 * What the buyer's tax number is (the hosted service's `buyer_tax_no_kind`): blank or `nip` for a tax
 * number checked by its country's rule, `other` for a number of a country without one, `empty` for a
 * company without any.
 */
export const TAX_NO_KINDS = ['nip', 'nip_ue', 'other', 'empty'] as const;
export type TaxNoKind = (typeof TAX_NO_KINDS)[number];

export { BUYER_FIELDS, type BuyerField, type BuyerProblems, buyerProblemsWith, isCompanyBuyer, type TaxNumberCheck } from './checkout-buyer.js';

/**
 * Every problem with a buyer, by field (`buyerProblemsWith`), each tax number checked by its
 * country's check digits: the rule both checkouts apply, and `<client-form>`'s.
 */
export const buyerProblems: (buyer: CheckoutBuyer) => BuyerProblems = buyerProblemsWith(taxNumberProblem);

/** The VAT number of an EU company, when the buyer is one and their number passes its country's check. */
export function euVatNumberOf(buyer: CheckoutBuyer): string | undefined {
  const country = (buyer.country ?? '').trim().toUpperCase();
  if (!isCompanyBuyer(buyer) || buyer.tax_no_kind === 'empty' || !EU_COUNTRIES.includes(country)) return undefined;
  const prefix = vatPrefixOf(country);
  const code = compactCode(buyer.tax_no ?? '');
  const number = code.startsWith(prefix) ? code.slice(prefix.length) : code;
  return isValidVatNumber(prefix, number) ? `${prefix}${number}` : undefined;
}

/**
 * How an invoice to this buyer is taxed, in the checkout's first three kinds: a reverse charge
 * (`np`, `export_service_eu`), an intra-EU supply at 0% (`wdt`), or the product's own rate. Kept for
 * its callers; the tax engine (`decideTax`, through `checkoutTaxSale`) decides every other case too
 * (docs/decisions/tax-engine.md). Here the buyer's VAT number counts as confirmed when its check
 * digits are right, as it always did, and a service is any product with `service: true`.
 */
export type VatTreatment =
  | { kind: 'standard' }
  | { kind: 'reverse_charge'; tax: 'np'; np_tax_kind: 'export_service_eu' }
  | { kind: 'intra_eu_supply'; tax: '0'; invoice_kind: 'wdt' };

// The contract lists the same kinds: a kind added here and not there fails to compile.
export type VatTreatmentKindIsTheContracts = VatTreatment['kind'] extends VatTreatmentKind ? (VatTreatmentKind extends VatTreatment['kind'] ? true : never) : never;
// The contract names the engine's cases: a case added there and not here fails to compile.
export type SaleTaxCaseIsTheEngines = TaxCase extends SaleTaxCase ? (SaleTaxCase extends TaxCase ? true : never) : never;

/** The legacy treatment a decision amounts to. */
export function treatmentOf(decision: Pick<TaxDecision, 'case'>): VatTreatment {
  if (decision.case === 'eu_reverse_charge') return { kind: 'reverse_charge', tax: 'np', np_tax_kind: 'export_service_eu' };
  if (decision.case === 'intra_eu_supply') return { kind: 'intra_eu_supply', tax: '0', invoice_kind: 'wdt' };
  return { kind: 'standard' };
}

export function vatTreatment(sale: { sellerCountry: string | null | undefined; service: boolean; buyer: CheckoutBuyer }): VatTreatment {
  // The engine's answer for these three kinds, written out so that the pay button does not carry the
  // engine's table until it shows every case (test/kernel/checkout-tax.test.ts holds them equal).
  const seller = (sale.sellerCountry || 'PL').toUpperCase();
  const buyerCountry = (sale.buyer.country ?? '').trim().toUpperCase();
  if (!EU_COUNTRIES.includes(seller) || buyerCountry === seller || !euVatNumberOf(sale.buyer)) return { kind: 'standard' };
  return sale.service ? { kind: 'reverse_charge', tax: 'np', np_tax_kind: 'export_service_eu' } : { kind: 'intra_eu_supply', tax: '0', invoice_kind: 'wdt' };
}

/**
 * The tax engine's view of a checkout's sale: the buyer's country, whether they buy as a company,
 * their VAT number (an EU number in its prefixed form when its check digits pass, else what they
 * typed) and what VIES said of it, and what the product is.
 */
export function checkoutTaxSale(order: {
  sellerCountry: string | null | undefined;
  ossRegistered: boolean;
  product: { tax: string; service?: boolean | null; supply_kind?: string | null };
  buyer: CheckoutBuyer;
  vies: ViesStatus;
}): TaxSale {
  const { buyer } = order;
  const country = (buyer.country ?? '').trim().toUpperCase() || null;
  const company = isCompanyBuyer(buyer);
  const typed = buyer.tax_no_kind === 'empty' ? '' : compactCode(buyer.tax_no ?? '');
  const vatNumber = country && EU_COUNTRIES.includes(country) ? euVatNumberOf(buyer) ?? null : typed || null;
  return {
    sellerCountry: (order.sellerCountry || 'PL').toUpperCase(),
    ossRegistered: order.ossRegistered,
    supply: supplyKindOf(order.product),
    domesticRate: order.product.tax,
    buyer: { country, company, vatNumber: company ? vatNumber : null, vies: vatNumber ? order.vies : 'not_checked' },
  };
}

export interface PricedProduct {
  price_net: string;
  price_gross: string;
  tax: string;
  currency: string;
}

/**
 * What the buyer pays for `quantity` of a product under a treatment: the gross price at the product's
 * rate, or the net price where no Polish VAT is charged. The line's tax as the invoice prints it.
 */
export function quote(product: PricedProduct, quantity: number, treatment: VatTreatment): { amount: string; unit_price: string; tax: string } {
  const unit = treatment.kind === 'standard' ? product.price_gross : product.price_net;
  const amount = roundMoney(mul(decimal(unit), decimal(quantity)), product.currency);
  return { amount: toPlain(amount), unit_price: toPlain(decimal(unit)), tax: treatment.kind === 'standard' ? product.tax : treatment.tax };
}

/**
 * The one field a quote's query may name beside `country`, `tax_no` and `tax_no_kind`: the post code,
 * whose form depends on the country. A buyer's name, e-mail and street never travel in a URL, where
 * access logs and proxies keep them; the dialog checks those for being there (and the e-mail's form)
 * itself, and the checkout checks everything again (docs/decisions/pay-button-weight.md).
 */
const QUOTED_FIELDS = ['post_code'] as const;

/**
 * The quantity and buyer a product query describes (`?country=DE&tax_no=DE…&company=1&quantity=2`),
 * and which of its country, tax number and post code it names (blank ones too): the fields a quote
 * says what is wrong with. Any other field in the query is ignored.
 */
function quoteQuery(query: (name: string) => string | undefined): { quantity: number; buyer: CheckoutBuyer; named: BuyerField[] } {
  const requested = Number(query('quantity') ?? 1);
  const quantity = Number.isInteger(requested) && requested >= 1 && requested <= MAX_CHECKOUT_QUANTITY ? requested : 1;
  const company = query('company');
  const buyer: CheckoutBuyer = {
    email: '',
    country: query('country')?.slice(0, 2) ?? null,
    tax_no: query('tax_no')?.slice(0, 50) ?? null,
    tax_no_kind: query('tax_no_kind')?.slice(0, 20) ?? null,
    ...(company === undefined ? {} : { company: /^(1|true)$/i.test(company) }),
  };
  for (const field of QUOTED_FIELDS) {
    const value = query(field);
    if (value !== undefined) buyer[field] = value.slice(0, 200);
  }
  const judged: readonly BuyerField[] = ['country', 'tax_no', ...QUOTED_FIELDS];
  return { quantity, buyer, named: judged.filter((field) => query(field) !== undefined) };
}

/**
 * Whether a product query names the buyer's post code (the dialog's quote for the buyer as typed):
 * its answer is then for them alone, never kept by a shared cache.
 */
export function quoteNamesBuyer(query: (name: string) => string | undefined): boolean {
  return QUOTED_FIELDS.some((field) => query(field) !== undefined);
}

/**
 * A product answer's price quote for the buyer its query describes (`?country=DE&tax_no=DE…&company=1
 * &quantity=2`), by the rule the checkout and the invoice follow; without one, a consumer's.
 */
export function productQuote(
  product: PricedProduct & { service?: boolean | null },
  sellerCountry: string,
  query: (name: string) => string | undefined,
): ProductQuote {
  const { quantity, buyer } = quoteQuery(query);
  const treatment = vatTreatment({ sellerCountry, service: product.service === true, buyer });
  return { vat_treatment: treatment.kind, quantity, ...quote(product, quantity, treatment) };
}

/**
 * The same quote by the tax engine, for every case (export, `np`, OSS…), with the case, the rate, the
 * words the invoice will carry in the buyer's language (`?lang=pl`) and, for an EU business, why
 * Polish VAT was kept. VIES is not asked for a quote: a number with the right check digits counts as
 * confirmed (`vies: 'valid'`) unless the caller knows better. With `problems`, what `buyerProblems`
 * finds wrong with the buyer's fields the query names: the pay button's dialog shows them at its
 * fields and carries no field rules of its own.
 */
export function saleQuote(
  product: PricedProduct & { service?: boolean | null; supply_kind?: string | null },
  seller: { country: string | null | undefined; ossRegistered: boolean },
  query: (name: string) => string | undefined,
  vies: ViesStatus = 'valid',
): ProductQuote {
  const { quantity, buyer, named } = quoteQuery(query);
  const decision = decideTax(checkoutTaxSale({ sellerCountry: seller.country, ossRegistered: seller.ossRegistered, product, buyer, vies }));
  const lang = checkoutLang(query('lang'), null);
  // What the checkout would refuse, for the fields the query names: the dialog asks with every field it shows.
  const all = buyerProblems(buyer);
  const problems: BuyerProblems = {};
  for (const field of named) if (all[field]) problems[field] = all[field];
  return {
    vat_treatment: treatmentOf(decision).kind,
    quantity,
    ...quoteFor(product, quantity, decision),
    case: decision.case,
    rate: decision.rate,
    notes: taxNotes(decision.case, lang, { ossCountry: decision.ossCountry }),
    oss_country: decision.ossCountry,
    fallback: decision.fallback,
    ...(Object.keys(problems).length > 0 && { problems }),
  };
}

export type CheckoutLang = 'pl' | 'en';

/**
 * The language of a checkout: the one the buyer's page chose (the element's `locale`, sent as
 * `lang`), else the browser's first choice among ours, else English, as the pages always did.
 */
export function checkoutLang(chosen: string | null | undefined, acceptLanguage: string | null | undefined): CheckoutLang {
  const pick = (tag: string | null | undefined): CheckoutLang | undefined => {
    const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
    return base === 'pl' || base === 'en' ? base : undefined;
  };
  if (chosen) {
    const lang = pick(chosen);
    if (lang) return lang;
  }
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? 1);
      return { lang: pick(tag), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.lang && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.lang ?? 'en';
}

/**
 * The buyer's address for rate limits behind `trustedHops` proxies that each append to
 * `X-Forwarded-For`: the entry the nearest trusted proxy added, else the socket's address. With no
 * trusted proxy the header is ignored, so a client cannot pick its own limit.
 */
export function clientIp(forwardedFor: string | null | undefined, socketAddress: string | undefined, trustedHops: number): string {
  if (trustedHops > 0) {
    const list = (forwardedFor ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    if (list.length) return list[Math.max(0, list.length - trustedHops)]!;
  }
  return socketAddress ?? 'unknown';
}

const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A return address is kept only when its origin is one the configuration allows: the BFF's allowed
 * origins, or the origins a widget's account registered. Never one read from the request's `Host` or
 * `Origin`. Anything else is dropped, and the buyer stays on the checkout's own result page.
 */
export function allowedReturnUrl(url: string | null | undefined, allowedOrigins: ReadonlySet<string>): string | null {
  if (!url) return null;
  const origin = originOf(url);
  return origin && allowedOrigins.has(origin) ? url : null;
}

/** Origins from configured addresses (`https://shop.example/path` → `https://shop.example`); nonsense is skipped. */
export function originsOf(addresses: Iterable<string | null | undefined>): Set<string> {
  const origins = new Set<string>();
  for (const address of addresses) {
    const origin = address ? originOf(address.trim()) : undefined;
    if (origin) origins.add(origin);
  }
  return origins;
}

/**
 * The unpaid payment a checkout creates (`kind: api`, `generate_invoice`), in the fields of the
 * hosted interface plus this service's own: the buyer's `lang`, `invoice_company` and
 * `invoice_tax_no_kind`, and where to send the buyer back.
 */
export function checkoutPayment(order: {
  product: PricedProduct & { id: number; name: string };
  quantity: number;
  buyer: CheckoutBuyer;
  /** How the sale is taxed: the tax engine's decision, or (for older callers) the checkout's first three kinds. */
  treatment: VatTreatment | TaxDecision;
  lang: CheckoutLang;
  returnUrl: string | null;
  cancelUrl: string | null;
}) {
  const { buyer, product, quantity } = order;
  const company = isCompanyBuyer(buyer);
  let firstName = buyer.first_name || null;
  let lastName = buyer.last_name || null;
  // A consumer who typed one name gives it as first and last; a company's name is never split.
  if (!company && !firstName && !lastName && buyer.name) {
    const name = buyer.name.trim();
    const cut = name.lastIndexOf(' ');
    [firstName, lastName] = cut > 0 ? [name.slice(0, cut), name.slice(cut + 1)] : [name, null];
  }
  const person = [firstName, lastName].filter(Boolean).join(' ');
  const price = 'case' in order.treatment ? quoteFor(product, quantity, order.treatment) : quote(product, quantity, order.treatment);
  const text = (value: string | null | undefined) => (value && value.trim()) || null;
  return {
    name: product.name,
    price: price.amount,
    quantity: String(quantity),
    currency: product.currency,
    product_id: product.id,
    kind: 'api',
    paid: false,
    generate_invoice: true,
    email: buyer.email.trim(),
    first_name: firstName,
    last_name: lastName,
    phone: text(buyer.phone),
    invoice_name: text(buyer.name) || person || buyer.email.trim(),
    invoice_tax_no: company && buyer.tax_no_kind !== 'empty' ? storedTaxNumber(buyer) : null,
    invoice_street: text(buyer.street),
    invoice_post_code: text(buyer.post_code),
    invoice_city: text(buyer.city),
    invoice_country: text(buyer.country)?.toUpperCase() ?? null,
    invoice_company: company,
    invoice_tax_no_kind: company ? text(buyer.tax_no_kind) : null,
    lang: order.lang,
    description: `${quantity} × ${product.name}`,
    return_url: order.returnUrl,
    cancel_url: order.cancelUrl ?? order.returnUrl,
  };
}
export type CheckoutPayment = ReturnType<typeof checkoutPayment>;

/**
 * A tax number in the form it is stored in: a Polish NIP as its ten digits (`5260250274`, not
 * `PL 526-025-02-74`), an EU VAT number with its state's prefix (`DE812345673`), any other compacted.
 */
export function storedTaxNumber(buyer: Pick<CheckoutBuyer, 'tax_no' | 'country' | 'company' | 'tax_no_kind'>): string | null {
  const code = compactCode(buyer.tax_no ?? '');
  if (!code) return null;
  const country = (buyer.country ?? '').trim().toUpperCase();
  if (country === '' || country === 'PL') return code.replace(/^PL/, '');
  return euVatNumberOf({ email: '', ...buyer, company: true }) ?? code;
}
