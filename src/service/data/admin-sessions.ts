import type { Sql } from '../db.js';

/**
 * The back office's sessions (`admin_sessions`) and the users who open them. A session is found by
 * the SHA-256 of its cookie's id; it ends when it has been idle for `IDLE_HOURS` or is `MAX_DAYS` old.
 */
export const IDLE_HOURS = 8;
export const MAX_DAYS = 7;

/** A user as the sign-in checks them: found by login or e-mail, with the account they belong to. */
export interface SignInRow {
  user_id: number;
  account_id: number;
  login: string;
  email: string;
  password_hash: string;
}

/** What a live session carries: who, which account, and the token its writes must repeat. */
export interface AdminSession {
  user_id: number;
  account_id: number;
  csrf: string;
  login: string;
  email: string;
  prefix: string;
  account_name: string | null;
}

/** The user a typed login (or e-mail, any letter case) names: the same rule as `login.json`. */
export async function userForSignIn(sql: Sql, login: string): Promise<SignInRow | undefined> {
  const rows = await sql.query<SignInRow>(
    `select id as user_id, account_id, login, email, password_hash from users
      where login = $1 or lower(email) = lower($1) order by id limit 1`,
    [login],
  );
  return rows[0];
}

export async function insertAdminSession(sql: Sql, session: { idHash: string; userId: number; accountId: number; csrf: string }): Promise<void> {
  // Expired sessions are swept as new ones start, so the table holds only live ones and a few more.
  await sql.query(`delete from admin_sessions where expires_at < now()`);
  await sql.query(
    `insert into admin_sessions (id_hash, user_id, account_id, csrf, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(hours => $5))`,
    [session.idHash, session.userId, session.accountId, session.csrf, IDLE_HOURS],
  );
}

/** How stale a session's expiry may grow before it is written again: most requests write nothing. */
const REFRESH_MINUTES = 5;

/**
 * The live session of an id hash, its idle time started again; `undefined` when it ended or never
 * was. The read joins the user and the account; the write, when one is due, names only
 * `admin_sessions`, so that it retires no kept read and no cached account.
 */
export async function touchAdminSession(sql: Sql, idHash: string): Promise<AdminSession | undefined> {
  const rows = await sql.query<AdminSession & { due: boolean }>(
    `select s.user_id, s.account_id, s.csrf, u.login, u.email, a.prefix, a.name as account_name,
            s.expires_at < least(now() + make_interval(hours => $2) - make_interval(mins => $4), s.created_at + make_interval(days => $3)) as due
       from admin_sessions s join users u on u.id = s.user_id and u.account_id = s.account_id join accounts a on a.id = s.account_id
      where s.id_hash = $1 and s.expires_at > now()`,
    [idHash, IDLE_HOURS, MAX_DAYS, REFRESH_MINUTES],
  );
  const found = rows[0];
  if (!found) return undefined;
  if (found.due) {
    await sql.query(`update admin_sessions set expires_at = least(now() + make_interval(hours => $2), created_at + make_interval(days => $3)) where id_hash = $1`, [
      idHash,
      IDLE_HOURS,
      MAX_DAYS,
    ]);
  }
  const { due: _due, ...session } = found;
  return session;
}

export async function deleteAdminSession(sql: Sql, idHash: string): Promise<void> {
  await sql.query(`delete from admin_sessions where id_hash = $1`, [idHash]);
}
