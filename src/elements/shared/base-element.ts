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
 *
 * The class's tags are the part of every element's API it holds; each element's manifest entry
 * inherits them. Types are written out as literal unions, so editors offer the values.
 *
 * @attr {string} locale - BCP 47 language tag for text, dates and amounts. Defaults to the page's `lang`.
 * @attr {'light' | 'dark' | 'auto'} theme - Color theme: `light`, `dark`, or `auto` to follow the operating system.
 *
 * @cssprop [--ik-color-surface=light-dark(#fff, #0f1523)] - Background of cards, dialogs and inputs, shared by every invoicekit element.
 * @cssprop [--ik-color-surface-sunken=light-dark(#f7f8fb, #0b101b)] - Background of recessed areas: table headers, the price summary.
 * @cssprop [--ik-color-text=light-dark(#101828, #e6e9f2)] - Body text.
 * @cssprop [--ik-color-text-muted=light-dark(#5b6578, #98a2b8)] - Secondary text: hints, captions, dates.
 * @cssprop [--ik-color-border=light-dark(#e4e7ee, #263048)] - Borders and dividers.
 * @cssprop [--ik-color-accent=light-dark(#4f46e5, #8b93ff)] - Accent: primary buttons, links, focus rings, selection.
 * @cssprop [--ik-color-accent-text=light-dark(#fff, #0b0f1a)] - Text on the accent color.
 * @cssprop [--ik-color-success=light-dark(#067647, #4ade80)] - Success: paid, saved, sent to KSeF.
 * @cssprop [--ik-color-warning=light-dark(#b54708, #fbbf24)] - Warning: partly paid, test mode.
 * @cssprop [--ik-color-danger=light-dark(#c4320a, #f87171)] - Errors and overdue amounts.
 * @cssprop [--ik-color-info=light-dark(#175cd3, #7dd3fc)] - Information: pending states.
 * @cssprop [--ik-shadow=0 1px 2px light-dark(#1018280d, #0000), 0 8px 24px -12px light-dark(#1018281f, #000)] - Shadow of cards and dialogs.
 * @cssprop [--ik-radius=0.75rem] - Corner radius of cards and dialogs.
 * @cssprop [--ik-radius-small=0.5rem] - Corner radius of buttons, inputs and badges.
 * @cssprop [--ik-font-family=system-ui, sans-serif] - Font family.
 * @cssprop [--ik-font-size=0.875rem] - Base font size.
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
