import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { schemaPaths } from '../../../src/service/ksef/schemas.js';

const run = promisify(execFile);

/** Validates a document with the system `xmllint` against the shipped copy of an official schema. */
export async function xmllint(xml: string, schema: 'fa3' | 'upo' = 'fa3'): Promise<{ valid: boolean; errors: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ksef-xml-'));
  const file = join(dir, 'document.xml');
  await writeFile(file, xml);
  try {
    await run('xmllint', ['--noout', '--nonet', '--schema', schemaPaths[schema], file], {
      env: { ...process.env, XML_CATALOG_FILES: schemaPaths.catalog },
    });
    return { valid: true, errors: '' };
  } catch (error) {
    return { valid: false, errors: String((error as { stderr?: string }).stderr ?? error) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const reader = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => ['FaWiersz', 'ZamowienieWiersz', 'FakturaZaliczkowa', 'DodatkowyOpis'].includes(name) });

/** An FA(3) document read back into plain objects (values as text), for checks of its meaning. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readFa3(xml: string): any {
  return (reader.parse(xml) as { Faktura: unknown }).Faktura;
}
