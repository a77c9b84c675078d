import { waitUntil } from '@open-wc/testing';
import type { InvoiceList } from '../../../src/elements/invoice-list/invoice-list.js';
import type { PortalFixtureInfo, SeededInvoice } from './portal-fixture.js';

let info: Promise<PortalFixtureInfo> | undefined;

/** Where the real BFF listens, the portal tokens and the invoices seeded for each customer. */
export function portal(): Promise<PortalFixtureInfo> {
  info ??= fetch('/__portal/info').then((response) => response.json() as Promise<PortalFixtureInfo>);
  return info;
}

export const shadow = (el: InvoiceList) => el.shadowRoot!;
export const frame = (el: InvoiceList) => shadow(el).querySelector<HTMLElement>('[part~="frame"]')!;
export const rows = (el: InvoiceList) => [...shadow(el).querySelectorAll<HTMLTableRowElement>('tr[data-row]')];
export const numbers = (el: InvoiceList) => rows(el).map((row) => row.querySelector('th')!.textContent!.trim());
export const statuses = (el: InvoiceList) => rows(el).map((row) => row.querySelector('.badge')!.classList[1]);
export const footer = (el: InvoiceList) => shadow(el).querySelector('[part~="pagination"] p')?.textContent?.trim();
export const announcement = (el: InvoiceList) => shadow(el).querySelector('[role="status"]')!.textContent!.trim();

/** Waits until every requested render is done and the list is no longer fetching. */
export async function settled(el: InvoiceList): Promise<void> {
  while (!(await el.updateComplete));
  await waitUntil(() => frame(el)?.getAttribute('aria-busy') === 'false', 'the list kept loading', { timeout: 15_000 });
  while (!(await el.updateComplete));
}

/** How many list requests the page has made so far (the browser's own resource timing). */
export const listRequests = () => listEntries().length;

const listEntries = () => performance.getEntriesByType('resource').filter((entry) => /\/bff\/invoices(\?|$)/.test(entry.name)) as PerformanceResourceTiming[];

/**
 * Waits for `done`, and if it does not come, says which list requests ended since `since` (a
 * `performance.now()`), with their status and time, so that a failure under load tells a slow
 * answer from a failed one; and what the list shows at the end: its scroll position and the rows it
 * rendered, so that rows that never landed tell from a window that rests elsewhere.
 */
export async function waitForRows(el: InvoiceList, done: () => boolean, message: string, timeout: number, since: number): Promise<void> {
  try {
    await waitUntil(done, message, { timeout });
  } catch (error) {
    const ended = listEntries()
      .filter((entry) => entry.responseEnd >= since)
      .map((entry) => `${new URL(entry.name).search} ${entry.responseStatus ?? '?'} in ${Math.round(entry.duration)} ms`);
    throw new Error(`${(error as Error).message}; list requests that ended since: ${ended.join(', ') || 'none'}; ${shown(el)}`);
  }
}

/** Where a scrolling list rests and what it rendered there, in words. */
function shown(el: InvoiceList): string {
  const scroller = shadow(el).querySelector<HTMLElement>('.scrolling');
  const indexed = [...shadow(el).querySelectorAll<HTMLElement>('tr[data-index]')];
  const indices = indexed.map((row) => Number(row.dataset['index']));
  const placeholders = indexed.filter((row) => !row.hasAttribute('data-row')).length;
  const position = scroller ? `scrollTop ${Math.round(scroller.scrollTop)} of ${scroller.scrollHeight - scroller.clientHeight}` : 'no scroller';
  const range = indices.length ? `rows ${Math.min(...indices)} to ${Math.max(...indices)}` : 'no rows';
  return `${position}, ${range} rendered, ${placeholders} of them placeholders, last number shown ${numbers(el).at(-1) ?? 'none'}`;
}

export const byIssueDateDesc = (a: SeededInvoice, b: SeededInvoice) => b.issue_date.localeCompare(a.issue_date) || b.id - a.id;
export const cents = (amount: string) => Math.round(Number(amount) * 100);
