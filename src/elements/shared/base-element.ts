import { LitElement, type PropertyDeclarations } from 'lit';
import { DEV } from './dev-mode.js';
import { oneOf, warnInvalidAttribute } from './dev-warnings.js';
import { VERSION } from './version.js';
import { canonicalLocale, catalogLanguage, loadCatalog, pageLocale, readyCatalog, type Catalogs, type Language } from './i18n.js';

export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * What every invoicekit element shares: the `locale` and `theme` attributes, the resolved language
 * and its message catalog, and dev-time warnings for attribute values that are not understood.
 */
export abstract class InvoiceKitElement<M> extends LitElement {
  /** The invoicekit version of this class, which `define` names when two versions meet on one page. */
  static readonly version: string = VERSION;
  static override properties: PropertyDeclarations = {
    locale: {},
    theme: { reflect: true },
  };

  /** BCP 47 language tag for text, dates and amounts. Defaults to the page's `lang`. */
  locale = '';

  /** Color theme: `light`, `dark`, or `auto` to follow the operating system. */
  theme: Theme = 'light';

  protected abstract readonly catalogs: Catalogs<M>;

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (changed.has('theme')) {
      const theme = oneOf(this, 'theme', this.theme, THEMES, 'light');
      if (theme !== this.theme) this.theme = theme;
    }
  }

  /** The locale used for formatting, already validated. */
  protected get resolvedLocale(): string {
    if (this.locale) {
      const tag = canonicalLocale(this.locale);
      if (tag && catalogLanguage(tag)) return tag;
      if (DEV) warnInvalidAttribute(this.tagName, 'locale', this.locale, 'a language tag with translations, such as "en", "en-GB" or "pl"', 'the page language');
    }
    const tag = canonicalLocale(pageLocale(this));
    // Text and numbers stay in one language: a page language without translations formats as English too.
    return tag && catalogLanguage(tag) ? tag : 'en';
  }

  protected get language(): Language {
    return catalogLanguage(this.resolvedLocale) ?? 'en';
  }

  /** The message catalog in the resolved language. */
  protected get msg(): M {
    return readyCatalog(this.catalogs, this.language) ?? this.catalogs.en;
  }

  /** Holds each render until the language's catalog is in, so text never flashes in English first. */
  protected override async scheduleUpdate(): Promise<void> {
    await loadCatalog(this.catalogs, this.language);
    super.scheduleUpdate();
  }
}
