/**
 * Lighthouse on the demo site, shared by `scripts/lighthouse-check.mjs` (which fails below the targets)
 * and the benchmark (`npm run bench`, which reports the figures). Lighthouse is not a dependency of the
 * project (about 186 MB): it is installed pinned into a cache folder the first time, as the Next.js
 * check installs Next.js. Lighthouse 12.8 is the newest release that runs on Node 20.
 *
 * Every page is measured with Lighthouse's default settings: the mobile preset (a phone's screen,
 * simulated slow 4G and a 4× slower CPU). Performance is the best of up to `runs` runs
 * (docs/decisions/lighthouse-check.md); every other figure must hold on every run.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

export const LIGHTHOUSE_VERSION = '12.8.2';

/** Every page of the demo site. */
export const DEMO_PAGES = ['/', '/shop.html', '/portal.html', '/account.html', '/how-it-works.html'];

/** What every demo page must reach (scores from 0 to 1, CLS unitless). */
export const TARGETS = { performance: 0.95, accessibility: 1, 'best-practices': 1, seo: 1, cls: 0.02 };

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Lighthouse's modules, installed into `INVOICEKIT_LIGHTHOUSE_DIR` (default: a folder in the temp dir) unless already there. */
export async function loadLighthouse(dir = process.env.INVOICEKIT_LIGHTHOUSE_DIR || join(tmpdir(), `invoicekit-lighthouse-${LIGHTHOUSE_VERSION}`)) {
  const entry = join(dir, 'node_modules/lighthouse/core/index.js');
  if (!existsSync(entry)) {
    await mkdir(dir, { recursive: true });
    await run('npm', ['install', '--prefix', dir, `lighthouse@${LIGHTHOUSE_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error', '--no-save'], { timeout: 300_000 });
  }
  const { default: lighthouse } = await import(pathToFileURL(entry).href);
  const launcher = await import(pathToFileURL(join(dir, 'node_modules/chrome-launcher/dist/index.js')).href);
  return { lighthouse, launch: launcher.launch };
}

/**
 * `invoicekit dev` from the sources on ephemeral ports with a fresh data folder, as `npm start` runs
 * it. Resolves with the site's address once it answers; `stop()` ends it and removes the folder.
 */
export async function startDemo() {
  const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-lighthouse-demo-'));
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'src/cli.ts'), 'dev', '--port', '0', '--service-port', '0', '--ksef-local-port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((exited) => child.once('exit', exited));
    }
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    const url = await new Promise((found, failed) => {
      const timer = setTimeout(() => failed(new Error(`the demo did not start:\n${output}`)), 180_000);
      const read = (chunk) => {
        output += chunk;
        const match = /invoicekit demo on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          found(match[1]);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        failed(new Error(`the demo exited with ${code}:\n${output}`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One Lighthouse run's figures: the four category scores (0–1), CLS, and LCP and TBT in milliseconds. */
function figures(lhr) {
  const score = (id) => lhr.categories[id]?.score ?? 0;
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = (id) =>
    lhr.categories[id].auditRefs.filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1).map((ref) => ref.id);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    cls: audit('cumulative-layout-shift'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    failing: Object.fromEntries(['accessibility', 'best-practices', 'seo'].map((id) => [id, failing(id)]).filter(([, ids]) => ids.length)),
    runtimeError: lhr.runtimeError?.message,
    // What moved, for a page over its CLS target: the shifted elements as Lighthouse names them.
    shifted: (lhr.audits['layout-shifts']?.details?.items ?? []).map((item) => `${item.node?.selector ?? item.node?.snippet ?? '?'} ${Number(item.score).toFixed(3)}`),
  };
}

/** What falls short of the targets in one run (performance is judged on the best run, not here). */
export function shortfalls(result) {
  const short = [];
  for (const id of ['accessibility', 'best-practices', 'seo']) if (result[id] < TARGETS[id]) short.push(`${id} ${result[id]}${result.failing[id] ? ` (${result.failing[id].join(', ')})` : ''}`);
  if (!(result.cls <= TARGETS.cls)) short.push(`CLS ${result.cls.toFixed(3)}${result.shifted.length ? ` (${result.shifted.join(', ')})` : ''}`);
  if (result.runtimeError) short.push(result.runtimeError);
  return short;
}

/**
 * Runs Lighthouse on each page of `baseUrl`, up to `runs` times, stopping early once performance
 * reaches its target. Answers, per page, the run with the best performance, every run's figures and
 * every run's shortfalls.
 */
export async function measurePages(baseUrl, { pages = DEMO_PAGES, runs = 3, log = () => {} } = {}) {
  const { lighthouse, launch } = await loadLighthouse();
  const chromePath = process.env.CHROME_PATH || CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!chromePath) throw new Error('No Chromium found. Install it (on Debian: apt-get install chromium-headless-shell) or set CHROME_PATH.');
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  const results = [];
  try {
    for (const page of pages) {
      const all = [];
      for (let attempt = 0; attempt < runs; attempt += 1) {
        const answer = await lighthouse(new URL(page, baseUrl).href, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
        const result = figures(answer.lhr);
        all.push(result);
        log(`${page} run ${attempt + 1}: performance ${result.performance}, CLS ${result.cls.toFixed(3)}`);
        if (result.performance >= TARGETS.performance) break;
      }
      const best = all.reduce((a, b) => (b.performance > a.performance ? b : a));
      results.push({ page, best, runs: all, shortfalls: [...new Set(all.flatMap(shortfalls))] });
    }
  } finally {
    await chrome.kill();
  }
  return results;
}

/** The figures as a table: the four scores ×100, CLS, LCP and TBT, and the number of runs. */
export function formatTable(results) {
  const rows = [['page', 'perf', 'a11y', 'best pr.', 'SEO', 'CLS', 'LCP', 'TBT', 'runs']];
  for (const { page, best, runs } of results) {
    rows.push([
      page,
      ...['performance', 'accessibility', 'best-practices', 'seo'].map((id) => String(Math.round(best[id] * 100))),
      best.cls.toFixed(3),
      `${Math.round(best.lcp)} ms`,
      `${Math.round(best.tbt)} ms`,
      String(runs.length),
    ]);
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n');
}

/** Whether every page met every target: performance on its best run, the rest on every run. */
export function failures(results) {
  const failed = [];
  for (const { page, best, shortfalls: short } of results) {
    const problems = [...short];
    if (best.performance < TARGETS.performance) problems.unshift(`performance ${best.performance} at best`);
    if (problems.length) failed.push(`${page}: ${problems.join('; ')}`);
  }
  return failed;
}
