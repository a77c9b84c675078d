import type { Sql } from '../sql.js';

/**
 * The login_failures table: attempts to log in, counted per key (a user, a client address) in a
 * fixed window, shared by every process on one PostgreSQL database.
 */

/**
 * Counts one attempt of `key` in a window of `seconds` when fewer than `limit` are counted in the
 * current one, and answers whether it counted. One statement: the row lock makes the check and the
 * count atomic across processes.
 */
export async function reserveLoginAttempt(sql: Sql, key: string, seconds: number, limit: number): Promise<boolean> {
  const reserved = await sql.query<{ count: number }>(
    `insert into login_failures (key, count, reset_at) values ($1, 1, now() + make_interval(secs => $2))
     on conflict (key) do update set
       count = case when login_failures.reset_at > now() then login_failures.count + 1 else 1 end,
       reset_at = case when login_failures.reset_at > now() then login_failures.reset_at else excluded.reset_at end
     where login_failures.reset_at <= now() or login_failures.count < $3
     returning count`,
    [key, seconds, limit],
  );
  return reserved.length > 0;
}

/** Removes the counts whose window has ended. */
export async function sweepLoginFailures(sql: Sql): Promise<void> {
  await sql.query(`delete from login_failures where reset_at < now()`);
}

/** The whole seconds until the window of `key` ends, if it has a count. */
export async function loginWindowSeconds(sql: Sql, key: string): Promise<number | undefined> {
  const rows = await sql.query<{ seconds: number }>(
    `select ceil(extract(epoch from (reset_at - now())))::integer as seconds from login_failures where key = $1`,
    [key],
  );
  return rows[0]?.seconds;
}

/** Gives back one attempt counted for `key`. */
export async function releaseLoginAttempt(sql: Sql, key: string): Promise<void> {
  await sql.query(`update login_failures set count = count - 1 where key = $1 and count > 0`, [key]);
}

/** Forgets every attempt counted for `key`. */
export async function clearLoginFailures(sql: Sql, key: string): Promise<void> {
  await sql.query(`delete from login_failures where key = $1`, [key]);
}
