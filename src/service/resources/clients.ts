import type { Hono } from 'hono';
import { decimal, toWire } from '../../kernel/money.js';
import { client as clientSchema, clientCreateInput, clientListQuery, clientUpdateInput } from '../../api/schemas/client.js';
import { balances, type ClientData } from '../data/clients.js';
import { invalidField, type ServiceEnv } from '../http.js';
import { companyFlag, newClientData } from '../invoicing/clients.js';
import { type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud, refuseNulls } from './crud.js';

const CLIENT_KEYS = Object.keys(clientSchema.shape);

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
