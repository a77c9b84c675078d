import { keptRead, type Sql } from '../db.js';

/**
 * Who an invoice names as its author: a read of the users table made for issuing (the table's own
 * module is the accounts' data layer).
 */

/** The account's first user, or null for an account without users; kept until a user is written. */
export function firstUserId(sql: Sql, accountId: number): Promise<number | null> {
  return keptRead(sql, ['users'], `first user of ${accountId}`, async () => {
    const rows = await sql.query<{ id: number }>(`select id from users where account_id = $1 order by id limit 1`, [accountId]);
    return rows[0]?.id ?? null;
  });
}
