import type { CheckoutBuyer } from '../../contract/sale.js';

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

/**
 * The product route's query that asks the price for this buyer and what the checkout would refuse in
 * each of their fields (`?quantity=2&lang=pl&email=…&name=…&country=DE&company=1&tax_no=…`).
 */
export function quoteQuery(buyer: CheckoutBuyer | undefined, quantity: number, lang: string): string {
  const query = new URLSearchParams({ quantity: String(quantity), lang });
  for (const [field, value] of Object.entries(buyer ?? {})) query.set(field, value === true ? '1' : String(value));
  return String(query);
}
