import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PDFA_ID = 'http://www.aiim.org/pdfa/ns/id/';
const FACTUR_X = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

/** What poppler reads from a Factur-X / ZUGFeRD PDF: its attachments and its XMP metadata. */
export interface FacturXReading {
  /** The names of the embedded files, as `pdfdetach -list` gives them. */
  attachments: string[];
  /** The embedded `factur-x.xml`, or undefined when there is none. */
  xml: string | undefined;
  /**
   * The `/AFRelationship` of `factur-x.xml`'s file specification (Factur-X asks for `Data`,
   * `Source` or `Alternative`), read from the PDF's bytes: undefined when the dictionary is inside a
   * compressed object stream, which poppler's tools do not show.
   */
  afRelationship: string | undefined;
  /** The XMP metadata, as `pdfinfo -meta` gives it. */
  metadata: string;
  /** `pdfaid:part` and `pdfaid:conformance` (PDF/A-3b: `3` and `B`). */
  pdfa: { part: string | undefined; conformance: string | undefined };
  /** The Factur-X properties (`urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#`). */
  facturX: {
    documentType: string | undefined;
    documentFileName: string | undefined;
    version: string | undefined;
    conformanceLevel: string | undefined;
  };
}

/** Reads a PDF with poppler's `pdfdetach` and `pdfinfo` (Debian `poppler-utils`). */
export async function readFacturX(pdf: Uint8Array): Promise<FacturXReading> {
  const folder = await mkdtemp(join(tmpdir(), 'facturx-'));
  try {
    const file = join(folder, 'invoice.pdf');
    await writeFile(file, pdf);
    const listing = (await poppler('pdfdetach', ['-list', file])).split('\n');
    const attachments = listing.flatMap((line) => /^\d+: (.+)$/.exec(line.trim())?.[1] ?? []);
    let xml: string | undefined;
    if (attachments.includes('factur-x.xml')) {
      const saved = join(folder, 'factur-x.xml');
      await poppler('pdfdetach', ['-savefile', 'factur-x.xml', '-o', saved, file]);
      xml = await readFile(saved, 'utf8');
    }
    const metadata = await poppler('pdfinfo', ['-meta', file]);
    return {
      attachments,
      xml,
      afRelationship: relationship(Buffer.from(pdf).toString('latin1'), 'factur-x.xml'),
      metadata,
      pdfa: { part: property(metadata, PDFA_ID, 'part'), conformance: property(metadata, PDFA_ID, 'conformance') },
      facturX: {
        documentType: property(metadata, FACTUR_X, 'DocumentType'),
        documentFileName: property(metadata, FACTUR_X, 'DocumentFileName'),
        version: property(metadata, FACTUR_X, 'Version'),
        conformanceLevel: property(metadata, FACTUR_X, 'ConformanceLevel'),
      },
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function poppler(tool: string, args: string[]): Promise<string> {
  try {
    return (await run(tool, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${tool} is missing: install poppler-utils (scripts/ensure-tools.sh does)`);
    throw error;
  }
}

/**
 * An XMP property of a namespace, under whatever prefix the metadata declares for it, written as an
 * element (`<fx:Version>1.0</fx:Version>`) or an attribute (`fx:Version="1.0"`).
 */
function property(xmp: string, namespace: string, name: string): string | undefined {
  const quoted = namespace.replace(/[.*+?^${}()|[\]\\/#]/g, '\\$&');
  const prefixes = [...xmp.matchAll(new RegExp(`xmlns:([\\w.-]+)\\s*=\\s*["']${quoted}["']`, 'g'))].map((match) => match[1]);
  for (const prefix of prefixes) {
    const element = new RegExp(`<${prefix}:${name}>\\s*([^<]*?)\\s*</${prefix}:${name}>`).exec(xmp);
    const attribute = new RegExp(`\\s${prefix}:${name}\\s*=\\s*["']([^"']*)["']`).exec(xmp);
    const value = element?.[1] ?? attribute?.[1];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The AFRelationship of the file specification object naming `name` (`/F (name)` or `/UF (name)`). */
function relationship(bytes: string, name: string): string | undefined {
  for (const match of bytes.matchAll(/\d+\s+\d+\s+obj\b([\s\S]*?)\bendobj\b/g)) {
    const object = match[1] ?? '';
    if (!/\/Type\s*\/Filespec\b/.test(object) || !object.includes(`(${name})`)) continue;
    return /\/AFRelationship\s*\/(\w+)/.exec(object)?.[1];
  }
  return undefined;
}
