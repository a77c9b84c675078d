import type { Sql } from '../db.js';
import { invalid } from '../domain-errors.js';
import { aboutToWrite, type StoredRow, written } from '../store.js';

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

const sequenceUpsert = `insert into number_sequences (account_id, scope, last_value) values ($1, $2, 1)
  on conflict (account_id, scope) do update set last_value = number_sequences.last_value + 1
  returning last_value`;

/** The counter of one account, kind and month, and the `/MM/YYYY` that follows its value. */
function sequenceOf(table: string, kind: string, issueDate: string): { scope: string; suffix: string } {
  const [year, month] = issueDate.split('-') as [string, string];
  return { scope: `${table}:${kind}:${year}-${month}`, suffix: `/${month}/${year}` };
}

/**
 * The next number of a document: one sequence per account, kind and month, `N/MM/YYYY`
 * (`55/01/2026`). The counter row is locked by the upsert until the transaction ends, so
 * concurrent creations, in one process or many, never get the same number. A number the
 * caller chose is kept when free and refused when taken. A new invoice is numbered by
 * `insertNumbered` instead, which holds the lock for less time.
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
  const { scope, suffix } = sequenceOf(table, kind, issueDate);
  for (;;) {
    const rows = await tx.query<{ last_value: number; taken: boolean }>(
      `with next as (${sequenceUpsert})
       select next.last_value, exists (
         select 1 from ${table} t
          where t.account_id = $1 and t.data->>'kind' = $3 and t.data->>'number' = next.last_value || $4 and t.id <> $5
       ) as taken
       from next`,
      [accountId, scope, kind, suffix, exceptId],
    );
    if (!rows[0]!.taken) return `${rows[0]!.last_value}${suffix}`;
  }
}

/**
 * Inserts a new document whose number is still to be taken, taking it in the same statement: the
 * counter's row lock is then held from this statement to the commit that follows it, not across
 * the round trips of building the document. A number someone chose by hand is skipped.
 */
export async function insertNumbered<Data extends { number: string; kind: string; issue_date: string }>(
  tx: Sql,
  table: 'invoices' | 'warehouse_documents',
  accountId: number,
  data: Data,
): Promise<StoredRow<Data>> {
  const { scope, suffix } = sequenceOf(table, data.kind, data.issue_date);
  // What the row's listeners read (whether a webhook listens) is read now, not under the lock.
  await aboutToWrite(tx, table, accountId, 'create');
  for (;;) {
    // The number is looked up as a scalar subquery, a value the index on (account, kind, number)
    // finds. Compared with `next.last_value` directly, the planner chose an anti join that read
    // every document of the kind and filtered their numbers: a cost that grew with the account.
    const rows = await tx.query<StoredRow<Data>>(
      `with next as (${sequenceUpsert})
       insert into ${table} (account_id, data)
       select $1, jsonb_set($3::jsonb, '{number}', to_jsonb(next.last_value || $4))
         from next
        where not exists (
          select 1 from ${table} t where t.account_id = $1 and t.data->>'kind' = $5 and t.data->>'number' = (select last_value from next) || $4
        )
       returning id, data, created_at, updated_at`,
      [accountId, scope, JSON.stringify(data), suffix, data.kind],
    );
    if (rows[0]) {
      await written(tx, table, accountId, rows[0], 'create');
      return rows[0];
    }
  }
}
