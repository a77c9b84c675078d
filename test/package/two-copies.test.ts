import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { VERSION } from '../../src/elements/shared/version.js';
import { ROOT } from './support.js';

/**
 * Two copies of the kit on one page, as a plugin and a theme each bring their own: each copy is
 * bundled from the sources by esbuild, with its own Lit and its own registry module, the second one
 * under another version. Loaded together in Chromium, the first copy keeps every tag and the page's
 * console gets one warning naming both versions. The second copy can instead register its elements
 * in a scoped custom element registry of its own, where the browser has them, and then renders beside
 * the first with no warning.
 */

const OTHER_VERSION = '9.9.9';

/** The sources, with `version.ts` saying `version`. */
function versioned(version: string): Plugin {
  return {
    name: 'version',
    setup(plugin) {
      plugin.onLoad({ filter: /src\/elements\/shared\/version\.ts$/ }, () => ({ contents: `export const VERSION = '${version}';`, loader: 'ts' }));
    },
  };
}

async function bundle(entry: string, version: string): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugins: [versioned(version)],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A page that loads the first copy, then runs `second`: the console's warnings and the page's answer. */
const PAGE = `<!doctype html><html lang="en"><body>
<product-pay-button product="none" endpoint="/nowhere"></product-pay-button>
<script type="module" src="/first.js"></script>
</body></html>`;

describe('two copies of the kit on one page', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const files: Record<string, string> = {
      '/': PAGE,
      '/first.js': await bundle('src/elements/index.ts', VERSION),
      '/second.js': await bundle('src/elements/index.ts', OTHER_VERSION),
      '/second-scoped.js': await bundle('src/elements/scoped.ts', OTHER_VERSION),
    };
    server = createServer((request, response) => {
      const body = files[request.url ?? ''];
      if (body === undefined) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': request.url === '/' ? 'text/html' : 'text/javascript' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Opens the page with the first copy loaded; the warnings its console gets from then on. */
  async function pageWithFirstCopy() {
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => customElements.get('product-pay-button') !== undefined);
    return { page, warnings };
  }

  it('keeps the first copy, and warns once naming both versions', async () => {
    const { page, warnings } = await pageWithFirstCopy();
    // A string: the test's own transform would rewrite an `import()` in a function.
    await page.evaluate('import("/second.js").then(() => true)');
    const versions = await page.evaluate(() => {
      const version = (tag: string) => (customElements.get(tag) as unknown as { version: string }).version;
      return [version('client-form'), version('invoice-list'), version('product-pay-button')];
    });
    expect(versions).toEqual([VERSION, VERSION, VERSION]);
    expect(warnings.filter((text) => text.includes('invoicekit'))).toEqual([`invoicekit ${OTHER_VERSION} is not registered: <invoice-list> is already defined by invoicekit ${VERSION}.`]);
    await page.close();
  });

  it('renders the second copy in a scoped registry beside the first, with no warning', async () => {
    const { page, warnings } = await pageWithFirstCopy();
    await page.evaluate('import("/second-scoped.js").then((module) => { window.secondCopy = module; })');
    const answer = await page.evaluate(() => {
      const second = (window as unknown as { secondCopy: { defineInvoiceKit(registry: CustomElementRegistry): void; hasScopedRegistries(): boolean } }).secondCopy;
      if (!second.hasScopedRegistries()) return 'no scoped registries';
      const registry = new CustomElementRegistry();
      second.defineInvoiceKit(registry);
      const host = document.createElement('div');
      document.body.append(host);
      const root = host.attachShadow({ mode: 'open', customElementRegistry: registry } as ShadowRootInit);
      root.innerHTML = '<product-pay-button product="none" endpoint="/nowhere"></product-pay-button>';
      const version = (element: Element | null) => (element?.constructor as unknown as { version?: string }).version;
      return [version(root.querySelector('product-pay-button')), version(document.querySelector('product-pay-button'))];
    });
    const browserVersion = Number(browser.version().split('.')[0]);
    // Chromium has scoped registries from 146 on; an older one takes the global path, tested above.
    expect(answer).toEqual(browserVersion >= 146 ? [OTHER_VERSION, VERSION] : 'no scoped registries');
    expect(warnings.filter((text) => text.includes('invoicekit'))).toEqual([]);
    await page.close();
  });
});
