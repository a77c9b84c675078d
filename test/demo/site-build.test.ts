import { mkdir, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

type DemoSiteOfSources = (options?: { versions?: string }) => Promise<string>;
const script = fileURLToPath(new URL('../../scripts/build-demo.mjs', import.meta.url));

/**
 * `invoicekit dev` from the sources (`npm start`, the demo journeys) serves the demo site built from
 * the sources as they are, once per version of them, in a folder that is never rebuilt in place:
 * demos started side by side never serve from a folder another one is emptying.
 */
describe('the demo site built from the sources', () => {
  let demoSiteOfSources: DemoSiteOfSources;
  let versions: string;

  beforeAll(async () => {
    ({ demoSiteOfSources } = (await import(pathToFileURL(script).href)) as { demoSiteOfSources: DemoSiteOfSources });
    versions = await mkdtemp(join(tmpdir(), 'invoicekit-demo-site-'));
  });
  afterAll(async () => {
    await rm(versions, { recursive: true, force: true });
  });

  it('is built once by demos starting together, whole, and left alone by the next start', async () => {
    // Even two starts in one process, in the same millisecond, build in folders of their own.
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const [first, second] = await Promise.all([demoSiteOfSources({ versions }), demoSiteOfSources({ versions })]);
    expect(second).toBe(first);
    expect((await readdir(first)).sort()).toEqual(expect.arrayContaining(['account.html', 'assets', 'index.html', 'portal.html', 'shop.html']));
    // Each build went to a folder of its own; none is left behind.
    expect(await readdir(versions)).toEqual([first.slice(versions.length + 1)]);

    const before = await stat(join(first, 'index.html'));
    expect(await demoSiteOfSources({ versions })).toBe(first);
    const after = await stat(join(first, 'index.html'));
    expect({ inode: after.ino, modified: after.mtimeMs }).toEqual({ inode: before.ino, modified: before.mtimeMs });
  }, 120_000);

  it('keeps the two latest other versions for demos still running on them, and clears builds left by a process that died', async () => {
    const current = (await demoSiteOfSources({ versions })).slice(versions.length + 1);
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const made = { old1: 1, old2: 2, old3: 3, old4: 4, '.building-died': 2, '.building-now': 0 };
    for (const [name, hours] of Object.entries(made)) {
      await mkdir(join(versions, name));
      await utimes(join(versions, name), hoursAgo(hours), hoursAgo(hours));
    }
    await demoSiteOfSources({ versions });
    expect((await readdir(versions)).sort()).toEqual([current, '.building-now', 'old1', 'old2'].sort());
  }, 120_000);
});
