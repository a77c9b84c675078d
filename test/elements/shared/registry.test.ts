import { expect } from '@open-wc/testing';
import { define } from '../../../src/elements/shared/registry.js';
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

  it('leaves a tag another version holds to it without throwing, and warns once, naming the tag and both versions', () => {
    const First = versioned('0.1.0');
    const Second = versioned('0.2.0');
    define('ik-held-tag', First);
    expect(warnings(() => define('ik-held-tag', Second))).to.deep.equal(['<ik-held-tag> is already defined by invoicekit 0.1.0; invoicekit 0.2.0 is not registered.']);
    expect(customElements.get('ik-held-tag')).to.equal(First);
    const tag = document.createElement('ik-held-tag');
    expect(tag).to.be.instanceOf(First);
  });

  it('says so when the tag is held by a script that is not invoicekit', () => {
    customElements.define('ik-foreign-tag', class extends HTMLElement {});
    expect(warnings(() => define('ik-foreign-tag', versioned('0.2.0')))).to.deep.equal(['<ik-foreign-tag> is already defined by another script; invoicekit 0.2.0 is not registered.']);
  });

  it('meets a second copy of an element on the page: the first keeps the tag and the page author is told', () => {
    class SecondCopy extends InvoiceList {
      static override readonly version = '0.0.9';
    }
    expect(warnings(() => define('invoice-list', SecondCopy))).to.deep.equal([`<invoice-list> is already defined by invoicekit ${VERSION}; invoicekit 0.0.9 is not registered.`]);
    expect(customElements.get('invoice-list')).to.equal(InvoiceList);
  });
});
