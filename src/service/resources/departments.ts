import type { Hono } from 'hono';
import { departmentInput } from '../../api/schemas/account.js';
import { type DepartmentData, departmentData } from '../accounts.js';
import { invalidField, type ServiceContext, type ServiceEnv } from '../http.js';
import { type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud } from './crud.js';

export function presentDepartment(row: StoredRow<DepartmentData>, c: ServiceContext) {
  const d = row.data;
  const base = c.get('config').publicUrl;
  return {
    id: row.id,
    name: d.name,
    shortcut: d.shortcut,
    tax_no: d.tax_no,
    street: d.street,
    post_code: d.post_code,
    city: d.city,
    country: d.country,
    email: d.email,
    phone: d.phone,
    bank: d.bank,
    bank_account: d.bank_account,
    person: d.person ?? null,
    main: d.main,
    widget_origins: d.widget_origins ?? [],
    oss_registered: d.oss_registered ?? false,
    portal_url: d.portal_url ?? null,
    einvoice_address: d.einvoice_address ?? null,
    logo_url: d.logo ? `${base}/departments/${row.id}/logo?v=${encodeURIComponent(d.logo.updated_at)}` : null,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
}

/** Origins as `URL` writes them (no trailing slash), each once. */
const originList = (urls: readonly string[] | null | undefined): string[] => [...new Set((urls ?? []).map((url) => new URL(url).origin))];

/**
 * Departments are the seller entities. The account's first one is its default. JSON create and
 * update live here; the multipart logo upload of spec §4.9 is mounted in front of the JSON update.
 */
export function mountDepartments(app: Hono<ServiceEnv>): void {
  mountCrud(app, {
    table: 'departments',
    wrapper: 'department',
    listRoot: 'departments',
    createSchema: departmentInput,
    updateSchema: departmentInput,
    present: presentDepartment,
    create: async (_tx, _account, input) => ({
      ...departmentData(input, false),
      shortcut: input.shortcut ?? null,
      widget_origins: originList(input.widget_origins),
      oss_registered: input.oss_registered ?? false,
      portal_url: input.portal_url ?? null,
      einvoice_address: input.einvoice_address ?? null,
    }),
    update: async (_tx, _account, current, input) =>
      merge(current, { ...input, name: input.name || undefined, widget_origins: input.widget_origins === undefined ? undefined : originList(input.widget_origins) }),
    async beforeDelete(_tx, _account, row) {
      if (row.data.main) throw invalidField('base', 'the default department cannot be deleted');
    },
  });
}
