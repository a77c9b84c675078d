import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { startKsefDouble, type RunningKsefDouble } from './double/server.js';

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
 * the double for the NIP of the account's main department, then `PUT /account/ksef.json`.
 * Answers the NIP, or null when the account has no Polish NIP to send under.
 */
export async function connectAccountToLocalKsef(serviceUrl: string, apiToken: string, double: RunningKsefDouble): Promise<string | null> {
  const headers = { authorization: `Bearer ${apiToken}`, accept: 'application/json', 'content-type': 'application/json' };
  const departments = await fetch(`${serviceUrl}/departments.json`, { headers });
  if (!departments.ok) throw new Error(`the departments could not be read: ${departments.status}`);
  const list = (await departments.json()) as Array<{ tax_no?: string | null; main?: boolean | null }>;
  const nipOf = (taxNo: string | null | undefined) => (taxNo ?? '').replace(/^PL/i, '').replace(/[\s-]/g, '');
  const seller = [...list].sort((a, b) => Number(b.main === true) - Number(a.main === true)).find((department) => /^\d{10}$/.test(nipOf(department.tax_no)));
  if (!seller) return null;
  const nip = nipOf(seller.tax_no);
  const answer = await fetch(`${serviceUrl}/account/ksef.json`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ksef: { environment: 'local', token: double.issueToken(nip) } }),
  });
  if (!answer.ok) throw new Error(`the account could not be connected to the local KSeF: ${answer.status}`);
  return nip;
}
