// Builds the demo site: into dist/demo/ when run (`npm run build`), which the published package's
// `invoicekit dev` serves without Vite; and, for `invoicekit dev` run from the sources (`npm start`,
// the tests), once per version of the sources into a folder of its own (`demoSiteOfSources`).
// Every page in demo/ is an entry, so a new page needs no change here.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../demo/', import.meta.url));
const checkout = fileURLToPath(new URL('../', import.meta.url));

/** Builds the demo site into `outDir`, emptying it first. */
export async function buildDemo(outDir = join(checkout, 'dist/demo/')) {
  // Vite is loaded only to build: a start that finds its version built does without it.
  const { build } = await import('vite');
  const pages = (await readdir(root)).filter((name) => name.endsWith('.html'));
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    // The elements' production modules: without the development warnings, as the package ships them.
    plugins: [
      {
        name: 'invoicekit:production-elements',
        load: (id) => (/\/src\/elements\/shared\/dev-mode\.ts$/.test(id) ? 'export const DEV = false;' : null),
      },
    ],
    build: {
      outDir,
      emptyOutDir: true,
      reportCompressedSize: false,
      target: 'es2022',
      rolldownOptions: {
        input: Object.fromEntries(pages.map((name) => [name.replace(/\.html$/, ''), `${root}${name}`])),
        // `npm start` builds the site before serving it: a note on how long our own plugins took is
        // for whoever works on the build, not for someone starting the demo on a busy machine.
        checks: { bundlerTimings: false },
      },
    },
  });
}

/** What the demo site is built from: its pages, the sources they import, this script and the locked dependencies. */
async function sourcesHash() {
  const hash = createHash('sha256');
  for (const dir of ['demo', 'src']) {
    const files = (await readdir(join(checkout, dir), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    for (const path of files.map((entry) => join(entry.parentPath ?? entry.path, entry.name)).sort()) {
      hash.update(path.slice(checkout.length)).update('\0').update(await readFile(path)).update('\0');
    }
  }
  for (const file of ['scripts/build-demo.mjs', 'package-lock.json']) hash.update(file).update('\0').update(await readFile(join(checkout, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The demo site built from the sources as they are now, in `dist/demo-dev/<hash of the sources>/`:
 * built the first time, then reused by every later start until a source changes. A folder is never
 * emptied or rewritten once in place, so demos started side by side (the tests, two terminals) never
 * serve from a folder another one is rebuilding: each build goes to a folder of its own and is
 * renamed into place whole, and the first one there wins. The two latest other versions are kept
 * for demos still running on them; older ones are removed.
 */
export async function demoSiteOfSources({ versions = join(checkout, 'dist/demo-dev') } = {}) {
  const version = await sourcesHash();
  const site = join(versions, version);
  if (!(await stat(join(site, 'index.html')).then(() => true, () => false))) {
    // A folder of its own for each build, even for two builds of one process that start in the same millisecond.
    await mkdir(versions, { recursive: true });
    const building = await mkdtemp(join(versions, `.building-${version}-`));
    try {
      await buildDemo(building);
      await rename(building, site).catch((error) => {
        // Another demo put the same version in place first.
        if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
      });
    } finally {
      await rm(building, { recursive: true, force: true });
    }
  }
  await pruneVersions(versions, version);
  return site;
}

async function pruneVersions(versions, current) {
  const hour = 60 * 60 * 1000;
  const others = [];
  for (const name of await readdir(versions)) {
    if (name === current) continue;
    const { mtimeMs } = await stat(join(versions, name)).catch(() => ({ mtimeMs: Date.now() }));
    // A build under way in another process has its own folder; one left by a process that died is old.
    if (name.startsWith('.building-')) {
      if (Date.now() - mtimeMs > hour) await rm(join(versions, name), { recursive: true, force: true });
    } else others.push({ name, mtimeMs });
  }
  for (const { name } of others.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(2)) await rm(join(versions, name), { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildDemo();
