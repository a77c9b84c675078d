import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { installPackages, ROOT, run, type Installed } from './support.js';

/**
 * The elements package as a page's author uses it, installed from its tarball (run `npm run build`
 * first, as `npm test` does): a Vite page, TypeScript and React pages type-checked against it, the
 * React wrappers rendered on the server, bundled and run in Chromium.
 */
/**
 * The JavaScript a built page may load: its entry script and every chunk reached from it by static or
 * dynamic imports (and Vite's preload lists). A chunk the bundler emitted that nothing reaches (a lazy
 * chunk of a module it shook out) is never fetched, so it is not counted.
 */
async function reachableCode(out: string): Promise<string> {
  const html = await readFile(join(out, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<script[^>]* src="\/?([^"]+\.js)"/g)].map((match) => match[1]!);
  const seen = new Set<string>();
  const code: string[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(out, file), 'utf8');
    code.push(text);
    for (const match of text.matchAll(/(?:from\s*|import\s*\(\s*|import\s*)["'`]\.\/([^"'`]+\.js)["'`]/g)) queue.push(join(file, '..', match[1]!));
    for (const match of text.matchAll(/["'`](assets\/[^"'`]+\.js)["'`]/g)) queue.push(match[1]!);
  }
  return code.join('\n');
}

describe('the elements package in pages, installed from its tarball', () => {
  let installed: Installed | undefined;
  let projects: Installed['projects'];

  beforeAll(async () => {
    installed = await installPackages(['elements', 'bff']);
    ({ projects } = installed);
  }, 600_000);

  afterAll(async () => {
    await installed?.stop();
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
    // An event more than one element fires (`token-expired`) is imported once, from the first.
    const imported = new Set<string>();
    const every = elements.flatMap(({ tagName, events = [] }) => {
      const component = pascal(tagName!);
      if (!events.length) throw new Error(`custom-elements.json names no event of <${tagName}>`);
      const listeners = events.map(({ name, type }) => `on${pascal(name)}={(event) => { const typed: ${type!.text} = event; log(typed); }}`).join(' ');
      const types = events.map(({ type }) => type!.text).filter((type) => !imported.has(type) && imported.add(type));
      return [
        ...(types.length ? [`import type { ${types.join(', ')} } from '@invoicekit/elements/${tagName}.js';`] : []),
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

  it.concurrent('ships source maps whose every source is a shipped file or carried in the map', async ({ expect }) => {
    const root = join(projects.elements, 'node_modules', '@invoicekit', 'elements');
    const maps = (await readdir(root, { recursive: true })).filter((path) => path.endsWith('.js.map'));
    expect(maps).toContain(join('dist', 'invoicekit.js.map'));
    const unreadable: string[] = [];
    let shared = 0;
    for (const path of maps) {
      const map = JSON.parse(await readFile(join(root, path), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      map.sources.forEach((source, index) => {
        if (typeof map.sourcesContent?.[index] === 'string') return;
        if (existsSync(join(root, path, '..', source))) shared += 1;
        else unreadable.push(`${path}: ${source}`);
      });
    }
    expect(unreadable).toEqual([]);
    expect(shared).toBeGreaterThan(50);
  });

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
      const code = await reachableCode(join(page, 'out'));
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
});
