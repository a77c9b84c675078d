import type { invoiceCreateInput, invoiceUpdateInput } from '../../api/schemas/invoice.js';
import type { z } from 'zod';
import { firstUserId } from '../data/invoice-authors.js';
import type { Sql } from '../db.js';
import type { Account } from '../account.js';
import { applyInvoiceUpdate, buildNewInvoice, type BuyerMatching, type InvoiceData } from './invoices.js';
import { buildFromInvoice } from './copies.js';
import { buildCorrection } from './corrections.js';
import { applyParts, extraFieldsOf, type InvoiceParts } from './parts.js';

/**
 * Issuing and changing an invoice with everything the hosted service's requests may carry: the
 * document kinds made from another one, the nested parts and the plain fields kept as given. The
 * amounts, buyer, seller and number are the work of `invoices.ts`.
 */

export type CreateInput = z.output<typeof invoiceCreateInput>;
type UpdateInput = z.output<typeof invoiceUpdateInput>;

/** Request keys that steer how a document is made; they are never stored. */
const STEERING = ['copy_invoice_from', 'advance_creation_mode', 'advance_value', 'position_name', 'invoice_ids', 'use_oss'] as const;
const PART_KEYS = ['descriptions', 'settlement_positions', 'recipients', 'issuers'] as const;

/**
 * Per-position fields the amounts code does not keep (`additional_info`, `kind`): on positions
 * changed by `id`, and on new ones, which follow the kept ones in the order they were given.
 */
function positionExtras(data: InvoiceData, positions: CreateInput['positions'], firstNew = 0): void {
  type Stored = InvoiceData['positions'][number] & Record<string, unknown>;
  const apply = (stored: Stored | undefined, input: NonNullable<CreateInput['positions']>[number]) => {
    if (!stored) return;
    if (input.additional_info !== undefined) stored.additional_info = input.additional_info ?? null;
    if (input.kind != null && stored.kind == null) stored.kind = input.kind;
  };
  const given = (positions ?? []).filter((p) => !p._destroy);
  for (const input of given.filter((p) => p.id != null)) apply(data.positions.find((p) => p.id === input.id) as Stored | undefined, input);
  given.filter((p) => p.id == null).forEach((input, index) => apply(data.positions[firstNew + index] as Stored | undefined, input));
}

/**
 * A new invoice from a create request, as it will be stored: a copy, a correction or a new document
 * (not yet checked for KSeF, numbered or stored: `application/issuing.ts` does that, for every caller).
 */
export async function buildInvoice(
  tx: Sql,
  account: Account,
  input: CreateInput,
  options: { numberOnInsert?: boolean; matching?: BuyerMatching; now?: Date } = {},
): Promise<InvoiceData & InvoiceParts> {
  let data: InvoiceData & InvoiceParts;
  if (input.copy_invoice_from != null) data = await buildFromInvoice(tx, account, input);
  else if (input.kind === 'correction') data = await buildCorrection(tx, account, input);
  else data = await buildNewInvoice(tx, account, input, options.now ?? new Date(), options.matching ?? 'match', options);
  if (input.copy_invoice_from == null) positionExtras(data, input.positions);
  Object.assign(data, extraFieldsOf(input as Record<string, unknown>));
  Object.assign(data, await applyParts(tx, {}, input));
  data.cancelled = false;
  // An invoice made through the API names the account's first user as its author.
  data.user_id = await firstUserId(tx, account.id);
  const firstRecipient = data.recipients?.[0];
  if (firstRecipient && input.recipient_name == null) {
    (data as unknown as Record<string, unknown>).recipient_name = firstRecipient.name ?? ([firstRecipient.first_name, firstRecipient.last_name].filter(Boolean).join(' ') || null);
  }
  return data;
}

/** An invoice after an update request: fields, positions and parts by `id`, `_destroy` or new. */
export async function updateInvoice(
  tx: Sql,
  account: Account,
  invoiceId: number,
  current: InvoiceData & InvoiceParts,
  update: UpdateInput,
): Promise<InvoiceData & InvoiceParts> {
  const fields: Record<string, unknown> = { ...update };
  for (const key of [...STEERING, ...PART_KEYS]) delete fields[key];
  const next: InvoiceData & InvoiceParts = await applyInvoiceUpdate(tx, account, invoiceId, current, fields as UpdateInput);
  // A position changed by id is rebuilt from its prices: what the amounts code does not know stays.
  for (const position of next.positions as (InvoiceData['positions'][number] & Record<string, unknown>)[]) {
    const before = current.positions.find((p) => p.id === position.id) as Record<string, unknown> | undefined;
    if (!before || before === position) continue;
    for (const key of ['additional_info', 'kind', 'correction_before', 'correction_after']) {
      if (before[key] !== undefined && position[key] === undefined) position[key] = before[key];
    }
  }
  const kept = current.positions.length - (update.positions ?? []).filter((p) => p.id != null && p._destroy).length;
  if (update.positions) positionExtras(next, update.positions, Math.max(0, kept));
  if (update.use_oss != null && update.use_moss == null) (next as unknown as Record<string, unknown>).use_moss = update.use_oss;
  Object.assign(next, await applyParts(tx, current, update));
  return next;
}
