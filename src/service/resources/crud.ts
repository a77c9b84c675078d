import type { Hono } from 'hono';
import type { z } from 'zod';
import { pageQuery } from '../../api/schemas/common.js';
import { keptAnswer } from '../conditional.js';
import { recordExists } from '../data/records.js';
import type { Sql } from '../db.js';
import { type Account, idParam, invalid, queryOf, respond, type ServiceContext, type ServiceEnv, validate, wrapped } from '../http.js';
import { Problems } from '../domain-errors.js';
import { deleteRow, Filters, insertRow, listRows, requireRow, type ResourceTable, type StoredRow, todayText, updateRow } from '../store.js';

/**
 * The five routes most resources share: list, read, create, update and delete, each scoped to the
 * token's account, in JSON and XML. Resources with real business rules supply `create`/`update`.
 */
export interface CrudResource<Data extends object, CreateSchema extends z.ZodType, UpdateSchema extends z.ZodType> {
  table: ResourceTable;
  /** Where the resource lives within its group (`/payments` in `/banking`); the group's own path by default. */
  path?: string;
  /** The request and XML wrapper key, e.g. `product`. */
  wrapper: string;
  /** The XML root of a list, e.g. `products`. */
  listRoot: string;
  createSchema: CreateSchema;
  updateSchema: UpdateSchema;
  create?(tx: Sql, account: Account, input: z.output<CreateSchema>, c: ServiceContext): Promise<Data>;
  /** Makes and stores a new record in one step, instead of `create`, `insert` and `afterWrite` (an invoice is issued so). */
  createRow?(tx: Sql, account: Account, input: z.output<CreateSchema>, c: ServiceContext): Promise<StoredRow<Data>>;
  /** Work before a create's transaction, such as fetching what it will read (an exchange rate). */
  beforeCreate?(input: z.output<CreateSchema>, c: ServiceContext): Promise<void>;
  /** Work once a create or an update has committed (an e-mail the write owes). */
  afterCommit?(account: Account, row: StoredRow<Data>, c: ServiceContext): Promise<void>;
  update(tx: Sql, account: Account, current: Data, input: z.output<UpdateSchema>, c: ServiceContext): Promise<Data>;
  /** Work on a record just created or updated, in the same transaction (sending an invoice to KSeF). */
  afterWrite?(tx: Sql, account: Account, row: StoredRow<Data>, c: ServiceContext): Promise<StoredRow<Data>>;
  /** Stores a new record built by `create`; a plain insert by default. */
  insert?(tx: Sql, account: Account, data: Data): Promise<StoredRow<Data>>;
  present(row: StoredRow<Data>, c: ServiceContext): unknown;
  /** Presents several rows at once (one query for all of them instead of one each). */
  presentAll?(rows: StoredRow<Data>[], c: ServiceContext): Promise<unknown[]>;
  listQuery?: z.ZodType<{ page: number; per_page: number }>;
  filters?(query: Record<string, unknown>, filters: Filters): void;
  /** What a list reads of each document (see `ListOptions.data` and `.columns`); the whole document by default. */
  listData?(query: Record<string, unknown>): { data: string; columns?: string[] };
  /** `order by` clause of the list, fixed or from the validated query. */
  order?: string | ((query: Record<string, unknown>) => string);
  /** Work to do in the same transaction before a record is deleted (undoing its effects). */
  beforeDelete?(tx: Sql, account: Account, row: StoredRow<Data>): Promise<void>;
  /** Extra routes beside the five, e.g. singular read paths, within the group like `path`. */
  readPaths?: string[];
  /**
   * The answer of a read or a list follows from the database, the request's URL and (for a list's
   * period and status filters) today's date alone: it may be kept until the next write (see
   * `answer-cache.ts`).
   */
  keepAnswers?: boolean;
  /** Fields that name another record of the account (`category_id: 'categories'`): checked to exist, else 422. */
  references?: Readonly<Record<string, ResourceTable>>;
}

/** A referenced id must name a record of the same account: a dangling one is a 422 naming its field. */
export async function requireReferences(
  tx: Sql,
  accountId: number,
  input: unknown,
  references: Readonly<Record<string, ResourceTable>> | undefined,
): Promise<void> {
  if (!references || typeof input !== 'object' || input === null) return;
  const missing = new Problems();
  for (const [field, table] of Object.entries(references)) {
    const id = (input as Record<string, unknown>)[field];
    if (typeof id !== 'number') continue;
    if (!(await recordExists(tx, table, accountId, id))) missing.add(field, 'does not exist');
  }
  missing.throwIfAny();
}

/** Mounts the resource's routes on its group, the sub-app at the resource's path. */
export function mountCrud<Data extends object, C extends z.ZodType, U extends z.ZodType>(
  app: Hono<ServiceEnv>,
  resource: CrudResource<Data, C, U>,
): void {
  const { table } = resource;
  const path = resource.path ?? '';
  const presentAll = (rows: StoredRow<Data>[], c: ServiceContext) =>
    resource.presentAll ? resource.presentAll(rows, c) : Promise.resolve(rows.map((row) => resource.present(row, c)));
  const presentOne = async (row: StoredRow<Data>, c: ServiceContext) => (await presentAll([row], c))[0];

  app.get(path || '/', async (c) => {
    const present = (value: unknown) => respond(c, value, { root: resource.listRoot });
    if (!resource.keepAnswers) return present(await list(c));
    // Filters by period or status are relative to today: the date is part of the key.
    return keptAnswer(c, `${c.get('account').id} ${todayText()} ${c.req.url}`, () => list(c), present);
  });

  const list = async (c: ServiceContext) => {
    const query = validate(resource.listQuery ?? pageQuery, queryOf(c)) as Record<string, unknown> & {
      page: number;
      per_page: number;
    };
    const filters = new Filters();
    resource.filters?.(query, filters);
    const rows = await listRows<Data>(c.get('db'), table, c.get('account').id, {
      where: filters.where,
      params: filters.params,
      order: typeof resource.order === 'function' ? resource.order(query) : (resource.order ?? 'id'),
      page: query.page,
      perPage: query.per_page,
      ...resource.listData?.(query),
    });
    return presentAll(rows, c);
  };

  const read = async (c: ServiceContext) => {
    const answer = async () => presentOne(await requireRow<Data>(c.get('db'), table, c.get('account').id, idParam(c)), c);
    const present = (value: unknown) => respond(c, value, { root: resource.wrapper });
    if (!resource.keepAnswers) return present(await answer());
    // The account is part of the key: the same URL read with another account's token never gets this answer.
    return keptAnswer(c, `${c.get('account').id} ${c.req.url}`, answer, present);
  };
  app.get(`${path}/:id`, read);
  for (const extra of resource.readPaths ?? []) app.get(`${extra}/:id`, read);

  app.post(path || '/', async (c) => {
    const input = validate(resource.createSchema, wrapped(c, resource.wrapper));
    const account = c.get('account');
    await resource.beforeCreate?.(input, c);
    const row = await c.get('db').transaction(async (tx) => {
      await requireReferences(tx, account.id, input, resource.references);
      if (resource.createRow) return resource.createRow(tx, account, input, c);
      if (!resource.create) throw new Error(`${resource.wrapper}: no create`);
      const data = await resource.create(tx, account, input, c);
      const inserted = await (resource.insert ? resource.insert(tx, account, data) : insertRow(tx, table, account.id, data));
      return resource.afterWrite ? resource.afterWrite(tx, account, inserted, c) : inserted;
    });
    await resource.afterCommit?.(account, row, c);
    return respond(c, await presentOne(row, c), { status: 201, root: resource.wrapper });
  });

  app.put(`${path}/:id`, async (c) => {
    const id = idParam(c);
    const account = c.get('account');
    const input = validate(resource.updateSchema, wrapped(c, resource.wrapper));
    const row = await c.get('db').transaction(async (tx) => {
      const current = await requireRow<Data>(tx, table, account.id, id, { forUpdate: true });
      await requireReferences(tx, account.id, input, resource.references);
      const updated = await updateRow(tx, table, account.id, id, await resource.update(tx, account, current.data, input, c));
      return resource.afterWrite ? resource.afterWrite(tx, account, updated, c) : updated;
    });
    await resource.afterCommit?.(account, row, c);
    return respond(c, await presentOne(row, c), { root: resource.wrapper });
  });

  app.delete(`${path}/:id`, async (c) => {
    const id = idParam(c);
    const account = c.get('account');
    await c.get('db').transaction(async (tx) => {
      const row = await requireRow<Data>(tx, table, account.id, id, { forUpdate: true });
      await resource.beforeDelete?.(tx, account, row);
      await deleteRow(tx, table, account.id, id);
    });
    return respond(c, { code: 'success', message: `${resource.wrapper.replace(/_/g, ' ')} ${id} deleted` }, { root: 'result' });
  });
}

/** Copies the fields a request gave (including explicit nulls) over the current values. */
export function merge<T extends object>(current: T, input: object): T {
  const result = { ...current } as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) if (value !== undefined) result[key] = value;
  return result as T;
}

/** Fields every record of a kind has: an update may change them, never clear them with null. */
export function refuseNulls(input: object, fields: readonly string[]): void {
  const blank = fields.filter((field) => (input as Record<string, unknown>)[field] === null);
  if (blank.length > 0) throw invalid(Object.fromEntries(blank.map((field) => [field, ["can't be blank"]])));
}
