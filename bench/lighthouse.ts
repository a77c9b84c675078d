import { DEMO_PAGES, LIGHTHOUSE_VERSION, measurePages, startDemo, TARGETS, type PageResult } from '../scripts/lighthouse.mjs';
import { entry, type Entry } from './report.js';

/**
 * Lighthouse's own figures for every demo page, as `scripts/lighthouse-check.mjs` measures them (the
 * same runner): the demo as `npm start` serves it, the mobile preset, performance the best of up to
 * three runs (docs/decisions/lighthouse-check.md). Per page: performance and CLS against their
 * targets, and the lowest of accessibility, best practices and SEO against 100, with LCP and TBT.
 */
export async function lighthouseFigures(options: { runs?: number; log?: (text: string) => void } = {}): Promise<Entry[]> {
  const demo = await startDemo();
  let results: PageResult[];
  try {
    results = await measurePages(demo.url, { pages: DEMO_PAGES, runs: options.runs ?? 3, log: options.log });
  } finally {
    await demo.stop();
  }
  const score = (value: number) => Math.round(value * 100);
  return results.flatMap(({ page, best, runs, shortfalls }) => {
    const others = (['accessibility', 'best-practices', 'seo'] as const).map((id) => Math.min(...runs.map((run) => run[id])));
    const worstCls = Math.max(...runs.map((run) => run.cls));
    return [
      entry({
        name: `lighthouse ${page}: performance`,
        value: score(best.performance),
        unit: 'points',
        baseline: null,
        target: { on: 'value', op: '>=', limit: score(TARGETS.performance) },
        note: `Lighthouse ${LIGHTHOUSE_VERSION}, mobile; best of ${runs.length} run${runs.length === 1 ? '' : 's'} (${runs.map((run) => score(run.performance)).join(', ')}); LCP ${Math.round(best.lcp)} ms, TBT ${Math.round(best.tbt)} ms`,
      }),
      entry({
        name: `lighthouse ${page}: cumulative layout shift`,
        value: worstCls,
        unit: 'CLS',
        baseline: null,
        target: { on: 'value', op: '<=', limit: TARGETS.cls },
        note: 'the largest of every run',
      }),
      entry({
        name: `lighthouse ${page}: accessibility, best practices, SEO`,
        value: Math.min(...others.map(score)),
        unit: 'points',
        baseline: null,
        target: { on: 'value', op: '>=', limit: 100 },
        note: `the lowest of the three on any run: ${others.map(score).join(', ')}${shortfalls.length ? `; ${shortfalls.join('; ')}` : ''}`,
      }),
    ];
  });
}
