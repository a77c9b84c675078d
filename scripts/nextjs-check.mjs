#!/usr/bin/env node
/**
 * The React wrappers in a real Next.js App Router app, as a user gets them: the packed
 * `@invoicekit/elements` (run `npm run build` first) installed next to `next`, `react` and `react-dom`
 * from the registry in a fresh project, used in a server component page and in a client component
 * page. The script runs `next build` and `next start`, and loads both pages in Chromium against the
 * real service and BFF (the element tests' fixtures). It fails on a build error, on any console error
 * or uncaught error on a page (a hydration mismatch is React's error #418), on a request for
 * `/bff/products/` with no product, and unless every element shows what the service holds.
 *
 * `node scripts/nextjs-check.mjs`; `NEXTJS_VERSION` picks the Next.js release (default: the newest).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const started = Date.now();
const step = (text) => console.log(`[nextjs-check ${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);

if (!existsSync(join(ROOT, 'dist/packages/elements/package.json'))) {
  console.error('dist/packages/elements is missing: run npm run build first.');
  process.exit(1);
}

/** A port no one listens on now, for `next start` (the BFF must know the page's origin before it starts). */
async function freePort() {
  const server = createServer();
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address();
  await new Promise((closed) => server.close(closed));
  return port;
}

const PAGE = (kind, imports, heading) => `${kind === 'client' ? "'use client';\n\n" : ''}${imports}
import { bff, shop, product, listToken, formToken } from '../config.js';
${kind === 'client' ? "import { useState } from 'react';\n" : ''}
export default function Page() {
${kind === 'client' ? "  const [saved, setSaved] = useState('');\n" : ''}  return (
    <main>
      <h1>${heading}</h1>
      <ProductPayButton id="buy" endpoint={shop} product={product} locale="en" />
      <InvoiceList id="list" endpoint={bff} portalToken={listToken} perPage={10} locale="en" />
      <ClientForm id="form" endpoint={bff} portalToken={formToken} locale="en"${kind === 'client' ? ' onClientSaved={(event) => setSaved(event.detail.client.name)}' : ''} />
${kind === 'client' ? '      <p id="saved">{saved}</p>\n' : ''}    </main>
  );
}
`;

async function writeApp(app, config) {
  await mkdir(join(app, 'app/server'), { recursive: true });
  await mkdir(join(app, 'app/client'), { recursive: true });
  await writeFile(join(app, 'next.config.mjs'), `export default { turbopack: { root: import.meta.dirname } };\n`);
  await writeFile(
    join(app, 'app/layout.js'),
    `export const metadata = { title: 'invoicekit in Next.js', description: 'The invoicekit elements in a Next.js App Router app.' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
  );
  await writeFile(join(app, 'app/config.js'), Object.entries(config).map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};\n`).join(''));
  // The server page takes every wrapper from the module with all three, and is rendered at build time
  // (a static page: where a wrapper cannot run in a server component, `next build` fails); the client
  // page takes each from its own module.
  await writeFile(join(app, 'app/server/page.js'), PAGE('server', "import { ClientForm, InvoiceList, ProductPayButton } from '@invoicekit/elements/react';", 'Server component'));
  await writeFile(
    join(app, 'app/client/page.js'),
    PAGE(
      'client',
      [
        "import { ClientForm } from '@invoicekit/elements/react/client-form.js';",
        "import { InvoiceList } from '@invoicekit/elements/react/invoice-list.js';",
        "import { ProductPayButton } from '@invoicekit/elements/react/product-pay-button.js';",
      ].join('\n'),
      'Client component',
    ),
  );
}

/** Starts `next start` and resolves once it answers. */
async function startNext(app, port) {
  const child = spawn(process.execPath, [join(app, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(`http://127.0.0.1:${port}/server`).then(
      () => true,
      () => false,
    );
    if (answered) return child;
    if (tries > 300) throw new Error(`next start did not answer:\n${output}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** Loads `url` in Chromium and answers what the page showed, said and asked for. */
async function visit(browser, url) {
  const tab = await browser.newPage();
  const errors = [];
  const productRequests = [];
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  tab.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  tab.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.includes('/products/')) productRequests.push(pathname);
  });
  await tab.goto(url, { waitUntil: 'load' });
  const shown = () =>
    tab.evaluate(() => {
      const buy = document.getElementById('buy');
      const list = document.getElementById('list');
      const form = document.getElementById('form');
      return {
        heading: document.querySelector('h1')?.textContent,
        price: buy?.shadowRoot?.querySelector('[part~="price"]')?.textContent?.replace(/\s+/g, ' ').trim(),
        rows: list?.shadowRoot?.querySelectorAll('tr[data-row]').length ?? 0,
        name: form?.querySelector('[data-field="name"]')?.value,
        formError: form?.querySelector('[role="alert"]')?.textContent?.trim() || undefined,
      };
    });
  const deadline = Date.now() + 20_000;
  let seen = await shown();
  while (!(seen.price && seen.rows && seen.name) && Date.now() < deadline) {
    await new Promise((wait) => setTimeout(wait, 200));
    seen = await shown();
  }
  // Time for a late request or error to show.
  await new Promise((wait) => setTimeout(wait, 500));
  await tab.close();
  return { ...seen, errors, productRequests };
}

const work = await mkdtemp(join(tmpdir(), 'invoicekit-nextjs-'));
const cleanups = [];
let failed = false;
try {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  step('starting the service and BFFs');
  const { startShopFixture } = await tsImport('../test/elements/support/shop-fixture.ts', import.meta.url);
  const { startPortalFixture } = await tsImport('../test/elements/support/portal-fixture.ts', import.meta.url);
  // One after the other: the first makes the seeded data folder that the second copies.
  const shopFixture = await startShopFixture({ pageOrigins: [origin] });
  cleanups.push(() => shopFixture.stop());
  const portalFixture = await startPortalFixture({ pageOrigins: [origin] });
  cleanups.push(() => portalFixture.stop());
  const customer = await portalFixture.newCustomer();

  step('packing @invoicekit/elements');
  const { stdout: packed } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work, ...NPM_FLAGS], { cwd: join(ROOT, 'dist/packages/elements') });
  const tarball = join(work, JSON.parse(packed)[0].filename);

  const app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'try-nextjs', private: true, scripts: { build: 'next build', start: 'next start' } }, null, 2));
  await writeApp(app, {
    bff: portalFixture.info.bff,
    shop: shopFixture.info.bff,
    product: 'logo-design',
    listToken: portalFixture.info.tokens.main,
    formToken: customer.token,
  });
  step('installing next, react, react-dom and the package');
  const next = process.env.NEXTJS_VERSION ? `next@${process.env.NEXTJS_VERSION}` : 'next';
  await run('npm', ['install', ...NPM_FLAGS, next, 'react', 'react-dom', '@lit/react', tarball], { cwd: app, timeout: 240_000 });

  step('next build');
  const built = await run(process.execPath, [join(app, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: app,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error) => {
    throw new Error(`next build failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  if (/warn|error/i.test(built.stderr)) console.log(built.stderr);

  step('next start');
  const server = await startNext(app, port);
  cleanups.push(async () => {
    server.kill('SIGTERM');
    await new Promise((exited) => (server.exitCode === null ? server.once('exit', exited) : exited()));
  });

  const { launchChromium } = await tsImport('../test/helpers/chromium.ts', import.meta.url);
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const expected = (heading) => ({ heading, price: 'PLN 1,845.00', rows: 10, name: 'Nowak Design Sp. z o.o.', formError: undefined, errors: [], productRequests: ['/bff/products/logo-design'] });
  for (const [path, heading] of [
    ['/server', 'Server component'],
    ['/client', 'Client component'],
  ]) {
    step(`loading ${path} in Chromium`);
    const seen = await visit(browser, `${origin}${path}`);
    const want = expected(heading);
    const wrong = Object.keys(want).filter((key) => JSON.stringify(seen[key]) !== JSON.stringify(want[key]));
    if (wrong.length) {
      failed = true;
      console.error(`${path}: ${wrong.map((key) => `${key} was ${JSON.stringify(seen[key])}, expected ${JSON.stringify(want[key])}`).join('; ')}`);
    } else console.log(`${path}: built, rendered and hydrated with no error; the only product request was ${seen.productRequests[0]}`);
  }
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(`cleanup: ${error}`));
  await rm(work, { recursive: true, force: true, maxRetries: 5 });
}
step(failed ? 'FAILED' : 'passed');
process.exit(failed ? 1 : 0);
