import type { CheckoutBuyer } from '../../contract/sale.js';
import { isEmail } from '../../kernel/validation/fields.js';

/** The buyer from the dialog's fields: a company invoice names the company, the buyer's own name beside it. */
export function buyerFrom(form: HTMLFormElement, company: boolean): CheckoutBuyer {
  const data = new FormData(form);
  const value = (name: string) => String(data.get(name) ?? '').trim();
  return company
    ? {
        email: value('email'),
        company: true,
        name: value('company'),
        tax_no: value('tax_no'),
        street: value('street'),
        post_code: value('post_code'),
        city: value('city'),
        country: value('country'),
        ...(value('name') ? { first_name: value('name') } : {}),
      }
    : { email: value('email'), name: value('name'), country: value('country') };
}

/** The fields the quote judges, beside the price it gives for the buyer's country and tax number. */
const QUOTED = ['country', 'company', 'tax_no', 'post_code'] as const;

/**
 * The product route's query that asks the price for this buyer and what the checkout would refuse in
 * their country, tax number and post code (`?quantity=2&lang=pl&country=DE&company=1&tax_no=…`). The
 * buyer's name, e-mail and street never go into a URL: `contactProblems` checks them here.
 */
export function quoteQuery(buyer: CheckoutBuyer | undefined, quantity: number, lang: string): string {
  const query = new URLSearchParams({ quantity: String(quantity), lang });
  for (const field of QUOTED) {
    const value = buyer?.[field];
    if (value !== undefined && value !== null) query.set(field, value === true ? '1' : String(value));
  }
  return String(query);
}

/**
 * What the checkout would refuse in the fields the quote is not asked about, by its rules: a blank
 * e-mail, name, company name, street or city, and an e-mail of the wrong form.
 */
export function contactProblems(buyer: CheckoutBuyer): Partial<Record<string, 'required' | 'email'>> {
  const problems: Partial<Record<string, 'required' | 'email'>> = {};
  const blank = (field: 'email' | 'name' | 'street' | 'city') => !(buyer[field] ?? '').trim();
  if (blank('email')) problems.email = 'required';
  else if (!isEmail(buyer.email)) problems.email = 'email';
  for (const field of buyer.company ? (['name', 'street', 'city'] as const) : (['name'] as const)) if (blank(field)) problems[field] = 'required';
  return problems;
}
