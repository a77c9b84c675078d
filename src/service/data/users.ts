import { JOINED_ACCOUNT_COLUMNS, type JoinedAccountRow } from '../accounts.js';
import type { Sql } from '../sql.js';

/** The users table: the people who log in to an account, and the reads and writes made of them. */

/** What a user's `data` column holds besides the columns. */
export interface UserData {
  first_name?: string | null;
  last_name?: string | null;
  role?: string;
  department_ids?: number[];
}

/** A user as `insertUser` answers it. */
export interface UserRow {
  id: number;
  account_id: number;
  login: string;
  email: string;
  password_hash: string;
  data: UserData;
  created_at: Date;
}

/** A user with the account it belongs to, as a login finds them. */
export type LoginUserRow = UserRow & JoinedAccountRow & { user_id: number };

/**
 * The user a login names, by login or by e-mail in any letter case (the oldest user when several
 * match), with their account's columns: `joinedAccount` makes the account of it.
 */
export async function userByLogin(sql: Sql, login: string): Promise<LoginUserRow | undefined> {
  const rows = await sql.query<LoginUserRow>(
    `select u.id, u.id as user_id, u.account_id, u.login, u.email, u.password_hash, u.data, u.created_at, ${JOINED_ACCOUNT_COLUMNS}
       from users u join accounts a on a.id = u.account_id
      where u.login = $1 or lower(u.email) = lower($1)
      order by u.id limit 1`,
    [login],
  );
  return rows[0];
}

/** Some user whose e-mail is `email` (in any letter case) or whose login is `login`. */
export async function userByEmailOrLogin(sql: Sql, email: string, login: string): Promise<Omit<UserRow, 'password_hash' | 'data'> | undefined> {
  const rows = await sql.query<Omit<UserRow, 'password_hash' | 'data'>>(
    `select id, account_id, login, email, created_at from users where lower(email) = lower($1) or login = $2 limit 1`,
    [email, login],
  );
  return rows[0];
}

/** True when a user already has `login` as their login or `email` (in any letter case) as their e-mail. */
export async function loginTaken(sql: Sql, login: string, email: string): Promise<boolean> {
  const taken = await sql.query(`select 1 from users where login = $1 or lower(email) = lower($2) limit 1`, [login, email]);
  return taken.length > 0;
}

/** Adds a user to an account; `passwordHash` is what `hashPassword` made. */
export async function insertUser(
  sql: Sql,
  accountId: number,
  user: { login: string; email: string; passwordHash: string; data: UserData },
): Promise<UserRow> {
  const rows = await sql.query<UserRow>(
    `insert into users (account_id, login, email, password_hash, data) values ($1, $2, $3, $4, $5)
     returning id, account_id, login, email, password_hash, data, created_at`,
    [accountId, user.login, user.email, user.passwordHash, JSON.stringify(user.data)],
  );
  // `insert … returning` answers the row it inserted or throws: an empty answer is a broken database.
  if (!rows[0]) throw new Error('insert into users returned no row');
  return rows[0];
}

/** Sets the given fields of a user's `data`, keeping the others. */
export async function mergeUserData(sql: Sql, userId: number, data: UserData): Promise<void> {
  await sql.query(`update users set data = data || $2::jsonb where id = $1`, [userId, JSON.stringify(data)]);
}

/** The e-mail addresses of an account's users, oldest user first. */
export async function userEmails(sql: Sql, accountId: number): Promise<string[]> {
  const rows = await sql.query<{ email: string }>(`select email from users where account_id = $1 order by id`, [accountId]);
  return rows.map((r) => r.email);
}
