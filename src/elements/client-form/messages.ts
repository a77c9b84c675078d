import { BffError } from '../shared/fetch-json.js';
import type { Catalogs } from '../shared/i18n.js';

export const en = {
  kind: 'Invoices are made out to',
  company: 'A company',
  person: 'A private person',
  labels: {
    name: 'Company name',
    personName: 'Full name',
    tax_no: 'Tax number (NIP or EU VAT ID)',
    person: 'Contact person',
    email: 'E-mail',
    phone: 'Phone',
    street: 'Street and number',
    post_code: 'Post code',
    city: 'City',
    country: 'Country',
    bank: 'Bank',
    bank_account: 'Account number (IBAN)',
  },
  optional: 'optional',
  chooseCountry: 'Choose a country',
  save: 'Save details',
  create: 'Create account',
  saving: 'Saving…',
  discard: 'Discard changes',
  saved: 'Your details have been saved.',
  created: 'Your account has been created.',
  unchanged: 'There are no changes to save.',
  unsaved: 'You have unsaved changes.',
  invalid: 'Some fields need your attention.',
  loading: 'Loading your details…',
  /** What is wrong with a field, by problem; `required` by field. */
  problems: {
    required: {
      name: 'Enter the company name.',
      personName: 'Enter your full name.',
      tax_no: 'Enter the company’s tax number.',
      email: 'Enter your e-mail address.',
      other: 'Fill in this field.',
    },
    email: 'Enter an e-mail address such as name@example.com.',
    phone: 'Enter a phone number in digits.',
    country: 'Choose the country from the list.',
    nip: 'This NIP is not valid. Check its 10 digits.',
    vat: 'This is not a valid EU VAT number. Check the country code and the digits, as in DE136695976.',
    taxNo: 'Use only letters, digits, spaces and dashes.',
    iban: 'This is not a valid IBAN. Check the account number.',
    postCode: (example: string) => (example ? `Enter the post code as ${example}.` : 'Enter a valid post code.'),
    tooLong: (max: string) => `Use at most ${max} characters.`,
    server: 'This value was not accepted. Check it and try again.',
    unknownCompany: 'The register knows no company with this number. Check it and the country.',
  },
  loadError: 'We couldn’t load your details.',
  saveError: 'We couldn’t save your details.',
  errorText: 'Something went wrong on our side. Try again.',
  errorOffline: 'We couldn’t reach the server. Check your connection.',
  errorSession: 'Your session has expired. Reload the page to sign in again.',
  errorNoToken: 'This page did not provide a portal token.',
  errorBusy: 'Too many requests. Please wait a moment.',
  errorSignup: 'Signing up is not available here.',
  retry: 'Try again',
  lookup: 'Fill in from the register',
  lookupPending: 'Asking the register…',
  lookupUnavailable: 'The register cannot answer now. Fill in the company details yourself.',
  lookupFilled: (name: string, kept: boolean) => `Filled in from the register: ${name}.${kept ? ' Fields you had typed were kept.' : ''}`,
};

export type ClientFormMessages = typeof en;

export const catalogs: Catalogs<ClientFormMessages> = { en, pl: () => import('./messages.pl.js') };

/** Why a load or save failed, in the form's words: `signup` when it was a sign-up. */
export function failureText(m: ClientFormMessages, error: unknown, signup: boolean): string {
  const { status, code } = error instanceof BffError ? error : { status: -1, code: '' };
  if (code === 'no_token') return m.errorNoToken;
  if (status === 401) return m.errorSession;
  if (status === 429) return m.errorBusy;
  if (status === 404 && signup) return m.errorSignup;
  return status ? m.errorText : m.errorOffline;
}
