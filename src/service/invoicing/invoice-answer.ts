import type { StoredRow } from '../store.js';
import type { InvoiceData } from './invoices.js';
import { presentInvoice as presentRecord } from './presentation.js';

/** An invoice answer with every key of the hosted service (see `invoicing/presentation.ts`). */
export function presentInvoice(row: StoredRow<InvoiceData>, publicUrl: string, withPositions: boolean, accountId = 0) {
  return presentRecord(row, { publicUrl, withPositions, accountId });
}
