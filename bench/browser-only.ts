import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issuePortalToken } from '../src/bff/index.js';
import { chromium } from 'playwright-core';
import { browserFigures, chromiumPath, serverRenderedFigures } from './browser.js';
import { profileList } from './browser-profile.js';
import { dialogOpenFigure } from './dialog-open.js';
import { buildKits, kitOf, splitBundle } from './kits.js';
import { startChild, type Child } from './processes/protocol.js';
import { table } from './report.js';

/**
 * `npx tsx bench/browser-only.ts [--profile] [--repeat N] [--against <git ref>]`: only the browser
 * figures of `npm run bench` (first rows of `<invoice-list>`, scrolling 10,000 rows, the buy
 * button's first price), against the same service and BFF processes, in about two minutes.
 * `--repeat 0` skips them. `--profile` also records a Chromium trace and CPU profile of the
 * insertion and of the scroll, and prints where the time went (network, script, style and layout,
 * paint), with a readable (unminified) build of the kit so the CPU profile names functions.
 * `--against <ref>` measures the elements of that commit and of the working tree in turns, in one
 * run, against the same service and BFF: a before and after on a shared, noisy machine.
 * `--ssr` measures only the server-rendered page's first contentful paint against the static page.
 * `--dialog` measures only the buy button's dialog opening after a click nobody announced.
 */
const args = process.argv.slice(2);
const profile = args.includes('--profile');
const repeat = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 1;
const ssrOnly = args.includes('--ssr');
const dialogOnly = args.includes('--dialog');
const against = args.includes('--against') ? args[args.indexOf('--against') + 1] : undefined;
const root = fileURLToPath(new URL('..', import.meta.url));
const API_TOKEN = 'bench-api-token-0123456789';
const PORTAL_SECRET = 'bench-portal-secret-0123456789abcdefghij';
const children: Child<unknown>[] = [];
const log = (text: string) => process.stderr.write(`${text}\n`);

try {
  const kits = await buildKits(root);
  await splitBundle(join(kits.out, 'elements', 'product-pay-button.js'), join(kits.out, 'split', 'product-pay-button'), root);
  const before = against ? await kitOf(against, root) : undefined;
  const after = against ? await kitOf('HEAD', root) : undefined;
  const service = await startChild<{ url: string; apiToken: string }>('service', { BENCH_API_TOKEN: API_TOKEN });
  children.push(service as Child<unknown>);
  const customers: Record<number, { clientId: number }> = {};
  for (const count of [25, 1000, 10_000]) {
    customers[count] = await service.call({ type: 'bulk', request: { clientName: `Bench ${count}`, externalId: `bench-${count}`, count, dates: 'spread' } });
  }
  const bff = await startChild<{ url: string }>('bff', {
    BENCH_SERVICE_URL: service.ready.url,
    BENCH_API_TOKEN: service.ready.apiToken,
    BENCH_PORTAL_SECRET: PORTAL_SECRET,
    BENCH_KIT_PATH: kits.minified,
    BENCH_SPLIT_DIR: join(kits.out, 'split'),
  });
  children.push(bff as Child<unknown>);
  const tokens: Record<number, string> = {};
  for (const [count, customer] of Object.entries(customers)) {
    tokens[Number(count)] = await issuePortalToken({ clientId: customer.clientId, ttlSeconds: 3600 }, PORTAL_SECRET);
  }
  log('service seeded (25, 1,000 and 10,000 invoices), BFF started');
  if (dialogOnly) {
    const browser = await chromium.launch({ executablePath: chromiumPath()!, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'] });
    try {
      for (let i = 0; i < Math.max(1, repeat); i += 1) console.log(table([await dialogOpenFigure(browser, bff.ready.url, 'logo-design', 5)]));
    } finally {
      await browser.close();
    }
  }
  if (ssrOnly) {
    const browser = await chromium.launch({ executablePath: chromiumPath()!, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'] });
    try {
      for (let i = 0; i < Math.max(1, repeat); i += 1) console.log(table(await serverRenderedFigures(browser, bff.ready.url, tokens[1000]!)));
    } finally {
      await browser.close();
    }
  }
  for (let i = 0; i < (ssrOnly || dialogOnly ? 0 : repeat); i += 1) {
    // The BFF's process reads the kit on every request, so turns only change the file.
    for (const [name, kit] of before && after ? [[against!, before], ['HEAD', after]] : [['the working tree', kits.minified]]) {
      if (kit !== kits.minified) await copyFile(kit!, kits.minified);
      console.log(`\n${name}:\n${table(await browserFigures(bff.ready.url, { tokens, productToken: 'logo-design' }, { quick: false }))}`);
    }
  }
  if (profile) console.log(await profileList(bff.ready.url, tokens, kits.readable));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await Promise.all(children.map((child) => child.stop().catch(() => undefined)));
}
