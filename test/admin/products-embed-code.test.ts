import { describe, expect, it } from 'vitest';
import { embedCodes, type EmbedChoices } from '../../src/admin/embed-code.js';

/** The embed-code builder's text, for the forms the kit documents (README, docs/cms.md, docs/elements.md). */
const plain: EmbedChoices = { service: 'https://billing.example/', prefix: 'shop', token: 'tok_Kubek-1', name: 'Kubek', theme: 'light', locale: '', label: '' };

describe('embed codes', () => {
  it('writes each form with only the product when every choice is the default', () => {
    expect(embedCodes(plain)).toEqual({
      widgetScript: '<script src="https://billing.example/a/shop/p/tok_Kubek-1.js" async></script>',
      element: [
        '<script src="https://billing.example/widget/product-pay-button.js" async></script>',
        '<product-pay-button app-url="https://billing.example" account="shop" product="tok_Kubek-1">',
        '  <a href="https://billing.example/a/shop/p/tok_Kubek-1">Buy Kubek</a>',
        '</product-pay-button>',
      ].join('\n'),
      shortcode: '[invoicekit_pay_button product="tok_Kubek-1"]',
      block: '<!-- wp:invoicekit/pay-button {"product":"tok_Kubek-1"} /-->',
      react: "import { ProductPayButton } from '@invoicekit/elements/react/product-pay-button.js';\n\n<ProductPayButton appUrl=\"https://billing.example\" account=\"shop\" product=\"tok_Kubek-1\" />",
    });
  });

  it('passes theme, language and label on in each form', () => {
    const codes = embedCodes({ ...plain, theme: 'dark', locale: 'pl', label: 'Kup kubek' });
    expect(codes.widgetScript).toBe('<script src="https://billing.example/a/shop/p/tok_Kubek-1.js" data-theme="dark" data-locale="pl" data-label="Kup kubek" async></script>');
    expect(codes.element.split('\n')[1]).toBe('<product-pay-button app-url="https://billing.example" account="shop" product="tok_Kubek-1" theme="dark" locale="pl" label="Kup kubek">');
    expect(codes.shortcode).toBe('[invoicekit_pay_button product="tok_Kubek-1" theme="dark" locale="pl" label="Kup kubek"]');
    expect(codes.block).toBe('<!-- wp:invoicekit/pay-button {"product":"tok_Kubek-1","theme":"dark","locale":"pl","label":"Kup kubek"} /-->');
    expect(codes.react.split('\n')[2]).toBe('<ProductPayButton appUrl="https://billing.example" account="shop" product="tok_Kubek-1" theme="dark" locale="pl" label="Kup kubek" />');
  });

  it('escapes a label that could break out of each form', () => {
    const codes = embedCodes({ ...plain, name: 'A <b> & "c"', label: 'Buy "now" <fast> & [cheap] -->' });
    expect(codes.widgetScript).toBe('<script src="https://billing.example/a/shop/p/tok_Kubek-1.js" data-label="Buy &quot;now&quot; &lt;fast&gt; &amp; [cheap] --&gt;" async></script>');
    expect(codes.element.split('\n')[2]).toBe('  <a href="https://billing.example/a/shop/p/tok_Kubek-1">Buy A &lt;b&gt; &amp; "c"</a>');
    expect(codes.shortcode).toBe('[invoicekit_pay_button product="tok_Kubek-1" label="Buy &quot;now&quot; <fast> &amp; &#91;cheap&#93; -->"]');
    expect(codes.block).toBe(
      '<!-- wp:invoicekit/pay-button {"product":"tok_Kubek-1","label":"Buy \\u0022now\\u0022 \\u003cfast\\u003e \\u0026 [cheap] \\u002d\\u002d\\u003e"} /-->',
    );
    expect(codes.react.split('\n')[2]).toBe('<ProductPayButton appUrl="https://billing.example" account="shop" product="tok_Kubek-1" label={"Buy \\"now\\" <fast> & [cheap] -->"} />');
  });

  it('writes a block whose attributes read back as the label typed', () => {
    const label = 'Buy "now" <fast> & [cheap] -->';
    const block = embedCodes({ ...plain, label }).block;
    const json = /^<!-- wp:invoicekit\/pay-button (.*) \/-->$/.exec(block)![1]!;
    expect(json.includes('--')).toBe(false);
    expect(JSON.parse(json)).toEqual({ product: 'tok_Kubek-1', label });
  });
});
