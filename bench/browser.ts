import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { dialogOpenFigure } from './dialog-open.js';
import { entry, unavailable, type Entry } from './report.js';
import { staticTable } from './static-table.js';

/**
 * Figures measured in headless Chromium on a page served by the BFF's process, against the real BFF
 * and service: first rows painted after inserting `<invoice-list>`, frame times while scrolling, and
 * the first price of `<product-pay-button>`. Each is the median of several runs.
 */
export interface BrowserCustomers {
  /** Portal tokens of customers with this many invoices. */
  tokens: Record<number, string>;
  productToken: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;

export function chromiumPath(): string | undefined {
  // The full browser first, as customers run it; the tests' headless shell where it is all there is.
  return [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/chromium-headless-shell'].find(
    (p) => p && existsSync(p),
  );
}

/**
 * Opens a fresh page with the kit loaded, inserts `html`, and answers the time from the insertion to
 * the end of the first frame rendered after its first data rows entered the DOM. A fresh page each
 * time, because a portal inserts the list once per page: its templates, styles and `Intl` formatters
 * are cold, as a customer meets them.
 */
async function timeToRows(open: () => Promise<Page>, html: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const page = await open();
    times.push(
      await page.evaluate(async (markup) => {
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
        const host = document.createElement('div');
        const start = performance.now();
        host.innerHTML = markup;
        document.body.append(host);
        const el = host.firstElementChild!;
        const root = el.shadowRoot ?? el;
        // Data rows only: placeholder rows shown while the first page loads are not rows painted.
        const hasRows = () => root.querySelector('tr[data-row]') !== null;
        // Seen as they are committed (a mutation observer runs right after), not at the next frame.
        await new Promise<void>((resolve, reject) => {
          if (hasRows()) return resolve();
          const timer = setTimeout(() => reject(new Error('no rows within 30 s')), 30_000);
          const seen = new MutationObserver(() => {
            if (!hasRows()) return;
            seen.disconnect();
            clearTimeout(timer);
            resolve();
          });
          seen.observe(root, { childList: true, subtree: true });
        });
        // The next frame renders and paints them; a task queued in its animation frame runs after that paint.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
        return performance.now() - start;
      }, html),
    );
    await page.close();
  }
  return median(times);
}

/** Frame intervals while the page scrolls `frames` frames with the callback each frame. */
async function frameTimes(page: Page, frames: number, scrollTarget: 'list' | 'none'): Promise<number[]> {
  return page.evaluate(
    async ({ frames, scrollTarget }) => {
      const list = document.querySelector('invoice-list');
      const scroller = scrollTarget === 'list' ? (list?.shadowRoot?.querySelector('.scrolling') as HTMLElement | null) : null;
      if (scrollTarget === 'list' && !scroller) throw new Error('the list has no scrolling area');
      const times: number[] = [];
      let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      for (let i = 0; i < frames; i += 1) {
        if (scroller) scroller.scrollTop += Math.max(40, scroller.scrollHeight / frames);
        const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        times.push(now - last);
        last = now;
      }
      return times;
    },
    { frames, scrollTarget },
  );
}

/** One load of `url` in a fresh context (cold cache, as a customer arriving at the page): its first contentful paint and first byte. */
async function loadOnce(browser: Browser, url: string, check?: (page: Page) => Promise<void>): Promise<{ paint: number; firstByte: number }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const paint = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          new PerformanceObserver((list) => {
            const entry = list.getEntriesByName('first-contentful-paint')[0];
            if (entry) resolve(entry.startTime);
          }).observe({ type: 'paint', buffered: true }),
        ),
    );
    const firstByte = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart);
    await check?.(page);
    return { paint, firstByte };
  } finally {
    await context.close();
  }
}

/**
 * First contentful paint of each page, `runs` fresh loads each, taken in turns so that a busy
 * moment of the machine weighs on all of them alike; medians. `check` runs on every page but the
 * first (the baseline) and may throw.
 */
async function firstContentfulPaints(browser: Browser, urls: string[], runs: number, check?: (page: Page) => Promise<void>): Promise<{ paint: number; firstByte: number }[]> {
  const loads = urls.map(() => [] as { paint: number; firstByte: number }[]);
  for (let i = 0; i < runs; i += 1) {
    for (const [index, url] of urls.entries()) loads[index]!.push(await loadOnce(browser, url, index ? check : undefined));
  }
  return loads.map((each) => ({ paint: median(each.map((load) => load.paint)), firstByte: median(each.map((load) => load.firstByte)) }));
}

/**
 * A page whose server printed the customer's list (`renderInvoiceList`, 25 rows of 1,000 invoices)
 * against a page holding a static 25-row table: first contentful paint, five fresh loads each. Also
 * the same fragment served as a file (what a host that caches it, or a checker pasting it into a
 * page, serves): the browser's share alone, without the server's time to render.
 */
export async function serverRenderedFigures(browser: Browser, bffUrl: string, token: string): Promise<Entry[]> {
  const runs = 5;
  const staticPage = `${bffUrl}/bench/static-page.html`;
  const renderedPage = `${bffUrl}/bench/server-rendered.html?token=${encodeURIComponent(token)}`;
  const pastedPage = `${bffUrl}/bench/server-rendered.html?token=${encodeURIComponent(token)}&pasted`;
  // A running server has rendered before, many times: the first render loads the renderer, the next few are compiled as they run.
  for (let i = 0; i < 10; i += 1) for (const url of [staticPage, renderedPage, pastedPage]) await (await fetch(url)).text();
  const [floor, rendered, pasted] = await firstContentfulPaints(browser, [staticPage, renderedPage, pastedPage], runs, async (page) => {
    const rows = await page.evaluate(() => document.querySelector('invoice-list')?.shadowRoot?.querySelectorAll('tr[data-row]').length ?? 0);
    if (rows < 20) throw new Error(`the server-rendered page holds ${rows} rows`);
  });
  const figure = (name: string, value: { paint: number; firstByte: number }) =>
    entry({
      name,
      value: value.paint,
      unit: 'ms',
      baseline: floor!.paint,
      baselineName: 'a page with a static 25-row table',
      target: { on: 'ratio', op: '<=', limit: 1.5 },
      note: `median of ${runs} loads each, fresh pages, in turns; first byte ${Math.round(value.firstByte)} ms against ${Math.round(floor!.firstByte)} ms`,
    });
  return [
    figure('browser: server-rendered list page, first contentful paint (1,000 invoices)', rendered!),
    figure('browser: the rendered fragment served as a file, first contentful paint', pasted!),
  ];
}

export async function browserFigures(bffUrl: string, customers: BrowserCustomers, options: { quick: boolean }): Promise<Entry[]> {
  const executablePath = chromiumPath();
  const names = ['browser: first 25 rows painted (25 invoices)', 'browser: first rows painted (1,000 invoices)', 'browser: first rows painted (10,000 invoices)'];
  if (!executablePath) return names.map((name) => unavailable(name, 'ms', 'Chromium not found (set CHROME_PATH)'));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'] });
  const entries: Entry[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    // tsx keeps function names with a `__name` helper, which functions sent to the page call too.
    await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    const open = async () => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(String(error)));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await page.goto(`${bffUrl}/bench/page.html`);
      await page.addScriptTag({ url: `${bffUrl}/bench/kit.js`, type: 'module' });
      await page.waitForFunction(() => customElements.get('invoice-list') !== undefined, undefined, { timeout: 10_000 }).catch((error: unknown) => {
        throw new Error(`the kit did not define <invoice-list>: ${problems.join('; ') || String(error)}`);
      });
      return page;
    };
    const runs = options.quick ? 2 : 3;
    const floor = await timeToRows(open, staticTable(25), runs);
    const list = (count: number, paging = 'pages') =>
      `<invoice-list endpoint="/bff" paging="${paging}" portal-token="${customers.tokens[count]}"></invoice-list>`;
    const counts = options.quick ? [25] : [25, 1000, 10_000];
    for (const [index, count] of counts.entries()) {
      const value = await timeToRows(open, list(count), runs);
      entries.push(
        entry({
          name: names[index]!,
          value,
          unit: 'ms',
          baseline: floor,
          baselineName: 'a static 25-row table',
          target: { on: 'value', op: '<=', limit: count === 10_000 ? 100 : 50 },
          note: `median of ${runs} insertions, each on a fresh page`,
        }),
      );
    }

    entries.push(...(await serverRenderedFigures(browser, bffUrl, customers.tokens[1000] ?? customers.tokens[25]!)));

    const page = await open();
    if (!options.quick) {
      const idle = await frameTimes(page, 120, 'none');
      await page.evaluate((markup) => document.body.insertAdjacentHTML('beforeend', markup), list(10_000, 'scroll'));
      await page.waitForFunction(() => document.querySelector('invoice-list')?.shadowRoot?.querySelector('tr[data-row]'), undefined, { timeout: 30_000 });
      const times = await frameTimes(page, 300, 'list');
      const idleMedian = median(idle);
      entries.push(
        entry({
          name: 'browser: scrolling 10,000 rows, median frame',
          value: median(times),
          unit: 'ms',
          baseline: idleMedian,
          baselineName: 'an idle page',
          target: { on: 'value', op: '<=', limit: 16.7 * 1.05 },
          note: `p95 ${percentile(times, 0.95).toFixed(1)} ms over 300 frames`,
        }),
        entry({
          name: 'browser: scrolling 10,000 rows, frames over 50 ms',
          value: times.filter((t) => t > 50).length,
          unit: 'frames',
          baseline: idle.filter((t) => t > 50).length,
          baselineName: 'an idle page, 120 frames',
          ratio: null,
          target: { on: 'value', op: '<=', limit: 0 },
          note: `longest ${Math.max(...times).toFixed(0)} ms`,
        }),
      );
    }

    const hasPayButton = await page.evaluate(() => customElements.get('product-pay-button') !== undefined);
    if (!hasPayButton) {
      entries.push(unavailable('browser: <product-pay-button> first price shown', 'ms', 'the kit has no <product-pay-button> yet'));
    } else {
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        times.push(
          await page.evaluate(async (product) => {
            document.body.replaceChildren();
            const start = performance.now();
            const el = document.createElement('product-pay-button');
            el.setAttribute('endpoint', '/bff');
            el.setAttribute('product', product);
            el.setAttribute('product-token', product);
            document.body.append(el);
            await new Promise<void>((resolve, reject) => {
              const check = () => {
                const text = el.shadowRoot?.textContent ?? '';
                if (/\d[\d\s\u00a0.,]*\d{2}/.test(text)) resolve();
                else if (performance.now() - start > 15_000) reject(new Error('no price within 15 s'));
                else requestAnimationFrame(check);
              };
              check();
            });
            await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
            return performance.now() - start;
          }, customers.productToken),
        );
      }
      entries.push(entry({ name: 'browser: <product-pay-button> first price shown', value: median(times), unit: 'ms', baseline: floor, baselineName: 'a static 25-row table', note: `median of ${runs}` }));
      entries.push(await dialogOpenFigure(browser, bffUrl, customers.productToken, 5));
    }
  } finally {
    await browser.close();
  }
  return entries;
}
