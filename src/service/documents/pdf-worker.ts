import { parentPort } from 'node:worker_threads';
import type { InvoiceData } from '../invoicing/invoices.js';
import { drawableLogo } from './logo-image.js';
import { type PrintOption, renderInvoicePdf } from './pdf.js';

/** One PDF rendering thread of the pool in `pdf-pool.ts`: a job in, the document's bytes out. */
export interface PdfJob {
  id: number;
  invoice: InvoiceData;
  printOption: PrintOption;
  logo: Uint8Array | null;
  /** The CII document to carry, for a Factur-X PDF. */
  facturX?: string | null;
}

export type PdfResult = { id: number; pdf: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (job: PdfJob) => {
  // A logo stored before uploads were decoded is drawn only once it decodes under the limits, normalized.
  renderInvoicePdf(job.invoice, { printOption: job.printOption, logo: drawableLogo(job.logo), facturX: job.facturX ?? null }).then(
    (pdf) => {
      const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      parentPort!.postMessage({ id: job.id, pdf: bytes } satisfies PdfResult);
    },
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies PdfResult),
  );
});
