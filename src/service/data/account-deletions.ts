import type { Sql } from '../sql.js';

/** The account_deletions table: links, e-mailed to an account's owner, that delete the account when followed. */

/** Records a deletion link's token for the account, valid for `hours`. */
export async function insertAccountDeletion(sql: Sql, token: string, accountId: number, hours: number): Promise<void> {
  await sql.query(`insert into account_deletions (token, account_id, expires_at) values ($1, $2, now() + make_interval(hours => $3))`, [
    token,
    accountId,
    hours,
  ]);
}

/** The account a deletion token that has not expired would delete, with its prefix. */
export async function pendingAccountDeletion(sql: Sql, token: string): Promise<{ account_id: number; prefix: string } | undefined> {
  const rows = await sql.query<{ account_id: number; prefix: string }>(
    `select d.account_id, a.prefix from account_deletions d join accounts a on a.id = d.account_id where d.token = $1 and d.expires_at > now()`,
    [token],
  );
  return rows[0];
}
