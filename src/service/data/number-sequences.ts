import type { Sql, StoredRow } from '../sql.js';

/**
 * The number_sequences table: one counter per account and scope (a kind of document and a month),
 * and the numbered documents (`invoices`, `warehouse_documents`) checked against it. The upsert
 * locks the counter's row until the transaction ends, so concurrent creations, in one process or
 * many, never take the same value.
 */

export type NumberedTable = 'invoices' | 'warehouse_documents';

const sequenceUpsert = `insert into number_sequences (account_id, scope, last_value) values ($1, $2, 1)
  on conflict (account_id, scope) do update set last_value = number_sequences.last_value + 1
  returning last_value`;

/** Whether another document (not `exceptId`) of the account and kind has the number. */
export async function numberTaken(sql: Sql, table: NumberedTable, accountId: number, kind: string, number: string, exceptId: number): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from ${table} where account_id = $1 and data->>'kind' = $2 and data->>'number' = $3 and id <> $4 limit 1`,
    [accountId, kind, number, exceptId],
  );
  return rows.length > 0;
}

/**
 * The next value of the counter of `scope`, and whether a document (not `exceptId`) of the kind
 * already has that value followed by `suffix` as its number.
 */
export async function nextSequenceValue(
  tx: Sql,
  table: NumberedTable,
  accountId: number,
  scope: string,
  kind: string,
  suffix: string,
  exceptId: number,
): Promise<{ last_value: number; taken: boolean }> {
  const rows = await tx.query<{ last_value: number; taken: boolean }>(
    `with next as (${sequenceUpsert})
       select next.last_value, exists (
         select 1 from ${table} t
          where t.account_id = $1 and t.data->>'kind' = $3 and t.data->>'number' = next.last_value || $4 and t.id <> $5
       ) as taken
       from next`,
    [accountId, scope, kind, suffix, exceptId],
  );
  return rows[0]!;
}

/**
 * Inserts `data` as a new document numbered with the next value of the counter of `scope` followed
 * by `suffix`, in one statement; nothing when a document of the kind already has that number (the
 * counter has still moved on). Tells no row listener: the caller does.
 */
export async function insertWithNextNumber<Data>(
  tx: Sql,
  table: NumberedTable,
  accountId: number,
  scope: string,
  suffix: string,
  data: Data & { kind: string },
): Promise<StoredRow<Data> | undefined> {
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
  return rows[0];
}
