import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runXmllint } from './xmllint.js';

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

/** A file of the in-memory file system `xmllint` runs on. */
interface XMLFileInfo {
  readonly fileName: string;
  readonly contents: string | Uint8Array;
}

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
  return validate({ fileName: 'invoice.xml', contents: xml }, schema, preload);
}

/** Validates a UPO document against the official UPO v4-3 schema. */
export async function validateUpo(xml: string | Uint8Array): Promise<SchemaValidation> {
  upoFile ??= readFile(schemaPaths.upo, 'utf8').then((contents) => ({ fileName: 'upo.xsd', contents }));
  return validate({ fileName: 'upo.xml', contents: xml }, await upoFile);
}

/**
 * `xmllint --schema … --noout` on the document: exit code 0 when it validates, 3 or 4 when it does
 * not (anything else is a failure of the run itself, thrown). Its standard error has one line per
 * problem, `file:line: message`, then the verdict (`… fails to validate`).
 */
async function validate(document: XMLFileInfo, schema: XMLFileInfo, preload: XMLFileInfo[] = []): Promise<SchemaValidation> {
  const { exitCode, stderr } = await runXmllint([document, schema, ...preload], ['--schema', schema.fileName, '--noout', document.fileName]);
  if (![0, 3, 4].includes(exitCode)) throw new Error(`xmllint could not validate ${document.fileName} (exit ${exitCode}): ${stderr.trim()}`);
  const errors = stderr
    .split('\n')
    .filter((line) => line.trim() && !/ (validates|fails to validate)$/.test(line))
    .map((line) => {
      const located = /^[^:]*:(\d+):(.*)$/.exec(line);
      return (located ? `line ${located[1]}: ${located[2]!.trim()}` : line).trim();
    });
  return { valid: exitCode === 0, errors };
}
