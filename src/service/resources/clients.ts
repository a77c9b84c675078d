import type { Hono } from 'hono';
import { decimal, toWire } from '../../kernel/money.js';
import { client as clientSchema, clientCreateInput, clientListQuery, clientUpdateInput } from '../../api/schemas/client.js';
import { keptRead, type Sql } from '../db.js';
import { invalidField, type ServiceEnv } from '../http.js';
import { randomToken } from '../passwords.js';
import { type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud, refuseNulls } from './crud.js';

const CLIENT_KEYS = Object.keys(clientSchema.shape);

export interface ClientData {
  name: string;
  tax_no: string | null;
  bank: string | null;
  bank_account: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  person: string | null;
  post_code: string | null;
  phone: string | null;
  street: string | null;
  first_name: string | null;
  last_name: string | null;
  company: boolean;
  kind: string;
  external_id: string | null;
  note: string | null;
  token: string;
  /**
   * True once the customer has created or changed this record themselves (through a portal, the
   * BFF sends `self_service: true`): its name, tax number and e-mail are then the customer's claim,
   * so no invoice ever finds it by them; only an explicit `client_id` attaches one.
   */
  self_service?: boolean;
}

const TEXT_FIELDS = [
  'tax_no', 'bank', 'bank_account', 'city', 'country', 'email', 'person', 'post_code', 'phone', 'street',
  'first_name', 'last_name', 'external_id', 'note',
] as const;

/** The hosted service's other client fields, kept as given (see `presentClient`). */
const KEPT_FIELDS = [
  'shortcut', 'www', 'fax', 'mobile_phone', 'register_number', 'accounting_id', 'tax_no_kind', 'title', 'street_no',
  'delivery_address', 'use_delivery_address', 'mass_payment_code', 'use_mass_payment', 'default_payment_type',
  'payment_to_kind', 'discount', 'disable_auto_reminders', 'category_id', 'department_id', 'buyer_id', 'bank_account_id',
] as const;

function companyFlag(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return ['1', 'true', 'yes'].includes(value.toLowerCase());
  if (typeof value === 'number') return value === 1;
  return fallback;
}

export function newClientData(input: Record<string, unknown>): ClientData {
  const personName = [input.first_name, input.last_name].filter((v) => typeof v === 'string' && v).join(' ');
  const name = (typeof input.name === 'string' && input.name.trim()) || personName;
  if (!name) throw invalidField('name', "can't be blank");
  const data = { name } as ClientData;
  for (const field of TEXT_FIELDS) data[field] = (input[field] as string | null | undefined) ?? null;
  data.company = companyFlag(input.company, !personName || Boolean(input.tax_no));
  data.kind = (input.kind as string | null | undefined) ?? 'buyer';
  data.token = randomToken(12);
  data.self_service = input.self_service === true;
  const kept = data as unknown as Record<string, unknown>;
  for (const field of KEPT_FIELDS) if (input[field] != null) kept[field] = input[field];
  return data;
}

/** Values of the hosted service's client keys that we do not store, or store under another rule. */
function clientDefaults(d: ClientData, balance: string): Record<string, unknown> {
  return {
    attachments_count: 0,
    balance,
    deleted: false,
    disable_auto_reminders: false,
    dynamic_fields: {},
    shortcut: d.name,
    use_delivery_address: false,
    use_mass_payment: false,
    tax_no_check: null,
  };
}

/**
 * A client answer: the reference's fields, then every other key of the hosted service's client, in
 * the order of the schema, `null` where unset.
 */
export function presentClient(row: StoredRow<ClientData>, balance = '0.0') {
  const d = row.data as ClientData & Record<string, unknown>;
  const known: Record<string, unknown> = {
    ...clientDefaults(d, balance),
    ...Object.fromEntries(Object.entries(d).filter(([, value]) => value != null)),
    id: row.id,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
  if (known.payment_to_kind != null) known.payment_to_kind = String(known.payment_to_kind);
  if (typeof known.discount === 'string') known.discount = toWire(decimal(known.discount));
  const answer: Record<string, unknown> = {};
  for (const key of CLIENT_KEYS) answer[key] = known[key] ?? null;
  return answer;
}

/** Income invoices that ask to be paid (orders and cash documents do not). */
const UNBILLED_KINDS = ['proforma', 'estimate', 'client_order', 'kp', 'kw'];

/** Each client's balance: paid less invoiced over its income invoices that are not cancelled. */
export async function balances(sql: Sql, accountId: number, clientIds: number[]): Promise<Map<number, string>> {
  if (clientIds.length === 0) return new Map();
  const rows = await sql.query<{ client_id: number; balance: string }>(
    `select (data->>'client_id')::integer as client_id,
            sum((data->>'paid')::numeric - (data->>'price_gross')::numeric)::text as balance
       from invoices
      where account_id = $1 and (data->>'client_id')::integer = any($2::int[])
        and coalesce((data->>'income')::boolean, true) and not coalesce((data->>'cancelled')::boolean, false)
        and not (data->>'kind' = any($3::text[]))
      group by 1`,
    [accountId, clientIds, UNBILLED_KINDS],
  );
  return new Map(rows.map((r) => [r.client_id, toWire(decimal(r.balance))]));
}

/**
 * An existing client that is the buyer: same tax number, else same e-mail, else same name; only
 * among records the account keeps itself (not `self_service` ones). Used only for the account's own
 * API calls, never for an anonymous checkout (docs/decisions/buyer-matching.md).
 */
export async function matchClient(
  sql: Sql,
  accountId: number,
  buyer: { name?: string | null; tax_no?: string | null; email?: string | null },
): Promise<StoredRow<ClientData> | undefined> {
  const tries: [string, string | null | undefined][] = [
    [`regexp_replace(data->>'tax_no', '[^0-9A-Za-z]', '', 'g') = regexp_replace($2, '[^0-9A-Za-z]', '', 'g')`, buyer.tax_no],
    [`lower(data->>'email') = lower($2)`, buyer.email],
    [`lower(data->>'name') = lower($2)`, buyer.name],
  ];
  const given = tries.map(([, value]) => value?.trim() || null);
  // The same buyer is invoiced again and again: the answer is kept until a client is written.
  return keptRead(sql, ['clients'], `buyer of ${accountId} ${JSON.stringify(given)}`, async () => {
    for (const [index, [condition]] of tries.entries()) {
      if (!given[index]) continue;
      const rows = await sql.query<StoredRow<ClientData>>(
        `select id, data, created_at, updated_at from clients
          where account_id = $1 and ${condition} and coalesce(data->>'self_service', 'false') <> 'true' order by id limit 1`,
        [accountId, given[index]],
      );
      if (rows[0]) return rows[0];
    }
    return undefined;
  });
}

export function mountClients(app: Hono<ServiceEnv>): void {
  mountCrud<ClientData, typeof clientCreateInput, typeof clientUpdateInput>(app, {
    table: 'clients',
    references: { category_id: 'categories', department_id: 'departments', buyer_id: 'clients' },
    wrapper: 'client',
    listRoot: 'clients',
    createSchema: clientCreateInput,
    updateSchema: clientUpdateInput,
    listQuery: clientListQuery,
    filters(query, f) {
      if (query.external_id) f.add((p) => `data->>'external_id' = ${p}`, query.external_id);
      if (query.name) f.add((p) => `data->>'name' ilike ${p}`, `%${String(query.name).replace(/[%_\\]/g, '\\$&')}%`);
      if (query.email) f.add((p) => `lower(data->>'email') = lower(${p})`, query.email);
      if (query.tax_no) f.add((p) => `data->>'tax_no' = ${p}`, query.tax_no);
      if (query.shortcut) f.add((p) => `lower(coalesce(data->>'shortcut', data->>'name')) = lower(${p})`, query.shortcut);
    },
    present: (row) => presentClient(row),
    async presentAll(rows, c) {
      const found = await balances(c.get('db'), c.get('account').id, rows.map((row) => row.id));
      return rows.map((row) => presentClient(row, found.get(row.id) ?? '0.0'));
    },
    create: async (_tx, _account, input) => newClientData(input),
    async update(_tx, _account, current, input) {
      refuseNulls(input, ['name', 'kind']);
      const next = merge(current, { ...input, company: undefined, self_service: undefined });
      if (input.company !== undefined) next.company = companyFlag(input.company, current.company);
      if (input.self_service != null) next.self_service = input.self_service === true;
      if (!next.name || !String(next.name).trim()) throw invalidField('name', "can't be blank");
      return next;
    },
  });
}
