import { expect } from '@open-wc/testing';
import type { InvoiceList } from '../../../src/elements/invoice-list/invoice-list.js';
import { rows, shadow } from './portal.js';

/**
 * The list as a page loads it, built (`npm run build` writes it; `npm test` builds first): the KSeF
 * detail is a chunk of its own there, `dist/elements/shared/ksef-detail-<hash>.js`.
 */
export async function loadBuiltList(): Promise<void> {
  const built = '/dist/elements/invoice-list.js';
  await import(/* @vite-ignore */ built).catch((error: unknown) => expect.fail(`${built} did not load (run npm run build): ${String(error)}`));
}

/** How many times the page has fetched the KSeF detail's chunk (the browser's own resource timing). */
export const detailRequests = () =>
  performance.getEntriesByType('resource').filter((entry) => /\/dist\/elements\/shared\/ksef-detail-[\w-]+\.js$/.test(new URL(entry.name).pathname)).length;

export const toggleOf = (el: InvoiceList, number: string) =>
  rows(el)
    .find((row) => row.querySelector('th')!.textContent!.trim().startsWith(number))!
    .querySelector<HTMLButtonElement>('[part~="ksef-toggle"]')!;
export const panelOf = (toggle: HTMLButtonElement) => (toggle.getRootNode() as ShadowRoot).getElementById(toggle.getAttribute('aria-controls')!)!;
export const values = (panel: Element) => [...panel.querySelectorAll('dd')].map((dd) => dd.textContent!.trim());

/**
 * What `look` sees right after the render that changes the toggle's `aria-expanded`: in the task of
 * the click, before any module the opening asked for can have arrived over the network. Called before
 * the click or key press.
 */
export const atNextExpanded = <T>(toggle: HTMLButtonElement, look: () => T) =>
  new Promise<T>((resolve) =>
    new MutationObserver((_, observer) => {
      observer.disconnect();
      resolve(look());
    }).observe(toggle, { attributes: true, attributeFilter: ['aria-expanded'] }),
  );

/** Where a box is and how big, rounded to the pixel. */
export const box = (node: Element) => {
  const { top, left, width, height } = node.getBoundingClientRect();
  return [top, left, width, height].map(Math.round);
};

export { shadow };
