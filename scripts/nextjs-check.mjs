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
 * A second app renders the elements on the server with Lit's own integration, `@lit-labs/nextjs`
 * (`withLitSSR` in `next.config`), in a client component page: it fails unless the server's HTML
 * already holds each element's declarative shadow root, the page hydrates with no error, and the buy
 * button still opens its dialog. `@lit-labs/nextjs` supports Next.js 13 to 15 and webpack only, so
 * that app pins `LIT_NEXTJS_VERSION` and `next@15` (whose `next build` uses webpack).
 *
 * `node scripts/nextjs-check.mjs`; `NEXTJS_VERSION` picks the Next.js release of the first app
 * (default: the newest).
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
/** `@lit-labs/nextjs` and the Next.js major it supports (its peer range is `13 || 14 || 15`). */
const LIT_NEXTJS_VERSION = '0.2.4';
const LIT_NEXTJS_NEXT = '15';
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

/**
 * The page of the app built with `withLitSSR`: a client component, because the plugin renders Lit
 * elements deeply only beyond the `'use client'` boundary (a server component's elements print shallow).
 */
const LIT_PAGE = `'use client';

import { ClientForm, InvoiceList, ProductPayButton } from '@invoicekit/elements/react';
import { bff, shop, product, listToken, formToken } from '../config.js';

export default function Page() {
  return (
    <main>
      <h1>Server rendered by Lit</h1>
      <ProductPayButton id="buy" endpoint={shop} product={product} locale="en" />
      <InvoiceList id="list" endpoint={bff} portalToken={listToken} perPage={10} locale="en" />
      <ClientForm id="form" endpoint={bff} portalToken={formToken} locale="en" />
    </main>
  );
}
`;

async function writeLayout(app) {
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
}

async function writeLitApp(app, config) {
  await mkdir(join(app, 'app/lit'), { recursive: true });
  await writeFile(join(app, 'next.config.mjs'), `import litSSR from '@lit-labs/nextjs';

export default litSSR({ addDeclarativeShadowDomPolyfill: true })({});
`);
  await writeLayout(app);
  await writeFile(join(app, 'app/config.js'), Object.entries(config).map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};\n`).join(''));
  await writeFile(join(app, 'app/lit/page.js'), LIT_PAGE);
}

async function writeApp(app, config) {
  await mkdir(join(app, 'app/server'), { recursive: true });
  await mkdir(join(app, 'app/client'), { recursive: true });
  await writeFile(join(app, 'next.config.mjs'), `export default { turbopack: { root: import.meta.dirname } };\n`);
  await writeLayout(app);
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
async function startNext(app, port, path) {
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
    const answered = await fetch(`http://127.0.0.1:${port}${path}`).then(
      () => true,
      () => false,
    );
    if (answered) return child;
    if (tries > 300) throw new Error(`next start did not answer:\n${output}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** Loads `url` in Chromium and answers what the page showed, said and asked for. */
async function visit(browser, url, { buy = false } = {}) {
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
        // Once each: markup a server printed is taken over, never left beside the element's own.
        buttons: buy?.shadowRoot?.querySelectorAll('button[part~="button"]').length,
        frames: list?.shadowRoot?.querySelectorAll('section[part~="frame"]').length,
        // The form's fields are in its light DOM; a shadow root a server printed keeps only a slot.
        formShadow: form?.shadowRoot?.innerHTML ?? null,
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
  if (buy) {
    await tab.evaluate(() => document.getElementById('buy')?.shadowRoot?.querySelector('button[part~="button"]')?.click());
    seen.dialogOpen = await tab
      .waitForFunction(() => document.getElementById('buy')?.shadowRoot?.querySelector('dialog[part~="dialog"]')?.open === true, undefined, { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
  }
  await tab.close();
  return { ...seen, errors, productRequests };
}

/** `next build` in `app`, failing with its output. */
async function nextBuild(app) {
  step(`next build in ${app.slice(app.lastIndexOf('/') + 1)}`);
  const built = await run(process.execPath, [join(app, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: app,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error) => {
    throw new Error(`next build failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  if (/warn|error/i.test(built.stderr)) console.log(built.stderr);
}

/** `next start` for `app` once it answers `path`; answers the function that stops it (also run on the way out). */
async function serve(app, port, path) {
  const server = await startNext(app, port, path);
  let stopped;
  const stop = () =>
    (stopped ??= new Promise((exited) => {
      if (server.exitCode !== null) return exited();
      server.once('exit', exited);
      server.kill('SIGTERM');
    }));
  cleanups.push(stop);
  return stop;
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
  const config = {
    bff: portalFixture.info.bff,
    shop: shopFixture.info.bff,
    product: 'logo-design',
    listToken: portalFixture.info.tokens.main,
    formToken: customer.token,
  };
  await writeApp(app, config);
  step('installing next, react, react-dom and the package');
  const next = process.env.NEXTJS_VERSION ? `next@${process.env.NEXTJS_VERSION}` : 'next';
  await run('npm', ['install', ...NPM_FLAGS, next, 'react', 'react-dom', '@lit/react', tarball], { cwd: app, timeout: 240_000 });

  await nextBuild(app);

  step('next start');
  let stopServer = await serve(app, port, '/server');

  const { launchChromium } = await tsImport('../test/helpers/chromium.ts', import.meta.url);
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const expected = (heading, formShadow = null) => ({
    heading,
    price: 'PLN 1,845.00',
    rows: 10,
    name: 'Nowak Design Sp. z o.o.',
    formError: undefined,
    buttons: 1,
    frames: 1,
    formShadow,
    errors: [],
    productRequests: ['/bff/products/logo-design'],
  });
  const report = (path, seen, want, passed) => {
    const wrong = Object.keys(want).filter((key) => JSON.stringify(seen[key]) !== JSON.stringify(want[key]));
    if (wrong.length) {
      failed = true;
      console.error(`${path}: ${wrong.map((key) => `${key} was ${JSON.stringify(seen[key])}, expected ${JSON.stringify(want[key])}`).join('; ')}`);
    } else console.log(`${path}: ${passed}; the only product request was ${seen.productRequests[0]}`);
  };
  for (const [path, heading] of [
    ['/server', 'Server component'],
    ['/client', 'Client component'],
  ]) {
    step(`loading ${path} in Chromium`);
    report(path, await visit(browser, `${origin}${path}`), expected(heading), 'built, rendered and hydrated with no error');
  }
  await stopServer();

  // Lit's own server rendering, in its own app: withLitSSR changes how every page of an app renders.
  const litApp = join(work, 'lit-app');
  await mkdir(litApp);
  await writeFile(join(litApp, 'package.json'), JSON.stringify({ name: 'try-lit-ssr', private: true }, null, 2));
  await writeLitApp(litApp, config);
  step(`installing next@${LIT_NEXTJS_NEXT} and @lit-labs/nextjs@${LIT_NEXTJS_VERSION}`);
  await run('npm', ['install', ...NPM_FLAGS, `next@${LIT_NEXTJS_NEXT}`, 'react', 'react-dom', '@lit/react', `@lit-labs/nextjs@${LIT_NEXTJS_VERSION}`, tarball], { cwd: litApp, timeout: 240_000 });
  await nextBuild(litApp);
  step('next start (withLitSSR)');
  stopServer = await serve(litApp, port, '/lit');
  const printed = await fetch(`${origin}/lit`).then((answer) => answer.text());
  const shallow = ['product-pay-button', 'invoice-list', 'client-form'].filter((tag) => !new RegExp(`<${tag}\\b[^>]*><template shadowroot(?:mode)?="open"`).test(printed));
  if (shallow.length) {
    failed = true;
    console.error(`/lit: the server printed no declarative shadow root for ${shallow.map((tag) => `<${tag}>`).join(', ')}`);
  }
  step('loading /lit in Chromium');
  report('/lit', await visit(browser, `${origin}/lit`, { buy: true }), { ...expected('Server rendered by Lit', '<slot></slot>'), dialogOpen: true }, 'printed with declarative shadow roots, hydrated with no error, and the button opened its dialog');
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(`cleanup: ${error}`));
  await rm(work, { recursive: true, force: true, maxRetries: 5 });
}
step(failed ? 'FAILED' : 'passed');
process.exit(failed ? 1 : 0);
