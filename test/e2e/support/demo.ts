import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { launchChromium } from '../../helpers/chromium.js';

/**
 * The demo exactly as `npm start` runs it (`invoicekit dev`, on a fresh data dir and free ports),
 * and Debian's Chromium driven by playwright-core, as a shopper or a customer would use them.
 */
export interface RunningDemo {
  url: string;
  serviceUrl: string;
  apiToken: string;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startDemo(): Promise<RunningDemo> {
  const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', 'dev', '--port', '0', '--service-port', '0', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, INVOICEKIT_DEMO_PORT: '', PORT: '' } },
  );
  let output = '';
  const ready = await new Promise<{ url: string; serviceUrl: string; apiToken: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${output}`)), 150_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /invoicekit demo on (\S+)/.exec(output)?.[1];
      const serviceUrl = /invoicing service listening on (\S+)/.exec(output)?.[1];
      const apiToken = /Service\s+\S+ \(api token (\S+)\)/.exec(output)?.[1];
      if (url && serviceUrl && apiToken) {
        clearTimeout(timer);
        resolve({ url, serviceUrl, apiToken });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  const browser = await launchChromium();
  return {
    ...ready,
    browser,
    async stop() {
      await browser.close().catch(() => undefined);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One demo for the whole test file, started before its first test and stopped after its last. */
export function demoForThisFile(): () => RunningDemo {
  let demo: RunningDemo | undefined;
  beforeAll(async () => {
    demo = await startDemo();
  }, 180_000);
  afterAll(async () => {
    await demo?.stop();
  });
  return () => demo!;
}

export interface Journey {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far, on every page of the journey. */
  errors: string[];
}

/**
 * A fresh browser context for one journey. Everything the page logs as an error is collected, and a
 * failing journey leaves a screenshot of where it stood in `test-results/`.
 */
export async function startJourney(demo: Pick<RunningDemo, 'browser'>, name: string, viewport = { width: 1280, height: 900 }): Promise<Journey> {
  const context = await demo.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  context.on('page', (opened) => watch(opened, errors));
  watch(page, errors);
  onTestFailed(async () => {
    await mkdir('test-results', { recursive: true });
    for (const [index, open] of context.pages().entries()) {
      await open.screenshot({ path: join('test-results', `${name}-${index}.png`), fullPage: true }).catch(() => undefined);
    }
  });
  return { context, page, errors };
}

function watch(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
}

/** Elements that reach past the viewport's right edge, ignoring content inside scrolling boxes. */
export function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (node: Element) => {
      const parentOf = (at: Element) => at.parentElement ?? ((at.getRootNode() as ShadowRoot).host || null);
      for (let at = parentOf(node); at; at = parentOf(at)) {
        const style = getComputedStyle(at);
        if (/(auto|scroll|hidden|clip)/.test(style.overflowX)) return true;
      }
      return false;
    };
    const offenders: string[] = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const node of root.querySelectorAll('*')) {
        const box = node.getBoundingClientRect();
        if (box.width > 0 && box.right > width + 1 && !scrolls(node)) offenders.push(`${node.tagName.toLowerCase()}.${node.className}`);
        if (node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(document);
    if (document.documentElement.scrollWidth > width + 1) offenders.push(`document is ${document.documentElement.scrollWidth}px wide`);
    return offenders;
  });
}
