import type { Sql } from '../sql.js';

/** The account_links table: client accounts that a partner account created, until the partner unlinks them. */

/** Links an account to the partner that created it (once: a second link changes nothing). */
export async function linkAccount(sql: Sql, partnerAccountId: number, accountId: number): Promise<void> {
  await sql.query(`insert into account_links (partner_account_id, account_id) values ($1, $2) on conflict do nothing`, [partnerAccountId, accountId]);
}

/** Unlinks the partner's linked accounts among `prefixes`, and answers the prefixes it unlinked. */
export async function unlinkAccounts(sql: Sql, partnerAccountId: number, prefixes: string[]): Promise<string[]> {
  const removed = await sql.query<{ prefix: string }>(
    `delete from account_links l using accounts a
      where l.partner_account_id = $1 and l.account_id = a.id and a.prefix = any($2::text[])
     returning a.prefix`,
    [partnerAccountId, prefixes],
  );
  return removed.map((r) => r.prefix);
}
