/**
 * The widget script a shop pastes (`<script src="…/a/<prefix>/p/<token>.js">`), in the browser: it
 * puts a `<product-pay-button>` where its tag stands, with a plain link to the product's order page
 * inside (what a page without JavaScript modules shows), and loads the button's bundle once per page.
 *
 * The service serves this module's code, built, inside a function called with the product's
 * `options` (`src/service/public/widget-script.ts`), so it must stay self-contained: it imports types
 * alone.
 */

import type { WidgetScriptOptions } from './options.js';

declare global {
  interface Window {
    /** Lit gives this nonce to any `<style>` it has to add (browsers without constructable stylesheets). */
    litNonce?: string;
  }
}

declare const options: WidgetScriptOptions;

/** The attributes of the script tag (`data-quantity`, …) the button takes over. */
const PASSED_ON = ['quantity', 'show-quantity', 'locale', 'theme', 'label'];

const script = document.currentScript;
const parent = script?.parentNode;
if (script && parent) {
  const nonce = script.nonce || script.getAttribute('nonce') || '';
  if (nonce && !window.litNonce) window.litNonce = nonce;
  const button = document.createElement('product-pay-button');
  button.setAttribute('app-url', options.appUrl);
  button.setAttribute('account', options.prefix);
  button.setAttribute('product', options.token);
  for (const name of PASSED_ON) {
    const value = script.getAttribute(`data-${name}`);
    if (value !== null) button.setAttribute(name, value);
  }
  const link = document.createElement('a');
  link.href = options.orderUrl;
  link.textContent = `Buy ${options.name}`;
  button.appendChild(link);
  // Where the tag stands; a tag in <head> (a page holding nothing else) puts the button at the top of <body>.
  if (parent !== document.head) parent.insertBefore(button, script);
  else if (document.body) document.body.prepend(button);
  else document.addEventListener('DOMContentLoaded', () => document.body.prepend(button));
  const defined = 'customElements' in window && customElements.get('product-pay-button') !== undefined;
  if (!defined && !document.querySelector('script[data-invoicekit-bundle]')) {
    const bundle = document.createElement('script');
    bundle.src = options.bundleUrl;
    bundle.async = true;
    bundle.crossOrigin = 'anonymous';
    bundle.setAttribute('data-invoicekit-bundle', '');
    if (nonce) bundle.nonce = nonce;
    (document.head || document.documentElement).appendChild(bundle);
  }
}
