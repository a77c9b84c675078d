import { compare, decimal, div, isZero, minorUnits, round, sub, toWire, ZERO } from '../../kernel/money.js';
import type { correctionSide, invoiceCreateInput } from '../../api/schemas/invoice.js';
import type { z } from 'zod';
import type { Sql } from '../db.js';
import type { Account } from '../account.js';
import { invalid } from '../domain-errors.js';
import { findRow } from '../store.js';
import { AmountError, computeLine, computeTotals, DEFAULT_TAX, normalizeTax } from './amounts.js';
import { buildNewInvoice, type InvoiceData, type StoredPosition } from './invoices.js';
import { copiedInvoiceFields, definedFields } from './copies.js';

/**
 * Corrections (`kind: correction`): a document that changes an issued invoice. Each line carries the
 * line as it was (`correction_before_attributes`) and as it is now (`correction_after_attributes`);
 * its amounts are the exact difference after − before, and the correction's totals are the sums of
 * those differences. Lines given without before/after are taken as they are (usually negative).
 */

type CreateInput = z.output<typeof invoiceCreateInput>;
type Side = z.output<typeof correctionSide>;

export interface CorrectionLine {
  name: string;
  quantity: string;
  tax: string;
  price_net: string;
  price_gross: string;
  total_price_net: string;
  total_price_tax: string;
  total_price_gross: string;
}

export interface CorrectionPosition extends StoredPosition {
  kind?: string | null;
  correction_before?: CorrectionLine;
  correction_after?: CorrectionLine;
}

function sideLine(side: Side, fallbackName: string, fallbackTax: string, currency: string, field: string): CorrectionLine {
  const tax = normalizeTax(side.tax ?? fallbackTax);
  const quantity = side.quantity ?? '1';
  const pricing = {
    total_price_gross: side.total_price_gross,
    total_price_net: side.total_price_net,
    price_gross: side.price_gross,
    price_net: side.price_net,
  };
  // A side that sells nothing (quantity 0, e.g. a line added by the correction) is all zeros.
  if (isZero(decimal(quantity))) {
    const zero = '0.0';
    return { name: side.name ?? fallbackName, quantity: toWire(ZERO), tax, price_net: zero, price_gross: zero, total_price_net: zero, total_price_tax: zero, total_price_gross: zero };
  }
  try {
    const amounts = computeLine({ quantity, tax, ...pricing }, currency, null);
    return {
      name: (side.name ?? fallbackName).trim() || fallbackName,
      quantity: toWire(decimal(quantity)),
      tax,
      price_net: amounts.price_net,
      price_gross: amounts.price_gross,
      total_price_net: amounts.total_price_net,
      total_price_tax: amounts.total_price_tax,
      total_price_gross: amounts.total_price_gross,
    };
  } catch (error) {
    if (error instanceof AmountError) throw invalid({ [field]: [error.message] });
    throw error;
  }
}

const minus = (a: string, b: string) => sub(decimal(a), decimal(b));

/** The line a correction shows: after − before, exactly, with unit prices per corrected unit. */
export function differenceLine(before: CorrectionLine, after: CorrectionLine, currency: string) {
  const digits = minorUnits(currency);
  const quantity = minus(after.quantity, before.quantity);
  const totalNet = minus(after.total_price_net, before.total_price_net);
  const totalGross = minus(after.total_price_gross, before.total_price_gross);
  let unitNet = minus(after.price_net, before.price_net);
  let unitGross = minus(after.price_gross, before.price_gross);
  if (!isZero(quantity)) {
    unitNet = round(div(totalNet, quantity, 10), digits);
    unitGross = round(div(totalGross, quantity, 10), digits);
  }
  return {
    quantity: toWire(isZero(quantity) ? decimal(1) : quantity),
    price_net: toWire(unitNet),
    price_gross: toWire(unitGross),
    price_tax: toWire(sub(unitGross, unitNet)),
    total_price_net: toWire(totalNet),
    total_price_gross: toWire(totalGross),
    total_price_tax: toWire(sub(totalGross, totalNet)),
  };
}

function contentText(lines: CorrectionLine[]): string {
  return lines
    .map((l) => `${l.name}: ${l.quantity} × ${l.price_gross} = ${l.total_price_gross} (${/^[a-z]+$/i.test(l.tax) ? l.tax : `${l.tax}%`})`)
    .join('\n');
}

/** Builds a correction of the invoice named by `from_invoice_id` (or `invoice_id`). */
export async function buildCorrection(tx: Sql, account: Account, input: CreateInput): Promise<InvoiceData> {
  const correctedId = input.from_invoice_id ?? input.invoice_id;
  if (correctedId == null) throw invalid({ from_invoice_id: ["can't be blank"] });
  const corrected = await findRow<InvoiceData>(tx, 'invoices', account.id, correctedId);
  if (!corrected) throw invalid({ from_invoice_id: ['does not exist'] });
  if (corrected.data.kind === 'correction') throw invalid({ from_invoice_id: ['is a correction: correct the invoice itself'] });

  const positions = (input.positions ?? []).filter((p) => !p._destroy);
  if (positions.length === 0) throw invalid({ positions: ["can't be blank"] });
  const currency = input.currency ?? corrected.data.currency;
  const sides = positions.map((p, index) => {
    if (!p.correction_before_attributes && !p.correction_after_attributes) return undefined;
    const name = p.name ?? p.correction_after_attributes?.name ?? p.correction_before_attributes?.name ?? '';
    const tax = p.tax ?? p.correction_after_attributes?.tax ?? p.correction_before_attributes?.tax ?? DEFAULT_TAX;
    const at = (side: string) => `positions.${index}.${side}`;
    const before = sideLine(p.correction_before_attributes ?? { quantity: '0' }, name, tax, currency, at('correction_before_attributes'));
    const after = sideLine(p.correction_after_attributes ?? { quantity: '0' }, name, tax, currency, at('correction_after_attributes'));
    return { before, after };
  });

  // Lines with before/after are priced below; here they hold a zero price so that the rest of the
  // invoice (buyer, seller, numbering) is built by the one code path every invoice takes.
  const data = await buildNewInvoice(tx, account, {
    ...copiedInvoiceFields(corrected.data),
    ...definedFields(input),
    kind: 'correction',
    currency,
    from_invoice_id: corrected.id,
    positions: positions.map((p, index) =>
      sides[index] ? { name: sides[index].after.name, tax: sides[index].after.tax, quantity: '1', total_price_gross: '0' } : p,
    ),
  });

  data.positions = data.positions.map((position, index) => {
    const side = sides[index];
    const line: CorrectionPosition = { ...position, kind: 'correction' };
    if (!side) return line;
    const difference = differenceLine(side.before, side.after, currency);
    return {
      ...line,
      name: side.after.name,
      tax: side.after.tax,
      ...difference,
      discount: null,
      discount_percent: null,
      pricing: { total_price_gross: difference.total_price_gross },
      correction_before: side.before,
      correction_after: side.after,
    };
  });
  Object.assign(data, computeTotals(data.positions));
  const befores = sides.flatMap((s) => (s ? [s.before] : []));
  const afters = sides.flatMap((s) => (s ? [s.after] : []));
  const extra = data as InvoiceData & Record<string, unknown>;
  extra.corrected_content_before = input.corrected_content_before ?? (befores.length > 0 ? contentText(befores) : null);
  extra.corrected_content_after = input.corrected_content_after ?? (afters.length > 0 ? contentText(afters) : null);
  if (compare(decimal(data.price_gross), ZERO) <= 0) {
    data.paid = '0.0';
    data.paid_date = null;
    if (data.status === 'paid' || data.status === 'partial') data.status = 'issued';
  }
  return data;
}
