import type { DepartmentData } from '../accounts.js';
import type { Sql } from '../sql.js';

/** The departments table: the sellers of an account, its main one first (see also `defaultDepartment`). */

/** Every department of an account, the main one first, then by age. */
export async function departmentsMainFirst(sql: Sql, accountId: number): Promise<DepartmentData[]> {
  const rows = await sql.query<{ data: DepartmentData }>(
    `select data from departments where account_id = $1 order by (data->>'main')::boolean desc nulls last, id`,
    [accountId],
  );
  return rows.map((row) => row.data);
}

/** The e-mail address of an account's main department (else its first), when it has one. */
export async function mainDepartmentEmail(sql: Sql, accountId: number): Promise<string | null | undefined> {
  const rows = await sql.query<{ email: string | null }>(
    `select data->>'email' as email from departments where account_id = $1 order by (data->>'main')::boolean desc nulls last, id limit 1`,
    [accountId],
  );
  return rows[0]?.email;
}
