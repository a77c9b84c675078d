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
