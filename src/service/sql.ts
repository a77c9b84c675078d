/**
 * The one small data layer: the same SQL runs on embedded PGlite (a folder on disk) and on a
 * PostgreSQL server through `pg`. Callers see rows as plain objects; `jsonb` arrives parsed.
 *
 * Every parameterized query runs as a named prepared statement, parsed once per connection: on
 * PGlite one round trip into the engine instead of six, and on both no parse, and often no
 * planning, on each request (see docs/decisions/service-speed.md).
 */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements with no parameters (migrations). */
  exec(script: string): Promise<void>;
  /**
   * The value `read` derives from `tables` alone, kept until one of them is written (see
   * `kept-reads.ts`). Only on PGlite, whose folder one process owns and so sees every write;
   * absent on PostgreSQL, where other processes write too. The value comes back frozen.
   */
  keep?<T>(tables: readonly string[], key: string, read: () => Promise<T>): Promise<T>;
  /**
   * `count` new values of `sequence`, taken from the database in blocks that this process hands
   * out, as a sequence's own CACHE does per session: every value is unique, and values handed out
   * by different processes need not follow the order they were taken in. Values taken in a
   * transaction that rolls back are never handed out again (`nextval` is not rolled back either).
   */
  sequenceValues(sequence: string, count: number): Promise<number[]>;
  /** What runs with every record written through this connection (`DatabaseOptions.rowHooks`). */
  readonly rowHooks?: readonly RowHooks[];
}

/** The tables that hold account-level resources, all of one shape (see migrations). */
export type ResourceTable =
  | 'departments'
  | 'clients'
  | 'products'
  | 'categories'
  | 'warehouses'
  | 'invoices'
  | 'payments'
  | 'warehouse_documents'
  | 'webhooks'
  | 'recurrings'
  | 'price_lists'
  | 'issuers';

export interface StoredRow<Data = Record<string, unknown>> {
  id: number;
  data: Data;
  created_at: Date;
  updated_at: Date;
}

/** Told of every record written through `insertRow`/`updateRow` (or `written` by hand), inside the writing transaction. */
export type RowListener = (sql: Sql, table: ResourceTable, accountId: number, row: StoredRow, change: 'create' | 'update') => Promise<void>;

/** Told, inside the transaction, before a statement that takes a lock until the commit writes a record (`insertNumbered`). */
export type RowWritingListener = (sql: Sql, table: ResourceTable, accountId: number, change: 'create' | 'update') => Promise<void>;

/**
 * Work that must commit with a record's change (queuing webhook deliveries), given to
 * `openDatabase` by whoever composes the service: a database opened without hooks runs none.
 */
export interface RowHooks {
  /** Reads the hook needs, done before the lock of a numbered insert is taken rather than while it is held. */
  beforeWrite?: RowWritingListener;
  written?: RowListener;
}
