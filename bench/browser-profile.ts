import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from './browser.js';

/**
 * Where the browser figures' time goes: a Chromium trace (main-thread self time by kind: script,
 * style, layout, paint, other) and a V8 CPU profile (self time by function) of inserting
 * `<invoice-list>` until its first rows are painted, and of scrolling 10,000 rows; plus the
 * requests the element made (Resource Timing) and the BFF's own answer time.
 */
interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { frame?: string } };
}

const KINDS: [RegExp, string][] = [
  [/^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|FireIdleCallback|ParseHTML|MinorGC|MajorGC|BlinkGC|ResizeObserver|HandlePostMessage|XHR)/, 'script'],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation)/, 'style'],
  [/^(Layout|UpdateLayerTree|IntersectionObserverController)/, 'layout'],
  [/^(Paint|PrePaint|Layerize|UpdateLayer|CompositeLayers|Commit|PaintImage)/, 'paint'],
];
const kindOf = (name: string) => KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';

/** Self time per kind on the page's main thread between two user-timing marks. */
function mainThreadTime(events: TraceEvent[], from: string, to: string) {
  const marks = events.filter((e) => e.cat.includes('blink.user_timing'));
  const start = marks.find((e) => e.name === from);
  const end = marks.filter((e) => e.name === to).at(-1);
  if (!start || !end) throw new Error(`marks ${from}/${to} missing from the trace`);
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === start.pid);
  const tid = main?.tid ?? start.tid;
  const spans = events
    .filter((e) => e.pid === start.pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined && e.ts >= start.ts && e.ts < end.ts)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<TraceEvent, number>();
  const stack: TraceEvent[] = [];
  for (const span of spans) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= span.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent, (self.get(parent) ?? 0) - span.dur!);
    self.set(span, (self.get(span) ?? 0) + span.dur!);
    stack.push(span);
  }
  const byKind: Record<string, number> = { script: 0, style: 0, layout: 0, paint: 0, other: 0 };
  const byName = new Map<string, number>();
  for (const [span, time] of self) {
    byKind[kindOf(span.name)]! += time / 1000;
    byName.set(span.name, (byName.get(span.name) ?? 0) + time / 1000);
  }
  const window = (end.ts - start.ts) / 1000;
  const busy = Object.values(byKind).reduce((a, b) => a + b, 0);
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return { window, busy, byKind, top };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by function, from a V8 sampling profile. */
function hotFunctions(profile: CpuProfile, limit = 12): [string, number][] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const file = frame.url.split('/').pop() ?? '';
    const key = `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return [...self].filter(([key]) => !/^\((idle|program)\)/.test(key)).sort((a, b) => b[1] - a[1]).slice(0, limit);
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** `BENCH_TRACE_DIR=<folder>` keeps each trace and CPU profile there, to open in Chrome's DevTools. */
async function traced<T>(browser: Browser, page: Page, name: string, work: () => Promise<T>): Promise<{ result: T; events: TraceEvent[]; profile: CpuProfile }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', '__metadata', 'disabled-by-default-devtools.timeline.stack', 'disabled-by-default-devtools.timeline.invalidationTracking'],
  });
  await cdp.send('Profiler.start');
  const result = await work();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  const buffer = await browser.stopTracing();
  const trace = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  await cdp.detach();
  const dir = process.env.BENCH_TRACE_DIR;
  if (dir) {
    await writeFile(join(dir, `${name}.trace.json`), buffer);
    await writeFile(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  return { result, events: trace.traceEvents, profile };
}

/** Inserts the list as the benchmark does, marking insertion, rows in the DOM, and the end of the frame that paints them. */
async function insertList(page: Page, markup: string) {
  return page.evaluate(async (markup) => {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    const host = document.createElement('div');
    performance.mark('ik-insert');
    const start = performance.now();
    host.innerHTML = markup;
    document.body.append(host);
    const root = host.firstElementChild!.shadowRoot!;
    await new Promise<void>((resolve) => {
      const seen = new MutationObserver(() => {
        if (!root.querySelector('tr[data-row]')) return;
        seen.disconnect();
        resolve();
      });
      seen.observe(root, { childList: true, subtree: true });
    });
    const inDom = performance.now() - start;
    performance.mark('ik-rows-in-dom');
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    performance.mark('ik-end');
    const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.includes('/bff/'))
      .map((entry) => ({
        url: entry.name.replace(/^.*\/bff\//, '/bff/'),
        start: entry.startTime - start,
        firstByte: entry.responseStart - start,
        end: entry.responseEnd - start,
      }));
    return { measured: performance.now() - start, inDom, requests, visibility: document.visibilityState };
  }, markup);
}

export async function profileList(bffUrl: string, tokens: Record<number, string>, readableKit: string): Promise<string> {
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    const kit = await readFile(readableKit, 'utf8');
    const open = async () => {
      const page = await context.newPage();
      await page.goto(`${bffUrl}/bench/page.html`);
      await page.addScriptTag({ content: kit, type: 'module' });
      await page.waitForFunction(() => customElements.get('invoice-list') !== undefined);
      return page;
    };
    const list = (count: number, paging = 'pages') => `<invoice-list endpoint="/bff" paging="${paging}" portal-token="${tokens[count]}"></invoice-list>`;

    for (const count of [25, 1000, 10_000]) {
      // The BFF's answer alone, from Node, one at a time: the network floor of the figure.
      const answers: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const t0 = performance.now();
        const response = await fetch(`${bffUrl}/bff/invoices?page=1&per_page=25`, { headers: { authorization: `Bearer ${tokens[count]}` } });
        await response.arrayBuffer();
        answers.push(performance.now() - t0);
      }
      answers.sort((a, b) => a - b);
      // A fresh page, as the benchmark measures: templates, styles and formatters are cold.
      const page = await open();
      const { result, events, profile } = await traced(browser, page, `first-rows-${count}`, () => insertList(page, list(count)));
      const time = mainThreadTime(events, 'ik-insert', 'ik-end');
      const toRows = mainThreadTime(events, 'ik-insert', 'ik-rows-in-dom');
      out(`## first rows, ${count} invoices (page ${result.visibility})`);
      out(`measured as the benchmark does: ${ms(result.measured)}; rows in the DOM at ${ms(result.inDom)}`);
      out(`BFF answer from Node (GET /bff/invoices?per_page=25): median ${ms(answers[2]!)}, min ${ms(answers[0]!)}`);
      for (const r of result.requests) out(`request ${r.url}: sent ${ms(r.start)}, first byte ${ms(r.firstByte)}, done ${ms(r.end)}`);
      out(`main thread, insertion → rows in DOM (${ms(toRows.window)}): busy ${ms(toRows.busy)}: ${Object.entries(toRows.byKind).map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`);
      out(`main thread, insertion → end (${ms(time.window)}): busy ${ms(time.busy)}: ${Object.entries(time.byKind).map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`);
      out(`  by event: ${time.top.map(([name, v]) => `${name} ${ms(v)}`).join(', ')}`);
      out(`  hot functions: ${hotFunctions(profile).map(([name, v]) => `${name} ${ms(v)}`).join('; ')}`);
      out();
      await page.close();
    }

    const page = await open();
    await page.evaluate((markup) => document.body.insertAdjacentHTML('beforeend', markup), list(10_000, 'scroll'));
    await page.waitForFunction(() => document.querySelector('invoice-list')?.shadowRoot?.querySelector('tr[data-row]'));
    const frames = 300;
    const { result, events, profile } = await traced(browser, page, 'scroll-10000', () =>
      page.evaluate(async (frames) => {
        const scroller = document.querySelector('invoice-list')!.shadowRoot!.querySelector('.scrolling') as HTMLElement;
        const times: number[] = [];
        performance.mark('ik-scroll');
        let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        for (let i = 0; i < frames; i += 1) {
          scroller.scrollTop += Math.max(40, scroller.scrollHeight / frames);
          const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
          times.push(now - last);
          last = now;
        }
        performance.mark('ik-scroll-end');
        const rows = scroller.querySelectorAll('tr[data-row]').length;
        return { times, rows, requests: performance.getEntriesByType('resource').filter((e) => e.name.includes('/bff/')).length };
      }, frames),
    );
    const sorted = [...result.times].sort((a, b) => a - b);
    const time = mainThreadTime(events, 'ik-scroll', 'ik-scroll-end');
    out(`## scrolling 10,000 rows, ${frames} frames as the benchmark drives them`);
    out(`frames: median ${ms(sorted[frames / 2]!)}, p95 ${ms(sorted[Math.floor(frames * 0.95)]!)}, over 50 ms ${sorted.filter((t) => t > 50).length}, longest ${ms(sorted.at(-1)!)}; BFF requests so far ${result.requests}`);
    out(`main thread (${ms(time.window)}): busy ${ms(time.busy)} = ${ms(time.busy / frames)} a frame: ${Object.entries(time.byKind).map(([k, v]) => `${k} ${ms(v / frames)}/frame`).join(', ')}`);
    out(`  by event: ${time.top.map(([name, v]) => `${name} ${ms(v)}`).join(', ')}`);
    out(`  hot functions: ${hotFunctions(profile).map(([name, v]) => `${name} ${ms(v)}`).join('; ')}`);
  } finally {
    await browser.close();
  }
  return lines.join('\n');
}
