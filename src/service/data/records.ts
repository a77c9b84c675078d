import type { ResourceTable, Sql } from '../sql.js';

/**
 * The account-level record tables of one shape (`ResourceTable`, see migrations), read by what
 * every such resource shares. The table name is written into the statement, so it is only ever one
 * of that fixed list, never text from a request.
 */

/** Whether `id` names a record of the account in `table`. */
export async function recordExists(sql: Sql, table: ResourceTable, accountId: number, id: number): Promise<boolean> {
  const rows = await sql.query(`select 1 from ${table} where account_id = $1 and id = $2`, [accountId, id]);
  return rows.length > 0;
}
