import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { html, type TemplateResult } from 'lit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/elements/product-pay-button/define.js';
import '../../src/elements/invoice-list/define.js';
import { ClientForm } from '../../src/elements/client-form/define.js';

/**
 * The elements' first render on a server, in Node with no DOM, as Lit's server renderer does it under
 * `@lit-labs/nextjs` (through `@lit-labs/ssr-react`): the element is constructed, `willUpdate` runs,
 * `render()` runs, and nothing else. What each prints into its declarative shadow root is what a
 * Next.js page shows before any script runs (scripts/nextjs-check.mjs loads such a page in Chromium).
 */
const printed = (template: TemplateResult) =>
  collectResultSync(render(template))
    .replace(/<!--\/?lit-(?:part|node)[^>]*-->|<\?>/g, '')
    .replace(/\s+/g, ' ');

describe('the elements rendered on a server', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prints the buy button waiting for its product, disabled, and asks for nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const out = printed(html`<product-pay-button .product=${'logo-design'} endpoint="/bff"></product-pay-button>`);
    expect(out).toContain('<product-pay-button endpoint="/bff" theme="light"><template shadowroot="open" shadowrootmode="open"><style>');
    expect(out).toContain('<div part="base" class="base" aria-busy="true"> <button part="button" class="buy" type="button" disabled>Loading…</button> </div> <div part="status" class="status" role="status"></div>');
    await new Promise((settle) => setTimeout(settle, 50));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reads the language from the tag alone, with no page around it', () => {
    const out = printed(html`<product-pay-button lang="de" .product=${'logo-design'}></product-pay-button>`);
    expect(out).toContain('disabled>Loading…</button>');
  });

  it('prints the list in its loading state, and asks for nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const out = printed(html`<invoice-list .portalToken=${'token'} locale="en" per-page="10"></invoice-list>`);
    expect(out).toContain('<template shadowroot="open" shadowrootmode="open"><style>');
    expect(out).toContain('<section class="frame" part="frame" data-state="loading" aria-label="Your invoices" aria-busy="true">');
    await new Promise((settle) => setTimeout(settle, 50));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('gives the form its :host sheet even when the class was finalized before define.js ran', () => {
    const sheets = ClientForm.elementStyles.map((sheet) => ('cssText' in sheet ? sheet.cssText : ''));
    expect(sheets.join('')).toMatch(/^\s*:host \{/);
  });

  it('prints the form’s fields, styled under :host', () => {
    const out = printed(html`<client-form .portalToken=${'token'} locale="en"></client-form>`);
    expect(out).toContain('<client-form locale="en" theme="light" mode="edit"><template shadowroot="open" shadowrootmode="open"><style> :host {');
    expect(out).toMatch(/<label for="cf\d+-name" part="label">Company name<\/label>/);
    expect(out).toMatch(/<input [^>]*data-field="name"/);
  });
});
