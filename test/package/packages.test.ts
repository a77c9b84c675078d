import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { build } from 'vite';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/**
 * The packages as users get them: `npm pack` of the built packages (run `npm run build` first, as
 * `npm test` does), installed from the tarballs into fresh projects with no dev dependencies, one
 * project per audience, their dependencies from the registry. Nothing here reaches into the checkout
 * but the tools a user's project would have of its own (TypeScript, Vite, Express).
 */
describe('the published packages, installed from their tarballs', () => {
  let work: string;
  const projects = { lit: '', elements: '', bff: '', service: '' };
  const sizes: Record<string, number> = {};
  let service: { url: string; apiToken: string };

  beforeAll(async () => {
    for (const path of ['dist/lib/cli.js', 'dist/packages/elements/package.json', 'dist/packages/bff/package.json']) {
      if (!existsSync(join(ROOT, path))) throw new Error(`${path} is missing: run npm run build first`);
    }
    work = await mkdtemp(join(tmpdir(), 'invoicekit-packages-'));
    const tarballs = join(work, 'tarballs');
    await mkdir(tarballs);
    const pack = async (dir: string) => {
      const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tarballs, ...NPM_FLAGS], { cwd: dir });
      return join(tarballs, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    };
    const [full, elements, bff] = await Promise.all([pack(ROOT), pack(join(ROOT, 'dist/packages/elements')), pack(join(ROOT, 'dist/packages/bff'))]);

    // One install per audience, all at once; `lit` alone is the yardstick for the elements.
    const install = async (name: keyof typeof projects, specs: string[]) => {
      const dir = join(work, name);
      await mkdir(dir);
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `try-${name}`, private: true, type: 'module' }));
      const { stderr } = await run('npm', ['install', ...NPM_FLAGS, '--loglevel=warn', ...specs], { cwd: dir, timeout: 240_000 });
      // A user's install of our packages warns of no unsupported engine either.
      if (stderr.includes('EBADENGINE')) throw new Error(`npm install ${name} warned:\n${stderr}`);
      projects[name] = dir;
      sizes[name] = await apparentSize(join(dir, 'node_modules'));
    };
    await Promise.all([install('lit', ['lit']), install('elements', [elements]), install('bff', [bff]), install('service', [full])]);
    console.log(
      `installed size (apparent, node_modules): ${Object.entries(sizes)
        .map(([name, bytes]) => `${name} ${(bytes / 1024 / 1024).toFixed(2)} MiB`)
        .join(', ')}`,
    );

    const apiToken = 'packaged-service-token-0123456789';
    const started = await startCommand(projects.service, ['invoicekit', 'service', '--port', '0', '--data-dir', join(work, 'data')], {
      INVOICEKIT_API_TOKEN: apiToken,
    });
    service = { url: started.url, apiToken };
  }, 600_000);

  afterAll(async () => {
    const running = commands.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = running.map((child) => new Promise((done) => child.once('exit', done)));
    // Each command runs in its own process group: npx and the command it starts go together.
    for (const child of running) process.kill(-child.pid!, 'SIGKILL');
    await Promise.all(exited);
    if (work) await rm(work, { recursive: true, force: true, maxRetries: 5 });
  });

  // React, react-dom and @lit/react are the React user's own dependencies (optional peers of the
  // elements): linked in once, as that user's project would have them.
  let reactLinked: Promise<void> | undefined;
  const linkReact = () =>
    (reactLinked ??= (async () => {
      for (const name of ['react', 'react-dom', '@lit/react', '@types/react']) {
        await mkdir(join(projects.elements, 'node_modules', name, '..'), { recursive: true });
        await symlink(join(ROOT, 'node_modules', name), join(projects.elements, 'node_modules', name), 'dir');
      }
    })());

  /**
   * A React page using every wrapper, as the elements package's users write it: typed props and event
   * props, and one listener for every event the installed `custom-elements.json` says each element
   * fires, which must receive that event's own class, from both the all-in-one and the per-element module.
   */
  async function reactCheck(): Promise<string> {
    const manifest = JSON.parse(await readFile(join(projects.elements, 'node_modules/@invoicekit/elements/custom-elements.json'), 'utf8')) as {
      modules: { declarations?: { tagName?: string; events?: { name: string; type?: { text: string } }[] }[] }[];
    };
    const elements = manifest.modules.flatMap((module) => module.declarations ?? []).filter((declaration) => declaration.tagName);
    const tags = elements.map((element) => element.tagName).sort().join(' ');
    if (tags !== 'client-form invoice-list product-pay-button') throw new Error(`custom-elements.json names ${tags}`);
    const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase());
    const every = elements.flatMap(({ tagName, events = [] }) => {
      const component = pascal(tagName!);
      if (!events.length) throw new Error(`custom-elements.json names no event of <${tagName}>`);
      const listeners = events.map(({ name, type }) => `on${pascal(name)}={(event) => { const typed: ${type!.text} = event; log(typed.detail); }}`).join(' ');
      return [
        `import type { ${events.map(({ type }) => type!.text).join(', ')} } from '@invoicekit/elements/${tagName}.js';`,
        `import { ${component} as ${component}Alone } from '@invoicekit/elements/react/${tagName}.js';`,
        `export const every${component} = [<${component} ${listeners} />, <${component}Alone ${listeners} />];`,
      ];
    });
    return `import { useState, type ReactElement } from 'react';
import { ClientForm, InvoiceList, ProductPayButton } from '@invoicekit/elements/react';
const log = (value: unknown): void => console.log(value);
${every.filter((line) => line.startsWith('import')).join('\n')}

export function Account({ portalToken, openCheckout }: { portalToken: string; openCheckout: (url: string) => void }): ReactElement {
  const [name, setName] = useState<string | null>(null);
  return (
    <>
      <InvoiceList
        endpoint="/bff"
        portalToken={portalToken}
        onInvoicePay={(event) => {
          event.preventDefault();
          openCheckout(event.detail.paymentUrl);
        }}
        onInvoiceSelect={(event) => log(event.detail.invoice.number)}
      />
      <ClientForm
        endpoint="/bff"
        portalToken={portalToken}
        mode="edit"
        onClientSaved={(event) => setName(event.detail.client.name)}
        onClientError={(event) => log([event.detail.action, event.detail.status, event.detail.fields])}
      />
      <ProductPayButton
        endpoint="/bff"
        product="prod_7Hx2"
        quantity={2}
        showQuantity
        className="buy"
        onPayBefore={(event) => name === null && event.preventDefault()}
        onPaySuccess={(event) => log([event.detail.invoice?.number, event.detail.amount, event.detail.currency])}
        onPayCancel={(event) => log(event.detail.reason === 'declined')}
        onPayError={(event) => log([event.detail.status, event.detail.code, event.detail.message])}
      />
    </>
  );
}

${every.filter((line) => !line.startsWith('import')).join('\n')}

export const wrong = [
  // @ts-expect-error quantity is a number
  <ProductPayButton product="prod_7Hx2" quantity="2" />,
  // @ts-expect-error mode is edit or create
  <ClientForm mode="update" />,
  // @ts-expect-error endpoint is text
  <InvoiceList endpoint={5} />,
  // @ts-expect-error a pay-success event has no reason
  <ProductPayButton onPaySuccess={(event) => log(event.detail.reason)} />,
  // @ts-expect-error a client-saved event carries the client, not an invoice
  <ClientForm onClientSaved={(event) => log(event.detail.invoice)} />,
  // @ts-expect-error the form fires no such event
  <ClientForm onClientSubmit={() => undefined} />,
];
`;
  }

  it.concurrent('installs what the README says each package weighs, within a tenth', async ({ expect }) => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const stated = (install: string) => {
      const row = readme.split('\n').find((line) => line.includes(`\`npm install ${install}\``));
      return Number(/about (\d+(?:\.\d+)?) MiB/.exec(row ?? '')?.[1]);
    };
    const measured = { '@invoicekit/elements': sizes.elements!, '@invoicekit/bff': sizes.bff!, invoicekit: sizes.service! };
    for (const [install, bytes] of Object.entries(measured)) {
      const mib = bytes / 1024 / 1024;
      expect.soft(Math.abs(stated(install) - mib) / mib, `README says about ${stated(install)} MiB for ${install}; it is ${mib.toFixed(2)} MiB`).toBeLessThanOrEqual(0.1);
    }
  });

  // 1.59× before the elements shared their loading, scrolling and form controllers (each in its
  // bundle, its development build, its sources and its declarations): 1.66× since.
  it.concurrent('installs the elements for at most 1.80 times what lit alone installs', async ({ expect }) => {
    expect(sizes.elements).toBeGreaterThan(sizes.lit!);
    expect(sizes.elements! / sizes.lit!, `the elements install ${(sizes.elements! / sizes.lit!).toFixed(2)}× what lit alone does`).toBeLessThanOrEqual(1.8);
    // A page never pays for the service's database or PDF engine, nor a backend for the elements.
    expect(existsSync(join(projects.elements, 'node_modules/@electric-sql'))).toBe(false);
    expect(existsSync(join(projects.elements, 'node_modules/zod'))).toBe(false);
    expect(existsSync(join(projects.bff, 'node_modules/@electric-sql'))).toBe(false);
    expect(existsSync(join(projects.bff, 'node_modules/pdfkit'))).toBe(false);
    // The BFF renders `<invoice-list>` on the server with Lit's renderer, the one place it needs Lit.
    expect(existsSync(join(projects.bff, 'node_modules/@lit-labs/ssr'))).toBe(true);
  });

  it.concurrent('runs the README typed client example with plain node against `npx invoicekit service`', async ({ expect }) => {
    const example = await readmeExample('## Typed client');
    expect(example).toContain("from 'invoicekit/api'");
    await writeFile(join(projects.service, 'example.mjs'), toJavaScript(example));
    const { stdout } = await run(process.execPath, ['example.mjs'], {
      cwd: projects.service,
      env: { ...process.env, INVOICING_URL: service.url, INVOICING_API_TOKEN: service.apiToken },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    const [number, net, gross] = lines[0]!.split(' ');
    expect(number).toMatch(/^\d+\/\d{2}\/\d{4}$/);
    expect([net, gross]).toEqual(['58.32', '60.23']);
    expect(lines[1]).toBe('tax 1.91');
    expect(lines.at(-1)).toBe("{ issue_date: [ 'is not a valid date' ] }");

    // The invoice it made is there to read, over plain HTTP too.
    const list = (await (await fetch(`${service.url}/invoices.json?period=all&api_token=${service.apiToken}`)).json()) as { id: number; number: string }[];
    const made = list.find((invoice) => invoice.number === number)!;
    const read = await fetch(`${service.url}/invoices/${made.id}.json?api_token=${service.apiToken}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: made.id, number, price_gross: '60.23', buyer_name: 'Client1 SA' });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  }, 120_000);

  it.concurrent('mounts the BFF in Express as the README shows, and answers a portal request', async ({ expect }) => {
    const { createInvoicingClient } = (await import(join(projects.service, 'node_modules/invoicekit/dist/lib/api/index.js'))) as typeof import('../../src/api/index.js');
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    const buyer = await client.clients.create({ name: 'Portal Buyer Sp. z o.o.', email: 'buyer@example.com', tax_no: '5261040828' });
    const invoice = await client.invoices.create({
      kind: 'vat',
      client_id: buyer.id,
      buyer_name: buyer.name,
      positions: [{ name: 'Hosting', tax: 23, total_price_gross: '123.45', quantity: 1 }],
    });

    // Express is the host's own dependency: linked in, as the host's project would have it.
    await symlink(join(ROOT, 'node_modules/express'), join(projects.bff, 'node_modules/express'), 'dir');
    const example = await readmeExample('## Running the BFF');
    expect(example).toContain("from '@invoicekit/bff'");
    const host = [
      // What the README leaves to the host: who is signed in.
      `const requireLogin = (req, _res, next) => { req.user = { invoicingClientId: ${buyer.id} }; next(); };`,
      // The README says the same lines are JavaScript: they run as written, not transpiled.
      example,
      `const server = app.listen(0, '127.0.0.1', () => console.log('host listening on http://127.0.0.1:' + server.address().port));`,
    ].join('\n');
    // Imports first: the stand-in for the login goes after them.
    const imports = host.split('\n').filter((line) => line.startsWith('import '));
    await writeFile(join(projects.bff, 'host.mjs'), [...imports, ...host.split('\n').filter((line) => !line.startsWith('import '))].join('\n'));
    const started = await startCommand(projects.bff, [process.execPath, 'host.mjs'], {
      INVOICING_URL: service.url,
      INVOICEKIT_API_TOKEN: service.apiToken,
      INVOICEKIT_PORTAL_SECRET: 'a-portal-secret-of-at-least-32-characters',
    }, /host listening on (\S+)/);

    const { token } = (await (await fetch(`${started.url}/account/portal-token`)).json()) as { token: string };
    const answer = await fetch(`${started.url}/bff/invoices`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: { id: number; number: string; price_gross: string }[]; total: number };
    expect(body.total).toBe(1);
    expect(body.data[0]).toMatchObject({ id: invoice.id, number: invoice.number, price_gross: '123.45' });
    // The installed package renders the list on the server, with the element's own modules.
    const rendered = await fetch(`${started.url}/bff/render/invoice-list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locale: 'pl' }),
    });
    expect(rendered.status).toBe(200);
    const fragment = await rendered.text();
    expect(fragment).toMatch(/^<invoice-list [^>]*locale="pl"[^>]*><template shadowroot="open" shadowrootmode="open">/);
    expect(fragment).toContain(`>${invoice.number}</th>`);
    expect((await fetch(`${started.url}/bff/readyz`)).status).toBe(200);
  }, 120_000);

  it.concurrent('builds a Vite page that imports one element', async ({ expect }) => {
    const page = join(projects.elements, 'page');
    await mkdir(page);
    await writeFile(join(page, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script><invoice-list endpoint="/bff"></invoice-list>');
    await writeFile(
      join(page, 'main.js'),
      "import '@invoicekit/elements/invoice-list.js';\ndocument.addEventListener('invoice-pay', (event) => console.log(event.detail.paymentUrl));\n",
    );
    await build({ root: page, configFile: false, logLevel: 'silent', build: { outDir: join(page, 'out') } });
    const assets = await readdir(join(page, 'out/assets'));
    const code = (await Promise.all(assets.filter((name) => name.endsWith('.js')).map((name) => readFile(join(page, 'out/assets', name), 'utf8')))).join('\n');
    expect(code).toContain('invoice-list');
    expect(code).toContain('invoice-pay');
    // Lit came from the page's own node_modules, once.
    expect(code.match(/lit-html/g)?.length ?? 0).toBeLessThanOrEqual(2);
  }, 120_000);

  it.concurrent('type-checks a TypeScript file that uses the client, the BFF and an element’s events, and a React page using every wrapper', async ({ expect }) => {
    await symlink(join(projects.bff, 'node_modules/@invoicekit/bff'), join(projects.elements, 'node_modules/@invoicekit/bff'), 'dir');
    await linkReact();
    const dir = projects.elements;
    await writeFile(join(dir, 'react-check.tsx'), await reactCheck());
    await writeFile(
      join(dir, 'check.ts'),
      `import { createInvoicingClient, money, ValidationError } from '@invoicekit/bff/api';
import { createBff, issuePortalToken, redisStores, type BffOptions } from '@invoicekit/bff';
import { InvoicePayEvent, type InvoiceList } from '@invoicekit/elements/invoice-list.js';

const client = createInvoicingClient({ baseUrl: 'https://acme.example.com', apiToken: 'secret' });
export async function totals(): Promise<string> {
  const invoice = await client.invoices.get(1);
  const gross: string = invoice.price_gross;
  return money.toFixed(money.decimal(gross), 2);
}
export const isValidation = (error: unknown): boolean => error instanceof ValidationError && typeof error.fields === 'object';

const options: BffOptions = { serviceUrl: 'https://acme.example.com', apiToken: 'secret', portalSecret: 'x'.repeat(32) };
export const bff = createBff(options);
export const handle: (request: Request) => Response | Promise<Response> = (request) => bff.fetch(request);
export const token: Promise<string> = issuePortalToken({ clientId: 7, ttlSeconds: 900 }, options.portalSecret);
export const shared = () => redisStores({ url: 'redis://127.0.0.1:6379' });

const list: InvoiceList = document.createElement('invoice-list');
list.addEventListener('invoice-pay', (event) => {
  const pay: InvoicePayEvent = event;
  const url: string = pay.detail.paymentUrl;
  const number: string = event.detail.invoice.number;
  console.log(url, number);
});
// @ts-expect-error the event carries no such field
list.addEventListener('invoice-select', (event) => event.detail.paymentUrl);
`,
    );
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['check.ts', 'react-check.tsx'],
      }),
    );
    const result = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(result.stdout).toBe('');
  }, 120_000);

  it.concurrent('renders every React wrapper with react-dom/server in plain node, and bundles one wrapper without the other elements', async ({ expect }) => {
    await linkReact();
    const dir = projects.elements;
    await writeFile(
      join(dir, 'render.mjs'),
      `import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import * as wrappers from '@invoicekit/elements/react';
const own = {
  'invoice-list': { portalToken: 'token', perPage: 10, onInvoicePay: () => undefined },
  'client-form': { portalToken: 'token', mode: 'create', onClientSaved: () => undefined },
  'product-pay-button': { product: 'prod_7Hx2', quantity: 2, onPaySuccess: () => undefined },
};
const rendered = {};
for (const [tag, ownProps] of Object.entries(own)) {
  const name = tag.replace(/(?:^|-)(\\w)/g, (_, letter) => letter.toUpperCase());
  const alone = (await import('@invoicekit/elements/react/' + tag + '.js'))[name];
  const element = (await import('@invoicekit/elements/' + tag + '.js'))[name];
  const props = { id: 'the-' + tag, className: 'embedded', endpoint: '/bff', ...ownProps };
  rendered[tag] = { html: renderToString(createElement(wrappers[name], props)), alone: alone === wrappers[name], registered: customElements.get(tag) === element };
}
console.log(JSON.stringify(rendered));
`,
    );
    // The production modules, and the development ones a bundler picks with the `development` condition.
    for (const conditions of [[], ['--conditions=development']]) {
      const { stdout } = await run(process.execPath, [...conditions, 'render.mjs'], { cwd: dir, timeout: 60_000 });
      expect(JSON.parse(stdout)).toEqual(
        Object.fromEntries(
          ['invoice-list', 'client-form', 'product-pay-button'].map((tag) => [
            tag,
            // The element's properties and listeners are set when React runs in the browser; on the server it is the bare tag.
            { html: `<${tag} id="the-${tag}" class="embedded"></${tag}>`, alone: true, registered: true },
          ]),
        ),
      );
    }

    // A shop's buy button brings neither the customer portal's list nor the form: imported alone, or
    // from the module with all three, whose unused wrappers the bundler drops (they have no side effects).
    for (const from of ['@invoicekit/elements/react/product-pay-button.js', '@invoicekit/elements/react']) {
      const page = join(dir, `react-page-${from.length}`);
      await mkdir(page);
      await writeFile(join(page, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
      await writeFile(
        join(page, 'main.js'),
        `import { createElement } from 'react';\nimport { ProductPayButton } from '${from}';\nconsole.log(createElement(ProductPayButton, { product: 'prod_7Hx2', onPaySuccess: (event) => console.log(event.detail.invoice) }));\n`,
      );
      await build({ root: page, configFile: false, logLevel: 'silent', build: { outDir: join(page, 'out') } });
      const assets = await readdir(join(page, 'out/assets'));
      const code = (await Promise.all(assets.filter((name) => name.endsWith('.js')).map((name) => readFile(join(page, 'out/assets', name), 'utf8')))).join('\n');
      // The wrapper, with its event props, and the element it registers.
      expect(code).toContain('onPaySuccess');
      // Registered through the elements' one versioned `define(tag, class)`, which calls customElements.define.
      expect(code).toContain('customElements');
      expect(code).toMatch(/[\w$]+\(["'`]product-pay-button["'`],\s*[\w$]+\)/);
      expect(code).not.toContain('invoice-list');
      expect(code).not.toContain('client-form');
    }
  }, 120_000);

  it.concurrent('sets every React wrapper’s props on its element and calls its event props, in Chromium', async ({ expect }) => {
    await linkReact();
    const page = join(projects.elements, 'react-app');
    await mkdir(page);
    await writeFile(join(page, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="./main.js"></script>');
    // A React app as its author would build it with Vite. No BFF answers at /no-bff: the form's load fails for real.
    await writeFile(
      join(page, 'main.js'),
      `import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { ClientForm, InvoiceList, ProductPayButton } from '@invoicekit/elements/react';
import { ClientErrorEvent, ClientSavedEvent } from '@invoicekit/elements/client-form.js';
import { InvoicePayEvent } from '@invoicekit/elements/invoice-list.js';
import { PaySuccessEvent } from '@invoicekit/elements/product-pay-button.js';
const heard = (window.heard = []);
window.events = { ClientSavedEvent, InvoicePayEvent, PaySuccessEvent };
createRoot(document.getElementById('root')).render(
  h('main', null,
    h(InvoiceList, { id: 'list', endpoint: '/no-bff', portalToken: 'list-token', perPage: 10,
      onInvoicePay: (event) => heard.push(['invoice-pay', event instanceof InvoicePayEvent, event.detail.paymentUrl]) }),
    h(ClientForm, { id: 'form', endpoint: '/no-bff', portalToken: 'form-token', name: 'buyer',
      onClientError: (event) => heard.push(['client-error', event instanceof ClientErrorEvent, event.detail.action]),
      onClientSaved: (event) => heard.push(['client-saved', event instanceof ClientSavedEvent, event.detail.client.name]) }),
    h(ProductPayButton, { id: 'buy', className: 'cta', endpoint: '/no-bff', product: 'prod_7Hx2', quantity: 2, showQuantity: true,
      onPaySuccess: (event) => heard.push(['pay-success', event instanceof PaySuccessEvent, event.detail.invoice.number]) })));
`,
    );
    await build({ root: page, configFile: false, logLevel: 'silent', build: { outDir: join(page, 'out') } });
    const server = createServer(async (request, response) => {
      const path = new URL(request.url!, 'http://localhost').pathname;
      const file = join(page, 'out', path === '/' ? 'index.html' : path);
      if (!file.startsWith(join(page, 'out')) || !existsSync(file) || path.startsWith('/no-bff')) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(await readFile(file));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      // The form fired client-error itself when its load failed; the others are dispatched as the elements do.
      await tab.waitForFunction(() => (window as unknown as { heard: unknown[] }).heard.length > 0);
      const seen = await tab.evaluate(() => {
        type Fired = { detail: Record<string, unknown> } & Event;
        const { events } = window as unknown as { events: Record<string, new (...args: unknown[]) => Fired> };
        const [list, form, buy] = ['list', 'form', 'buy'].map((id) => document.getElementById(id) as HTMLElement & Record<string, unknown>);
        const invoice = { id: 1, number: 'FV/1/2026', payment_url: 'https://pay.example/1' };
        list!.dispatchEvent(new events.InvoicePayEvent!(invoice));
        form!.dispatchEvent(new events.ClientSavedEvent!({ client: { id: 7, name: 'Acme Sp. z o.o.' } }));
        buy!.dispatchEvent(new events.PaySuccessEvent!({ product: 'prod_7Hx2', quantity: 2, amount: '246.00', currency: 'PLN', attempt: 'a1', invoice: { number: 'FV/2/2026', view_url: null } }));
        return {
          heard: (window as unknown as { heard: unknown[] }).heard,
          list: [list!.localName, list!.endpoint, list!.portalToken, list!.perPage],
          form: [form!.localName, form!.portalToken, form!.name],
          buy: [buy!.localName, buy!.className, buy!.product, buy!.quantity, buy!.showQuantity, buy!.getAttribute('show-quantity')],
          // The form renders into the light DOM, for the browser's autofill; the others into their shadow roots.
          rendered: [list, form, buy].map((element) => (element!.shadowRoot ?? element!).childElementCount > 0),
        };
      });
      expect(seen).toEqual({
        heard: [
          ['client-error', true, 'load'],
          ['invoice-pay', true, 'https://pay.example/1'],
          ['client-saved', true, 'Acme Sp. z o.o.'],
          ['pay-success', true, 'FV/2/2026'],
        ],
        list: ['invoice-list', '/no-bff', 'list-token', 10],
        form: ['client-form', 'form-token', 'buyer'],
        buy: ['product-pay-button', 'cta', 'prod_7Hx2', 2, true, null],
        rendered: [true, true, true],
      });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      server.close();
    }
  }, 120_000);

  it.concurrent('type-checks every package in a fresh strict project without skipLibCheck, with TypeScript 5.9 and the newest major', async ({ expect }) => {
    // Each package alone, as its own users' projects hold it: no @types/node, no `types`, declarations checked.
    const checks: Record<'elements' | 'bff' | 'service', string> = {
      elements: `import '@invoicekit/elements';
import { InvoiceList } from '@invoicekit/elements';
import { ClientChangeEvent, type ClientChangeEventDetail, type ClientForm } from '@invoicekit/elements/client-form.js';
import type { ProductPayButton } from '@invoicekit/elements/product-pay-button.js';
export const list: typeof InvoiceList = InvoiceList;
export const form: ClientForm | ProductPayButton | null = null;
export const field: ClientChangeEventDetail['field'] = 'email';
// @ts-expect-error a form field is one of the client's fields, not any text
export const wrong: ClientChangeEventDetail['field'] = 'not-a-field';
export const change = ClientChangeEvent;
`,
      bff: `import { createBff, issuePortalToken } from '@invoicekit/bff';
import { createInvoicingClient, money } from '@invoicekit/bff/api';
import { createTransport } from '@invoicekit/bff/api/transport.js';
export const made = [createBff, issuePortalToken, createInvoicingClient, money, createTransport];
`,
      service: `import { startService, createServiceApp, openDatabase, migrate } from 'invoicekit/service';
import { createBff } from 'invoicekit/bff';
import { createInvoicingClient } from 'invoicekit/api';
import { createTransport } from 'invoicekit/api/transport.js';
import type { InvoiceList } from 'invoicekit/elements/invoice-list.js';
export const made = [startService, createServiceApp, openDatabase, migrate, createBff, createInvoicingClient, createTransport];
export const list: InvoiceList | null = null;
`,
    };
    const compilers = { 'TypeScript 5.9': join(ROOT, 'node_modules/typescript/bin/tsc'), 'TypeScript 7': join(ROOT, 'node_modules/typescript7/bin/tsc') };
    const outputs: Record<string, string> = {};
    await Promise.all(
      Object.entries(checks).map(async ([name, source]) => {
        const dir = join(projects[name as keyof typeof checks], 'strict');
        await mkdir(dir);
        await writeFile(join(dir, 'check.ts'), source);
        await writeFile(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'], strict: true, noEmit: true, types: [] },
            files: ['check.ts'],
          }),
        );
        for (const [compiler, tsc] of Object.entries(compilers)) {
          const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
          outputs[`${name} with ${compiler}`] = result.stdout;
        }
      }),
    );
    expect(outputs).toEqual(Object.fromEntries(Object.keys(outputs).map((key) => [key, ''])));
    expect((await run(process.execPath, [compilers['TypeScript 7'], '--version'])).stdout).toMatch(/^Version 7\./);
  }, 400_000);

  it.concurrent('imports every entry of every package in plain Node without throwing, and resolves every path the docs name', async ({ expect }) => {
    const entries: Record<'elements' | 'bff' | 'service', string[]> = { elements: [], bff: [], service: [] };
    const packageOf = { '@invoicekit/elements': 'elements', '@invoicekit/bff': 'bff', invoicekit: 'service' } as const;
    for (const [name, project] of Object.entries(packageOf)) {
      const manifest = JSON.parse(await readFile(join(projects[project], 'node_modules', name, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      for (const key of Object.keys(manifest.exports)) {
        if (key.includes('*') || key.endsWith('.json')) continue;
        // The React wrappers need React, an optional peer the user brings; they are imported in their own test.
        if (key.startsWith('./react')) continue;
        entries[project].push(key === '.' ? name : `${name}/${key.slice(2)}`);
      }
    }
    entries.elements.push('@invoicekit/elements/invoice-list.js', '@invoicekit/elements/client-form.js', '@invoicekit/elements/product-pay-button.js');
    entries.bff.push('@invoicekit/bff/api/transport.js', '@invoicekit/bff/api/transport', '@invoicekit/bff/api/money.js');
    entries.service.push('invoicekit/api/transport.js', 'invoicekit/api/transport', 'invoicekit/elements/invoice-list.js');

    // Every package specifier and installed file the README and docs/ name, in the project that installs its package.
    const docs = [join(ROOT, 'README.md'), ...(await readdir(join(ROOT, 'docs'))).filter((file) => file.endsWith('.md')).map((file) => join(ROOT, 'docs', file))];
    const named = new Set<string>();
    for (const file of [...docs, join(ROOT, 'packages/elements/README.md'), join(ROOT, 'packages/bff/README.md')]) {
      const text = await readFile(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(?\s*)['"]((?:@invoicekit\/(?:elements|bff)|invoicekit)(?:\/[^'"]*)?)['"]/g)) named.add(specifier!);
      for (const [, specifier] of text.matchAll(/node_modules\/((?:@invoicekit\/(?:elements|bff)|invoicekit)\/[\w./-]+)/g)) named.add(`file:${specifier!}`);
    }
    expect(named.size).toBeGreaterThan(5);
    const files: string[] = [];
    for (const specifier of named) {
      const bare = specifier.replace(/^file:/, '');
      const name = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!;
      const project = packageOf[name as keyof typeof packageOf];
      if (specifier.startsWith('file:')) files.push(join(projects[project], 'node_modules', bare));
      else if (!/\/(vue|svelte|react)(\/|$)/.test(bare)) entries[project].push(bare);
    }
    for (const file of files) expect(existsSync(file), file).toBe(true);

    const results: Record<string, string> = {};
    for (const [project, specifiers] of Object.entries(entries)) {
      const script = `const failed = {};
for (const specifier of ${JSON.stringify([...new Set(specifiers)])}) {
  try { await import(specifier); } catch (error) { failed[specifier] = String(error.message).split('\\n')[0]; }
}
console.log(JSON.stringify({ failed, registry: typeof customElements }));`;
      await writeFile(join(projects[project as keyof typeof entries], 'import-all.mjs'), script);
      const { stdout } = await run(process.execPath, ['import-all.mjs'], { cwd: projects[project as keyof typeof entries], timeout: 60_000 });
      results[project] = JSON.parse(stdout).failed;
    }
    expect(results).toEqual({ elements: {}, bff: {}, service: {} });
    expect(entries.elements).toContain('@invoicekit/elements');
  }, 120_000);

  it.concurrent('runs `npx invoicekit bff` and `npx invoicekit dev` from the installed package', async ({ expect }) => {
    const bff = await startCommand(projects.service, ['invoicekit', 'bff', '--port', '0', '--service', service.url], {
      INVOICEKIT_API_TOKEN: service.apiToken,
      INVOICEKIT_PORTAL_SECRET: 'a-portal-secret-of-at-least-32-characters',
    }, /bff listening on (\S+)/);
    expect(await (await fetch(`${bff.url}/bff/healthz`)).json()).toEqual({ status: 'ok' });

    const dev = await startCommand(projects.service, ['invoicekit', 'dev', '--port', '0', '--service-port', '0', '--data-dir', join(work, 'dev-data')], {}, /invoicekit demo on (\S+) /);
    const portal = await fetch(`${dev.url}/portal.html`);
    expect(portal.status).toBe(200);
    expect(await portal.text()).toContain('<invoice-list');
  }, 400_000);
});

const commands: ChildProcess[] = [];

/** Starts `npx <args>` (or a plain command) in `cwd` and resolves with the address its ready line names. */
async function startCommand(cwd: string, args: string[], env: Record<string, string>, ready = /listening on (http:\/\/\S+)/): Promise<{ url: string; child: ChildProcess }> {
  const [command, ...rest] = args[0] === process.execPath ? args : ['npx', '--no-install', ...args];
  const child = spawn(command!, rest, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  commands.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output}`)), 240_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
  return { url, child };
}

async function readmeExample(heading: string): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(heading);
  if (at < 0) throw new Error(`README.md has no "${heading}" section`);
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
}

/** What a user's build does to a TypeScript example before Node runs it: types out, nothing else. */
function toJavaScript(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true } }).outputText;
}

/** Bytes of every file under `dir`, as `du --apparent-size` counts them (links not followed). */
async function apparentSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await apparentSize(path);
    else total += (await lstat(path)).size;
  }
  return total;
}
