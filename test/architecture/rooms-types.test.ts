import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Each room's `tsconfig.json` compiles a probe that touches the page's globals (`document`), Node's
 * (`process`, `node:fs`) and the web platform's common ones (`fetch`, `URL`): a room sees exactly
 * the globals its code may use.
 */
const dir = mkdtempSync(join(tmpdir(), 'invoicekit-rooms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probes = {
  dom: 'export const title = document.title;\n',
  node: 'export const env = process.env;\n',
  nodeModule: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  web: "export const answer = (url: string) => fetch(new URL(url), { signal: AbortSignal.timeout(1) });\n",
} as const;

/** Which probes compile under the room's config: one program per room, its diagnostics by file. */
function compiling(room: string): Record<keyof typeof probes, boolean> {
  const parsed = ts.getParsedCommandLineOfConfigFile(join('src', room, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed || parsed.errors.length) throw new Error(`src/${room}/tsconfig.json does not parse`);
  const files = Object.fromEntries(
    Object.entries(probes).map(([probe, code]) => {
      const file = join(dir, `${room}-${probe}.ts`);
      writeFileSync(file, code);
      return [probe, file];
    }),
  );
  const program = ts.createProgram({ rootNames: Object.values(files), options: { ...parsed.options, noEmit: true } });
  const failing = new Set(ts.getPreEmitDiagnostics(program).map((diagnostic) => diagnostic.file?.fileName));
  return Object.fromEntries(Object.entries(files).map(([probe, file]) => [probe, !failing.has(file)])) as Record<keyof typeof probes, boolean>;
}

describe('room type configs', () => {
  it.each([
    ['contract', { dom: false, node: false, nodeModule: false, web: false }],
    ['kernel', { dom: false, node: false, nodeModule: false, web: true }],
    ['einvoice', { dom: false, node: false, nodeModule: false, web: true }],
    ['api', { dom: false, node: false, nodeModule: false, web: true }],
    ['bff', { dom: false, node: false, nodeModule: false, web: true }],
    ['elements', { dom: true, node: false, nodeModule: false, web: true }],
    ['service', { dom: false, node: true, nodeModule: true, web: true }],
    ['widget', { dom: true, node: false, nodeModule: false, web: true }],
    ['admin', { dom: true, node: false, nodeModule: false, web: true }],
  ] as const)('src/%s sees only its own globals', (room, expected) => {
    expect(compiling(room)).toEqual(expected);
  });
});
