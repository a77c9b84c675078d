import { decimal, toWire } from '../../kernel/money.js';
import { client as clientSchema } from '../../api/schemas/client.js';
import type { ClientData } from '../data/clients.js';
import { invalidField } from '../domain-errors.js';
import { randomToken } from '../passwords.js';
import { type StoredRow, timestampText } from '../store.js';

/**
 * A client record as the rules make it from input (for the clients' routes and for an invoice's new
 * buyer), and as the API and the webhooks answer it.
 */

const TEXT_FIELDS = [
  'tax_no', 'bank', 'bank_account', 'city', 'country', 'email', 'person', 'post_code', 'phone', 'street',
  'first_name', 'last_name', 'external_id', 'note',
] as const;

/** The hosted service's other client fields, kept as given (see `presentClient`). */
const KEPT_FIELDS = [
  'shortcut', 'www', 'fax', 'mobile_phone', 'register_number', 'accounting_id', 'tax_no_kind', 'title', 'street_no',
  'delivery_address', 'use_delivery_address', 'mass_payment_code', 'use_mass_payment', 'default_payment_type',
  'payment_to_kind', 'discount', 'disable_auto_reminders', 'category_id', 'department_id', 'buyer_id', 'bank_account_id',
  'einvoice_address', 'buyer_reference', 'einvoice_format',
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
