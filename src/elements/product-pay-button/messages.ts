import type { Catalogs } from '../shared/i18n.js';
import { buttonEn, pl } from './button-messages.js';

/** Everything the button and its dialog say in English: the button's own words, and the dialog's and a payment outcome's, which load with them. */
export const en = {
  ...buttonEn,
  /** A payment's outcome, on the button and after BLIK. */
  checking: 'Checking the payment…',
  paid: (invoice?: string) => `Payment received. Thank you!${invoice ? ` Invoice ${invoice} is on its way to your e-mail.` : ''}`,
  viewInvoice: (number: string) => `View invoice ${number}`,
  declined: 'Payment declined. Nothing was charged.',
  cancelled: 'Payment not completed. Nothing was charged.',
  quantity: 'Quantity',
  email: 'E-mail for the invoice',
  name: 'Full name',
  company: 'Company invoice',
  companyName: 'Company name',
  taxNo: 'Tax number',
  street: 'Street and number',
  postCode: 'Post code',
  city: 'City',
  country: 'Country',
  vat: 'VAT',
  /** Why the VAT is not the product's own, by the quote's treatment; the server's notes name every other case. */
  cases: {
    reverse_charge: 'Reverse charge: a service to a company in another EU country with a valid VAT number is invoiced without Polish VAT, so you pay the net price.',
    intra_eu_supply: 'Intra-community supply: goods to a company in another EU country with a valid VAT number are invoiced at 0%, so you pay the net price.',
  },
  /** Why an EU company pays Polish VAT after all (VIES could not confirm the number). */
  fallback: 'The EU VAT register (VIES) could not confirm your VAT number just now, so the sale goes ahead with Polish VAT.',
  invoiceSays: 'The invoice will say:',
  revised: (amount: string) => `The price changed: the total is now ${amount}.`,
  fixQuantity: 'Correct the quantity to see the price.',
  lookup: 'Fill in from the register',
  lookupPending: 'Asking the register…',
  lookupUnavailable: 'The register cannot answer now. Fill in the company details yourself.',
  lookupFilled: (name: string, kept: boolean) => `Filled in from the register: ${name}.${kept ? ' Fields you had typed were kept.' : ''}`,
  /** What is wrong at a field, by problem code: the dialog has no phone or bank account field, and its country is a list of the known codes, so no words for them. */
  problems: {
    required: 'Fill this in.',
    email: 'Enter an e-mail address, such as ada@example.com.',
    nip: 'This NIP is not valid. Check its 10 digits.',
    vat: 'This is not a valid EU VAT number of the chosen country. Check its digits.',
    taxNo: 'This is not a tax number.',
    postCode: 'This is not a post code of the chosen country.',
    server: 'Check this field.',
    quantity: 'Enter a whole number from 1 to 1000.',
    viesInvalid: 'The EU VAT register (VIES) does not know this number. Check it, or buy without a company invoice.',
    unknownCompany: 'The register knows no company with this number. Check it and the country.',
    blik: 'Enter the six digits from your bank app.',
  },
  /** BLIK on the page: the code, the wait for the bank app, and why a payment did not go through. */
  blik: {
    code: 'BLIK code',
    pay: 'Pay with BLIK',
    wait: 'Confirm the payment in your bank app',
    left: (seconds: number) => `${seconds} seconds left.`,
    other: 'Pay another way',
    reasons: {
      wrong_code: 'The code was wrong. Check it in your bank app and try again.',
      expired_code: 'The code had expired. Get a new one in your bank app.',
      declined: 'The payment was declined in your bank app. Nothing was charged.',
      timeout: 'Your bank app gave no answer in time. Nothing was charged.',
      provider_error: 'The payment provider could not take the payment. Nothing was charged.',
    },
  },
  asCustomer: 'Invoiced to your account details.',
  unitPrice: 'Unit price',
  total: 'Total',
  /** Beside the total: what it holds of VAT. */
  inclVat: 'incl. VAT',
  noVat: 'VAT not charged',
  close: 'Close',
  continue: 'Continue to payment',
  cancel: 'Cancel',
  redirecting: 'Opening payment…',
  errors: {
    ...buttonEn.errors,
    offline: 'No connection to the server.',
    busy: 'Too many attempts. Wait a moment.',
    invalid: 'Please check',
  },
};

export type PayButtonMessages = typeof en;

export const catalogs: Catalogs<PayButtonMessages> = { en, pl };
