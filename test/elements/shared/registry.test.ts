import { expect } from '@open-wc/testing';
import { define, hasScopedRegistries, type VersionedElement } from '../../../src/elements/shared/registry.js';
import { defineInvoiceKit, INVOICEKIT_ELEMENTS } from '../../../src/elements/scoped.js';
import { VERSION } from '../../../src/elements/shared/version.js';
import { InvoiceList } from '../../../src/elements/invoice-list/define.js';
import { ClientForm } from '../../../src/elements/client-form/define.js';
import { ProductPayButton } from '../../../src/elements/product-pay-button/define.js';

/** What `console.warn` was given while `action` ran. */
function warnings(action: () => void): string[] {
  const seen: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void seen.push(args.map(String).join(' '));
  try {
    action();
  } finally {
    console.warn = warn;
  }
  return seen;
}

type VersionedConstructor = VersionedElement;

/** The test browser's Chromium major version; 0 in another browser. */
const chromiumMajor = Number(/Chrom(?:e|ium)\/(\d+)/.exec(navigator.userAgent)?.[1] ?? 0);

const versioned = (version: string) =>
  class extends HTMLElement {
    static readonly version = version;
  };

describe('define', () => {
  it('carries the package version on every element, from one constant equal to package.json', async () => {
    const manifest = (await (await fetch('/package.json')).json()) as { version: string };
    expect(VERSION).to.equal(manifest.version);
    expect([InvoiceList.version, ClientForm.version, ProductPayButton.version]).to.deep.equal([VERSION, VERSION, VERSION]);
  });

  it('registers each element’s tag from its define module', () => {
    expect(customElements.get('invoice-list')).to.equal(InvoiceList);
    expect(customElements.get('client-form')).to.equal(ClientForm);
    expect(customElements.get('product-pay-button')).to.equal(ProductPayButton);
  });

  it('defines a free tag, and does nothing, silently, when the same class holds it already', () => {
    const Element = versioned('1.0.0');
    expect(warnings(() => define('ik-free-tag', Element))).to.deep.equal([]);
    expect(customElements.get('ik-free-tag')).to.equal(Element);
    expect(warnings(() => define('ik-free-tag', Element))).to.deep.equal([]);
    expect(customElements.get('ik-free-tag')).to.equal(Element);
  });

  it('leaves a tag another version holds to it without throwing, and warns once, naming both versions', () => {
    const First = versioned('0.1.0');
    const Second = versioned('0.2.0');
    define('ik-held-tag', First);
    expect(warnings(() => define('ik-held-tag', Second))).to.deep.equal(['invoicekit 0.2.0 is not registered: <ik-held-tag> is already defined by invoicekit 0.1.0.']);
    expect(customElements.get('ik-held-tag')).to.equal(First);
    const tag = document.createElement('ik-held-tag');
    expect(tag).to.be.instanceOf(First);
  });

  it('says so when the tag is held by a script that is not invoicekit', () => {
    customElements.define('ik-foreign-tag', class extends HTMLElement {});
    expect(warnings(() => define('ik-foreign-tag', versioned('0.2.0')))).to.deep.equal(['invoicekit 0.2.0 is not registered: <ik-foreign-tag> is already defined by another script.']);
  });

  it('meets a second copy of the kit on the page: the first keeps every tag, and one warning names both versions', () => {
    // The second copy's define modules, each registering its own class of another version.
    const secondCopy = Object.entries(INVOICEKIT_ELEMENTS).map(([tag, element]) => [tag, class extends (element as unknown as VersionedConstructor) {
      static override readonly version = '0.0.9';
    }] as const);
    const seen = warnings(() => {
      for (const [tag, element] of secondCopy) define(tag, element);
      for (const [tag, element] of secondCopy) define(tag, element);
    });
    expect(seen).to.deep.equal([`invoicekit 0.0.9 is not registered: <client-form> is already defined by invoicekit ${VERSION}.`]);
    expect([customElements.get('invoice-list'), customElements.get('client-form'), customElements.get('product-pay-button')]).to.deep.equal([InvoiceList, ClientForm, ProductPayButton]);
  });

  it('says once that the same version is loaded twice, naming the version on both sides', () => {
    const copy = (element: VersionedConstructor) => class extends element {};
    const seen = warnings(() => {
      define('client-form', copy(ClientForm as unknown as VersionedConstructor));
      define('invoice-list', copy(InvoiceList as unknown as VersionedConstructor));
    });
    expect(seen).to.deep.equal([`invoicekit ${VERSION} is not registered: <client-form> is already defined by invoicekit ${VERSION}.`]);
  });

  it('finds scoped registries where the browser has them: Chromium from 146 on', () => {
    expect(hasScopedRegistries()).to.equal(typeof CustomElementRegistry === 'function' && chromiumMajor >= 146);
  });

  // Where the browser has no scoped registries the elements use the page's registry alone: the tests above.
  it('registers every element in a scoped registry where the browser has them, beside another version that holds the global tags', () => {
    if (!hasScopedRegistries()) return;
    const registry = new CustomElementRegistry();
    const ownCopy = Object.fromEntries(Object.entries(INVOICEKIT_ELEMENTS).map(([tag, element]) => [tag, class extends (element as unknown as VersionedConstructor) {
      static override readonly version = '0.3.0';
    }]));
    const seen = warnings(() => {
      for (const [tag, element] of Object.entries(ownCopy)) define(tag, element, registry);
    });
    expect(seen).to.deep.equal([]);
    expect(['client-form', 'invoice-list', 'product-pay-button'].map((tag) => registry.get(tag))).to.deep.equal([ownCopy['client-form'], ownCopy['invoice-list'], ownCopy['product-pay-button']]);
    // The page's tags still belong to the first copy; in the shadow root with the scoped registry, to this one.
    const host = document.createElement('div');
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open', customElementRegistry: registry } as ShadowRootInit);
    root.innerHTML = '<invoice-list endpoint="/nowhere"></invoice-list><product-pay-button></product-pay-button>';
    expect(root.querySelector('invoice-list')).to.be.instanceOf(ownCopy['invoice-list']!);
    expect(root.querySelector('product-pay-button')).to.be.instanceOf(ownCopy['product-pay-button']!);
    expect(document.createElement('invoice-list')).to.be.instanceOf(InvoiceList);
    expect(document.createElement('invoice-list')).not.to.be.instanceOf(ownCopy['invoice-list']!);
    host.remove();
  });

  it('registers the kit’s own classes in a scoped registry with defineInvoiceKit', () => {
    if (!hasScopedRegistries()) return;
    const registry = new CustomElementRegistry();
    expect(warnings(() => defineInvoiceKit(registry))).to.deep.equal([]);
    expect(['client-form', 'invoice-list', 'product-pay-button'].map((tag) => registry.get(tag))).to.deep.equal([ClientForm, InvoiceList, ProductPayButton]);
  });
});
