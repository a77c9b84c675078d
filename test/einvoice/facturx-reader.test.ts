import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { readFacturX, validateEInvoice } from '../helpers/einvoice/index.js';

/**
 * The Factur-X reader (poppler's pdfdetach and pdfinfo) on PDFs made here with pdfkit, the way a
 * Factur-X PDF/A-3 carries its invoice: `factur-x.xml` attached, and the XMP naming PDF/A-3 and the
 * Factur-X profile. The attachment it reads is checked by the e-invoice validator like any other.
 */
const CII = readFileSync(fileURLToPath(new URL('../fixtures/einvoice/cen/cii/examples/CII_example1.xml', import.meta.url)), 'utf8');

function pdf(build: (document: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions = {}): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({ pdfVersion: '1.7', ...options });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    document.on('error', reject);
    build(document);
    document.end();
  });
}

const FACTUR_X_XMP = `<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
  <fx:DocumentType>INVOICE</fx:DocumentType>
  <fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>
  <fx:Version>1.0</fx:Version>
  <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
</rdf:Description>`;

describe('readFacturX', () => {
  it('reads the attached factur-x.xml, the PDF/A part and the Factur-X properties', { timeout: 240_000 }, async () => {
    const file = await pdf(
      (document) => {
        // pdfkit writes the file specification's AFRelationship from `relationship`, which its types lack.
        const attachment: PDFKit.Mixins.PDFAttachmentOptions & { relationship: string } = { name: 'factur-x.xml', type: 'text/xml', relationship: 'Alternative' };
        document.file(Buffer.from(CII, 'utf8'), attachment);
        document.appendXML(FACTUR_X_XMP);
      },
      { subset: 'PDF/A-3b' },
    );
    const reading = await readFacturX(file);
    expect(reading.attachments).toEqual(['factur-x.xml']);
    expect(reading.xml).toBe(CII);
    expect(reading.afRelationship).toBe('Alternative');
    expect(reading.pdfa).toEqual({ part: '3', conformance: 'B' });
    expect(reading.facturX).toEqual({ documentType: 'INVOICE', documentFileName: 'factur-x.xml', version: '1.0', conformanceLevel: 'EN 16931' });
    const report = await validateEInvoice(reading.xml ?? '', { syntax: 'cii', profile: 'en16931' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  });

  it('reports a plain PDF as carrying nothing', async () => {
    const reading = await readFacturX(await pdf((document) => document.text('An invoice')));
    expect(reading.attachments).toEqual([]);
    expect(reading.xml).toBeUndefined();
    expect(reading.afRelationship).toBeUndefined();
    expect(reading.pdfa).toEqual({ part: undefined, conformance: undefined });
    expect(reading.facturX).toEqual({ documentType: undefined, documentFileName: undefined, version: undefined, conformanceLevel: undefined });
  });
});
