import type { Sql } from '../db.js';

/** An account's users as the command line makes them (`invoicekit users create`) and the demo seeds its owner. */
export interface AccountUserRow {
  id: number;
  login: string;
  email: string;
  password_hash: string;
}

export async function accountIdByPrefix(sql: Sql, prefix: string): Promise<number | undefined> {
  const rows = await sql.query<{ id: number }>(`select id from accounts where prefix = $1`, [prefix]);
  return rows[0]?.id;
}

/** Whether a login or an e-mail (any letter case) is someone's already: each names one user across the service. */
export async function loginTaken(sql: Sql, login: string, email: string): Promise<boolean> {
  const rows = await sql.query(`select 1 from users where login = $1 or lower(email) = lower($2) or lower(email) = lower($1) limit 1`, [login, email]);
  return rows.length > 0;
}

export async function insertAccountUser(sql: Sql, accountId: number, user: { login: string; email: string; passwordHash: string }): Promise<AccountUserRow> {
  const rows = await sql.query<AccountUserRow>(
    `insert into users (account_id, login, email, password_hash) values ($1, $2, $3, $4) returning id, login, email, password_hash`,
    [accountId, user.login, user.email, user.passwordHash],
  );
  return rows[0]!;
}

export async function accountUserCount(sql: Sql, accountId: number): Promise<number> {
  const rows = await sql.query<{ count: number }>(`select count(*)::integer as count from users where account_id = $1`, [accountId]);
  return rows[0]?.count ?? 0;
}

export async function accountUserByLogin(sql: Sql, accountId: number, login: string): Promise<AccountUserRow | undefined> {
  const rows = await sql.query<AccountUserRow>(`select id, login, email, password_hash from users where account_id = $1 and login = $2`, [accountId, login]);
  return rows[0];
}
