import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * The example of the README's "Typed client" section, run exactly as written against the real
 * service; docs/typed-client.md opens with the same example. The package name resolves through a
 * throwaway node_modules entry that points at this checkout.
 */
export function defineDocsExample(running: () => TestService): void {
describe('the typed client example of the README', () => {
  let service: TestService;
  let dir: string;
  beforeAll(async () => {
    service = running();
    dir = await mkdtemp(join(tmpdir(), 'invoicekit-docs-'));
    const pkg = join(dir, 'node_modules', 'invoicekit');
    await mkdir(pkg, { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'invoicekit', type: 'module', exports: { './api': './api.ts' } }));
    await writeFile(join(pkg, 'api.ts'), `export * from ${JSON.stringify(join(ROOT, 'src/api/index.ts'))};\n`);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs the example as written', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Typed client'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const docs = await readFile(join(ROOT, 'docs/typed-client.md'), 'utf8');
    expect(/```ts\n([\s\S]*?)```/.exec(docs)![1]).toBe(example);
    expect(example).toContain("from 'invoicekit/api'");
    await writeFile(join(dir, 'example.ts'), example);
    const { stdout } = await run(join(ROOT, 'node_modules/.bin/tsx'), ['example.ts'], {
      cwd: dir,
      env: { ...process.env, INVOICING_URL: service.url, INVOICING_API_TOKEN: service.apiToken },
      timeout: 30_000,
    });
    const lines = stdout.trim().split('\n');
    const [number, net, gross] = lines[0]!.split(' ');
    expect(number).toMatch(/^\d+\/\d{2}\/\d{4}$/);
    expect([net, gross]).toEqual(['58.32', '60.23']);
    expect(lines[1]).toBe('tax 1.91');
    // The iteration prints every invoice of the account, the new one among them.
    expect(lines.slice(2, -1)).toContain(`${number} Client1 SA 60.23`);
    expect(lines.at(-1)).toBe("{ issue_date: [ 'is not a valid date' ] }");
  });
});
}
