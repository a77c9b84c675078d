import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overflowingElements, type RunningDemo, startDemo, startJourney } from './support/demo.js';

/**
 * Every journey a newcomer takes through `npm start`, in Chromium, on one demo started for this file.
 */
let demo: RunningDemo;

beforeAll(async () => {
  demo = await startDemo();
}, 180_000);

afterAll(async () => {
  await demo?.stop();
});

const PAGES = ['/', '/shop.html', '/portal.html', '/account.html', '/how-it-works.html'];

describe('every demo page', () => {
  for (const width of [375, 1280]) {
    it(`loads at ${width} px without console errors and with nothing wider than the viewport`, async () => {
      const { page, errors, context } = await startJourney(demo, `pages-${width}`, { width, height: 800 });
      for (const path of PAGES) {
        await page.goto(`${demo.url}${path}`, { waitUntil: 'networkidle' });
        // The elements have rendered their data, not a skeleton, before the layout is measured.
        await page.waitForFunction(() => !document.querySelector('invoice-list') || document.querySelector('invoice-list')!.shadowRoot?.querySelector('[part~="row"]'));
        expect(await page.title()).toMatch(/invoicekit demo/);
        expect(await overflowingElements(page), `${path} at ${width} px`).toEqual([]);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('reads in Polish, page and elements alike', async () => {
    const { page, errors, context } = await startJourney(demo, 'polish');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'networkidle' });
    await page.selectOption('#language', 'pl');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Twoje konto');
    await expect.poll(() => page.locator('invoice-list').getAttribute('locale')).toBe('pl');
    await page.goto(`${demo.url}/`, { waitUntil: 'networkidle' });
    expect(await page.locator('html').getAttribute('lang')).toBe('pl');
    expect(await page.locator('nav a[href="/shop.html"]').textContent()).toBe('Sklep');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the customer portal', () => {
  it('shows one customer only their own invoices, and what they owe', async () => {
    const { page, errors, context } = await startJourney(demo, 'isolation');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'networkidle' });
    const numbers = () =>
      page.locator('invoice-list [part~="row"] [part~="number"]').allTextContents().then((all) => all.map((text) => text.trim()));
    await expect.poll(numbers, { timeout: 20_000 }).not.toEqual([]);
    const first = await numbers();
    await expect.poll(() => page.locator('.owed-card, .settled').count()).toBeGreaterThan(0);

    const customers = await page.locator('#customer option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(customers.length).toBeGreaterThan(2);
    await page.selectOption('#customer', customers[1]!);
    await expect.poll(async () => (await numbers()).join(), { timeout: 20_000 }).not.toBe(first.join());
    const second = await numbers();
    expect(second.filter((number) => first.includes(number))).toEqual([]);

    // Each portal token reaches only its own customer's invoices, whatever the page asks for.
    const session = async (customer: string) =>
      (await (await fetch(`${demo.url}/demo-api/session?customer=${customer}`)).json()) as { token: string };
    const [a, b] = await Promise.all([session(customers[0]!), session(customers[1]!)]);
    const list = async (token: string) =>
      (await (await fetch(`${demo.url}/bff/invoices?per_page=100`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        data: { id: number }[];
      };
    const ofA = (await list(a.token)).data.map((invoice) => invoice.id);
    for (const id of ofA.slice(0, 5)) {
      const response = await fetch(`${demo.url}/bff/invoices/${id}`, { headers: { authorization: `Bearer ${b.token}` } });
      expect(response.status).toBe(404);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has a customer with enough invoices to page through', async () => {
    const { page, errors, context } = await startJourney(demo, 'paging');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'networkidle' });
    await page.selectOption('#customer', 'cust-1006');
    const status = page.locator('invoice-list').locator('[part~="summary"], [part~="pagination"]').first();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/of (6[0-9]|[7-9][0-9])/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
