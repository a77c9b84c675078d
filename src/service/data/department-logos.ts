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
