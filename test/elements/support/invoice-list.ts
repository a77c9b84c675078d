import { fixture, html } from '@open-wc/testing';
import type { InvoiceList } from '../../../src/elements/invoice-list/invoice-list.js';
import { byIssueDateDesc, portal, settled, shadow } from './portal.js';

/**
 * What the `<invoice-list>` test files share, against the real BFF and service of the portal fixture:
 * the main customer's invoices as the list orders them, a settled list, and its controls by label.
 */

// Request counts come from resource timing, whose buffer holds only 250 entries by default.
performance.setResourceTimingBufferSize(10_000);
const { bff, tokens, invoices } = await portal();

/** The main customer's invoices, newest first: the list's default order. */
export const main = [...invoices.main].sort(byIssueDateDesc);

/** A list in English for `token`, once it has loaded. */
export async function list(token = tokens.main, attributes = html``, endpoint = bff): Promise<InvoiceList> {
  const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${endpoint} portal-token=${token} locale="en">${attributes}</invoice-list>`);
  await settled(el);
  return el;
}

/** The input of the status chip labelled `label`. */
export function chip(el: InvoiceList, label: string): HTMLInputElement {
  const found = [...shadow(el).querySelectorAll<HTMLLabelElement>('.chip')].find((c) => c.textContent!.trim() === label);
  return found!.querySelector('input')!;
}

/** Chooses `value` in the select of the toolbar part `part`, as the customer does. */
export function select(el: InvoiceList, part: string, value: string): void {
  const element = shadow(el).querySelector<HTMLSelectElement>(`[part~="${part}"] select`)!;
  element.value = value;
  element.dispatchEvent(new Event('change'));
}

/** The sort button of the column headed `label`. */
export const sortButton = (el: InvoiceList, label: string) =>
  [...shadow(el).querySelectorAll<HTMLButtonElement>('th .sort')].find((b) => b.textContent!.trim() === label)!;

/** `amount` as the browser's `Intl` writes it in `currency` and `locale`. */
export const money = (amount: string, currency = 'PLN', locale = 'en') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount as unknown as number);
