import type { ClientFieldProblem } from './client.js';

/**
 * What is wrong with a client's or buyer's field, in the reference's words (`{"tax_no": ["is not a
 * valid NIP …"]}`): the BFF's client routes and both checkouts answer their 422s with these. Kept out
 * of the rules' module so that the elements, which say it in the buyer's language, do not carry it.
 */
export const CLIENT_PROBLEM_TEXT: Record<ClientFieldProblem, string> = {
  required: "can't be blank",
  email: 'is not an e-mail address',
  phone: 'is not a phone number',
  country: 'must be a two-letter ISO 3166-1 country code',
  nip: 'is not a valid NIP (the check digit does not match)',
  vat: 'is not a valid VAT number of its country (the check digits do not match)',
  taxNo: 'is not a tax number',
  iban: 'is not a valid IBAN (check the length and digits)',
  postCode: 'is not a post code of the chosen country',
};
