import { insertWithNextNumber, nextSequenceValue, type NumberedTable, numberTaken } from '../data/number-sequences.js';
import type { Sql } from '../db.js';
import { invalid } from '../domain-errors.js';
import { aboutToWrite, type StoredRow, written } from '../store.js';

/** `issueDate` plus `days`, as a `YYYY-MM-DD` date. */
export function addDays(issueDate: string, days: number): string {
  const date = new Date(`${issueDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

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
  table: NumberedTable = 'invoices',
): Promise<string> {
  const chosen = wanted?.trim();
  if (chosen) {
    if (await numberTaken(tx, table, accountId, kind, chosen, exceptId)) throw invalid({ number: ['has already been taken'] });
    return chosen;
  }
  const { scope, suffix } = sequenceOf(table, kind, issueDate);
  for (;;) {
    const next = await nextSequenceValue(tx, table, accountId, scope, kind, suffix, exceptId);
    if (!next.taken) return `${next.last_value}${suffix}`;
  }
}

/**
 * Inserts a new document whose number is still to be taken, taking it in the same statement: the
 * counter's row lock is then held from this statement to the commit that follows it, not across
 * the round trips of building the document. A number someone chose by hand is skipped.
 */
export async function insertNumbered<Data extends { number: string; kind: string; issue_date: string }>(
  tx: Sql,
  table: NumberedTable,
  accountId: number,
  data: Data,
): Promise<StoredRow<Data>> {
  const { scope, suffix } = sequenceOf(table, data.kind, data.issue_date);
  // What the row's listeners read (whether a webhook listens) is read now, not under the lock.
  await aboutToWrite(tx, table, accountId, 'create');
  for (;;) {
    const row = await insertWithNextNumber(tx, table, accountId, scope, suffix, data);
    if (row) {
      await written(tx, table, accountId, row, 'create');
      return row;
    }
  }
}
