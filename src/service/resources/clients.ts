import type { Hono } from 'hono';
import { clientCreateInput, clientListQuery, clientUpdateInput } from '../../api/schemas/client.js';
import { balances, type ClientData } from '../data/clients.js';
import { invalidField, type ServiceEnv } from '../http.js';
import { companyFlag, newClientData, presentClient } from '../invoicing/clients.js';
import { merge, mountCrud, refuseNulls } from './crud.js';

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
