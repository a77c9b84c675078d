import { keptRead, type Sql } from './db.js';
import type { Account } from './account.js';
import { notFound } from './domain-errors.js';
import { randomToken } from './passwords.js';
import { insertRow, type StoredRow } from './store.js';
import { openAccountToken, storedToken } from './secrets/stored.js';
import { tokenHashes } from './secrets/keyring.js';

/** The columns of an `Account`, as every read of one selects them. */
const ACCOUNT_COLUMNS = 'id, prefix, api_token, name, created_at';

/** An account prefix as the public routes take it (`/a/<prefix>/…`, the providers' notifications). */
export const PREFIX_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/i;

export async function accountByToken(sql: Sql, token: string): Promise<Account | undefined> {
  // Found by its keyed hash under any key this process knows; the token itself is stored sealed.
  const rows = await sql.query<Account>(`select ${ACCOUNT_COLUMNS} from accounts where api_token_hash = any($1::text[])`, [tokenHashes(token)]);
  return rows[0] && { ...rows[0], api_token: token };
}

/**
 * An account's columns in a read that joins `accounts a` to a row of another table, named apart from
 * that row's own: `joinedAccount` turns them back into an `Account`.
 */
export const JOINED_ACCOUNT_COLUMNS = 'a.id as account_id, a.prefix as account_prefix, a.api_token as account_api_token, a.name as account_name, a.created_at as account_created_at';

/** The columns `JOINED_ACCOUNT_COLUMNS` selects, as a row carries them. */
export interface JoinedAccountRow {
  account_id: number;
  account_prefix: string;
  account_api_token: string;
  account_name: string | null;
  account_created_at: Date;
}

/** The account of a row read with `JOINED_ACCOUNT_COLUMNS`, its api_token opened: every read of an account beside another row ends here. */
export function joinedAccount(row: JoinedAccountRow): Account {
  return openAccountToken({ id: row.account_id, prefix: row.account_prefix, api_token: row.account_api_token, name: row.account_name, created_at: row.account_created_at });
}

export async function accountById(sql: Sql, id: number): Promise<Account | undefined> {
  const rows = await sql.query<Account>(`select ${ACCOUNT_COLUMNS} from accounts where id = $1`, [id]);
  return rows[0] && openAccountToken(rows[0]);
}

/** The account of a public prefix; a malformed or unknown one is not found. */
export async function accountByPrefix(sql: Sql, prefix: string): Promise<Account> {
  if (!PREFIX_PATTERN.test(prefix)) throw notFound();
  const rows = await sql.query<Account>(`select ${ACCOUNT_COLUMNS} from accounts where prefix = $1`, [prefix]);
  if (!rows[0]) throw notFound();
  return openAccountToken(rows[0]);
}

export interface CompanyData {
  name?: string | null | undefined;
  tax_no?: string | null | undefined;
  post_code?: string | null | undefined;
  city?: string | null | undefined;
  street?: string | null | undefined;
  person?: string | null | undefined;
  bank?: string | null | undefined;
  bank_account?: string | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  country?: string | null | undefined;
}

export interface DepartmentData {
  name: string;
  shortcut: string | null;
  tax_no: string | null;
  street: string | null;
  post_code: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  phone: string | null;
  bank: string | null;
  bank_account: string | null;
  person: string | null;
  main: boolean;
  /** Where this account's widget checkouts may send the buyer back (docs/decisions/checkout-core.md). */
  widget_origins?: string[] | null;
  /** Registered for OSS (docs/decisions/tax-engine.md). */
  oss_registered?: boolean | null;
  /** The host's customer portal with `{client_id}`, which the back office opens a customer's view at. */
  portal_url?: string | null;
  /** E-invoices: the seller's electronic address (BT-34), `0208:0123456789`. */
  einvoice_address?: string | null;
  logo: { content_type: string; size: number; updated_at: string } | null;
}

export function departmentData(company: CompanyData, main: boolean): DepartmentData {
  return {
    name: company.name ?? 'My company',
    shortcut: null,
    tax_no: company.tax_no ?? null,
    street: company.street ?? null,
    post_code: company.post_code ?? null,
    city: company.city ?? null,
    country: company.country ?? null,
    email: company.email ?? null,
    phone: company.phone ?? null,
    bank: company.bank ?? null,
    bank_account: company.bank_account ?? null,
    person: company.person ?? null,
    main,
    logo: null,
  };
}

/** A prefix that is free: the one asked for, or it with the lowest free numeric suffix. */
export async function freePrefix(sql: Sql, wanted: string): Promise<string> {
  const taken = new Set(
    (await sql.query<{ prefix: string }>(`select prefix from accounts where prefix = $1 or prefix like $2`, [wanted, `${wanted}-%`])).map(
      (r) => r.prefix,
    ),
  );
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n += 1) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/** Creates an account with its default department (the seller) and a main warehouse. */
export async function createAccount(
  tx: Sql,
  options: { prefix: string; apiToken?: string | undefined; company?: CompanyData | undefined },
): Promise<Account> {
  const prefix = await freePrefix(tx, options.prefix);
  const token = options.apiToken ?? randomToken();
  const stored = storedToken(token);
  const rows = await tx.query<Account>(
    `insert into accounts (prefix, api_token, api_token_hash, name) values ($1, $2, $3, $4)
     returning id, prefix, api_token, name, created_at`,
    [prefix, stored.sealed, stored.hash, options.company?.name ?? null],
  );
  const account = rows[0] && { ...rows[0], api_token: token };
  // `insert … returning` answers the row it inserted or throws: an empty answer is a broken database.
  if (!account) throw new Error('insert into accounts returned no row');
  await insertRow(tx, 'departments', account.id, departmentData(options.company ?? { name: prefix }, true));
  await insertRow(tx, 'warehouses', account.id, { name: 'Main warehouse', kind: 'main', description: null });
  return account;
}

/** The account's main department (else its first): the seller of an invoice that names none. Kept where it can be. */
export async function defaultDepartment(sql: Sql, accountId: number): Promise<Readonly<StoredRow<DepartmentData>> | undefined> {
  return keptRead(sql, ['departments'], `main department of ${accountId}`, async () => {
    const rows = await sql.query<StoredRow<DepartmentData>>(
      `select id, data, created_at, updated_at from departments
        where account_id = $1 order by (data->>'main')::boolean desc nulls last, id limit 1`,
      [accountId],
    );
    return rows[0];
  });
}

export async function defaultWarehouseId(sql: Sql, accountId: number): Promise<number | undefined> {
  const rows = await sql.query<{ id: number }>(`select id from warehouses where account_id = $1 order by id limit 1`, [accountId]);
  return rows[0]?.id;
}

/** The address of the account's first user, whom the service tells of invoices that need the seller. */
export async function firstUserEmail(sql: Sql, accountId: number): Promise<string | undefined> {
  const rows = await sql.query<{ email: string }>(`select email from users where account_id = $1 order by id limit 1`, [accountId]);
  return rows[0]?.email;
}

/** Every account with the KSeF environment it chose (`null` when it chose none). */
export function accountsWithKsefEnvironment(sql: Sql): Promise<{ id: number; prefix: string; environment: string | null }[]> {
  return sql.query(`select a.id, a.prefix, k.environment from accounts a left join ksef_settings k on k.account_id = a.id order by a.id`);
}

/** The stored (sealed) api_token of the account with `prefix`, if there is one. */
export async function sealedTokenByPrefix(sql: Sql, prefix: string): Promise<string | undefined> {
  const rows = await sql.query<{ api_token: string }>(`select api_token from accounts where prefix = $1`, [prefix]);
  return rows[0]?.api_token;
}

/** Gives the account with `prefix` another api_token, stored as `storedToken` makes it. */
export async function replaceTokenByPrefix(sql: Sql, prefix: string, stored: { sealed: string; hash: string }): Promise<void> {
  await sql.query(`update accounts set api_token = $2, api_token_hash = $3 where prefix = $1`, [prefix, stored.sealed, stored.hash]);
}

/**
 * Holds, until `tx` ends, the lock that the making of the demo account takes, so that processes
 * starting at once on one database make it once.
 */
export async function lockDemoAccountSetup(tx: Sql): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(7204312)`);
}

/** Deletes an account; its records go with it (the tables' foreign keys cascade). */
export async function deleteAccount(sql: Sql, id: number): Promise<void> {
  await sql.query(`delete from accounts where id = $1`, [id]);
}
