import { spawn } from 'node:child_process';
import { access, readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';

/**
 * axe over every story, in both themes (issue 45). Storybook is built into a temporary folder and
 * served from it; each story is checked as written (most in the light theme), then in the dark theme
 * on the dark background. Play functions run as in Storybook, so the dialog stories are checked with
 * the dialog open; stories tagged `phone` show at 390×844, the others at 1280×800. One browser, with a
 * few pages that each load Storybook's preview once, serves every story.
 */
const root = new URL('../..', import.meta.url).pathname;
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/**
 * Pages checked at once: the stories mostly wait (the stand-in's delays, retries, the background's
 * fade), so eight pages overlap those waits: 48 s against 77 s with four, on two cores.
 */
const PAGES_AT_ONCE = 8;

interface IndexEntry {
  id: string;
  title: string;
  name: string;
  type: 'story' | 'docs';
  tags?: string[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** Serves the built Storybook from `folder` on 127.0.0.1, on a port of the system's choosing. */
async function serve(folder: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)).replace(/^(\.\.[/\\])+/, '');
    readFile(join(folder, path.endsWith('/') ? `${path}index.html` : path)).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** `storybook build` into `folder`, quietly; its output only when it fails. */
function buildStorybook(folder: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules/.bin/storybook'), ['build', '--quiet', '--output-dir', folder], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`storybook build failed (${code}):\n${output}`))));
  });
}

type Channel = { emit(event: string, payload: unknown): void };
type Preview = { currentRender?: { id?: string; phase?: string } };

/** Runs axe over the story's root and answers its violations as `rule: targets` lines. */
function axeViolations(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    type Axe = { run(context: Element, options: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> };
    const axe = (window as unknown as { axe: Axe }).axe;
    const result = await axe.run(document.querySelector('#storybook-root')!, { resultTypes: ['violations'] });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(' ')}`);
  });
}

/** Waits until the story `id` has rendered and its play function has ended; answers how it ended. */
async function rendered(page: Page, id: string): Promise<string> {
  const handle = await page.waitForFunction(
    (id) => {
      const render = (window as unknown as { __STORYBOOK_PREVIEW__?: Preview }).__STORYBOOK_PREVIEW__?.currentRender;
      // Storybook 10 ends a render (its play function included) in `finished`; earlier versions in `completed`.
      return render?.id === id && ['finished', 'completed', 'errored', 'aborted'].includes(render.phase ?? '') ? render.phase : false;
    },
    id,
    { timeout: 20_000, polling: 50 },
  );
  return (await handle.jsonValue()) as string;
}

/** Waits (up to 1 s) until no element in the story says it is busy: what it loads from the stand-in has arrived (a loading story stays busy). */
async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const busy = (node: Document | ShadowRoot): boolean =>
          node.querySelector('[aria-busy="true"]') !== null || [...node.querySelectorAll('*')].some((element) => element.shadowRoot !== null && busy(element.shadowRoot));
        return !busy(document);
      },
      undefined,
      { timeout: 1_000, polling: 50 },
    )
    .catch(() => undefined);
}

/**
 * Waits until the page shows the story's own background: Storybook's backgrounds addon paints the
 * story's `backgrounds` global (a dark section's, say) only after its render has ended, and fades it in
 * over 0.3 s, so a story checked just after a dark one would otherwise be read over the dark page.
 */
async function ownBackground(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      type Story = { storyGlobals?: { backgrounds?: { value?: string } }; parameters?: { backgrounds?: { options?: Record<string, { value: string }> } } };
      const story = (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { story?: Story } } }).__STORYBOOK_PREVIEW__?.currentRender?.story;
      const wanted = story?.parameters?.backgrounds?.options?.[story.storyGlobals?.backgrounds?.value ?? 'page']?.value;
      if (!wanted) return true;
      const probe = document.createElement('i');
      probe.style.backgroundColor = wanted;
      document.body.append(probe);
      const expected = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return getComputedStyle(document.body).backgroundColor === expected && document.body.getAnimations().length === 0;
    },
    undefined,
    { timeout: 5_000, polling: 50 },
  );
}

/**
 * Shows one story in `page` the way Storybook's own sidebar does (through the preview's channel, so
 * the preview loads once per page), checks it as written, then switches it to the dark theme on the
 * stories' dark background (#090d16) and checks it again in the state its play function left (a dialog stays open).
 */
async function storyViolations(page: Page, entry: IndexEntry): Promise<string[]> {
  await page.setViewportSize(entry.tags?.includes('phone') ? { width: 390, height: 844 } : { width: 1280, height: 800 });
  const emit = (event: string, payload: unknown) =>
    page.evaluate(([event, payload]) => (window as unknown as { __STORYBOOK_ADDONS_CHANNEL__: Channel }).__STORYBOOK_ADDONS_CHANNEL__.emit(event as string, payload), [event, payload] as const);
  await page.evaluate(() => document.getElementById('dark-page')?.remove());
  await emit('setCurrentStory', { storyId: entry.id, viewMode: 'story' });
  const phase = await rendered(page, entry.id);
  if (phase !== 'finished' && phase !== 'completed') return [`as written: story ${phase}`];
  await ownBackground(page);
  await settled(page);
  const found = (await axeViolations(page)).map((violation) => `as written: ${violation}`);

  // The stories' dark background (`backgrounds` global `dark`), painted by the check itself so that
  // no global outlives its story: over the backgrounds addon's own `.sb-show-main` rule, at once.
  await page.evaluate(() =>
    document.head.append(
      Object.assign(document.createElement('style'), { id: 'dark-page', textContent: 'body.sb-show-main, body { background: #090d16 !important; transition: none !important; }' }),
    ),
  );
  const darkPage = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  if (darkPage !== 'rgb(9, 13, 22)') return [...found, `dark: the page behind the story is ${darkPage}, not the dark background`];
  // A story whose render takes no `theme` (a page form around the element, say) is checked on the dark page as it stands.
  const themed = await page.evaluate(() => {
    const story = (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { story?: { initialArgs?: object; argTypes?: object } } } }).__STORYBOOK_PREVIEW__?.currentRender?.story;
    return !story || 'theme' in (story.initialArgs ?? {}) || 'theme' in (story.argTypes ?? {});
  });
  if (themed) {
    await emit('updateStoryArgs', { storyId: entry.id, updatedArgs: { theme: 'dark' } });
    await page.waitForFunction(() => document.querySelector('#storybook-root [theme="dark"]'), undefined, { timeout: 2_000 }).catch(() => undefined);
  }
  await rendered(page, entry.id);
  await settled(page);
  return [...found, ...(await axeViolations(page)).map((violation) => `dark: ${violation}`)];
}

describe('axe over every story', () => {
  let folder: string | undefined;
  let site: { server: Server; url: string };
  let browser: Browser;
  let stories: IndexEntry[];

  beforeAll(async () => {
    // `npm test` has built Storybook already (scripts/test.sh names the folder); run alone, the test builds its own.
    const built = process.env.INVOICEKIT_STORYBOOK_BUILT;
    if (built) [browser] = await Promise.all([launchChromium(), access(join(built, 'index.json'))]);
    else {
      folder = await mkdtemp(join(tmpdir(), 'invoicekit-storybook-'));
      [browser] = await Promise.all([launchChromium(), buildStorybook(folder)]);
    }
    const served = built ?? folder!;
    site = await serve(served);
    const index = JSON.parse(await readFile(join(served, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> };
    stories = Object.values(index.entries).filter((entry) => entry.type === 'story');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('finds no violation in any story, in the light theme and the dark', async () => {
    expect(stories.length).toBeGreaterThan(90);
    for (const id of ['elements-product-pay-button--dark-section-dialog', 'elements-product-pay-button--reverse-charge', 'elements-product-pay-button--company-form-phone', 'elements-invoice-list--ksef-detail-phone', 'elements-product-pay-button--unknown-product-polish']) {
      expect(stories.map((story) => story.id)).toContain(id);
    }
    const context = await browser.newContext();
    const found: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PAGES_AT_ONCE }, async () => {
        const page = await context.newPage();
        await page.goto(`${site.url}/iframe.html?id=${stories[0]!.id}&viewMode=story`);
        await rendered(page, stories[0]!.id);
        await page.evaluate(await axeSource);
        while (next < stories.length) {
          const entry = stories[next++]!;
          for (const violation of await storyViolations(page, entry)) found.push(`${entry.id} ${violation}`);
        }
      }),
    );
    await context.close();
    expect(found.sort()).toEqual([]);
  }, 240_000);
});
