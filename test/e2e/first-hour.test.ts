import { describe, expect, it, vi } from 'vitest';
import { demoForThisFile, startJourney } from './support/demo.js';

/** What a newcomer meets in the demo's first minutes, in Chromium: keyboard, phone, and the live list. */
vi.setConfig({ testTimeout: 120_000 });
const demo = demoForThisFile();

const PAGES = ['/', '/shop.html', '/portal.html', '/account.html', '/how-it-works.html'];

describe('the demo’s frame', () => {
  it('offers a skip link as the first stop of the keyboard on every page, in both languages', async () => {
    const { page, context, errors } = await startJourney(demo(), 'skip-link');
    for (const path of PAGES) {
      await page.goto(`${demo().url}${path}`, { waitUntil: 'load' });
      await page.keyboard.press('Tab');
      const first = await page.evaluate(() => {
        const link = document.activeElement as HTMLAnchorElement;
        const box = link.getBoundingClientRect();
        return { text: link.textContent, href: link.getAttribute('href'), visible: box.top >= 0 && box.height > 0 };
      });
      expect(first, path).toEqual({ text: 'Skip to content', href: '#content', visible: true });
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.localName)).toBe('main');
      // The next Tab goes on from the content, not from the header.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('header')))).toBe(false);
    }
    await page.selectOption('#language', 'pl');
    expect(await page.textContent('.skip-link')).toBe('Przejdź do treści');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows every page of the header, Outbox included, on a phone', async () => {
    const { page, context } = await startJourney(demo(), 'phone-nav', { width: 360, height: 740 });
    for (const path of PAGES) {
      await page.goto(`${demo().url}${path}`, { waitUntil: 'load' });
      const links = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('header nav a')].map((link) => {
          const box = link.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return { text: link.textContent, inside: box.left >= 0 && box.right <= innerWidth && box.width > 0, onTop: hit === link || link.contains(hit) };
        }),
      );
      expect(links.map((link) => link.text), path).toContain('Outbox');
      for (const link of links) expect(link, `${path}: ${link.text}`).toMatchObject({ inside: true, onTop: true });
    }
    await context.close();
  });
});

describe('the outbox link', () => {
  it('is made afresh when the pointer or the keyboard comes to it, and an old one says it expired', async () => {
    const { page, context } = await startJourney(demo(), 'outbox-link');
    await page.goto(`${demo().url}/shop.html`, { waitUntil: 'load' });
    const outbox = page.locator('header a[data-service-link="outbox"]');
    await expect.poll(() => outbox.getAttribute('href')).toContain('key=');
    const asked: string[] = [];
    page.on('request', (request) => request.url().endsWith('/demo-api/config') && asked.push(request.url()));
    await outbox.focus();
    await expect.poll(() => asked.length).toBe(1);
    const fresh = (await outbox.getAttribute('href'))!;

    // A link whose key no longer holds (older than 15 minutes, or altered) says so instead of a bare 401.
    const stale = new URL(fresh);
    const [account, expires, mac] = stale.searchParams.get('key')!.split('.');
    stale.searchParams.set('key', `${account}.${Number(expires) - 3600}.${mac}`);
    const answer = await page.goto(stale.href);
    expect(answer!.status()).toBe(401);
    expect(await page.textContent('h1')).toBe('This outbox link has expired');
    // The fresh one opens the outbox.
    const opened = await page.goto(fresh);
    expect(opened!.status()).toBe(200);
    expect(await page.textContent('h1')).not.toContain('expired');
    await context.close();
  });
});

describe('the shop', () => {
  it('shows the “Test mode” badge in the same corner of every card', async () => {
    const { page, context } = await startJourney(demo(), 'test-badge');
    await page.goto(`${demo().url}/shop.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => [...document.querySelectorAll('.product product-pay-button')].every((button) => button.shadowRoot?.querySelector('[part~="test-badge"]')));
    const corners = await page.evaluate(() =>
      [...document.querySelectorAll('.product')].map((card) => {
        const badge = card.querySelector('product-pay-button')!.shadowRoot!.querySelector('[part~="test-badge"]')!.getBoundingClientRect();
        const box = card.getBoundingClientRect();
        return { top: Math.round(badge.top - box.top), right: Math.round(box.right - badge.right) };
      }),
    );
    expect(corners.length).toBeGreaterThan(3);
    expect(new Set(corners.map((corner) => JSON.stringify(corner))).size, JSON.stringify(corners)).toBe(1);
    await context.close();
  });
});

describe('the portal', () => {
  it('says what the customer owes once', async () => {
    const { page, context } = await startJourney(demo(), 'owed-once');
    await page.goto(`${demo().url}/portal.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('invoice-list')!.shadowRoot?.querySelector('[part~="row"]'));
    await page.waitForSelector('#owed .owed-card .amount');
    const shown = await page.evaluate(() => {
      const visible = (node: Element | null | undefined) => Boolean(node && (node as HTMLElement).offsetParent !== null && node.getBoundingClientRect().height > 0);
      return {
        cards: [...document.querySelectorAll('#owed .owed-card .amount')].filter(visible).length,
        // The list still renders its line, for pages that have no cards of their own; this page hides it by its part.
        listTotalsRendered: Boolean(document.querySelector('invoice-list')!.shadowRoot!.querySelector('[part~="totals"]')),
        listTotalsVisible: visible(document.querySelector('invoice-list')!.shadowRoot!.querySelector('[part~="totals"]')),
      };
    });
    expect(shown.cards).toBeGreaterThan(0);
    expect(shown).toMatchObject({ listTotalsRendered: true, listTotalsVisible: false });
    await context.close();
  });

  it('opens its event stream with a ticket, never with the portal token in the URL', async () => {
    const { page, context } = await startJourney(demo(), 'events-ticket');
    const streams: string[] = [];
    const tickets: { authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/bff/events/ticket')) tickets.push({ authorization: request.headers()['authorization'] });
      else if (request.url().includes('/bff/events')) streams.push(request.url());
    });
    await page.goto(`${demo().url}/portal.html`, { waitUntil: 'load' });
    await expect.poll(() => streams.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const token = await page.evaluate(() => document.querySelector('invoice-list')!.getAttribute('portal-token'));
    expect(token).toBeTruthy();
    // The ticket is bought with the signed-in customer's portal token, in a header: the one the list
    // holds (rendered with the page) or the session's own, both the same customer's.
    const bearer = /^Bearer ([\w-]+\.([\w-]+)\.[\w-]+)$/.exec(tickets[0]?.authorization ?? '');
    expect(bearer).not.toBeNull();
    const subject = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
    expect(subject(bearer![1]!)).toBe(subject(token!));
    const url = new URL(streams[0]!);
    expect([...url.searchParams.keys()]).toEqual(['ticket']);
    expect(streams[0]).not.toContain(token!);
    expect(streams[0]).not.toContain(bearer![1]!);
    expect(streams[0]).not.toContain('portal_token');
    await context.close();
  });
});

describe('the portal’s address', () => {
  it('keeps the filter, search and page in the URL: Reload keeps them, Back walks them back', async () => {
    const { page, context, errors } = await startJourney(demo(), 'portal-url');
    const list = page.locator('invoice-list');
    const footer = list.locator('[part~="pagination"] p');
    const query = () => new URL(page.url()).search;
    const settled = () => expect.poll(() => list.locator('[part~="frame"]').getAttribute('aria-busy')).toBe('false');
    const firstNumber = async () => (await list.locator('[part~="row"] [part~="number"]').first().textContent())!.trim();
    await page.goto(`${demo().url}/portal.html`, { waitUntil: 'load' });
    await page.selectOption('#customer', 'cust-1006');
    await expect.poll(() => footer.textContent(), { timeout: 20_000 }).toMatch(/^Showing 1–25 of \d+$/);
    const total = /of (\d+)/.exec((await footer.textContent())!)![1];

    // Page 2.
    await list.locator('[part~="page-button"]').nth(1).click();
    await expect.poll(query).toBe('?page=2');
    await expect.poll(() => footer.textContent()).toBe(`Showing 26–50 of ${total}`);
    const secondPageFirst = await firstNumber();
    await page.reload({ waitUntil: 'load' });
    await expect.poll(() => footer.textContent(), { timeout: 20_000 }).toBe(`Showing 26–50 of ${total}`);
    expect(await firstNumber()).toBe(secondPageFirst);

    // A status filter starts again from page 1, and the URL says only what differs from the defaults.
    await list.locator('.chip').filter({ hasText: /^Paid$/ }).click();
    await expect.poll(query).toBe('?status=paid');
    await settled();
    const paidFirst = await firstNumber();

    // A search on top of it.
    const search = list.locator('input[type="search"]');
    await search.fill(paidFirst);
    await search.press('Enter');
    await expect.poll(query).toBe(`?${new URLSearchParams({ status: 'paid', search: paidFirst })}`);
    await expect.poll(() => list.locator('[part~="row"]').count()).toBe(1);
    await page.reload({ waitUntil: 'load' });
    await expect.poll(() => list.locator('[part~="row"]').count(), { timeout: 20_000 }).toBe(1);
    expect(await firstNumber()).toBe(paidFirst);
    expect(await search.inputValue()).toBe(paidFirst);
    expect(await list.locator('.chip', { hasText: /^Paid$/ }).locator('input').isChecked()).toBe(true);

    // Back: the search goes, the filter stays; then the filter goes and page 2 comes back; then the start.
    await page.goBack();
    await expect.poll(query).toBe('?status=paid');
    await expect.poll(() => search.inputValue()).toBe('');
    await settled();
    expect(await firstNumber()).toBe(paidFirst);
    expect(await list.locator('[part~="row"]').count()).toBeGreaterThan(1);
    await page.goBack();
    await expect.poll(query).toBe('?page=2');
    await expect.poll(() => footer.textContent()).toBe(`Showing 26–50 of ${total}`);
    expect(await firstNumber()).toBe(secondPageFirst);
    expect(await list.locator('.chip', { hasText: /^All$/ }).locator('input').isChecked()).toBe(true);
    await page.goBack();
    await expect.poll(query).toBe('');
    await expect.poll(() => footer.textContent()).toBe(`Showing 1–25 of ${total}`);
    // Forward again, and the list follows.
    await page.goForward();
    await expect.poll(() => footer.textContent()).toBe(`Showing 26–50 of ${total}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('makes one history entry for a search typed in pauses', async () => {
    const { page, context } = await startJourney(demo(), 'portal-url-typing');
    const list = page.locator('invoice-list');
    await page.goto(`${demo().url}/portal.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('invoice-list')!.shadowRoot?.querySelector('[part~="row"]'));
    const length = await page.evaluate(() => history.length);
    const search = list.locator('input[type="search"]');
    await search.pressSequentially('FV');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('FV');
    await search.pressSequentially('/0');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('FV/0');
    expect(await page.evaluate(() => history.length)).toBe(length + 1);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => search.inputValue()).toBe('');
    await context.close();
  });
});
