import type { Hono } from 'hono';
import { clientCreateInput, clientListQuery, clientUpdateInput } from '../../api/schemas/client.js';
import type { Sql } from '../db.js';
import { invalidField, type ServiceEnv } from '../http.js';
import { randomToken } from '../passwords.js';
import { type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud, refuseNulls } from './crud.js';

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
  return data;
}

export function presentClient(row: StoredRow<ClientData>) {
  const d = row.data;
  return {
    id: row.id,
    name: d.name,
    tax_no: d.tax_no,
    bank: d.bank,
    bank_account: d.bank_account,
    city: d.city,
    country: d.country,
    email: d.email,
    person: d.person,
    post_code: d.post_code,
    phone: d.phone,
    street: d.street,
    first_name: d.first_name,
    last_name: d.last_name,
    company: d.company,
    kind: d.kind,
    external_id: d.external_id,
    note: d.note,
    token: d.token,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
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
  for (const [condition, value] of tries) {
    if (!value || !value.trim()) continue;
    const rows = await sql.query<StoredRow<ClientData>>(
      `select id, data, created_at, updated_at from clients
        where account_id = $1 and ${condition} and coalesce(data->>'self_service', 'false') <> 'true' order by id limit 1`,
      [accountId, value.trim()],
    );
    if (rows[0]) return rows[0];
  }
  return undefined;
}

export function mountClients(app: Hono<ServiceEnv>): void {
  mountCrud(app, {
    table: 'clients',
    path: '/clients',
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
    },
    present: presentClient,
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
