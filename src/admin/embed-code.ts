/**
 * The ready-to-paste code of one product's pay button, in each form a shop may need it. Pure text
 * from the builder's choices, so that what the builder shows is exactly what is tested.
 */

export type EmbedTheme = 'light' | 'dark' | 'auto';
/** '' leaves the language to the buyer's browser. */
export type EmbedLocale = '' | 'en' | 'pl';

export interface EmbedChoices {
  /** The service's address, as buyers' browsers reach it: `https://billing.example`. */
  service: string;
  /** The account's prefix: the widget routes live under `/a/<prefix>/`. */
  prefix: string;
  /** The product's token. */
  token: string;
  /** The product's name, for the link a page without JavaScript shows. */
  name: string;
  theme: EmbedTheme;
  locale: EmbedLocale;
  /** The button's text instead of its default ("Buy now"); '' for the default. */
  label: string;
}

export interface EmbedCodes {
  /** `<script src="…/a/<prefix>/p/<token>.js" async></script>`: the button where the tag stands. */
  widgetScript: string;
  /** The bundle's script and the `<product-pay-button>` tag, for pages that place the element themselves. */
  element: string;
  /** The WordPress plugin's shortcode. */
  shortcode: string;
  /** The WordPress plugin's block, as the block editor stores it. */
  block: string;
  /** The React wrapper. */
  react: string;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `name="value"` pairs, the empty ones left out. */
const attributes = (pairs: [string, string][]) =>
  pairs
    .filter(([, value]) => value !== '')
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');

/** What the button takes beyond its product, only where it differs from the default. */
function extras(choices: EmbedChoices): [name: string, value: string][] {
  return [
    ['theme', choices.theme === 'light' ? '' : choices.theme],
    ['locale', choices.locale],
    ['label', choices.label.trim()],
  ];
}

/** A shortcode attribute cannot hold `"`, `[` or `]`: WordPress reads them as its own syntax. */
const shortcodeValue = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');

/** A block's attributes as the block editor serializes them: JSON with the characters that could end the comment escaped. */
const blockJson = (value: Record<string, string>) =>
  JSON.stringify(value)
    .replace(/--/g, '\\u002d\\u002d')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\\"/g, '\\u0022');

/** A JSX string prop: plain quotes when they are safe, else a JavaScript string. */
const jsxValue = (value: string) => (/^[^"{}<>&\\]*$/.test(value) ? `"${value}"` : `{${JSON.stringify(value)}}`);

export function embedCodes(choices: EmbedChoices): EmbedCodes {
  const service = choices.service.replace(/\/+$/, '');
  const base = `${service}/a/${encodeURIComponent(choices.prefix)}/p/${encodeURIComponent(choices.token)}`;
  const more = extras(choices);
  const widgetScript = `<script src="${escapeAttribute(`${base}.js`)}"${attributes(more.map(([name, value]) => [`data-${name}`, value]))} async></script>`;
  const element = [
    `<script src="${escapeAttribute(`${service}/widget/product-pay-button.js`)}" async></script>`,
    `<product-pay-button${attributes([['app-url', service], ['account', choices.prefix], ['product', choices.token], ...more])}>`,
    `  <a href="${escapeAttribute(base)}">${escapeText(`Buy ${choices.name}`)}</a>`,
    `</product-pay-button>`,
  ].join('\n');
  const wordpress = [['product', choices.token], ...more].filter(([, value]) => value !== '') as [string, string][];
  const shortcode = `[invoicekit_pay_button${wordpress.map(([name, value]) => ` ${name}="${shortcodeValue(value)}"`).join('')}]`;
  const block = `<!-- wp:invoicekit/pay-button ${blockJson(Object.fromEntries(wordpress))} /-->`;
  const props = [['appUrl', service], ['account', choices.prefix], ['product', choices.token], ...more].filter(([, value]) => value !== '');
  const react = [
    `import { ProductPayButton } from '@invoicekit/elements/react/product-pay-button.js';`,
    '',
    `<ProductPayButton ${props.map(([name, value]) => `${name}=${jsxValue(value!)}`).join(' ')} />`,
  ].join('\n');
  return { widgetScript, element, shortcode, block, react };
}
