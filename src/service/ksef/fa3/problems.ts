import { compare, decimal, sum, ZERO } from '../../../kernel/money.js';
import { Problems } from '../../domain-errors.js';
import { buyerName, type Fa3Context, type Fa3Invoice, isKsefKind, token, vatContext } from './invoice.js';
import { buyerIdentity, sellerIdentity } from './parties.js';
import { rateOf } from './rates.js';
import { thirdParties } from './third-parties.js';

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
