import type { Sql } from '../sql.js';

/** The categories table: the reads other records make of it (its records are written as generic ones). */

/** Whether `categoryId` names a category of the account. */
export async function categoryExists(sql: Sql, accountId: number, categoryId: number): Promise<boolean> {
  const rows = await sql.query(`select id from categories where account_id = $1 and id = $2`, [accountId, categoryId]);
  return rows.length > 0;
}
