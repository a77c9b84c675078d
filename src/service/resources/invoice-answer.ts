import type { InvoiceData } from '../invoicing/invoices.js';
import { presentInvoice as presentRecord } from '../invoicing/presentation.js';
import type { StoredRow } from '../store.js';

/** An invoice answer with every key of the hosted service (see `invoicing/presentation.ts`). */
export function presentInvoice(row: StoredRow<InvoiceData>, publicUrl: string, withPositions: boolean, accountId = 0) {
  return presentRecord(row, { publicUrl, withPositions, accountId });
}
