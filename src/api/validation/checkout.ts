import { z } from 'zod';

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
};
