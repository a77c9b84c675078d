import type { Catalogs } from '../shared/i18n.js';

/** What the button says before anyone opens its dialog, in English: the rest is in `messages.ts`, loaded with the dialog or with a payment's outcome. */
export const buttonEn = {
  buy: 'Buy now',
  loading: 'Loading…',
  unavailable: 'Online payment is unavailable.',
  retry: 'Try again',
  testMode: 'Test mode',
  errors: {
    failed: 'Something went wrong.',
    /** The server knows no such product (404): a retry would not help. */
    notForSale: 'This product is no longer for sale.',
  },
};

export type ButtonMessages = typeof buttonEn;

/** The Polish catalog, button and dialog in one module: one loader, so either side finds it loaded once the other asked. */
export const pl = () => import('./messages.pl.js');

export const buttonCatalogs: Catalogs<ButtonMessages> = { en: buttonEn, pl };
