import { labelsFor } from '../documents/labels.js';
import { ksefQrCodesOf, OFFLINE_LABEL, type KsefQr, qrSvg } from '../ksef/qr.js';
import { html, Html } from '../documents/html.js';

/**
 * The KSeF QR codes on the public invoice page, as on the PDF: KOD I links to KSeF's verification of
 * this invoice with its KSeF number under it (OFFLINE while an offline invoice has none); on an
 * invoice issued offline with the seller's Offline certificate, KOD II beside it, labelled
 * CERTYFIKAT. An invoice from a KSeF test environment says so.
 */
export function ksefQrBlock(invoice: object, lang: string): Html | '' {
  const codes = ksefQrCodesOf(invoice as Record<string, unknown>);
  if (codes.length === 0) return '';
  const labels = labelsFor(lang);
  const caption = (qr: KsefQr) =>
    qr.kind === 'certificate' ? labels.ksefCertificateCode : qr.label === OFFLINE_LABEL ? labels.ksefOfflineCode : labels.ksefNumber;
  return html`<div class="ksef-qr">
      ${codes.map(
        (qr) => html`<figure class="ksef-qr-code" data-kind="${qr.kind}">
          <a href="${qr.link}" rel="noopener noreferrer">${new Html(qrSvg(qr.link, `${caption(qr)} ${qr.label}`))}</a>
          <figcaption>${caption(qr)}: <strong>${qr.label}</strong></figcaption>
        </figure>`,
      )}
      ${codes.some((qr) => qr.test) ? html`<p class="ksef-test" role="note"><strong>${labels.ksefTestMark}</strong></p>` : ''}
    </div>`;
}
