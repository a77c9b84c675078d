import { build, type Metafile } from 'esbuild';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The client is built to be tree-shaken: a browser page that uses one resource carries neither the
 * others nor the XML codec (which is loaded lazily, in its own chunk, only when `format: 'xml'`).
 */

const API = resolve(import.meta.dirname, '../../src/api');

// Budget for a page that lists clients, minified and gzipped (measured 37.3 KB): zod's classic API
// is about 28 KB of it (the schemas are shared with the service and written with the classic API,
// not zod/mini; the classic API cannot drop its JSON Schema support), ky about 5 KB, and the
// transport, errors, one resource and its schema about 4 KB. 40 KB leaves room for small growth
// while still failing if a second resource, the XML codec or all of zod's locales slip in.
const ONE_RESOURCE_BUDGET = 40 * 1024;

interface Bundle {
  /** Code a page loads up front: the entry chunk and the chunks it imports statically. */
  eager: string;
  /** Code loaded only on demand (dynamic `import()`). */
  lazy: string;
  eagerInputs: string[];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'invoicekit-size-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function bundle(name: string, source: string): Promise<Bundle> {
  const entry = join(dir, `${name}.ts`);
  await writeFile(entry, source);
  const outdir = join(dir, `${name}-out`);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entryOutput = Object.keys(outputs).find((key) => outputs[key]!.entryPoint !== undefined)!;
  const eagerFiles = new Set<string>();
  const visit = (file: string) => {
    if (eagerFiles.has(file)) return;
    eagerFiles.add(file);
    for (const imported of outputs[file]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entryOutput);
  const jsFiles = Object.keys(outputs).filter((file) => file.endsWith('.js'));
  const read = async (files: string[]) => (await Promise.all(files.map((file) => readFile(resolve(file), 'utf8')))).join('\n');
  return {
    eager: await read([...eagerFiles]),
    lazy: await read(jsFiles.filter((file) => !eagerFiles.has(file))),
    eagerInputs: [...eagerFiles].flatMap((file) => Object.keys((outputs[file] as Metafile['outputs'][string]).inputs)),
  };
}

const gzipSize = (code: string) => gzipSync(code, { level: 9 }).length;

describe('bundle size', () => {
  it('a page using only clients carries no other resource and no XML codec, within budget', async () => {
    const page = await bundle(
      'clients-page',
      `import { createTransport } from '${API}/transport.ts';
       import { clientsApi } from '${API}/resources/clients.ts';
       const clients = clientsApi(createTransport({ baseUrl: location.origin, apiToken: 'public-demo' }));
       for await (const client of clients.iterate()) document.body.append(client.name);`,
    );
    const size = gzipSize(page.eager);
    expect(size).toBeLessThan(ONE_RESOURCE_BUDGET);

    const inputs = page.eagerInputs.join('\n');
    expect(inputs).toContain('src/api/resources/clients.ts');
    for (const other of ['invoices', 'products', 'payments', 'categories', 'warehouses', 'warehouse-documents', 'departments', 'integrations']) {
      expect(inputs).not.toContain(`src/api/resources/${other}.ts`);
    }
    for (const schema of ['invoice', 'product', 'payment', 'catalog', 'warehouse-document', 'account']) {
      expect(inputs).not.toContain(`src/api/schemas/${schema}.ts`);
    }
    // Strings only other resources' code would hold.
    for (const marker of ['send_by_email', 'change_status', 'warehouse_documents', 'banking', 'department[logo]', 'percent_unit_gross']) {
      expect(page.eager).not.toContain(marker);
    }
    // Nor zod's translations, which only a whole-namespace import drags in.
    expect(page.eagerInputs.join('\n')).not.toMatch(/zod\/v4\/locales\/(?!en\.js)/);
    expect(inputs).not.toContain('fast-xml-parser');
    expect(page.eager).not.toContain('XMLParser');
    // The XML codec is still reachable, as a lazy chunk.
    expect(page.lazy).toContain('nil="true"');
  });

  it('the whole client builds for the browser and is larger than one resource', async () => {
    const full = await bundle(
      'full-client',
      `import { createInvoicingClient } from '${API}/index.ts';
       const client = createInvoicingClient({ baseUrl: location.origin, apiToken: 'public-demo' });
       client.invoices.list().then((invoices) => document.body.append(String(invoices.length)));`,
    );
    const one = await bundle(
      'one-resource',
      `import { createTransport } from '${API}/transport.ts';
       import { clientsApi } from '${API}/resources/clients.ts';
       clientsApi(createTransport({ baseUrl: location.origin })).list().then(console.log);`,
    );
    expect(full.eager).toContain('send_by_email');
    expect(full.eager).toContain('warehouse_documents');
    expect(gzipSize(full.eager)).toBeGreaterThan(gzipSize(one.eager));
    expect(full.eagerInputs.join('\n')).not.toContain('fast-xml-parser');
  });
});
