import type { CheckoutBuyer } from '../contract/sale.js';
import { type ClientFieldProblem, compactCode, isCountryCode, isEmail, isPhone, postCodeProblem } from './validation/fields.js';

/**
 * The checkout's rules for a buyer, with the tax number's check given by the caller: the server, the
 * BFF and `<client-form>` check the number by its country's check digits (`buyerProblems` in
 * `checkout.ts`); the pay button's dialog by its shape only, and takes the check digits' verdict from
 * the server's quote, so the check digits stay out of a shop page (docs/decisions/lighter-elements.md).
 * This module never imports them.
 */

export const BUYER_FIELDS = ['email', 'name', 'first_name', 'last_name', 'tax_no', 'street', 'post_code', 'city', 'country', 'phone'] as const;
export type BuyerField = (typeof BUYER_FIELDS)[number];
export type BuyerProblems = Partial<Record<BuyerField, ClientFieldProblem>>;

/** What is wrong with a tax number (compacted or as typed) for a buyer of `country` (a known code, or blank). */
export type TaxNumberCheck = (number: string, country: string) => ClientFieldProblem | undefined;

const blank = (value: string | null | undefined) => !value || !value.trim();

/** A company invoice: asked for, or implied by a tax number when the body does not say. */
export const isCompanyBuyer = (buyer: Pick<CheckoutBuyer, 'company' | 'tax_no'>): boolean => buyer.company ?? !blank(buyer.tax_no);

/**
 * Every problem with a buyer, by field, with tax numbers checked by `taxNumberCheck`. A company needs
 * its name, tax number (unless it has none, `tax_no_kind: empty`), street, post code, city and
 * country; a consumer needs a first and last name, or a name. Post codes, e-mail and phone are checked
 * as `<client-form>` checks them.
 */
export function buyerProblemsWith(taxNumberCheck: TaxNumberCheck): (buyer: CheckoutBuyer) => BuyerProblems {
  return (buyer) => {
    const problems: BuyerProblems = {};
    const check = (field: BuyerField, problem: ClientFieldProblem | false | undefined) => {
      if (problem) problems[field] ??= problem;
    };
    const text = (field: BuyerField) => (buyer[field] ?? '').trim();
    const country = text('country').toUpperCase();
    const known = isCountryCode(country) ? country : '';
    check('email', blank(buyer.email) ? 'required' : !isEmail(buyer.email) && 'email');
    check('phone', !!text('phone') && !isPhone(text('phone')) && 'phone');
    check('country', !!country && !known && 'country');
    check('post_code', postCodeProblem(text('post_code'), known));
    if (isCompanyBuyer(buyer)) {
      for (const field of ['name', 'street', 'post_code', 'city', 'country'] as const) check(field, !text(field) && 'required');
      const kind = buyer.tax_no_kind ?? '';
      if (kind !== 'empty') {
        check('tax_no', !text('tax_no') && 'required');
        const number = compactCode(text('tax_no'));
        check('tax_no', kind === 'other' ? !!number && !/^[A-Z0-9]{4,30}$/.test(number) && 'taxNo' : taxNumberCheck(number, known));
      }
    } else {
      check('name', !text('name') && !(text('first_name') && text('last_name')) && 'required');
      check('tax_no', taxNumberCheck(text('tax_no'), known));
    }
    return problems;
  };
}
