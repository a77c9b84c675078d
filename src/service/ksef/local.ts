import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Sql } from '../db.js';
import { readPaymentSettings, realMoneyField } from '../data/payment-settings.js';
import { accountsWithKsefEnvironment } from '../accounts.js';
import { startKsefDouble, type RunningKsefDouble } from './double/server.js';

/**
 * Why the local KSeF double must not run beside this database, or `undefined` when it may: it mints
 * tokens for any NIP and hands out any seller's invoices, so it never runs where an account takes
 * real payments or sends its invoices to a KSeF environment other than `local`.
 */
export async function localKsefRefusal(sql: Sql): Promise<string | undefined> {
  const accounts = await accountsWithKsefEnvironment(sql);
  const reasons: string[] = [];
  for (const account of accounts) {
    const real = realMoneyField(await readPaymentSettings(sql, account.id));
    if (real) reasons.push(`account "${account.prefix}" takes real payments (${real === 'stripe.secret_key' ? 'a live Stripe key' : 'Przelewy24 outside its sandbox'})`);
    if (account.environment && account.environment !== 'local' && account.environment !== 'off') {
      reasons.push(`account "${account.prefix}" sends invoices to the KSeF environment "${account.environment}"`);
    }
  }
  if (reasons.length === 0) return undefined;
  return `The local KSeF (a test double that issues tokens for any NIP) does not run beside real money or a real KSeF: ${reasons.join('; ')}. Start the service without --ksef-local.`;
}

/**
 * The `local` KSeF environment: the bundled double, started by `invoicekit service --ksef-local` and
 * by `npm start`. Its state (keys, token secret, invoices) lives in the service's data folder, so
 * tokens, KSeF numbers and QR links survive restarts when the port stays the same.
 */
export async function startLocalKsef(options: { readonly dataDir?: string; readonly port?: number; readonly host?: string }): Promise<RunningKsefDouble> {
  let stateFile: string | undefined;
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    stateFile = join(options.dataDir, 'ksef-local.json');
  }
  return startKsefDouble({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', ...(stateFile ? { stateFile } : {}) });
}

/**
 * Connects an account to the local KSeF through the service's own API, as a user would: a token of
 * the double and an Offline certificate (KOD II) for the NIP of the account's main department, then
 * `PUT /account/ksef.json`. An account
 * whose KSeF is already set up is left as it is. Answers the NIP it connected, or null.
 */
export async function connectAccountToLocalKsef(
  serviceUrl: string,
  apiToken: string,
  double: Pick<RunningKsefDouble, 'issueToken' | 'issueOfflineCertificate'>,
  settings: { readonly auto_send_mode?: 'pl_companies' | 'all_companies' | 'all' | null } = {},
): Promise<string | null> {
  const headers = { authorization: `Bearer ${apiToken}`, accept: 'application/json', 'content-type': 'application/json' };
  const current = await fetch(`${serviceUrl}/account/ksef.json`, { headers });
  if (!current.ok) throw new Error(`the account's KSeF settings could not be read: ${current.status}`);
  const { ksef } = (await current.json()) as { ksef: { environment: string; token_set: boolean } };
  if (ksef.environment !== 'off' && ksef.token_set) return null;
  const departments = await fetch(`${serviceUrl}/departments.json`, { headers });
  if (!departments.ok) throw new Error(`the departments could not be read: ${departments.status}`);
  const answer = (await departments.json()) as Department[] | { departments: Department[] };
  const list = Array.isArray(answer) ? answer : answer.departments;
  const seller = [...list].sort((a, b) => Number(b.main === true) - Number(a.main === true)).find((department) => /^\d{10}$/.test(nipOf(department.tax_no)));
  if (!seller) return null;
  const nip = nipOf(seller.tax_no);
  // With an Offline certificate too, so that a back-dated invoice carries KOD II as well.
  const certificate = double.issueOfflineCertificate(nip);
  const saved = await fetch(`${serviceUrl}/account/ksef.json`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ksef: { environment: 'local', token: double.issueToken(nip), offline_certificate: certificate.certificatePem, offline_private_key: certificate.privateKeyPem, ...settings } }),
  });
  if (!saved.ok) throw new Error(`the account could not be connected to the local KSeF: ${saved.status}`);
  return nip;
}

interface Department {
  readonly tax_no?: string | null;
  readonly main?: boolean | null;
}

function nipOf(taxNo: string | null | undefined): string {
  return (taxNo ?? '').replace(/^PL/i, '').replace(/[\s-]/g, '');
}
