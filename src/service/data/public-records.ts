import type { Account } from '../account.js';
import { notFound } from '../domain-errors.js';
import type { Sql, StoredRow } from '../sql.js';
import { openSecret } from '../secrets/keyring.js';

/** The records that anyone holding their token reaches: invoice and payment pages, the payment providers' notifications. */

interface Found<Data> {
  account: Account;
  row: StoredRow<Data>;
}

/** An invoice or payment by its public token, with its account, in one query; a malformed or unknown token is not found. */
export async function byToken<Data>(sql: Sql, table: 'invoices' | 'payments', token: string, forUpdate = false): Promise<Found<Data>> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) throw notFound();
  const rows = await sql.query<StoredRow<Data> & { account_id: number; prefix: string; api_token: string; name: string | null; account_created_at: Date }>(
    `select r.id, r.data, r.created_at, r.updated_at, a.id as account_id, a.prefix, a.api_token, a.name, a.created_at as account_created_at
       from ${table} r join accounts a on a.id = r.account_id
      where r.data->>'token' = $1 limit 1${forUpdate ? ' for update of r' : ''}`,
    [token],
  );
  const found = rows[0];
  if (!found) throw notFound();
  return {
    account: { id: found.account_id, prefix: found.prefix, api_token: openSecret(found.api_token), name: found.name, created_at: found.account_created_at },
    row: { id: found.id, data: found.data, created_at: found.created_at, updated_at: found.updated_at },
  };
}
