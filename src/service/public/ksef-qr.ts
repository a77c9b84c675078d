import { labelsFor } from '../documents/labels.js';
import { ksefQrOf, qrSvg } from '../ksef/qr.js';
import { html, Html } from './html.js';

/**
 * The KSeF QR code (KOD I) on the public invoice page, as on the PDF: the code links to KSeF's
 * verification of this invoice, its KSeF number is printed under it, and an invoice from a KSeF test
 * environment says so.
 */
export function ksefQrBlock(invoice: object, lang: string): Html | '' {
  const qr = ksefQrOf(invoice as Record<string, unknown>);
  if (!qr) return '';
  const labels = labelsFor(lang);
  return html`<figure class="ksef-qr">
      <a href="${qr.link}" rel="noopener noreferrer">${new Html(qrSvg(qr.link, `${labels.ksefNumber} ${qr.label}`))}</a>
      <figcaption>${labels.ksefNumber}: <strong>${qr.label}</strong></figcaption>
      ${qr.test ? html`<p class="ksef-test" role="note"><strong>${labels.ksefTestMark}</strong></p>` : ''}
    </figure>`;
}
