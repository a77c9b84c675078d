import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateAdminBundle } from '../../src/service/admin/bundle.js';
import { adminLangOf } from '../../src/service/admin/shell.js';

/** Where the back office's script comes from: the build when it is current, else the sources bundled once. */
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'invoicekit-admin-bundle-'));
  await writeFile(join(folder, 'greeting.ts'), "export const greeting: string = 'Dzień dobry';\n");
  await writeFile(join(folder, 'main.ts'), "import { greeting } from './greeting.js';\ndocument.title = greeting;\n");
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('the back office bundle', () => {
  it('bundles the entry and what it imports, when nothing is built', async () => {
    const code = await locateAdminBundle(join(folder, 'main.ts'), join(folder, 'missing.js'));
    expect(code).toBe('var t="Dzie\\u0144 dobry";document.title=t;\n');
  });

  it('serves the build when it is newer than the sources, and bundles again when they change', async () => {
    const built = join(folder, 'built.js');
    await writeFile(built, 'document.title="built";\n');
    const past = new Date(Date.now() - 60_000);
    await utimes(join(folder, 'main.ts'), past, past);
    await utimes(join(folder, 'greeting.ts'), past, past);
    expect(await locateAdminBundle(join(folder, 'main.ts'), built)).toBe('document.title="built";\n');
    await utimes(built, new Date(past.getTime() - 60_000), new Date(past.getTime() - 60_000));
    expect(await locateAdminBundle(join(folder, 'main.ts'), built)).toBe('var t="Dzie\\u0144 dobry";document.title=t;\n');
  });

  it('says how to build it when there are neither sources nor a build', async () => {
    await expect(locateAdminBundle(join(folder, 'none.ts'), join(folder, 'none.js'))).rejects.toThrow('The back office bundle is missing: run `npm run build`.');
  });
});

describe('the page\'s language', () => {
  it('is the first of Polish and English the browser weighs highest, English otherwise', () => {
    expect(adminLangOf('pl-PL,pl;q=0.9,en-US;q=0.8')).toBe('pl');
    expect(adminLangOf('en;q=0.5,pl;q=0.6')).toBe('pl');
    expect(adminLangOf('de,en;q=0.3,pl;q=0.2')).toBe('en');
    expect(adminLangOf('pl;q=0,en;q=0.1')).toBe('en');
    expect(adminLangOf('fr')).toBe('en');
    expect(adminLangOf(undefined)).toBe('en');
  });
});
