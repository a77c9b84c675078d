import type { Hono } from 'hono';
import { issuerCreateInput, issuerUpdateInput } from '../../api/schemas/issuer.js';
import { invalidField, type ServiceEnv } from '../http.js';
import { type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud, refuseNulls } from './crud.js';

const TEXT_FIELDS = ['tax_no', 'first_name', 'last_name', 'email', 'phone', 'street', 'post_code', 'city', 'country', 'note'] as const;

type IssuerData = { name: string; company: boolean } & Record<(typeof TEXT_FIELDS)[number], string | null>;

function presentIssuer(row: StoredRow<IssuerData>) {
  const issuer: Record<string, unknown> = { id: row.id, name: row.data.name };
  for (const field of TEXT_FIELDS) issuer[field] = row.data[field] ?? null;
  issuer.company = row.data.company;
  issuer.created_at = timestampText(row.created_at);
  issuer.updated_at = timestampText(row.updated_at);
  return issuer;
}

function requireName(name: string | null | undefined): string {
  const text = name?.trim() ?? '';
  if (!text) throw invalidField('name', "can't be blank");
  return text;
}

/** Full CRUD of `/issuers`. */
export function mountIssuers(app: Hono<ServiceEnv>): void {
  mountCrud(app, {
    table: 'issuers',
    wrapper: 'issuer',
    listRoot: 'issuers',
    createSchema: issuerCreateInput,
    updateSchema: issuerUpdateInput,
    present: presentIssuer,
    create: async (_tx, _account, input) => {
      const data = { name: requireName(input.name), company: input.company ?? true } as IssuerData;
      for (const field of TEXT_FIELDS) data[field] = input[field] ?? null;
      return data;
    },
    update: async (_tx, _account, current, input) => {
      refuseNulls(input, ['name', 'company']);
      const next = merge(current, input);
      next.name = requireName(next.name);
      return next;
    },
  });
}
