import { createHash } from 'node:crypto';
import { BoundedMap } from '../../server-kit/bounded-map.js';
import { departmentLogo } from '../data/department-logos.js';
import type { Database } from '../db.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { type StoredRow, timestampText, todayText } from '../store.js';
import type { PrintOption } from './print-option.js';
import { renderInvoicePdfInPool } from './pdf-pool.js';

/**
 * Recently rendered PDFs, per database and by everything that can change one: rendering costs far
 * more than a lookup. Per database, because account and invoice ids only name a record within one:
 * two services in one process (a host that embeds two, or tests) would otherwise hand each other's
 * PDFs out.
 */
const renderedPdfs = new WeakMap<Database, BoundedMap<string, Buffer>>();
const RENDERED_PDFS_KEPT = 64;

/**
 * The PDF of a stored invoice, with its department's logo; with `facturX` (the invoice's CII
 * document) a Factur-X PDF/A-3b carrying it.
 */
export async function renderInvoicePdfForRow(
  db: Database,
  accountId: number,
  row: StoredRow<InvoiceData>,
  printOption: PrintOption = 'original',
  facturX: string | null = null,
): Promise<Buffer> {
  const logo = await departmentLogo(db, accountId, row.data.department_id);
  // The CII document follows from the client and department too: a Factur-X PDF is keyed by it.
  const variant = facturX === null ? 'pdf' : `facturx ${createHash('sha256').update(facturX).digest('base64url')}`;
  const key = [accountId, row.id, timestampText(row.updated_at), logo?.updatedAt.toISOString() ?? '-', printOption, todayText(), variant].join('|');
  let kept = renderedPdfs.get(db);
  if (!kept) renderedPdfs.set(db, (kept = new BoundedMap(RENDERED_PDFS_KEPT)));
  const pdf = kept.get(key) ?? (await renderInvoicePdfInPool(row.data, { printOption, logo: logo?.content ?? null, accountId, facturX }));
  // Kept (again) as the newest.
  kept.set(key, pdf);
  return pdf;
}
