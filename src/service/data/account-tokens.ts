import type { Sql } from '../db.js';
import { storedToken } from '../secrets/stored.js';

/**
 * Gives an account a new api_token, kept sealed and found by its keyed hash as every token is. The
 * old one names no account from this statement on; the account cache of every process drops it
 * (the write clears this process's, a notification the others').
 */
export async function replaceApiToken(sql: Sql, accountId: number, token: string): Promise<void> {
  const stored = storedToken(token);
  await sql.query(`update accounts set api_token = $2, api_token_hash = $3 where id = $1`, [accountId, stored.sealed, stored.hash]);
}
