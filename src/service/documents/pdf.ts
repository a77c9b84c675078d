import PDFDocument from 'pdfkit';
import { minorUnits } from '../../kernel/money.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import {
  type DocumentLabels,
  documentTitle,
  formatMoney,
  formatNumber,
  formatTaxRate,
  formatUnit,
  invoiceTaxWords,
  labelsFor,
  paymentMethodText,
} from './labels.js';
import { isDrawableLogo } from './image-size.js';
import { amountDue, vatSummary } from './summary.js';
import { ksefQrCodesOf, OFFLINE_LABEL, qrModules } from '../ksef/qr.js';
import { documentFonts } from './pdf-fonts.js';
import { attachFacturX, FACTUR_X_PDF_OPTIONS } from './facturx.js';

import type { PrintOption } from './print-option.js';

export type { PrintOption };

export interface InvoicePdfOptions {
  printOption?: PrintOption;
  /** The seller department's logo, PNG or JPEG bytes. */
  logo?: Uint8Array | null;
  /** The invoice's CII document (EN 16931): the PDF is then a Factur-X PDF/A-3b carrying it. */
  facturX?: string | null;
}

const PAGE = { width: 595.28, height: 841.89, margin: 42 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const FOOTER_SPACE = 40;
const COLOR = { text: '#1f2933', muted: '#6b7683', rule: '#d5dae1', accent: '#1d4ed8', band: '#f1f4f8' };

interface Column {
  key: string;
  label: string;
  width: number;
  align: 'left' | 'right' | 'center';
}

type Doc = PDFKit.PDFDocument;

/** Renders an invoice as an A4 PDF with real, selectable text. */
export function renderInvoicePdf(invoice: InvoiceData, options: InvoicePdfOptions = {}): Promise<Buffer> {
  const labels = labelsFor(invoice.lang);
  const title = documentTitle(labels, invoice.kind);
  const { regular, bold } = documentFonts();
  const doc = new PDFDocument({
    // No Helvetica: every text is set in DejaVu, and loading the standard font's metrics costs time.
    font: null as unknown as string,
    size: 'A4',
    margins: { top: PAGE.margin, bottom: PAGE.margin, left: PAGE.margin, right: PAGE.margin },
    bufferPages: true,
    info: {
      Title: `${title} ${invoice.number}`,
      Author: invoice.seller_name ?? '',
      Subject: `${title} ${invoice.number}`,
      Creator: 'invoicekit',
    },
    lang: labels.locale,
    ...(options.facturX ? FACTUR_X_PDF_OPTIONS : {}),
  });
  // pdfkit takes a parsed fontkit font as well as font bytes; its types only know the bytes.
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  let y = drawHeader(doc, invoice, labels, title, options);
  y = drawParties(doc, invoice, labels, y + 18);
  y = drawPositions(doc, invoice, labels, y + 20);
  y = drawSummary(doc, invoice, labels, y + 16);
  drawPayment(doc, invoice, labels, y + 16);
  drawKsefQr(doc, invoice, labels, doc.y + 16);
  drawFooters(doc, invoice, labels, title);
  if (options.facturX) attachFacturX(doc, options.facturX, new Date(`${invoice.issue_date}T00:00:00Z`));
  doc.end();
  return done;
}

function drawHeader(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, title: string, options: InvoicePdfOptions): number {
  const top = PAGE.margin;
  let logoBottom = top;
  // A logo stored before sizes were checked is left out rather than decoded at any size.
  if (options.logo && options.logo.length > 0 && isDrawableLogo(options.logo)) {
    try {
      doc.image(Buffer.from(options.logo), PAGE.margin, top, { fit: [170, 64] });
      logoBottom = top + 64;
    } catch {
      // A logo that cannot be drawn leaves the header without it rather than failing the document.
    }
  }
  const right = PAGE.margin + CONTENT_WIDTH;
  const blockWidth = 260;
  const x = right - blockWidth;
  doc.fillColor(COLOR.text).font('bold').fontSize(18).text(title, x, top, { width: blockWidth, align: 'right' });
  doc.font('bold').fontSize(12).text(`${labels.number} ${invoice.number}`, x, doc.y + 2, { width: blockWidth, align: 'right' });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(COLOR.muted)
    .text(options.printOption === 'copy' ? labels.copy : labels.original, x, doc.y + 3, { width: blockWidth, align: 'right' });
  let dateY = doc.y + 8;
  const dates: [string, string | null][] = [
    [labels.issueDate, invoice.issue_date],
    [labels.sellDate, invoice.sell_date],
    [labels.dueDate, invoice.payment_to],
  ];
  if (invoice.place) dates.push([labels.place, invoice.place]);
  for (const [label, value] of dates) {
    if (!value) continue;
    doc.font('regular').fontSize(9).fillColor(COLOR.muted).text(`${label}:`, x, dateY, { width: blockWidth - 80, align: 'right' });
    doc.font('bold').fillColor(COLOR.text).text(value, right - 75, dateY, { width: 75, align: 'right' });
    dateY += 13;
  }
  return Math.max(dateY, logoBottom);
}

function partyLines(
  labels: DocumentLabels,
  party: { street: string | null; post_code: string | null; city: string | null; country: string | null; tax_no: string | null; email: string | null; phone: string | null },
): string[] {
  const lines: string[] = [];
  if (party.street) lines.push(party.street);
  const town = [party.post_code, party.city].filter(Boolean).join(' ');
  if (town) lines.push(town);
  if (party.country) lines.push(party.country);
  if (party.tax_no) lines.push(`${labels.taxNo}: ${party.tax_no}`);
  if (party.email) lines.push(party.email);
  if (party.phone) lines.push(party.phone);
  return lines;
}

function drawParties(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, top: number): number {
  const gap = 24;
  const width = (CONTENT_WIDTH - gap) / 2;
  doc.moveTo(PAGE.margin, top).lineTo(PAGE.margin + CONTENT_WIDTH, top).lineWidth(0.6).strokeColor(COLOR.rule).stroke();
  const blocks = [
    {
      heading: labels.seller,
      name: invoice.seller_name ?? '',
      lines: partyLines(labels, {
        street: invoice.seller_street,
        post_code: invoice.seller_post_code,
        city: invoice.seller_city,
        country: invoice.seller_country,
        tax_no: invoice.seller_tax_no,
        email: invoice.seller_email,
        phone: invoice.seller_phone,
      }),
    },
    {
      heading: labels.buyer,
      name: invoice.buyer_name ?? [invoice.buyer_first_name, invoice.buyer_last_name].filter(Boolean).join(' '),
      lines: partyLines(labels, {
        street: invoice.buyer_street,
        post_code: invoice.buyer_post_code,
        city: invoice.buyer_city,
        country: invoice.buyer_country,
        tax_no: invoice.buyer_tax_no,
        email: invoice.buyer_email,
        phone: invoice.buyer_phone,
      }),
    },
  ];
  let bottom = top;
  blocks.forEach((block, index) => {
    const x = PAGE.margin + index * (width + gap);
    doc.font('bold').fontSize(8).fillColor(COLOR.accent).text(block.heading.toUpperCase(), x, top + 10, { width });
    doc.font('bold').fontSize(11).fillColor(COLOR.text).text(block.name, x, doc.y + 4, { width });
    doc.font('regular').fontSize(9).fillColor(COLOR.text);
    for (const line of block.lines) doc.text(line, x, doc.y + 1.5, { width });
    bottom = Math.max(bottom, doc.y);
  });
  return bottom;
}

function positionColumns(labels: DocumentLabels): Column[] {
  return [
    { key: 'no', label: labels.no, width: 28, align: 'center' },
    { key: 'name', label: labels.item, width: 137, align: 'left' },
    { key: 'quantity', label: labels.quantity, width: 40, align: 'right' },
    { key: 'unit', label: labels.unit, width: 34, align: 'center' },
    { key: 'price_net', label: labels.netPrice, width: 58, align: 'right' },
    { key: 'tax', label: labels.taxRate, width: 36, align: 'right' },
    { key: 'net', label: labels.net, width: 58, align: 'right' },
    { key: 'tax_amount', label: labels.tax, width: 61, align: 'right' },
    { key: 'gross', label: labels.gross, width: 59.28, align: 'right' },
  ];
}

const PAD = 4;

function drawRow(doc: Doc, columns: Column[], values: Record<string, string>, y: number, options: { font: string; size: number; band?: boolean }): number {
  doc.font(options.font).fontSize(options.size);
  const height = Math.max(...columns.map((column) => doc.heightOfString(values[column.key] ?? '', { width: column.width - 2 * PAD }))) + 2 * PAD + 1;
  if (options.band) doc.rect(PAGE.margin, y, CONTENT_WIDTH, height).fill(COLOR.band);
  let x = PAGE.margin;
  doc.fillColor(COLOR.text).font(options.font).fontSize(options.size);
  for (const column of columns) {
    doc.text(values[column.key] ?? '', x + PAD, y + PAD + 0.5, { width: column.width - 2 * PAD, align: column.align });
    x += column.width;
  }
  return height;
}

function rowHeight(doc: Doc, columns: Column[], values: Record<string, string>, font: string, size: number): number {
  doc.font(font).fontSize(size);
  return Math.max(...columns.map((column) => doc.heightOfString(values[column.key] ?? '', { width: column.width - 2 * PAD }))) + 2 * PAD + 1;
}

const pageBottom = () => PAGE.height - PAGE.margin - FOOTER_SPACE;

function newPage(doc: Doc): number {
  doc.addPage();
  return PAGE.margin;
}

function drawPositions(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, top: number): number {
  const columns = positionColumns(labels);
  const digits = minorUnits(invoice.currency);
  const header = Object.fromEntries(columns.map((column) => [column.key, column.label]));
  const drawHeaderRow = (y: number) => {
    const height = rowHeight(doc, columns, header, 'bold', 7.5);
    doc.rect(PAGE.margin, y, CONTENT_WIDTH, height).fill(COLOR.text);
    let x = PAGE.margin;
    doc.font('bold').fontSize(7.5).fillColor('#ffffff');
    for (const column of columns) {
      doc.text(column.label, x + PAD, y + PAD + 0.5, { width: column.width - 2 * PAD, align: column.align });
      x += column.width;
    }
    return y + height;
  };
  doc.font('regular').fontSize(8).fillColor(COLOR.muted).text(`${labels.net}, ${labels.tax}, ${labels.gross}: ${invoice.currency}`, PAGE.margin, top, {
    width: CONTENT_WIDTH,
    align: 'right',
  });
  let y = drawHeaderRow(doc.y + 3);
  invoice.positions.forEach((position, index) => {
    const values: Record<string, string> = {
      no: String(index + 1),
      name: position.description ? `${position.name}\n${position.description}` : position.name,
      quantity: formatNumber(position.quantity, labels),
      unit: formatUnit(position.quantity_unit, labels),
      price_net: formatNumber(position.price_net, labels, digits),
      tax: formatTaxRate(position.tax, labels),
      net: formatNumber(position.total_price_net, labels, digits),
      tax_amount: formatNumber(position.total_price_tax, labels, digits),
      gross: formatNumber(position.total_price_gross, labels, digits),
    };
    if (y + rowHeight(doc, columns, values, 'regular', 8) > pageBottom()) y = drawHeaderRow(newPage(doc));
    y += drawRow(doc, columns, values, y, { font: 'regular', size: 8, band: index % 2 === 1 });
  });
  doc.moveTo(PAGE.margin, y).lineTo(PAGE.margin + CONTENT_WIDTH, y).lineWidth(0.6).strokeColor(COLOR.rule).stroke();
  return y;
}

function drawSummary(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, top: number): number {
  const digits = minorUnits(invoice.currency);
  const rates = vatSummary(invoice);
  const columns: Column[] = [
    { key: 'tax', label: labels.taxRate, width: 60, align: 'right' },
    { key: 'net', label: labels.net, width: 70, align: 'right' },
    { key: 'tax_amount', label: labels.tax, width: 70, align: 'right' },
    { key: 'gross', label: labels.gross, width: 70, align: 'right' },
  ];
  const tableWidth = columns.reduce((sum, column) => sum + column.width, 0);
  const x0 = PAGE.margin + CONTENT_WIDTH - tableWidth;
  const needed = 14 + (rates.length + 2) * 16 + 90;
  let y = top;
  if (y + needed > pageBottom()) y = newPage(doc);
  doc.font('bold').fontSize(8).fillColor(COLOR.accent).text(labels.vatSummary.toUpperCase(), x0, y, { width: tableWidth });
  y = doc.y + 3;
  const row = (values: Record<string, string>, font: string, rule = false) => {
    let x = x0;
    doc.font(font).fontSize(8).fillColor(COLOR.text);
    for (const column of columns) {
      doc.text(values[column.key] ?? '', x + PAD, y + 3, { width: column.width - 2 * PAD, align: column.align });
      x += column.width;
    }
    y += 15;
    if (rule) doc.moveTo(x0, y).lineTo(x0 + tableWidth, y).lineWidth(0.5).strokeColor(COLOR.rule).stroke();
  };
  row(Object.fromEntries(columns.map((column) => [column.key, column.label])), 'bold', true);
  for (const rate of rates) {
    row(
      {
        tax: formatTaxRate(rate.tax, labels),
        net: formatNumber(rate.net, labels, digits),
        tax_amount: formatNumber(rate.tax_amount, labels, digits),
        gross: formatNumber(rate.gross, labels, digits),
      },
      'regular',
    );
  }
  doc.moveTo(x0, y).lineTo(x0 + tableWidth, y).lineWidth(0.5).strokeColor(COLOR.rule).stroke();
  row(
    {
      tax: labels.total,
      net: formatNumber(invoice.price_net, labels, digits),
      tax_amount: formatNumber(invoice.price_tax, labels, digits),
      gross: formatNumber(invoice.price_gross, labels, digits),
    },
    'bold',
  );

  y += 10;
  const boxWidth = 270;
  const bx = PAGE.margin + CONTENT_WIDTH - boxWidth;
  doc.rect(bx, y, boxWidth, 30).fill(COLOR.band);
  doc.font('bold').fontSize(11).fillColor(COLOR.text).text(labels.toPay, bx + 10, y + 9, { width: 120 });
  doc.font('bold').fontSize(13).text(formatMoney(invoice.price_gross, invoice.currency, labels), bx + 120, y + 8, { width: boxWidth - 130, align: 'right' });
  y += 36;
  const line = (label: string, value: string, font = 'regular') => {
    doc.font('regular').fontSize(9).fillColor(COLOR.muted).text(label, bx + 10, y, { width: 140 });
    doc.font(font).fontSize(9).fillColor(COLOR.text).text(value, bx + 120, y, { width: boxWidth - 130, align: 'right' });
    y += 14;
  };
  line(labels.paid, formatMoney(invoice.paid || '0', invoice.currency, labels));
  line(labels.due, formatMoney(amountDue(invoice), invoice.currency, labels), 'bold');
  return y;
}

function drawPayment(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, top: number): void {
  const entries: [string, string][] = [[labels.paymentMethod, paymentMethodText(invoice.payment_type, labels)]];
  if (invoice.payment_to) entries.push([labels.dueDate, invoice.payment_to]);
  if (invoice.seller_bank) entries.push([labels.bank, invoice.seller_bank]);
  if (invoice.seller_bank_account) entries.push([labels.bankAccount, invoice.seller_bank_account]);
  let y = top;
  if (y + entries.length * 14 + 40 > pageBottom()) y = newPage(doc);
  doc.moveTo(PAGE.margin, y).lineTo(PAGE.margin + CONTENT_WIDTH, y).lineWidth(0.6).strokeColor(COLOR.rule).stroke();
  y += 10;
  for (const [label, value] of entries) {
    doc.font('regular').fontSize(9).fillColor(COLOR.muted).text(`${label}:`, PAGE.margin, y, { width: 130 });
    doc.font('bold').fontSize(9).fillColor(COLOR.text).text(value, PAGE.margin + 130, y, { width: CONTENT_WIDTH - 130 });
    y = Math.max(y + 14, doc.y + 2);
  }
  const words = invoiceTaxWords(invoice);
  if (words.length > 0) {
    y += 6;
    if (y + 40 > pageBottom()) y = newPage(doc);
    doc.font('bold').fontSize(8).fillColor(COLOR.accent).text(labels.taxNotes.toUpperCase(), PAGE.margin, y);
    for (const word of words) doc.font('regular').fontSize(9).fillColor(COLOR.text).text(word, PAGE.margin, doc.y + 3, { width: CONTENT_WIDTH });
    y = doc.y + 2;
  }
  if (invoice.description) {
    y += 6;
    if (y + 40 > pageBottom()) y = newPage(doc);
    doc.font('bold').fontSize(8).fillColor(COLOR.accent).text(labels.notes.toUpperCase(), PAGE.margin, y);
    doc.font('regular').fontSize(9).fillColor(COLOR.text).text(invoice.description, PAGE.margin, doc.y + 3, { width: CONTENT_WIDTH });
  }
}

/**
 * The KSeF codes, as the Ministry's QR guide lays them out: KOD I with the KSeF number under it (or
 * OFFLINE while an offline invoice has none), and beside it, on an invoice issued offline with the
 * account's Offline certificate, KOD II labelled CERTYFIKAT. Outside production a test mark.
 */
function drawKsefQr(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, top: number): void {
  const codes = ksefQrCodesOf(invoice as unknown as Record<string, unknown>);
  if (codes.length === 0) return;
  const side = 110;
  const column = 270;
  const test = codes.some((qr) => qr.test);
  const block = side + 44 + (test && codes.length > 1 ? 20 : 0);
  let y = top;
  if (y + block > pageBottom()) y = newPage(doc);
  const drawn = codes.map((qr) => ({ qr, ...qrModules(qr.link) }));
  // The captions share one line under the codes, whose quiet zones differ with their sizes.
  const textTop = y + side + Math.max(...drawn.map(({ size }) => (side / size) * 8)) + 2;
  const textBottom = textTop + 24;
  drawn.forEach(({ qr, size, dark }, index) => {
    const left = PAGE.margin + index * column;
    const module = side / size;
    // A white quiet zone around the code, then one square per dark module.
    doc.rect(left, y, side + module * 8, side + module * 8).fill('#ffffff');
    for (let row = 0; row < size; row += 1) {
      for (let cell = 0; cell < size; cell += 1) {
        if (dark(cell, row)) doc.rect(left + module * (4 + cell), y + module * (4 + row), module, module);
      }
    }
    doc.fill('#000000');
    const caption = qr.kind === 'certificate' ? labels.ksefCertificateCode : qr.label === OFFLINE_LABEL ? labels.ksefOfflineCode : `${labels.ksefNumber}:`;
    doc.font('regular').fontSize(7.5).fillColor(COLOR.muted).text(caption, left, textTop, { width: column - 10, lineBreak: false });
    doc.font('bold').fontSize(8.5).fillColor(COLOR.text).text(qr.label, left, textTop + 10, { width: column - 10, lineBreak: false });
  });
  if (test) {
    const alone = codes.length === 1;
    doc.font('bold').fontSize(9).fillColor('#b42318').text(labels.ksefTestMark, alone ? PAGE.margin + side + 22 : PAGE.margin, alone ? y + 8 : textBottom + 4, {
      width: alone ? 220 : CONTENT_WIDTH,
    });
  }
}

function drawFooters(doc: Doc, invoice: InvoiceData, labels: DocumentLabels, title: string): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.margin - 12;
    doc.moveTo(PAGE.margin, y - 6).lineTo(PAGE.margin + CONTENT_WIDTH, y - 6).lineWidth(0.4).strokeColor(COLOR.rule).stroke();
    doc.font('regular').fontSize(7.5).fillColor(COLOR.muted);
    doc.text(`${title} ${labels.number} ${invoice.number}${invoice.seller_name ? ` · ${invoice.seller_name}` : ''}`, PAGE.margin, y, {
      width: CONTENT_WIDTH - 80,
      lineBreak: false,
      ellipsis: true,
    });
    doc.text(`${labels.page} ${index - range.start + 1} ${labels.of} ${range.count}`, PAGE.margin + CONTENT_WIDTH - 80, y, {
      width: 80,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottomMargin;
  }
}

/** A file name for the PDF of an invoice: `Faktura-VAT-12-01-2026.pdf`. */
export function pdfFileName(invoice: Pick<InvoiceData, 'kind' | 'number' | 'lang'>): string {
  const title = documentTitle(labelsFor(invoice.lang), invoice.kind);
  return `${title} ${invoice.number}`.replace(/[\\/:*?"<>|\s]+/g, '-').replace(/-+/g, '-') + '.pdf';
}

/** `Content-Disposition` with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '');
  return `${kind}; filename="${ascii || 'invoice.pdf'}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
