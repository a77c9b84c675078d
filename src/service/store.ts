import { notFound } from './domain-errors.js';
import type { ResourceTable, RowHooks, RowListener, RowWritingListener, Sql, StoredRow } from './sql.js';

export type { ResourceTable, RowHooks, RowListener, RowWritingListener, StoredRow };

/** ISO 8601 with an explicit offset, as the hosted service writes timestamps. */
export function timestampText(value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value);
  return date.toISOString().replace('Z', '+00:00');
}

export function todayText(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

const COLUMNS = 'id, data, created_at, updated_at';

export async function aboutToWrite(sql: Sql, table: ResourceTable, accountId: number, change: 'create' | 'update') {
  for (const hooks of sql.rowHooks ?? []) await hooks.beforeWrite?.(sql, table, accountId, change);
}

export async function written(sql: Sql, table: ResourceTable, accountId: number, row: StoredRow<unknown>, change: 'create' | 'update') {
  for (const hooks of sql.rowHooks ?? []) await hooks.written?.(sql, table, accountId, row as StoredRow, change);
}

export async function insertRow<Data>(sql: Sql, table: ResourceTable, accountId: number, data: Data): Promise<StoredRow<Data>> {
  const rows = await sql.query<StoredRow<Data>>(
    `insert into ${table} (account_id, data) values ($1, $2) returning ${COLUMNS}`,
    [accountId, JSON.stringify(data)],
  );
  await written(sql, table, accountId, rows[0]!, 'create');
  return rows[0]!;
}

export async function findRow<Data>(
  sql: Sql,
  table: ResourceTable,
  accountId: number,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<StoredRow<Data> | undefined> {
  const rows = await sql.query<StoredRow<Data>>(
    `select ${COLUMNS} from ${table} where account_id = $1 and id = $2${options.forUpdate ? ' for update' : ''}`,
    [accountId, id],
  );
  return rows[0];
}

/** The row, or 404 exactly as for a missing one when it belongs to another account. */
export async function requireRow<Data>(
  sql: Sql,
  table: ResourceTable,
  accountId: number,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<StoredRow<Data>> {
  const row = await findRow<Data>(sql, table, accountId, id, options);
  if (!row) throw notFound();
  return row;
}

export async function updateRow<Data>(sql: Sql, table: ResourceTable, accountId: number, id: number, data: Data): Promise<StoredRow<Data>> {
  const rows = await sql.query<StoredRow<Data>>(
    `update ${table} set data = $3, updated_at = now() where account_id = $1 and id = $2 returning ${COLUMNS}`,
    [accountId, id, JSON.stringify(data)],
  );
  if (!rows[0]) throw notFound();
  await written(sql, table, accountId, rows[0], 'update');
  return rows[0];
}

export async function deleteRow(sql: Sql, table: ResourceTable, accountId: number, id: number): Promise<void> {
  const rows = await sql.query(`delete from ${table} where account_id = $1 and id = $2 returning id`, [accountId, id]);
  if (rows.length === 0) throw notFound();
}

export interface ListOptions {
  /** SQL conditions over `data`, with `$n` placeholders numbered after the account id ($1). */
  where?: string[];
  params?: unknown[];
  order?: string;
  page: number;
  perPage: number;
  /** What to read as `data`: e.g. `data - 'positions'` when the answer leaves them out. Default the whole document. */
  data?: string;
  /** Further columns read into each row, e.g. generated columns that stand in for what `data` leaves out. */
  columns?: string[];
}

export async function listRows<Data>(sql: Sql, table: ResourceTable, accountId: number, options: ListOptions): Promise<StoredRow<Data>[]> {
  const where = ['account_id = $1', ...(options.where ?? [])].join(' and ');
  const params = [accountId, ...(options.params ?? []), options.perPage, (options.page - 1) * options.perPage];
  const n = params.length;
  return sql.query<StoredRow<Data>>(
    `select id, ${options.data ?? 'data'} as data, ${(options.columns ?? []).map((column) => `${column}, `).join('')}created_at, updated_at from ${table}
      where ${where} order by ${options.order ?? 'id'} limit $${n - 1} offset $${n}`,
    params,
  );
}

/** A filter builder that numbers placeholders after the account id. */
export class Filters {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  add(condition: (placeholder: string) => string, value: unknown): this {
    this.params.push(value);
    this.where.push(condition(`$${this.params.length + 1}`));
    return this;
  }
}
