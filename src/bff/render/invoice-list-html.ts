import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { html, nothing } from 'lit';
import type { PortalListPage, RenderedInvoice } from '../../contract/portal.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { InvoiceList } from '../../elements/invoice-list/invoice-list.js';
import { catalogs } from '../../elements/invoice-list/messages.js';
import { catalogLanguage, loadCatalog } from '../../elements/shared/i18n.js';
import { SERVER_DATA_ATTRIBUTE } from '../../elements/shared/server-rendered.js';

/** What the element is rendered with: its attributes, and the first page it shows. */
export interface InvoiceListMarkup {
  portalToken: string;
  locale: string;
  perPage: number;
  status?: string | undefined;
  period?: string | undefined;
  search?: string | undefined;
  order?: string | undefined;
  endpoint?: string | undefined;
  returnUrl?: string | undefined;
  page: PortalListPage<RenderedInvoice> & { total: number };
}

/** JSON that can sit in a `<script>`: no `</script>`, no `<!--`, no line separators that end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The `<invoice-list>` tag as the element itself renders it, through Lit's server renderer: a
 * declarative shadow root with the toolbar, totals and first page, and the page as JSON for the
 * element to take over with. One template, the element's own; nothing here draws a row.
 */
export async function invoiceListHtml(markup: InvoiceListMarkup): Promise<string> {
  // Defined here, not by importing `define.js`: the package is `sideEffects: false`, so a bundler may drop such an import.
  if (!customElements.get('invoice-list')) customElements.define('invoice-list', InvoiceList);
  await loadCatalog(catalogs, catalogLanguage(markup.locale) ?? 'en');
  const data = unsafeHTML(`<script type="application/json" ${SERVER_DATA_ATTRIBUTE}>${scriptJson(markup.page)}</script>`);
  const optional = (value: string | undefined) => value || nothing;
  // One line: the bindings that render nothing would leave their line breaks inside the tag.
  const template = html`<invoice-list portal-token=${markup.portalToken} locale=${markup.locale} per-page=${markup.perPage} status=${optional(markup.status)} period=${optional(markup.period)} search=${optional(markup.search)} order=${optional(markup.order)} endpoint=${optional(markup.endpoint)} return-url=${optional(markup.returnUrl)} .serverPage=${markup.page}>${data}</invoice-list>`;
  return compact(collectResultSync(render(template)));
}

/** The tags of a table's frame, between which white space is no content: the parser only makes nodes of it. */
const TABLE_PARTS = String.raw`(?:table|caption|thead|tbody|tr|td|th)\b`;
const BETWEEN_TABLE_PARTS = new RegExp(String.raw`(<\/${TABLE_PARTS}[^>]*>|<(?:table|thead|tbody|tr)\b[^>]*>)\s+(?=<\/?${TABLE_PARTS})`, 'g');

/**
 * Without Lit's markers and the templates' indentation: the element takes over by rendering afresh,
 * so the markers would only be nodes for the browser to build (dozens per row) before the first paint.
 * Line breaks next to tags render as one space, as they do in the element's minified build; inside a
 * tag, runs of white space between attributes become one; white space between a table's rows and
 * cells, which renders nothing, goes. The JSON is left as it is (its `<` are escaped, so it holds no
 * markup).
 */
function compact(markup: string): string {
  const data = markup.lastIndexOf('<script type="application/json"');
  // Attribute values and text have their `<`, `>` and `"` escaped, so these only meet the markup's own tags and line breaks.
  const strip = (text: string) =>
    text
      .replace(/<!--\/?lit-(?:part|node)[^>]*-->|<\?>/g, '')
      .replace(/<style>([\s\S]*?)<\/style>/g, (_, css: string) => `<style>${usedRules(css, classesOf(text))}</style>`)
      .replace(/<\/?[a-z][^>]*>/g, tag)
      .replace(/>\s*\n\s*/g, '> ')
      .replace(/\s*\n\s*</g, ' <')
      .replace(BETWEEN_TABLE_PARTS, '$1');
  return data < 0 ? strip(markup) : strip(markup.slice(0, data)) + markup.slice(data).replace(/<!--\/?lit-part[^>]*-->/g, '');
}

/**
 * One tag, lean: one space between attributes (values keep theirs), no empty `class`, and no
 * `checked="…"`, which Lit's server renderer prints for a `.checked` property binding: in HTML the
 * attribute checks the box whatever its value, so every chip of the status filter would print
 * checked and the last would show as chosen. The `?checked` binding beside it prints the real one.
 */
function tag(text: string): string {
  return text
    .replace(/"[^"]*"|\s+/g, (part) => (part.startsWith('"') ? part : ' '))
    .replace(/ (?:class="" ?|checked="(?:true|false)" ?)/g, ' ')
    .replace(/ +(?=\/?>)/, '');
}

/** Every class name the markup's tags carry. */
function classesOf(markup: string): Set<string> {
  return new Set([...markup.matchAll(/\sclass="([^"]*)"/g)].flatMap((match) => match[1]!.split(/\s+/)));
}

/**
 * The element's style sheet without the rules no node of this markup can match: the skeleton's, the
 * error state's, scroll mode's and the like (a selector naming a class that no tag carries). The
 * browser parses and matches the rest before the first paint; the element adopts its whole sheet
 * when it takes over, so nothing changes on screen. Comments and runs of white space go too.
 */
function usedRules(css: string, classes: Set<string>): string {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ');
  let out = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open < 0) break;
    const prelude = text.slice(at, open).trim();
    let depth = 1;
    let end = open + 1;
    for (; end < text.length && depth; end += 1) depth += text[end] === '{' ? 1 : text[end] === '}' ? -1 : 0;
    const body = text.slice(open + 1, end - 1);
    if (/^@(?:media|container|supports)\b/.test(prelude)) {
      const inner = usedRules(body, classes);
      if (inner) out += `${prelude}{${inner}}`;
    } else if (prelude.startsWith('@') || mayMatch(prelude, classes)) out += `${prelude}{${body.trim()}}`;
    at = end;
  }
  return out;
}

/** Whether one of a selector list's selectors names only classes the markup has (`:is`, `:where` and `:not` may match anything). */
function mayMatch(selectors: string, classes: Set<string>): boolean {
  const plain = selectors.replace(/:(?:is|where|not)\((?:[^()]|\([^()]*\))*\)/g, '');
  return plain.split(',').some((selector) => [...selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].every((match) => classes.has(match[1]!)));
}
