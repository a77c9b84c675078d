import type { Catalogs } from '../shared/i18n.js';

export const en = {
  buy: 'Buy now',
  loading: 'Loading…',
  unavailable: 'Online payment is unavailable.',
  retry: 'Try again',
  testMode: 'Test mode',
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
  /** Why the VAT is not the product's own, shown beside the net price the buyer then pays. */
  reverse_charge: 'Reverse charge: a service to a company in another EU country with a valid VAT number is invoiced without Polish VAT, so you pay the net price.',
  intra_eu_supply: 'Intra-community supply: goods to a company in another EU country with a valid VAT number are invoiced at 0%, so you pay the net price.',
  problems: {
    required: 'Fill this in.',
    email: 'Enter an e-mail address, such as ada@example.com.',
    phone: 'Enter a phone number.',
    country: 'Choose a country.',
    nip: 'This NIP is not valid. Check its 10 digits.',
    vat: 'This is not a valid EU VAT number of the chosen country. Check its digits.',
    taxNo: 'This is not a tax number.',
    iban: 'This is not a valid IBAN.',
    postCode: 'This is not a post code of the chosen country.',
    server: 'Check this field.',
  },
  asCustomer: 'Invoiced to your account details.',
  unitPrice: 'Unit price',
  total: 'Total',
  continue: 'Continue to payment',
  cancel: 'Cancel',
  redirecting: 'Opening payment…',
  checking: 'Checking the payment…',
  paid: (invoice?: string) => `Payment received. Thank you!${invoice ? ` Invoice ${invoice} is on its way to your e-mail.` : ''}`,
  viewInvoice: (number: string) => `View invoice ${number}`,
  declined: 'Payment declined. Nothing was charged.',
  cancelled: 'Payment not completed. Nothing was charged.',
  errors: {
    offline: 'No connection to the server.',
    busy: 'Too many attempts. Wait a moment.',
    invalid: 'Please check',
    failed: 'Something went wrong.',
  },
};

export type PayButtonMessages = typeof en;

export const catalogs: Catalogs<PayButtonMessages> = { en, pl: () => import('./messages.pl.js') };
