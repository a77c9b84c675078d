import { add, compare, decimal, div, minorUnits, mul, round, sub, sum, toPlain, toWire, ZERO, HUNDRED } from '../../kernel/money.js';
import type { invoiceCreateInput } from '../../api/schemas/invoice.js';
import type { z } from 'zod';
import type { Sql } from '../db.js';
import type { Account } from '../account.js';
import { invalid } from '../domain-errors.js';
import { advancesOfOrder, orderHasFinalInvoice } from '../data/invoices.js';
import { findRow } from '../store.js';
import { buildNewInvoice, type InvoiceData, type StoredPosition } from './invoices.js';
import type { InvoiceParts } from './parts.js';

/**
 * Documents made from another one (`copy_invoice_from`): a copy of another kind (a VAT invoice from
 * a proforma), an advance invoice for part of an order, and the final invoice that settles an order
 * against its advances. Amounts stay exact: an advance is split over the order's tax rates with the
 * rounding remainder on the last rate, and a final invoice deducts each advance line to the cent.
 */

type CreateInput = z.output<typeof invoiceCreateInput>;
type PositionInput = NonNullable<CreateInput['positions']>[number];

const BUYER_AND_SELLER = [
  'seller_name', 'seller_tax_no', 'seller_street', 'seller_post_code', 'seller_city', 'seller_country', 'seller_email',
  'seller_phone', 'seller_bank', 'seller_bank_account', 'buyer_name', 'buyer_tax_no', 'buyer_street', 'buyer_post_code',
  'buyer_city', 'buyer_country', 'buyer_email', 'buyer_phone', 'buyer_first_name', 'buyer_last_name',
] as const;

/** The fields of `source` a document made from it starts with (the request may change any of them). */
export function copiedInvoiceFields(source: InvoiceData): Partial<CreateInput> {
  const fields: Record<string, unknown> = {};
  for (const key of BUYER_AND_SELLER) if (source[key] != null) fields[key] = source[key];
  Object.assign(fields, {
    client_id: source.client_id ?? undefined,
    department_id: source.department_id ?? undefined,
    buyer_company: source.buyer_company,
    currency: source.currency,
    lang: source.lang,
    payment_type: source.payment_type ?? undefined,
    place: source.place ?? undefined,
    show_discount: source.show_discount,
    discount_kind: source.discount_kind ?? undefined,
    warehouse_id: source.warehouse_id ?? undefined,
    income: source.income,
  });
  return fields as Partial<CreateInput>;
}

/** The fields a request gave, without the ones that steer how the document is made. */
export function definedFields(input: CreateInput): Partial<CreateInput> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (['copy_invoice_from', 'advance_creation_mode', 'advance_value', 'position_name', 'invoice_ids', 'positions'].includes(key)) continue;
    result[key] = value;
  }
  return result as Partial<CreateInput>;
}

/** A position of `source` as a request that prices it exactly as it was priced. */
function positionCopy(position: StoredPosition): PositionInput {
  return {
    product_id: position.product_id,
    name: position.name,
    code: position.code,
    description: position.description,
    quantity: position.quantity,
    quantity_unit: position.quantity_unit,
    tax: position.tax,
    ...position.pricing,
    discount_percent: position.discount_percent,
    discount: position.discount,
  };
}

async function existingOrNull(tx: Sql, account: Account, table: 'clients' | 'departments', id: number | undefined | null) {
  return id != null && (await findRow(tx, table, account.id, id)) ? id : undefined;
}

const pl = (lang: string) => lang.toLowerCase().startsWith('pl');

/** Advance positions: `amount` gross split over the order's tax rates, exactly. */
function advancePositions(order: InvoiceData, amount: string, name: string): PositionInput[] {
  const digits = minorUnits(order.currency);
  const byTax = new Map<string, string>();
  for (const p of order.positions) byTax.set(p.tax, toPlain(add(decimal(byTax.get(p.tax) ?? '0'), decimal(p.total_price_gross))));
  const orderGross = decimal(order.price_gross);
  const rates = [...byTax.entries()];
  const positions: PositionInput[] = [];
  let rest = decimal(amount);
  rates.forEach(([tax, gross], index) => {
    const share = index === rates.length - 1 ? rest : round(div(mul(decimal(amount), decimal(gross)), orderGross, 12), digits);
    rest = sub(rest, share);
    positions.push({
      name: rates.length > 1 ? `${name} (${/^[a-z]+$/i.test(tax) ? tax : `${tax}%`})` : name,
      tax,
      quantity: '1',
      total_price_gross: toPlain(share),
    });
  });
  return positions;
}

/** Makes the document a `copy_invoice_from` request asks for. */
export async function buildFromInvoice(tx: Sql, account: Account, input: CreateInput): Promise<InvoiceData> {
  const source = await findRow<InvoiceData & InvoiceParts>(tx, 'invoices', account.id, input.copy_invoice_from!);
  if (!source) throw invalid({ copy_invoice_from: ['does not exist'] });
  const order = source.data;
  const kind = input.kind ?? (order.kind as NonNullable<CreateInput['kind']>);
  const base: Partial<CreateInput> = {
    ...copiedInvoiceFields(order),
    client_id: await existingOrNull(tx, account, 'clients', order.client_id),
    department_id: await existingOrNull(tx, account, 'departments', order.department_id),
    ...definedFields(input),
    kind,
    from_invoice_id: source.id,
  };
  let positions: PositionInput[];

  if (kind === 'advance') {
    const digits = minorUnits(order.currency);
    const orderGross = decimal(order.price_gross);
    if (compare(orderGross, ZERO) <= 0) throw invalid({ copy_invoice_from: ['has nothing to pay in advance'] });
    const previous = sum((await advancesOfOrder<InvoiceData>(tx, account.id, source.id)).map((a) => decimal(a.data.price_gross)));
    const remaining = sub(orderGross, previous);
    const value = input.advance_value != null ? decimal(input.advance_value) : undefined;
    let amount = remaining;
    if (input.advance_creation_mode === 'percent' || (input.advance_creation_mode == null && value !== undefined)) {
      if (value === undefined) throw invalid({ advance_value: ["can't be blank"] });
      if (compare(value, HUNDRED) > 0) throw invalid({ advance_value: ['must be at most 100 (percent)'] });
      amount = round(div(mul(orderGross, value), HUNDRED, 12), digits);
    } else if (input.advance_creation_mode === 'amount') {
      if (value === undefined) throw invalid({ advance_value: ["can't be blank"] });
      amount = round(value, digits);
    }
    if (compare(amount, ZERO) <= 0) throw invalid({ advance_value: ['must be greater than 0'] });
    if (compare(amount, remaining) > 0) {
      throw invalid({ advance_value: [`is more than what remains to be paid in advance on ${order.number} (${toWire(remaining)})`] });
    }
    const name = input.position_name?.trim() || (pl(order.lang) ? `Zaliczka na poczet zamówienia ${order.number}` : `Advance payment for order ${order.number}`);
    positions = advancePositions(order, toPlain(amount), name);
    base.invoice_id = source.id;
  } else if (kind === 'final') {
    const advances = input.invoice_ids
      ? await Promise.all(input.invoice_ids.map((id) => findRow<InvoiceData & InvoiceParts>(tx, 'invoices', account.id, id)))
      : await advancesOfOrder<InvoiceData & InvoiceParts>(tx, account.id, source.id);
    const problems: string[] = [];
    advances.forEach((advance, index) => {
      const id = input.invoice_ids?.[index] ?? advance?.id;
      if (!advance) problems.push(`${id} does not exist`);
      else if (advance.data.kind !== 'advance') problems.push(`${id} is not an advance invoice`);
      else if (advance.data.invoice_id !== source.id) problems.push(`${id} is an advance of another order`);
      else if (advance.data.cancelled) problems.push(`${id} is cancelled`);
    });
    if (problems.length > 0) throw invalid({ invoice_ids: problems });
    if (await orderHasFinalInvoice(tx, account.id, source.id)) throw invalid({ copy_invoice_from: ['already has a final invoice'] });
    const settled = sum(advances.map((a) => decimal(a!.data.price_gross)));
    if (compare(settled, decimal(order.price_gross)) > 0) throw invalid({ invoice_ids: ['add up to more than the order'] });
    positions = order.positions.map(positionCopy);
    for (const advance of advances) {
      for (const line of advance!.data.positions) {
        positions.push({
          name: `${pl(order.lang) ? 'Zaliczka' : 'Advance invoice'} ${advance!.data.number}`,
          tax: line.tax,
          quantity: '1',
          total_price_gross: toPlain(sub(ZERO, decimal(line.total_price_gross))),
        });
      }
    }
    base.invoice_id = source.id;
  } else {
    positions = input.positions ?? order.positions.map(positionCopy);
    base.invoice_id ??= source.id;
  }
  return buildNewInvoice(tx, account, { ...base, positions } as CreateInput);
}
