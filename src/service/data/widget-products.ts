import type { Account } from '../account.js';
import { JOINED_ACCOUNT_COLUMNS, type JoinedAccountRow, joinedAccount } from '../accounts.js';
import type { Sql, StoredRow } from '../sql.js';

/** The read of the product widget: an account by its public prefix and one of its products by the product's public token. */

/** The account with `prefix` and its product with `token`, in one query; undefined when either is unknown. */
export async function widgetProductByToken<Data>(sql: Sql, prefix: string, token: string): Promise<{ account: Account; product: StoredRow<Data> } | undefined> {
  const rows = await sql.query<JoinedAccountRow & { product_id: number; data: Data; created_at: Date; updated_at: Date }>(
    `select ${JOINED_ACCOUNT_COLUMNS},
            p.id as product_id, p.data, p.created_at, p.updated_at
       from accounts a join products p on p.account_id = a.id
      where a.prefix = $1 and p.data->>'token' = $2 limit 1`,
    [prefix, token],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    account: joinedAccount(row),
    product: { id: row.product_id, data: row.data, created_at: row.created_at, updated_at: row.updated_at },
  };
}
