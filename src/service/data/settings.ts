import type { Sql } from '../sql.js';

/** The settings table: the service's own settings by key (the integration token, the signing secret), each value sealed by the caller. */

/** Stores `value` under `key`, replacing what was there. */
export async function putSetting(sql: Sql, key: string, value: string): Promise<void> {
  await sql.query(`insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`, [key, value]);
}

/** The value under `key`, after storing `value` there when the key held nothing: of processes starting at once, the first one's value wins. */
export async function settingOr(sql: Sql, key: string, value: string): Promise<string> {
  const rows = await sql.query<{ value: string }>(
    `insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = settings.value returning value`,
    [key, value],
  );
  // `insert … returning` answers the row it inserted or updated, or throws.
  if (!rows[0]) throw new Error('insert into settings returned no row');
  return rows[0].value;
}
