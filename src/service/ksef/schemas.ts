import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';

/**
 * The Ministry's schemas shipped with the package (`schemas/SOURCE.md`): FA(3) with its base types,
 * the UPO and an XML catalog for the system `xmllint`. From the sources they sit beside this module;
 * from the built library (`dist/lib/service/ksef/`) they are read from the shipped `src/`.
 */
export const schemaDirectory = [
  fileURLToPath(new URL('./schemas/', import.meta.url)),
  fileURLToPath(new URL('../../../../src/service/ksef/schemas/', import.meta.url)),
].find((candidate) => existsSync(join(candidate, 'catalog.xml'))) ?? fileURLToPath(new URL('./schemas/', import.meta.url));

export const schemaPaths = {
  fa3: join(schemaDirectory, 'FA', 'schemat_FA(3)_v1-0E.xsd'),
  upo: join(schemaDirectory, 'UPO', 'upo-v4-3.xsd'),
  catalog: join(schemaDirectory, 'catalog.xml'),
} as const;

/** Where the FA(3) schema imports its base types from; the copies are read in their place. */
const baseTypesAddress = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/';
const baseTypes = ['StrukturyDanych_v10-0E.xsd', 'ElementarneTypyDanych_v10-0E.xsd', 'KodyKrajow_v10-0E.xsd'];

export interface SchemaValidation {
  readonly valid: boolean;
  /** libxml2's messages, each with its line: `line 12: Element '…': …`. */
  readonly errors: readonly string[];
}

let fa3Files: Promise<{ schema: XMLFileInfo; preload: XMLFileInfo[] }> | undefined;
let upoFile: Promise<XMLFileInfo> | undefined;

function loadFa3(): Promise<{ schema: XMLFileInfo; preload: XMLFileInfo[] }> {
  fa3Files ??= (async () => {
    const main = await readFile(schemaPaths.fa3, 'utf8');
    const preload = await Promise.all(
      baseTypes.map(async (fileName) => ({ fileName, contents: await readFile(join(schemaDirectory, 'FA', 'bazowe', fileName), 'utf8') })),
    );
    // The in-memory file system has no network and no catalog: point the import at the preloaded copy.
    return { schema: { fileName: 'fa3.xsd', contents: main.replaceAll(`schemaLocation="${baseTypesAddress}`, 'schemaLocation="') }, preload };
  })();
  return fa3Files;
}

/** Validates an FA(3) document against the official schema, offline, with no system package. */
export async function validateFa3(xml: string | Uint8Array): Promise<SchemaValidation> {
  const { schema, preload } = await loadFa3();
  return answer(await validateXML({ xml: { fileName: 'invoice.xml', contents: xml }, schema, preload }));
}

/** Validates a UPO document against the official UPO v4-3 schema. */
export async function validateUpo(xml: string | Uint8Array): Promise<SchemaValidation> {
  upoFile ??= readFile(schemaPaths.upo, 'utf8').then((contents) => ({ fileName: 'upo.xsd', contents }));
  return answer(await validateXML({ xml: { fileName: 'upo.xml', contents: xml }, schema: await upoFile }));
}

function answer(result: { valid: boolean; errors: ReadonlyArray<{ message: string; loc: null | { lineNumber: number } }> }): SchemaValidation {
  return {
    valid: result.valid,
    errors: result.errors.map((error) => (error.loc ? `line ${error.loc.lineNumber}: ${error.message}` : error.message).trim()),
  };
}
