import type { Sql } from '../sql.js';

/** Resolves once the database answers the smallest query there is: what readiness asks of it. */
export async function databaseAnswers(sql: Sql): Promise<void> {
  await sql.query('select 1');
}
