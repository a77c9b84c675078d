/**
 * Localization: each element carries a catalog per language (English is the reference shape, every other
 * language must match it), and the language comes from the element's `locale` attribute, else the
 * nearest `lang` in the page, else the browser.
 */

export const SUPPORTED_LANGUAGES = ['en', 'pl'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export type Catalogs<M> = { readonly [L in Language]: M };

/** The BCP 47 tag to format with, or `undefined` when the text is not a valid tag. */
export function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** `"pl-PL"` → `"pl"`; a language without a catalog → `undefined`. */
export function catalogLanguage(locale: string): Language | undefined {
  const language = locale.toLowerCase().split('-')[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(language!) ? (language as Language) : undefined;
}

/** The locale the page implies for `element`: the nearest `lang`, crossing shadow roots, then the browser. */
export function pageLocale(element: Element): string {
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element) {
      const lang = node.getAttribute('lang');
      if (lang) return lang;
    }
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
  }
  return navigator.language || 'en';
}

/** Picks the plural category word: `plural("pl", 5, { one: "faktura", few: "faktury", many: "faktur", other: "faktury" })`. */
export function plural(
  locale: string,
  count: number,
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
): string {
  return forms[new Intl.PluralRules(locale).select(count)] ?? forms.other;
}

const watchers = new Set<{ requestUpdate(): void }>();
let observer: MutationObserver | undefined;

/** Re-renders the element when the page's `lang` changes, so text follows a language switcher. */
export function watchPageLanguage(host: { requestUpdate(): void }): () => void {
  watchers.add(host);
  if (!observer) {
    observer = new MutationObserver(() => watchers.forEach((watcher) => watcher.requestUpdate()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  }
  return () => {
    watchers.delete(host);
    if (watchers.size === 0) {
      observer?.disconnect();
      observer = undefined;
    }
  };
}
