/**
 * Factur-X 1.0 / ZUGFeRD 2 (EN 16931 profile): the invoice's PDF as PDF/A-3b, carrying its CII
 * document as the associated file `factur-x.xml`, declared in the XMP metadata by the `fx:`
 * properties and the PDF/A extension schema that describes them (Factur-X 1.0, section 6.2).
 */

type Doc = PDFKit.PDFDocument;

export const FACTUR_X_FILE_NAME = 'factur-x.xml';
const FACTUR_X_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

/** The document options that make pdfkit write PDF/A-3b (its fonts are embedded already). */
export const FACTUR_X_PDF_OPTIONS = { pdfVersion: '1.7', subset: 'PDF/A-3b' } as const satisfies Pick<PDFKit.PDFDocumentOptions, 'pdfVersion' | 'subset'>;

const FX_PROPERTIES: readonly [name: string, description: string][] = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
];

const FX_METADATA = `
<rdf:Description rdf:about="" xmlns:fx="${FACTUR_X_NAMESPACE}">
  <fx:DocumentType>INVOICE</fx:DocumentType>
  <fx:DocumentFileName>${FACTUR_X_FILE_NAME}</fx:DocumentFileName>
  <fx:Version>1.0</fx:Version>
  <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
  <pdfaExtension:schemas>
    <rdf:Bag>
      <rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>${FACTUR_X_NAMESPACE}</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>fx</pdfaSchema:prefix>
        <pdfaSchema:property>
          <rdf:Seq>${FX_PROPERTIES.map(
            ([name, description]) => `
            <rdf:li rdf:parseType="Resource">
              <pdfaProperty:name>${name}</pdfaProperty:name>
              <pdfaProperty:valueType>Text</pdfaProperty:valueType>
              <pdfaProperty:category>external</pdfaProperty:category>
              <pdfaProperty:description>${description}</pdfaProperty:description>
            </rdf:li>`,
          ).join('')}
          </rdf:Seq>
        </pdfaSchema:property>
      </rdf:li>
    </rdf:Bag>
  </pdfaExtension:schemas>
</rdf:Description>`;

/** Attaches the CII document as `factur-x.xml` (AFRelationship Data, text/xml) and declares it in the XMP metadata. */
export function attachFacturX(doc: Doc, ciiXml: string, issuedAt: Date): void {
  // pdfkit writes `relationship` as the file specification's /AFRelationship; its types do not name it.
  const options: PDFKit.Mixins.PDFAttachmentOptions & { relationship: 'Data' } = {
    name: FACTUR_X_FILE_NAME,
    type: 'text/xml',
    description: 'Factur-X invoice (EN 16931)',
    relationship: 'Data',
    creationDate: issuedAt,
    modifiedDate: issuedAt,
  };
  doc.file(Buffer.from(ciiXml, 'utf8'), options);
  doc.appendXML(FX_METADATA);
  escapeInfoInMetadata(doc);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * pdfkit copies the document information (title, author: the seller's name) into the XMP metadata
 * as it is, so `Okna & Drzwi` would make the metadata malformed XML. The information dictionary is
 * written before the metadata: escaping the values for the metadata alone leaves both saying the same.
 */
function escapeInfoInMetadata(doc: Doc): void {
  const endMetadata = doc.endMetadata.bind(doc);
  doc.endMetadata = () => {
    const info = doc.info as unknown as Record<string, unknown>;
    const kept = { ...info };
    for (const [key, value] of Object.entries(kept)) if (typeof value === 'string') info[key] = escapeXml(value);
    endMetadata();
    Object.assign(info, kept);
  };
}
