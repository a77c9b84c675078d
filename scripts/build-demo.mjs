// Builds the demo site: into dist/demo/ when run (`npm run build`), which the published package's
// `invoicekit dev` serves without Vite; and, for `invoicekit dev` run from the sources (`npm start`,
// the tests), once per version of the sources into a folder of its own (`demoSiteOfSources`).
// Every page in demo/ is an entry, so a new page needs no change here.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../demo/', import.meta.url));
const checkout = fileURLToPath(new URL('../', import.meta.url));

/** The demo's pages in its navigation: `<body data-page="…">` names the current one. */
const PAGES = [
  { page: 'shop', href: '/shop.html', label: 'nav.shop' },
  { page: 'portal', href: '/portal.html', label: 'nav.portal' },
  { page: 'account', href: '/account.html', label: 'nav.account' },
  { page: 'wiring', href: '/how-it-works.html', label: 'nav.wiring' },
];

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Every page as the browser first paints it: the frame (skip link, header, footer) in the markup and
 * every text in English, where a script used to add them after the first paint and push the page
 * down (layout shift; docs/decisions/layout-stability.md). The script only switches the language.
 */
function prerenderPage(html, en) {
  const text = (key) => escapeHtml(en[key] ?? '');
  const current = /<body[^>]*\sdata-page="([^"]*)"/.exec(html)?.[1];
  const links = PAGES.map(
    ({ page, href, label }) => `<a href="${href}" data-i18n="${label}"${page === current ? ' aria-current="page"' : ''}>${text(label)}</a>`,
  ).join('');
  // The outbox is the service's own page: it opens beside the demo, which stays where it was.
  const outbox = `<a href="/outbox" data-service-link="outbox" data-i18n="nav.outbox" target="_blank" rel="noopener">${text('nav.outbox')}</a>`;
  const header =
    `<div class="brand-row"><a class="brand" href="/"><span class="logo" aria-hidden="true"></span>Demo Studio</a>` +
    `<span class="badge" data-i18n="nav.demo">${text('nav.demo')}</span></div>` +
    `<nav data-i18n-label="nav.label" aria-label="${text('nav.label')}">${links}${outbox}</nav>` +
    `<select id="language" data-i18n-label="nav.language" aria-label="${text('nav.language')}"><option value="en">English</option><option value="pl">Polski</option></select>`;
  return html
    .replace(/(<header\b[^>]*\bdata-demo-bar[^>]*>)(<\/header>)/, `<a class="skip-link" href="#content" data-i18n="nav.skip">${text('nav.skip')}</a>\n$1${header}$2`)
    .replace(/<main>/, '<main id="content" tabindex="-1">')
    .replace(/<\/main>/, `</main>\n<footer class="demo-footer"><p data-i18n="footer.text">${text('footer.text')}</p></footer>`)
    .replace(/<([a-z][a-z0-9]*)(\s[^>]*?\bdata-i18n="([^"]+)"[^>]*)><\/\1>/g, (tag, name, attributes, key) => `<${name}${attributes}>${text(key)}</${name}>`);
}

/** Builds the demo site into `outDir`, emptying it first. */
export async function buildDemo(outDir = join(checkout, 'dist/demo/')) {
  // Vite is loaded only to build: a start that finds its version built does without it.
  const { build } = await import('vite');
  const pages = (await readdir(root)).filter((name) => name.endsWith('.html'));
  const { catalogs } = await tsImport('../demo/src/i18n.ts', import.meta.url);
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
      { name: 'invoicekit:prerendered-frame', transformIndexHtml: (html) => prerenderPage(html, catalogs.en) },
      {
        // The site's one style sheet (about 2.5 KB compressed) goes into each page: a stylesheet link
        // would hold the first paint back by a round trip on a phone's network.
        name: 'invoicekit:inline-style-sheet',
        transformIndexHtml: {
          order: 'post',
          handler: (html, { bundle }) =>
            html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, file) => {
              const asset = bundle?.[file];
              return asset?.type === 'asset' ? `<style>${String(asset.source)}</style>` : link;
            }),
        },
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
