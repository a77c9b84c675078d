import type { ClientData } from '../data/clients.js';
import { invalidField } from '../domain-errors.js';
import { randomToken } from '../passwords.js';

/** A client record as the rules make it from input, for the clients' routes and for an invoice's new buyer. */

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

/** The `company` flag in any form the hosted service takes (boolean, `"1"`/`"true"`/`"yes"`, 1), else `fallback`. */
export function companyFlag(value: unknown, fallback: boolean): boolean {
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
