import { z } from 'zod';
import { CLIENT_PROBLEM_TEXT } from './problem-text.js';
import type { CheckoutBuyer } from '../../contract/sale.js';
import { buyerProblems, PRODUCT_TOKEN_PATTERN, TAX_NO_KINDS } from '../checkout.js';

/**
 * The fields a buyer may give at checkout, checked the same way by the BFF's `POST /checkout` and the
 * service's public widget checkout. Never a price: both sides price the product themselves.
 */
export const text = (max: number) => z.string({ message: 'must be text' }).trim().max(max, `is too long (maximum is ${max} characters)`);
export const optionalText = (max: number) => text(max).nullish();
export const email = z
  .string({ message: 'must be text' })
  .trim()
  .max(300, 'is too long (maximum is 300 characters)')
  .pipe(z.email({ message: 'is not an e-mail address' }));
/** An absolute http(s) URL, as a return address. */
export const webUrl = z
  .string({ message: 'must be a URL' })
  .max(2000, 'is too long (maximum is 2000 characters)')
  .refine((value) => {
    try {
      return /^https?:$/.test(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** The buyer, as a shape: each side picks how strict it is about keys it does not know. */
export const checkoutBuyerShape = {
  email,
  name: optionalText(300),
  first_name: optionalText(200),
  last_name: optionalText(200),
  tax_no: optionalText(50),
  street: optionalText(300),
  post_code: optionalText(30),
  city: optionalText(200),
  country: optionalText(100),
  phone: optionalText(100),
  /** A company invoice (the invoice's `buyer_company`); without it, a tax number implies one. */
  company: z.boolean({ message: 'must be true or false' }).nullish(),
  /** The hosted service's `buyer_tax_no_kind`; `empty` for a company without a tax number. */
  tax_no_kind: z.union([z.literal(''), z.enum(TAX_NO_KINDS)], { message: `must be one of ${TAX_NO_KINDS.join(', ')}` }).nullish(),
};

/** Adds the checkout core's buyer rules (docs/decisions/checkout-core.md) to a buyer schema, field by field. */
export function checkBuyer(buyer: CheckoutBuyer, ctx: z.RefinementCtx): void {
  for (const [field, problem] of Object.entries(buyerProblems(buyer))) {
    // The schema itself already says what is wrong with the e-mail.
    if (field === 'email') continue;
    ctx.addIssue({ code: 'custom', path: [field], message: CLIENT_PROBLEM_TEXT[problem] });
  }
}

/** A product token, as both checkouts take it. */
export const productToken = z.string({ message: "can't be blank" }).regex(PRODUCT_TOKEN_PATTERN, 'is not a product token');

/** The language the buyer's page chose (`en`, `pl-PL`); anything else falls back to the browser's. */
export const checkoutLangInput = z.string({ message: 'must be text' }).max(35, 'is too long (maximum is 35 characters)').nullish();
