import { describe, expect, it } from 'vitest';
import { demoForThisFile, startJourney } from './support/demo.js';

/**
 * `npm start` points the demo account's portal address at the demo portal, and the portal opens
 * the customer a `?customer=<client id>` names: the back office's "Open portal view" lands on that
 * customer's invoices.
 */
const demo = demoForThisFile();

describe("the demo portal opened for one customer", () => {
  it("is the demo account's portal address, and views as the customer the link names", async () => {
    const { url, serviceUrl, apiToken } = demo();
    const departments = (await (await fetch(`${serviceUrl}/departments.json?api_token=${apiToken}`)).json()) as { main: boolean; portal_url: string | null }[];
    expect(departments.find((department) => department.main)?.portal_url).toBe(`${url}/portal.html?customer={client_id}`);

    const customers = (await (await fetch(`${url}/demo-api/customers`)).json()) as { id: string; client_id: number; name: string }[];
    expect(customers.length).toBeGreaterThan(1);
    const last = customers.at(-1)!;

    const { page, errors, context } = await startJourney(demo(), 'portal-link');
    await page.goto(`${url}/portal.html?customer=${last.client_id}`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('#customer').inputValue()).toBe(last.id);
    expect(await page.locator('#customer option:checked').textContent()).toBe(last.name);
    // The choice stays: the portal opened again without the link still views as that customer.
    await page.goto(`${url}/portal.html`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('#customer').inputValue()).toBe(last.id);
    expect(errors).toEqual([]);
    await context.close();
  });
});
