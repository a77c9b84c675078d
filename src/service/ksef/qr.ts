import QRCode from 'qrcode';

/**
 * A KSeF QR code an invoice carries (the Ministry's QR guide): its link as a QR code, the label
 * printed under it, and a test mark when the invoice went to a KSeF test environment, where it has
 * no legal force.
 */
export interface KsefQr {
  readonly link: string;
  /** Printed under the code: the KSeF number, `OFFLINE` while an offline invoice has none, or `CERTYFIKAT` (KOD II). */
  readonly label: string;
  readonly test: boolean;
  /** KOD I verifies the invoice; KOD II the issuer's certificate. */
  readonly kind: 'invoice' | 'certificate';
}

/** The label under KOD I of an offline invoice KSeF has not numbered yet, and under KOD II (fixed by the guide). */
export const OFFLINE_LABEL = 'OFFLINE';
export const CERTIFICATE_LABEL = 'CERTYFIKAT';

/**
 * KOD I of an invoice KSeF accepted, with its KSeF number; of an invoice issued offline also before
 * that, labelled OFFLINE. Null for any other invoice.
 */
export function ksefQrOf(invoice: Record<string, unknown>): KsefQr | null {
  const link = invoice.gov_verification_link;
  const number = invoice.gov_id;
  if (typeof link !== 'string' || !link) return null;
  const test = String(invoice.gov_status ?? '').startsWith('demo_');
  if (typeof number === 'string' && number) return { link, label: number, test, kind: 'invoice' };
  return invoice.ksef_offline === true ? { link, label: OFFLINE_LABEL, test, kind: 'invoice' } : null;
}

/** KOD II of an invoice issued offline and signed with the account's Offline certificate; null otherwise. */
export function ksefCertificateQrOf(invoice: Record<string, unknown>): KsefQr | null {
  const link = invoice.ksef_certificate_link;
  if (typeof link !== 'string' || !link || !ksefQrOf(invoice)) return null;
  return { link, label: CERTIFICATE_LABEL, test: String(invoice.gov_status ?? '').startsWith('demo_'), kind: 'certificate' };
}

/** Every KSeF code of an invoice, KOD I first. */
export function ksefQrCodesOf(invoice: Record<string, unknown>): KsefQr[] {
  return [ksefQrOf(invoice), ksefCertificateQrOf(invoice)].filter((qr): qr is KsefQr => qr !== null);
}

/** The code's modules, row by row (true is dark), without the quiet zone. Error correction M. */
export function qrModules(text: string): { size: number; dark: (x: number, y: number) => boolean } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (x, y) => modules.get(y, x) === 1 };
}

/** The code as an SVG image with its quiet zone, for pages. */
export function qrSvg(text: string, title: string, pixels = 160): string {
  const { size, dark } = qrModules(text);
  const quiet = 4;
  let path = '';
  for (let y = 0; y < size; y += 1) for (let x = 0; x < size; x += 1) if (dark(x, y)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  const side = size + quiet * 2;
  const escaped = title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${side} ${side}" role="img" aria-label="${escaped}" shape-rendering="crispEdges"><title>${escaped}</title><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
