import type { Sql } from '../db.js';
import { invalid } from '../http.js';

/** `issueDate` plus `days`, as a `YYYY-MM-DD` date. */
export function addDays(issueDate: string, days: number): string {
  const date = new Date(`${issueDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

async function numberTaken(sql: Sql, table: string, accountId: number, kind: string, number: string, exceptId: number): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from ${table} where account_id = $1 and data->>'kind' = $2 and data->>'number' = $3 and id <> $4 limit 1`,
    [accountId, kind, number, exceptId],
  );
  return rows.length > 0;
}

/**
 * The next number of a document: one sequence per account, kind and month, `N/MM/YYYY`
 * (`55/01/2026`). The counter row is locked by the upsert until the transaction ends, so
 * concurrent creations, in one process or many, never get the same number. A number the
 * caller chose is kept when free and refused when taken.
 */
export async function assignNumber(
  tx: Sql,
  accountId: number,
  kind: string,
  issueDate: string,
  wanted?: string | null,
  exceptId = 0,
  table: 'invoices' | 'warehouse_documents' = 'invoices',
): Promise<string> {
  const chosen = wanted?.trim();
  if (chosen) {
    if (await numberTaken(tx, table, accountId, kind, chosen, exceptId)) throw invalid({ number: ['has already been taken'] });
    return chosen;
  }
  const [year, month] = issueDate.split('-') as [string, string];
  const scope = `${table}:${kind}:${year}-${month}`;
  for (;;) {
    const rows = await tx.query<{ last_value: number }>(
      `insert into number_sequences (account_id, scope, last_value) values ($1, $2, 1)
       on conflict (account_id, scope) do update set last_value = number_sequences.last_value + 1
       returning last_value`,
      [accountId, scope],
    );
    const candidate = `${rows[0]!.last_value}/${month}/${year}`;
    if (!(await numberTaken(tx, table, accountId, kind, candidate, exceptId))) return candidate;
  }
}
