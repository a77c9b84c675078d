import { decimal, toWire } from '../../kernel/money.js';
import {
  type descriptionInput,
  invoiceExtraFields,
  type recipientInput,
  type settlementPositionInput,
} from '../../api/schemas/invoice.js';
import type { z } from 'zod';
import type { Sql } from '../db.js';
import { Problems } from '../domain-errors.js';

/**
 * The parts of an invoice beyond its positions: notes (`descriptions`), `settlement_positions` and
 * `recipients`, each a nested list created with the invoice, changed by `id` and removed with
 * `_destroy: 1` as positions are; and the hosted service's plain fields that are kept as given.
 */

export interface Description {
  id: number;
  title: string | null;
  content: string | null;
}

export interface SettlementPosition {
  id: number;
  kind: 'charge' | 'deduction';
  description: string | null;
  amount: string;
}

export interface Recipient {
  id: number;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  tax_no: string | null;
  company: boolean;
  country: string | null;
  city: string | null;
  post_code: string | null;
  street: string | null;
  phone: string | null;
  email: string | null;
  note: string | null;
  role: string | null;
  participation: string | null;
  tax_no_kind?: string | null;
  role_description?: string | null;
}

/** What an invoice record holds beside the fields of `InvoiceData`; older records lack them. */
export interface InvoiceParts {
  descriptions?: Description[];
  settlement_positions?: SettlementPosition[];
  recipients?: Recipient[];
  /** KSeF's issuers, parties like recipients. */
  issuers?: Recipient[];
  cancelled?: boolean;
  cancel_reason?: string | null;
  correction_reason?: string | null;
  corrected_content_before?: string | null;
  corrected_content_after?: string | null;
  user_id?: number | null;
  attachments_count?: number;
}

type DescriptionInput = z.output<typeof descriptionInput>;
type SettlementInput = z.output<typeof settlementPositionInput>;
type RecipientInput = z.output<typeof recipientInput>;

export const EXTRA_FIELD_NAMES = Object.keys(invoiceExtraFields) as (keyof typeof invoiceExtraFields)[];

/** The hosted service's plain fields a request gave, as stored (`use_oss` is the newer name of `use_moss`). */
export function extraFieldsOf(input: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of EXTRA_FIELD_NAMES) {
    if (input[name] !== undefined && name !== 'use_oss') fields[name] = input[name];
  }
  if (input.use_oss !== undefined && input.use_moss === undefined) fields.use_moss = input.use_oss;
  if (typeof fields.exchange_currency_rate === 'string') fields.exchange_currency_rate = toWire(decimal(fields.exchange_currency_rate));
  return fields;
}

interface Nested {
  id?: number | null | undefined;
  _destroy?: boolean | undefined;
}

/**
 * Applies a nested list of a request to the stored one: items with `id` change (or, with
 * `_destroy`, leave) the stored item of that id; items without `id` are added.
 */
async function applyNested<I extends Nested, T extends { id: number }>(
  field: string,
  current: readonly T[],
  inputs: readonly I[],
  build: (input: I, existing: T | undefined, id: number) => T,
  nextId: () => Promise<number>,
  problems: Problems,
): Promise<T[]> {
  const items = [...current];
  for (const [index, input] of inputs.entries()) {
    if (input.id != null) {
      const at = items.findIndex((item) => item.id === input.id);
      if (at < 0) {
        problems.add(`${field}.${index}.id`, 'does not exist');
        continue;
      }
      if (input._destroy) items.splice(at, 1);
      else items[at] = build(input, items[at], items[at]!.id);
    } else if (!input._destroy) {
      items.push(build(input, undefined, await nextId()));
    }
  }
  return items;
}

const pick = <T>(given: T | null | undefined, current: T | null | undefined, fallback: T | null = null): T | null =>
  given !== undefined ? (given ?? null) : current !== undefined ? (current ?? null) : fallback;

function description(input: DescriptionInput, existing: Description | undefined, id: number): Description {
  return { id, title: pick(input.title, existing?.title), content: pick(input.content, existing?.content) };
}

function settlement(input: SettlementInput, existing: SettlementPosition | undefined, id: number): SettlementPosition {
  return {
    id,
    kind: input.kind ?? existing?.kind ?? 'charge',
    description: pick(input.description, existing?.description),
    amount: input.amount != null ? toWire(decimal(input.amount)) : (existing?.amount ?? '0.0'),
  };
}

const RECIPIENT_TEXT = ['name', 'first_name', 'last_name', 'tax_no', 'country', 'city', 'post_code', 'street', 'phone', 'email', 'note', 'role', 'tax_no_kind', 'role_description'] as const;

function recipient(input: RecipientInput, existing: Recipient | undefined, id: number): Recipient {
  const result = { id } as Recipient;
  for (const key of RECIPIENT_TEXT) result[key] = pick(input[key], existing?.[key]);
  result.company = input.company ?? existing?.company ?? true;
  result.participation = input.participation != null ? toWire(decimal(input.participation)) : pick(undefined, existing?.participation);
  return result;
}

export interface PartsInput {
  descriptions?: DescriptionInput[] | null | undefined;
  settlement_positions?: SettlementInput[] | null | undefined;
  recipients?: RecipientInput[] | null | undefined;
  issuers?: RecipientInput[] | null | undefined;
}

/** The nested parts after a create (`current` empty) or an update request. */
export async function applyParts(tx: Sql, current: InvoiceParts, input: PartsInput): Promise<InvoiceParts> {
  const problems = new Problems();
  const nextId = async () => (await tx.sequenceValues('line_ids', 1))[0]!;
  const parts: InvoiceParts = {};
  parts.descriptions = input.descriptions
    ? await applyNested('descriptions', current.descriptions ?? [], input.descriptions, description, nextId, problems)
    : (current.descriptions ?? []);
  parts.settlement_positions = input.settlement_positions
    ? await applyNested('settlement_positions', current.settlement_positions ?? [], input.settlement_positions, settlement, nextId, problems)
    : (current.settlement_positions ?? []);
  parts.recipients = input.recipients
    ? await applyNested('recipients', current.recipients ?? [], input.recipients, recipient, nextId, problems)
    : (current.recipients ?? []);
  parts.issuers = input.issuers
    ? await applyNested('issuers', current.issuers ?? [], input.issuers, recipient, nextId, problems)
    : (current.issuers ?? []);
  problems.throwIfAny();
  return parts;
}
