import { add, compare, decimal, type Decimal, sub, toPlain, ZERO } from '../../kernel/money.js';
import type { InvoiceData } from '../invoicing/invoices.js';

export interface VatRateTotal {
  tax: string;
  net: string;
  tax_amount: string;
  gross: string;
}

/** Net, tax and gross per tax rate, in the order the rates first appear, summed exactly. */
export function vatSummary(invoice: Pick<InvoiceData, 'positions'>): VatRateTotal[] {
  const rates = new Map<string, { net: Decimal; tax: Decimal; gross: Decimal }>();
  for (const position of invoice.positions) {
    const current = rates.get(position.tax) ?? { net: ZERO, tax: ZERO, gross: ZERO };
    rates.set(position.tax, {
      net: add(current.net, decimal(position.total_price_net)),
      tax: add(current.tax, decimal(position.total_price_tax)),
      gross: add(current.gross, decimal(position.total_price_gross)),
    });
  }
  return [...rates].map(([tax, total]) => ({
    tax,
    net: toPlain(total.net),
    tax_amount: toPlain(total.tax),
    gross: toPlain(total.gross),
  }));
}

/** What is still to be paid: gross minus paid, never below zero. */
export function amountDue(invoice: Pick<InvoiceData, 'price_gross' | 'paid'>): string {
  const due = sub(decimal(invoice.price_gross), decimal(invoice.paid || '0'));
  return compare(due, ZERO) > 0 ? toPlain(due) : '0';
}

export function isSettled(invoice: Pick<InvoiceData, 'price_gross' | 'paid'>): boolean {
  return compare(decimal(amountDue(invoice)), ZERO) === 0;
}
