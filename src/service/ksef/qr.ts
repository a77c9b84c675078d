import QRCode from 'qrcode';

/**
 * The KSeF QR code an invoice carries (KOD I, the Ministry's QR guide): its verification link as a
 * QR code, the KSeF number printed under it, and a test mark when the invoice went to a KSeF test
 * environment, where it has no legal force.
 */
export interface KsefQr {
  readonly link: string;
  /** The KSeF number, printed under the code. */
  readonly label: string;
  readonly test: boolean;
}

/** The QR code of an invoice KSeF accepted; null for any other invoice. */
export function ksefQrOf(invoice: Record<string, unknown>): KsefQr | null {
  const link = invoice.gov_verification_link;
  const number = invoice.gov_id;
  if (typeof link !== 'string' || !link || typeof number !== 'string' || !number) return null;
  return { link, label: number, test: String(invoice.gov_status ?? '').startsWith('demo_') };
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
