import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** The widths the back office is checked at: a desktop and a phone. */
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
export type Width = keyof typeof WIDTHS;

let axeSource: Promise<string> | undefined;
function axeScript(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/**
 * A browser signed in to the back office: the session's cookie set as the server set it, and the
 * language the shell remembers put in `localStorage` before any page runs.
 */
export async function signedInContext(browser: Browser, serviceUrl: string, cookie: string, options: { lang?: 'en' | 'pl'; width?: Width } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: WIDTHS[options.width ?? 'desktop'] });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: `${serviceUrl}/admin/` }]);
  const lang = options.lang ?? 'en';
  await context.addInitScript((chosen) => localStorage.setItem('invoicekit-admin-lang', chosen), lang);
  return context;
}

/**
 * The violations axe finds in the view `tag` (inside the shell's shadow root) as it stands, its own
 * shadow roots included, as `rule: targets` lines. The shell around it has its own checks. axe is
 * evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page, tag: string): Promise<string[]> {
  await page.evaluate(await axeScript());
  return page.evaluate(async (view) => {
    type Axe = { run(context: object, options: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> };
    const axe = (window as unknown as { axe: Axe }).axe;
    const result = await axe.run({ include: [['ik-admin-app', view]] }, { resultTypes: ['violations'] });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(' ')}`);
  }, tag);
}

/** Waits until `check` holds, asking again every 100 ms for at most `ms`; answers its last value. */
export async function until<T>(check: () => Promise<T>, holds: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await check();
  while (!holds(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await check();
  }
  return value;
}
