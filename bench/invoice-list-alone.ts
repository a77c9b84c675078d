import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumPath } from './browser.js';
import { kitOf } from './kits.js';

/**
 * `npx tsx bench/invoice-list-alone.ts <git ref> [rounds]`: `<invoice-list>`'s own share of its
 * first rows, without the network: the browser answers `/bff/invoices` itself with a page in the
 * BFF's shape, at once. Each round opens a fresh page per kit, the elements of `<ref>` and of HEAD
 * in turns, and times insertion → rows in the DOM → the paint after them, and the answer → rows
 * script. On a shared machine the turns share the same load; compare the two medians.
 */
const [ref = 'HEAD~1', roundsText = '9'] = process.argv.slice(2);
const root = fileURLToPath(new URL('..', import.meta.url));
const kits = { [ref]: await readFile(await kitOf(ref, root), 'utf8'), HEAD: await readFile(await kitOf('HEAD', root), 'utf8') };

const invoice = (i: number) => {
  const kind = i % 4;
  return {
    id: i + 1,
    number: `FV/${i + 1}/01/2026`,
    status: ['paid', 'partial', 'unpaid', 'overdue'][kind],
    issue_date: '2026-01-10',
    payment_to: '2026-01-24',
    currency: 'PLN',
    price_gross: '1845.00',
    paid: kind === 0 ? '1845.00' : kind === 1 ? '100.00' : '0.00',
    outstanding: kind === 0 ? '0' : kind === 1 ? '1745.00' : '1845.00',
    payment_url: kind ? 'https://pay.example/p' : null,
    view_url: 'https://pay.example/v',
  };
};
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'] });
const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
await context.route('**/bff/invoices**', (route) => {
  const url = new URL(route.request().url());
  const perPage = Number(url.searchParams.get('per_page'));
  const page = Number(url.searchParams.get('page'));
  const data = Array.from({ length: perPage }, (_, i) => invoice((page - 1) * perPage + i));
  const totals = [{ currency: 'PLN', outstanding: '1390050.00', outstanding_count: 750, overdue: '0', overdue_count: 0 }];
  return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ data, page, per_page: perPage, total: 1000, totals }) });
});
await context.route('**/page.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><body></body>' }));
await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });

const results: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < Number(roundsText); round += 1) {
  for (const [name, kit] of Object.entries(kits)) {
    const page = await context.newPage();
    await page.goto('http://portal.example/page.html');
    await page.addScriptTag({ content: kit, type: 'module' });
    await page.waitForFunction(() => customElements.get('invoice-list') !== undefined);
    const times = await page.evaluate(async () => {
      let answered = 0;
      const fetchAnswer = window.fetch;
      window.fetch = async (...args: Parameters<typeof fetch>) => {
        const response = await fetchAnswer(...args);
        answered ||= performance.now();
        return response;
      };
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const list = document.createElement('invoice-list');
      list.setAttribute('portal-token', 'token');
      const start = performance.now();
      document.body.append(list);
      const root = list.shadowRoot!;
      await new Promise<void>((resolve) => {
        const seen = new MutationObserver(() => {
          if (!root.querySelector('tr[data-row]')) return;
          seen.disconnect();
          resolve();
        });
        seen.observe(root, { childList: true, subtree: true });
      });
      const inDom = performance.now();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const painted = performance.now();
      return { 'insertion → rows painted': painted - start, 'answer → rows in DOM': inDom - answered, 'rows in DOM → painted': painted - inDom };
    });
    for (const [figure, value] of Object.entries(times)) ((results[figure] ??= {})[name] ??= []).push(value);
    await page.close();
  }
}
await browser.close();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(`| figure (median of ${roundsText}, ms) | ${Object.keys(kits).join(' | ')} |\n|---|${Object.keys(kits).map(() => '---|').join('')}`);
for (const [figure, byKit] of Object.entries(results)) console.log(`| ${figure} | ${Object.keys(kits).map((name) => median(byKit[name]!).toFixed(1)).join(' | ')} |`);
