#!/usr/bin/env node
/**
 * Lighthouse (mobile preset) on every page of the demo site, as `npm start` serves it: fails unless
 * each page reaches CLS ≤ 0.02, performance ≥ 95 (the best of up to three runs) and 100 for
 * accessibility, best practices and SEO (on every run). Prints the figures per page.
 *
 * `node scripts/lighthouse-check.mjs`; installs Lighthouse into a cache folder the first time
 * (scripts/lighthouse.mjs, docs/decisions/lighthouse-check.md).
 */
import { DEMO_PAGES, failures, formatTable, measurePages, startDemo } from './lighthouse.mjs';

const started = Date.now();
const step = (text) => console.log(`[lighthouse-check ${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);

const pages = process.argv.slice(2).length ? process.argv.slice(2) : DEMO_PAGES;
let failed = false;
let demo;
try {
  step('starting the demo');
  demo = await startDemo();
  step(`measuring ${pages.length} pages of ${demo.url}`);
  const results = await measurePages(demo.url, { pages, log: step });
  console.log(`\n${formatTable(results)}\n`);
  const failing = failures(results);
  for (const line of failing) console.error(line);
  failed = failing.length > 0;
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.stack : error);
} finally {
  await demo?.stop();
}
step(failed ? 'FAILED' : 'passed');
process.exit(failed ? 1 : 0);
