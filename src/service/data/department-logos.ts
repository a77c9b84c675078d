import type { Sql } from '../db.js';

/** The logo of a department, for its invoice PDFs and pages. */
export async function departmentLogo(
  sql: Sql,
  accountId: number,
  departmentId: number | null,
): Promise<{ contentType: string; content: Uint8Array; updatedAt: Date } | undefined> {
  if (departmentId == null) return undefined;
  const rows = await sql.query<{ content_type: string; content: Uint8Array; updated_at: Date }>(
    `select content_type, content, updated_at from department_logos where account_id = $1 and department_id = $2`,
    [accountId, departmentId],
  );
  const row = rows[0];
  return row ? { contentType: row.content_type, content: new Uint8Array(row.content), updatedAt: new Date(row.updated_at) } : undefined;
}

/** Stores a department's logo, replacing the one it had. */
export async function putDepartmentLogo(sql: Sql, accountId: number, departmentId: number, logo: { contentType: string; content: Uint8Array }): Promise<void> {
  await sql.query(
    `insert into department_logos (department_id, account_id, content_type, content, updated_at) values ($1, $2, $3, $4, now())
     on conflict (department_id) do update set content_type = excluded.content_type, content = excluded.content, updated_at = now()`,
    [departmentId, accountId, logo.contentType, Buffer.from(logo.content)],
  );
}
